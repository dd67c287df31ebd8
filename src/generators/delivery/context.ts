/** The delivery context of a run: what the generators may use of the module's registration and the simulated account. */
import type { RunSession } from '../../run/session.ts';
import { dateBase, type DeliveryContext } from './common.ts';

export function deliveryContextOf(session: RunSession, now: Date = new Date()): DeliveryContext {
  const account = session.system.account;
  return {
    module: session.registration?.module ?? {},
    stores: account.stores.map((s) => ({ code: s.code, name: s.name, ...(s.address ? { address: s.address as Record<string, unknown> } : {}) })),
    currencies: [...new Set(account.sites.map((s) => s.currency))],
    firstDay: dateBase(now),
    profile: session.config.profile,
  };
}
