/**
 * A refusal counts only when acceptance was shown (issue 31, item 4). A module that refuses a
 * callback with a missing or unknown clientId (wire profile section 1: "Real modules answer 401
 * or 403 when it is missing or unknown, and must not act on the request") proves nothing by it
 * when it refuses that callback with the right clientId as well. So every refusal check is
 * credited (passes) only when the same callback (the same webhook type), sent with the module's
 * clientId, was accepted in the run: answered as done by the reply form of the callback table.
 *
 * Written once: the session keeps the record (`AcceptedCalls`, fed by the one sender and by the
 * gateway's authorised webhooks), the property runner reads it into every refused outcome and
 * step (`fillAcceptance`, as `CaseOutcome.accepted`, so that a saved failure is judged again the
 * same way), and each refusal check passes only through `credited`. A refusal check that fails
 * (the module acted on the probe) fails whether or not acceptance was shown.
 */
import type { Reply } from '../../client/callback-client.ts';
import { CALLBACKS, type CallbackName } from '../../callbacks/table.ts';
import type { CaseOutcome } from '../case.ts';
import { notApplicable, type Verdict } from '../check.ts';
import { claimsSuccess } from './reply.ts';
import { isPrintDocument } from '../delivery/print-reply.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const ok2xx = (r: Reply): boolean => r.status !== undefined && r.status >= 200 && r.status < 300;

/** Whether a reply carries an error body: the gateway's `{errors: [...]}`, the module's `{success: false}`, or `{error}`. */
export function isErrorBody(json: unknown): boolean {
  if (!isObj(json)) return false;
  return (Array.isArray(json.errors) && json.errors.length > 0) || json.success === false || (json.error !== undefined && json.error !== null && json.error !== '');
}

/** Whether a webhook's reply is a refusal: a 4xx, or 200 with an error body. */
export const isRefusal = (r: Reply): boolean => r.status !== undefined && ((r.status >= 400 && r.status < 500) || (ok2xx(r) && isErrorBody(r.json)));

/**
 * Whether a reply says the module did what the callback asks, by the reply form of the callback
 * table: a JSON callback's success reply (`{success: true}`, wire profile section 1); print's
 * document (2xx, not an error body); makeCall's HTTP 200 ("HTTP 200 means success; any other
 * status is an initiation error", document); a recording's 2xx; a webhook's 2xx without an error
 * body. Undefined for changeUserStatus: "Status and body are ignored" (document), so its answer
 * says nothing of what the module did.
 */
export function answeredAsDone(callback: CallbackName, reply: Reply): boolean | undefined {
  const spec = CALLBACKS[callback];
  if (reply.status === undefined) return false;
  if (spec.encoding === 'webhook') return ok2xx(reply) && !isRefusal(reply);
  switch (spec.reply.body) {
    case 'document':
      return isPrintDocument(reply);
    case 'status-only':
      return reply.status === 200;
    case 'audio':
      return ok2xx(reply);
    case 'ignored':
      return undefined;
    default:
      return claimsSuccess(reply);
  }
}

/** Whether an authorised call was accepted: answered as done; for a callback whose answer is ignored (changeUserStatus), answered 2xx. */
export function acceptedAnswer(callback: CallbackName, reply: Reply): boolean {
  return answeredAsDone(callback, reply) ?? ok2xx(reply);
}

/** A generated case's place: its property's short name and its index (`calculate-valid#12`). */
export interface CasePlace {
  property: string;
  index: number;
}

/** The place of an exchange's case id (`<property>#<n>`, `#<n>.s<k>`, `#<n>.<step>`), or undefined. */
function placeOf(caseId: string | undefined): CasePlace | undefined {
  const m = caseId === undefined ? null : /^(.*)#(\d+)(?:\..*)?$/.exec(caseId);
  return m ? { property: m[1]!, index: Number(m[2]) } : undefined;
}

/**
 * The record of the run's accepted authorised calls: per callback (webhook type), the first
 * exchange that showed it. The cases of a property may run at once (lanes): the record also
 * keeps, per property, its lowest-numbered case that showed acceptance, so that case i is judged
 * with what one case after the other would have shown it (an acceptance by a case before it,
 * never one by a case after it that happened to end first).
 */
export class AcceptedCalls {
  private readonly first = new Map<string, { id: string; place?: CasePlace }>();
  private readonly lowest = new Map<string, { index: number; id: string }>();

  /** Notes an authorised call's answer (sent with the module's clientId); kept when it shows acceptance. */
  note(callback: CallbackName, reply: Reply): void {
    if (!acceptedAnswer(callback, reply)) return;
    const place = placeOf(reply.exchange.case);
    if (!this.first.has(callback)) this.first.set(callback, { id: reply.exchange.id, ...(place ? { place } : {}) });
    if (!place) return;
    const key = `${callback} ${place.property}`;
    const held = this.lowest.get(key);
    if (!held || place.index < held.index) this.lowest.set(key, { index: place.index, id: reply.exchange.id });
  }

  /**
   * The exchange of the first accepted authorised call of the callback, or undefined; `at`: as
   * seen by that case of a property, one case after the other (an acceptance by its own
   * property's case counts when that case is not after it).
   */
  of(callback: CallbackName, at?: CasePlace): string | undefined {
    const first = this.first.get(callback);
    if (!first || !at || first.place?.property !== at.property) return first?.id;
    const held = this.lowest.get(`${callback} ${at.property}`);
    return held && held.index <= at.index ? held.id : undefined;
  }
}

/** Fills `accepted` of a refused outcome and of its refused steps from the record (left as it is where already known: an exchange, or null for a probe whose same request was asked again and not accepted). */
export function fillAcceptance(o: CaseOutcome, record: AcceptedCalls, at?: CasePlace): CaseOutcome {
  for (const x of [o, ...(o.steps ?? [])]) {
    if (x.case.intent.kind !== 'refused' || x.accepted !== undefined) continue;
    const id = record.of(x.case.callback, at);
    if (id !== undefined) x.accepted = id;
  }
  return o;
}

/** What a callback is called in messages: `tariffList`, `template_create webhook`, `recordUrl`. */
export function callbackWords(callback: CallbackName): string {
  if (callback === 'telephony.record') return 'recordUrl fetch';
  if (callback === 'telephony.makeCall') return 'makeCallUrl call';
  if (callback === 'telephony.changeUserStatus') return 'changeUserStatusUrl call';
  if (callback === 'delivery.autocomplete') return 'autocompleteUrl call';
  if (callback.startsWith('transport.')) return `${callback.slice('transport.'.length)} webhook`;
  return callback.includes('.') ? callback.split('.')[1]! : callback;
}

/** Why a refusal is not credited: no accepted authorised call of its callback in the run. */
export const noAcceptance = (callback: CallbackName): string => `no ${callbackWords(callback)} with the right clientId was accepted in the run: a refusal proves nothing`;

/** Why a probe's refusal is not credited: the same request, asked again with the clientId, was not accepted. */
export const noAcceptanceAgain = (callback: CallbackName): string => `the same ${callbackWords(callback)} with the right clientId was not accepted either: a refusal proves nothing`;

/**
 * A refusal check's verdict, credited only on acceptance: a pass of a refused outcome without an
 * accepted authorised call of its callback becomes not applicable, saying why; with one, the
 * pass carries that call's exchange as evidence. Any other verdict is left as it is.
 */
export function credited(o: CaseOutcome, verdict: Verdict): Verdict {
  if (verdict.outcome !== 'pass' || o.case.intent.kind !== 'refused') return verdict;
  if (o.accepted === undefined || o.accepted === null) return notApplicable(`${verdict.detail ? `${verdict.detail}; but ` : ''}${o.accepted === null ? noAcceptanceAgain(o.case.callback) : noAcceptance(o.case.callback)}`);
  return { ...verdict, detail: `${verdict.detail ?? 'refused'}; the same call with the clientId was accepted (${o.accepted})`, evidence: [...(verdict.evidence ?? []), o.accepted] };
}
