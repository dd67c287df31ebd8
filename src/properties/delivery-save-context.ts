/**
 * What the delivery properties that save draw on, said once for the specs and for `conformance
 * replay`: whether the module declares an action, the tariff codes it gave (its answer to one
 * generated calculate, else its tariffList; never invented), and the save context built from
 * them and the run's account.
 */
import { callbackUrl } from '../callbacks/send.ts';
import { CALLBACKS, type CallbackName } from '../callbacks/table.ts';
import { deliveryContextOf } from '../generators/delivery/context.ts';
import { calculateRequest } from '../generators/delivery/calculate.ts';
import { tariffsOfAnswer, type KnownTariff, type SaveContext } from '../generators/delivery/save.ts';
import { invent } from '../generators/invented.ts';
import type { RunSession } from '../run/session.ts';

/** Whether the registration gives the callback an address. */
export const declares = (session: RunSession, name: CallbackName): boolean => !('missing' in callbackUrl(CALLBACKS[name], session.registration?.module));

/** Tariff codes the module gave: its answer to one generated calculate, else its tariffList; none: no tariff is sent. */
export async function knownTariffs(session: RunSession, seed: number): Promise<KnownTariff[]> {
  const ctx = deliveryContextOf(session);
  const clientId = session.clientId();
  if (declares(session, 'delivery.calculate')) {
    const tariffs = tariffsOfAnswer((await session.send('delivery.calculate', invent(seed, 'save: tariffs of calculate', calculateRequest(ctx)), { clientId, case: 'save-tariffs' })).json);
    if (tariffs.length > 0) return tariffs;
  }
  if (declares(session, 'delivery.tariffList')) return tariffsOfAnswer((await session.send('delivery.tariffList', {}, { clientId, case: 'save-tariffs' })).json);
  return [];
}

/** The save context of the run: the delivery context, the account's sites, and (when `withTariffs`) the module's tariffs. */
export async function saveContextOf(session: RunSession, seed: number, withTariffs: boolean): Promise<SaveContext> {
  const account = session.system.account;
  return {
    ...deliveryContextOf(session),
    sites: account.sites.map((s) => ({ code: s.code, name: s.name, currency: s.currency })),
    tariffs: withTariffs ? await knownTariffs(session, seed) : [],
  };
}
