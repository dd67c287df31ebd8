/**
 * Refused means no effect, observed (wire profile section 1: a module answers a callback with a
 * missing or unknown clientId with a refusal "and must not act on the request"). The reply alone
 * cannot show that nothing was done: the probe asks an authorised observer before and after the
 * refused call (a `get` of the delivery: unchanged), or makes the authorised call the refused
 * one would have made pointless (a shipment still deletable). Written once for every area: the
 * delivery sequences use it for delete, save edit and shipmentDelete; payment (a refused cancel
 * leaves the invoice payable) and chat (a refused webhook leaves no effect at the gateway) plug
 * in their own act, observer and state reader.
 */
import type { Reply } from '../client/callback-client.ts';
import type { Observation } from '../checks/case.ts';
import type { STATE_READERS } from '../checks/callbacks/refusal-effect.ts';

/** What clientId a refused call presents. */
export type Presented = 'missing' | 'unknown';

/** The clientId sent for a presented kind: none, or one the module never gave (made from the run's seed). */
export const presentedClientId = (presented: Presented, unknown: string): string | undefined => (presented === 'missing' ? undefined : unknown);

export interface UnchangedProbe {
  kind: 'unchanged';
  what: string;
  reader: keyof typeof STATE_READERS;
  /** The authorised call that shows the state (before and after). */
  observe(label: string): Promise<Reply>;
  /** The call, with the clientId given (undefined: none). */
  act(clientId: string | undefined): Promise<Reply>;
}

export interface StillPossibleProbe {
  kind: 'stillPossible';
  what: string;
  /** The authorised call the refused one would have made pointless; it must still succeed. */
  observe(label: string): Promise<Reply>;
  act(clientId: string | undefined): Promise<Reply>;
}

/** Runs the probe: the refused call between the observations. */
export async function probeRefusal(probe: UnchangedProbe | StillPossibleProbe, clientId: string | undefined): Promise<{ reply: Reply; observation: Exclude<Observation, { kind: 'reported' | 'quiet' }> }> {
  if (probe.kind === 'unchanged') {
    const before = await probe.observe('before');
    const reply = await probe.act(clientId);
    const after = await probe.observe('after');
    return { reply, observation: { kind: 'unchanged', what: probe.what, before, after, reader: probe.reader } };
  }
  const reply = await probe.act(clientId);
  const after = await probe.observe('after');
  return { reply, observation: { kind: 'stillPossible', what: probe.what, after } };
}
