/**
 * Call events that a trigger asked for (`POST /api/v5/telephony/call/event`, form field `event`):
 * the module reports the call it was asked about, as the kind it was asked for. What the schema
 * says of the event (its JSON, `codes` as strings, the values of `type` with the wire profile) is
 * the schema check's; these rules judge what the schema cannot: the event against the trigger.
 */
import type { InboundCall } from '../../simulators/system-endpoints.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';

/** The three event kinds (document, Events: incoming call, outgoing call, call end), by their wire values (wire profile section 4). */
export const CALL_EVENT_KINDS = { in: 'an incoming call', out: 'an outgoing call', hangup: 'a call end' } as const;
export type CallEventKind = keyof typeof CALL_EVENT_KINDS;

/** A call event flow: what its trigger asked for, and the calls to the event endpoint it led to. */
export interface AskedCallEvent {
  /** The trigger's `type`. */
  type: CallEventKind;
  /** The trigger's `phone`: the customer's number. */
  phone: string;
  /** The calls of the flow to the event endpoint (those whose `event` decoded are judged). */
  calls: readonly InboundCall[];
  /** With the wire profile (its values in, out, hangup), or the document alone (it gives `in` only). */
  profile: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The decoded events of the flow, each with its exchange. */
function eventsOf(calls: readonly InboundCall[]): Array<{ event: Obj; id: string }> {
  return calls.filter((c) => isObj(c.payload)).map((c) => ({ event: c.payload as Obj, id: c.exchange.id }));
}

/**
 * The event reports the kind the trigger asked for. With the wire profile the three kinds are
 * `in`, `out` and `hangup` (section 4), so an event of another of the three is the wrong kind; a
 * value outside them is the schema check's (the `type` enum), left to it. The document alone gives
 * `in` for the incoming call and leaves the other values not shown: it tells only that an outgoing
 * call or a call end reported as `in` is reported as an incoming call; any other value it cannot
 * judge (not applicable). Of several events the flow led to, one of the asked kind suffices (a
 * module may report more than the trigger asked for).
 */
export const ensureCallEventReportsAskedKind = defineCheck<AskedCallEvent>({
  name: 'ensureCallEventReportsAskedKind',
  checks: 'a call event reports the kind of call event the trigger asked for (incoming call, outgoing call, call end)',
  run(s) {
    const events = eventsOf(s.calls);
    if (events.length === 0) return notApplicable('no call event of the flow could be read (judged by the payload checks)');
    const evidence = events.map((e) => e.id);
    const types = events.map((e) => e.event.type);
    const seen = [...new Set(types.map((t) => show(t)))].join(', ');
    const asked = `${CALL_EVENT_KINDS[s.type]} (type ${JSON.stringify(s.type)})`;
    if (types.includes(s.type)) return pass(`${asked} reported with type ${JSON.stringify(s.type)}`, evidence);
    if (s.profile) {
      const known = types.filter((t): t is CallEventKind => typeof t === 'string' && t in CALL_EVENT_KINDS);
      if (known.length === 0) return notApplicable(`type ${seen} is none of in, out, hangup: judged by the schema check`);
      return fail(`${asked} reported as ${[...new Set(known)].map((t) => `${CALL_EVENT_KINDS[t]} (type ${JSON.stringify(t)})`).join(', ')}`, `type ${JSON.stringify(s.type)}: ${CALL_EVENT_KINDS[s.type]}`, evidence);
    }
    if (s.type !== 'in' && types.includes('in')) return fail(`${asked} reported with type "in", the document's value for an incoming call`, `${CALL_EVENT_KINDS[s.type]}, not type "in"`, evidence);
    return notApplicable(`type ${seen} for ${CALL_EVENT_KINDS[s.type]}: the document gives "in" only and leaves the other values not shown (judged with the wire profile)`);
  },
});

/** The digits of a number. */
const digits = (phone: string): string => phone.replace(/\D/g, '');

/**
 * Whether two forms of a number are the same number: the same digits, or (a national form
 * against an international one) the one's digits ending the other's, at least 7 of them.
 */
export function samePhone(a: string, b: string): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x === '' || y === '') return false;
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length >= 7 && long.endsWith(short);
}

/**
 * The event's `phone` is the customer's number the trigger asked about (document: "`phone`
 * (customer number)"): its digits, written in any form (`+`, spaces, dashes; the national or the
 * international form). An event without `phone`, or with one that is not text, is the schema
 * check's to judge (the document makes no member of the event mandatory).
 */
export const ensureCallEventPhoneIsAsked = defineCheck<AskedCallEvent>({
  name: 'ensureCallEventPhoneIsAsked',
  checks: "a call event's phone is the customer's number the trigger asked about",
  run(s) {
    const events = eventsOf(s.calls).filter((e) => typeof e.event.phone === 'string');
    if (events.length === 0) return notApplicable('no call event of the flow carries a phone (judged by the payload checks)');
    const evidence = events.map((e) => e.id);
    const phones = events.map((e) => e.event.phone as string);
    if (phones.some((p) => samePhone(p, s.phone))) return pass(`phone ${JSON.stringify(phones.find((p) => samePhone(p, s.phone)))}: the customer's number asked about`, evidence);
    return fail(`phone ${[...new Set(phones)].map((p) => JSON.stringify(p)).join(', ')}`, `the customer's number the trigger gave, ${JSON.stringify(s.phone)} (in any written form)`, evidence);
  },
});
