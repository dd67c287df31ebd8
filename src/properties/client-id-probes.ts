/**
 * The clientId probed on every callback (issue 31, item 5). Wire profile section 1: "The
 * `clientId` is the only credential of a callback ... Real modules answer 401 or 403 when it is
 * missing or unknown, and must not act on the request." The document gives the clientId to every
 * call of the system (delivery and payment forms and queries; "System to telephony module:
 * `clientId` is a query parameter"; the gateway's `ClientId` header).
 *
 * Driven from the callbacks' application table (`src/checks/callbacks/applications.ts`): `CLIENT_ID_PROBES` names, for every callback of
 * `src/callbacks/table.ts` (a `Record` over the table's names: a callback added to the table
 * without a probe does not compile), where its probes with a missing and an unknown clientId are
 * sent: here, by the area's `specs/<area>/client-id.spec.ts`, or by the spec that already probes
 * it with the effect observed (the delivery and payment sequences, the activity test, the record
 * URLs, the webhooks). Each probe here is the platform's own request sent twice: with the clientId
 * missing or unknown, then again with the module's clientId (ask again). The second answer shows
 * acceptance (a refusal is credited only with it, `acceptance.ts`) and, where the platform can see
 * an effect, that the refused call had none: a refused shipmentSave created no shipment (the same
 * shipmentSave with the clientId still succeeds, as the same on a delivery no refused call named
 * does). Reads (get, tariffList, shipmentPointList, autocomplete, calculate, print) have no effect
 * to observe: the refusal alone. changeUserStatus ("Status and body are ignored") shows neither
 * acceptance nor action by its answer: only the profile's 401 or 403 (SHOULD) is judged of it.
 * makeCall ("HTTP 200 means success; any other status is an initiation error"): a refused call
 * answered 200 is a call started; and no call event of its phone may reach the system after it,
 * where the same call with the clientId led to one (`quiet`; a module that reports no call event
 * of the calls it starts shows nothing to tell by: not applicable).
 */
import fc from 'fast-check';
import type { Reply } from '../client/callback-client.ts';
import { CALLBACK_NAMES, CALLBACKS, type CallbackName } from '../callbacks/table.ts';
import { acceptedAnswer, callbackWords } from '../checks/callbacks/acceptance.ts';
import { claimsSuccess } from '../checks/callbacks/reply.ts';
import { CLIENT_ID_PROBES } from '../checks/callbacks/applications.ts';
import type { ModuleKind } from '../contract/kinds.ts';
import type { Presented } from './refusal-probe.ts';
import type { CaseOutcome, GeneratedCase, Observation } from '../checks/case.ts';
import { matching } from '../generators/matching.ts';

/** The callbacks of a module kind probed by its area's client-id spec, in the table's order. */
export const probedHere = (kind: ModuleKind): CallbackName[] => CALLBACK_NAMES.filter((n) => CALLBACKS[n].kind === kind && 'here' in CLIENT_ID_PROBES[n]);

/** The test title of a callback's probes (a gauntlet row's `part` starts with it). */
export const clientIdTitle = (callback: CallbackName): string => `clientId: ${callbackWords(callback)} with a missing or unknown clientId is refused, and the same with the clientId is accepted`;

/** A probe case: the platform's request (and its address, for a callback whose address comes with it), and the unknown clientId it presents. */
export interface ClientIdCase extends GeneratedCase {
  /** Each case is sent with no clientId, then with this one (letters, digits, `-`, `_`; never the module's). */
  unknown: string;
  clientIdProbe: true;
}

/** Whether a saved case is a clientId probe of this file (for `conformance replay`). */
export const isClientIdCase = (c: GeneratedCase): c is ClientIdCase => (c as Partial<ClientIdCase>).clientIdProbe === true && typeof (c as Partial<ClientIdCase>).unknown === 'string';

/** Probe cases over the platform's requests of a callback: each sent without a clientId and with one the module never gave. */
export function clientIdCases(callback: CallbackName, requests: fc.Arbitrary<{ payload: unknown; url?: string }>, clientId: string): fc.Arbitrary<ClientIdCase> {
  const unknown = matching(/^[A-Za-z0-9_-]{8,40}$/).filter((c) => c !== clientId);
  return fc.record({ request: requests, unknown }).map(({ request, unknown }) => ({
    callback,
    payload: request.payload,
    ...(request.url !== undefined ? { url: request.url } : {}),
    intent: { kind: 'refused' as const, clientId: 'missing' as const },
    unknown,
    clientIdProbe: true as const,
  }));
}

/** What running a probe needs: the one sender and the module's clientId. */
export interface ProbeDriver {
  send(callback: CallbackName, payload: unknown, clientId: string | undefined, label: string, probe: boolean, url?: string): Promise<Reply>;
  clientId: string;
  module: Record<string, unknown>;
  profile: boolean;
}

/** What to observe of a callback with an effect the platform can see. */
export type ProbeEffect =
  /** The last call (the same with the clientId) must still succeed; when it fails, `control` makes the same call on an object no refused call named. */
  | { kind: 'stillPossible'; what: string; control?: () => Promise<{ what: string; reply: Reply } | undefined> }
  /**
   * The module reports what it did to the system (a started call's events): none may come of a
   * refused call within `quietMs`; the same call with the clientId shows, within `waitMs`, that
   * the module does report (else nothing can be seen). `reports(mark)`: the exchanges of reports
   * about the request since the mark; `mark()`: a position in the system's calls.
   */
  | { kind: 'quiet'; what: string; mark(): number; reports(mark: number): string[]; quietMs: number; waitMs: number };

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits up to `ms` for a report since the mark; returns the reports seen. */
async function reportsWithin(effect: Extract<ProbeEffect, { kind: 'quiet' }>, mark: number, ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = effect.reports(mark);
    if (seen.length > 0 || Date.now() >= deadline) return seen;
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
}

/**
 * Runs a probe: the call without a clientId, with an unknown one, then the same call with the
 * module's clientId (ask again). Each refused call is a step of the outcome; the last call shows
 * acceptance (`accepted` of both). With an effect to observe, each step gets its observation:
 * `stillPossible`, the last call (and, when it fails, `control`: the same call on an object no
 * refused call named, to tell the refused calls' effect from a module that fails the call
 * anyway); `quiet`, the reports after each refused call, and after the last call.
 */
export async function runClientIdProbe(d: ProbeDriver, c: ClientIdCase, caseId: string, effect?: ProbeEffect): Promise<CaseOutcome> {
  const steps: CaseOutcome[] = [];
  const during: string[][] = [];
  for (const presented of ['missing', 'unknown'] as const) {
    const words = presented === 'missing' ? 'no clientId' : 'an unknown clientId';
    const mark = effect?.kind === 'quiet' ? effect.mark() : 0;
    const reply = await d.send(c.callback, c.payload, presented === 'missing' ? undefined : c.unknown, `${caseId}: ${c.callback} (${words})`, true, c.url);
    if (effect?.kind === 'quiet') during.push(await reportsWithin(effect, mark, effect.quietMs));
    steps.push({ case: { callback: c.callback, payload: c.payload, ...(c.url !== undefined ? { url: c.url } : {}), intent: { kind: 'refused', clientId: presented } }, reply, module: d.module, profile: d.profile });
  }
  const mark = effect?.kind === 'quiet' ? effect.mark() : 0;
  const again = await d.send(c.callback, c.payload, d.clientId, `${caseId}: ${c.callback} (the same, with the clientId)`, false, c.url);
  let observation: Observation | undefined;
  if (effect?.kind === 'stillPossible') {
    observation = { kind: 'stillPossible', what: effect.what, after: again };
    if (!claimsSuccess(again) && effect.control) {
      const control = await effect.control();
      if (control) observation.control = control;
    }
  }
  const after = effect?.kind === 'quiet' && acceptedAnswer(c.callback, again) ? await reportsWithin(effect, mark, effect.waitMs) : [];
  steps.forEach((s, i) => {
    // The same request asked again is what the refusal's credit rests on (null: not accepted; the run's record is not read for it).
    s.accepted = acceptedAnswer(c.callback, again) ? again.exchange.id : null;
    if (observation) s.observation = observation;
    if (effect?.kind === 'quiet') s.observation = { kind: 'quiet', what: effect.what, during: during[i]!, after, waitedMs: effect.quietMs };
  });
  return { case: c, reply: steps.at(-1)!.reply, module: d.module, profile: d.profile, steps };
}
