/**
 * Whether a property can run for this module, said once for every spec: a module that is not
 * registered (skipped: the registration checks say why), that declares no integration of the
 * property's kind, or no address for a callback the property needs (not applicable: an optional
 * action), or that gave no clientId to call it with (skipped).
 */
import type { ModuleKind } from '../contract/kinds.ts';
import { callbackUrl } from '../callbacks/send.ts';
import { CALLBACKS, type CallbackName } from '../callbacks/table.ts';
import type { RunSession } from '../run/session.ts';

export interface NotRun {
  status: 'skipped' | 'notApplicable';
  why: string;
}

/** A callback a property needs, and what its absence means (given the reason the address is missing). */
export interface Need {
  callback: CallbackName;
  why?: (missing: string) => string;
}

/** Why a property of `kind` that calls `needs` cannot run for this module; undefined when it can. */
export function notRunFor(session: RunSession, kind: ModuleKind, needs: readonly Need[] = []): NotRun | undefined {
  if (!session.registration) return { status: 'skipped', why: session.notRegistered ?? 'the module is not registered' };
  if (!session.registration.kinds.includes(kind)) return { status: 'notApplicable', why: `the module declares no ${kind} integration` };
  // A chat module whose registration was given (remote mode) got its gateway address and token
  // from another system: until it calls this gateway, what it does there is not seen here.
  if ((kind === 'mgTransport' || kind === 'mgBot') && session.registration.call === undefined && session.gateway.callCount() === 0 && session.gateway.botConnections().length === 0) {
    return { status: 'notApplicable', why: 'the module registered elsewhere (remote mode, its registration given): it holds no token of this gateway and has not called it' };
  }
  for (const need of needs) {
    const where = callbackUrl(CALLBACKS[need.callback], session.registration.module);
    if ('missing' in where) return { status: 'notApplicable', why: need.why ? need.why(where.missing) : `the module declares no ${need.callback.split('.')[1]} action (${where.missing})` };
  }
  if (!session.clientId()) return { status: 'skipped', why: 'the registration gives no clientId to call the module with (see the registration checks)' };
  return undefined;
}
