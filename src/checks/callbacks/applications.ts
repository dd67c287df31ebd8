/**
 * The application table of what every callback's answer is held to, whatever its area: that it
 * is answered, the error form, the method it is served at, and the clientId probes (wire profile
 * section 1). The areas' tables take these uses for their properties; the ids are attached here
 * and nowhere else.
 */
import { forProperty, use, type Row, type Use } from '../apply.ts';
import { onErrorReply, onReply, overSteps, refusedStep } from '../adapt.ts';
import type { CaseOutcome } from '../case.ts';
import { notApplicable, type Check } from '../check.ts';
import { ensureCallbackIsAnswered } from './answered.ts';
import { ensureErrorBodyCarriesErrorMsg, ensureErrorBodyIsJson, ensureErrorBodyMatchesErrorShape, ensureErrorStatusIsAccepted, ensureErrorStatusIsNot5xx } from './error-reply.ts';
import { ensureActionServedAtItsMethod } from './method.ts';
import { ensureRefusalUses401Or403, ensureRefusedCallbackHasNoEffect } from './refusal.ts';
import { ensureRefusalLeftNoEffect } from './refusal-effect.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../delivery/wrong-input.ts';
import { CALLBACK_NAMES, type CallbackName } from '../../callbacks/table.ts';

/** The case was answered (a rule of the suite: an answer must come), credited to `ids` where the answer is the requirement. */
export const answered = (ids: readonly string[] = []): Use<CaseOutcome> => use(onReply(ensureCallbackIsAnswered), ids);

/**
 * The error form of an answer, judged on every case the module answered with an error; and that
 * every case is answered. The status rule is credited to the profile's id with the profile, to
 * the document's without it.
 */
export const ERROR_FORM: ReadonlyArray<Use<CaseOutcome>> = [
  answered(),
  use(onErrorReply(ensureErrorStatusIsAccepted), ['WIRE-GEN-ERROR-STATUS-200-OR-4XX'], 'MUST', { reading: true }),
  use(onErrorReply(ensureErrorStatusIsAccepted), ['GEN-ERR-REPLY-200-ERRORMSG'], 'MUST', { reading: false }),
  use(onReply(ensureErrorStatusIsNot5xx), ['WIRE-GEN-ERROR-5XX-FAILURE']),
  use(onReply(ensureErrorBodyIsJson), ['WIRE-GEN-ERROR-NON-JSON-FAILURE']),
  use(onReply(ensureErrorBodyCarriesErrorMsg), ['GEN-ERR-REPLY-200-ERRORMSG', 'WIRE-GEN-ERROR-MISSING-ERRORMSG']),
  use(onErrorReply(ensureErrorBodyMatchesErrorShape), ['WIRE-GEN-ERROR-REPLY-SHAPE']),
];

/** Wrong input is refused, the message naming the field (document, Errors 7). */
export const WRONG_INPUT: ReadonlyArray<Use<CaseOutcome>> = [
  use(ensureWrongInputIsRefused, ['GEN-ERR-NAMES-INCORRECT-FIELD']),
  use(ensureErrorNamesTheIncorrectField, ['GEN-ERR-NAMES-INCORRECT-FIELD']),
];

/** A refused call left no effect an authorised call can observe, over every step (wire profile section 1). */
export const REFUSAL_LEFT_NO_EFFECT: Use<CaseOutcome> = use(ensureRefusalLeftNoEffect, ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']);
/** The refused steps of a sequence were not acted on (wire profile section 1). */
export const REFUSED_NOT_ACTED_ON: Use<CaseOutcome> = use(overSteps(ensureRefusedCallbackHasNoEffect, refusedStep), ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']);

/** The method and wire form each callback must be served at (the module-side ids of the callback table's calls). */
export const METHOD_IDS: Readonly<Partial<Record<CallbackName, readonly string[]>>> = {
  'delivery.calculate': ['DLV-CALCULATE-POST'],
  'delivery.save': ['DLV-SAVE-POST'],
  'delivery.get': ['DLV-GET-GET'],
  'delivery.delete': ['DLV-DELETE-POST'],
  'delivery.print': ['DLV-PRINT-POST'],
  'delivery.shipmentPointList': ['DLV-SHIPMENTPOINTLIST-GET'],
  'delivery.shipmentSave': ['DLV-SHIPMENTSAVE-POST'],
  'delivery.shipmentDelete': ['DLV-SHIPMENTDELETE-POST'],
  'delivery.tariffList': ['DLV-TARIFFLIST-GET'],
  'delivery.autocomplete': ['DLV-AUTOCOMPLETE-GET'],
  'payment.create': ['PAY-CALLBACKS-POST'],
  'payment.approve': ['PAY-CALLBACKS-POST'],
  'payment.cancel': ['PAY-CALLBACKS-POST'],
  'payment.refund': ['PAY-CALLBACKS-POST'],
};

/**
 * The actions are served at their methods: one check over the cases of these callbacks (one
 * result, one saved failure, found again by its name), credited to their methods' ids.
 */
export function servedAtTheirMethod(callbacks: readonly CallbackName[]): Use<CaseOutcome> {
  const words = callbacks.map((c) => c.split('.')[1]).join(', ');
  const check: Check<CaseOutcome> = { ...ensureActionServedAtItsMethod, run: (o) => (callbacks.includes(o.case.callback) ? ensureActionServedAtItsMethod.run(o) : notApplicable(`not a ${words} call`)) };
  return use(check, [...new Set(callbacks.flatMap((c) => METHOD_IDS[c] ?? []))]);
}

/** The action is served at its method, judged on that callback's cases only. */
export const servedAtItsMethod = (callback: CallbackName): Use<CaseOutcome> => servedAtTheirMethod([callback]);

/** The name of the property that probes a callback with a missing and an unknown clientId (`src/properties/client-id-probes.ts`). */
export const clientIdProperty = (callback: CallbackName): string => `${callback}: a missing or unknown clientId`;

const presentedAs = (presented: 'missing' | 'unknown', check: Check<CaseOutcome>): Check<CaseOutcome> => ({
  name: check.name,
  checks: check.checks,
  run: (o) => (o.case.intent.kind === 'refused' && o.case.intent.clientId === presented ? check.run(o) : notApplicable(`not a probe with ${presented === 'missing' ? 'no' : 'an unknown'} clientId`)),
});
/** A rule over the refused steps of a probe (the failing one named). */
const refusedSteps = (check: Check<CaseOutcome>): Check<CaseOutcome> => overSteps(check, refusedStep);

/**
 * The rows of a callback's clientId probes: not acted on (MUST: "must not act on the request"),
 * with the effect observed where one can be (`observed`); refused with 401 or 403 (SHOULD: "Real
 * modules answer 401 or 403", a description of real modules, not a binding word), each presented
 * kind with its id; every probe answered.
 */
export function clientIdRows(callback: CallbackName, observed: boolean): Row<CaseOutcome>[] {
  return forProperty(clientIdProperty(callback), [
    use(refusedSteps(ensureRefusedCallbackHasNoEffect), ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']),
    ...(observed ? [use(refusedSteps(ensureRefusalLeftNoEffect), ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'])] : []),
    use(refusedSteps(presentedAs('missing', ensureRefusalUses401Or403)), ['WIRE-GEN-MISSING-CLIENTID-401-403'], 'SHOULD'),
    use(refusedSteps(presentedAs('unknown', ensureRefusalUses401Or403)), ['WIRE-GEN-UNKNOWN-CLIENTID-401-403'], 'SHOULD'),
    use(refusedSteps(onReply(ensureCallbackIsAnswered)), []),
  ]);
}

/** Where a callback's clientId probes are sent. */
export type ProbeHome =
  /** Here: the area's client-id spec, with its request and, where one can be seen, the effect observed. */
  | { here: true; effect?: 'stillPossible' | 'quiet' }
  /** Elsewhere: the spec (test title) that probes it, with the effect observed there. */
  | { elsewhere: string };

/** Every callback of the table, and where its probes with a missing and an unknown clientId are sent. */
export const CLIENT_ID_PROBES: Readonly<Record<CallbackName, ProbeHome>> = {
  activity: { elsewhere: 'activity callback: a callback with a missing / unknown clientId is refused and not acted on (specs/registration/activity.spec.ts)' },
  'delivery.calculate': { here: true },
  'delivery.save': { elsewhere: 'delivery sequences: a refused save edit, the delivery observed by get before and after (src/properties/delivery-sequences.ts)' },
  'delivery.get': { here: true },
  'delivery.delete': { elsewhere: 'delivery sequences: a refused delete, the delivery observed by get, then deleted with the clientId' },
  'delivery.print': { here: true },
  'delivery.shipmentPointList': { here: true },
  'delivery.shipmentSave': { here: true, effect: 'stillPossible' },
  'delivery.shipmentDelete': { elsewhere: 'delivery sequences: a refused shipmentDelete, then the same with the clientId' },
  'delivery.tariffList': { here: true },
  'delivery.autocomplete': { here: true },
  'payment.create': { elsewhere: 'payment sequences and flows: a refused create, the invoice still payable (src/properties/payment-sequences.ts)' },
  'payment.approve': { elsewhere: 'payment sequences: a refused approve, then the manager\'s action with the clientId' },
  'payment.cancel': { elsewhere: 'payment sequences and flows: a refused cancel, the invoice still payable' },
  'payment.refund': { elsewhere: 'payment sequences: a refused refund, then the manager\'s action with the clientId' },
  'telephony.makeCall': { here: true, effect: 'quiet' },
  'telephony.changeUserStatus': { here: true },
  'telephony.record': { elsewhere: 'telephony recordUrl: generated fetches with a missing or unknown clientId (specs/telephony/records.spec.ts)' },
  'transport.message_sent': { elsewhere: 'transport webhooks: a missing or unknown ClientId (specs/chat/webhooks.spec.ts)' },
  'transport.message_updated': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.message_deleted': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.message_read': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.reaction_add': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.reaction_delete': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.template_create': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.template_update': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
  'transport.template_delete': { elsewhere: 'transport webhooks: a missing or unknown ClientId' },
};

/** The rows of this table applied on their own (the error form and the methods are taken by the areas' tables): every callback's clientId probes sent by its area's client-id spec. */
export const CALLBACKS_ROWS: ReadonlyArray<Row<never>> = CALLBACK_NAMES.flatMap((n) => {
  const home = CLIENT_ID_PROBES[n];
  return 'here' in home ? clientIdRows(n, home.effect !== undefined) : [];
});
