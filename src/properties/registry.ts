/**
 * The properties of the suite and the checks each applies, with the requirement ids and the
 * severity of that use: the specs run them from here, and `conformance replay` finds a saved
 * failure's check here, so that a replayed case is judged exactly as the run judged it. A
 * check of one reply (`Check<Reply>`, `Check<ErrorReplySubject>`) is read off a case's outcome
 * through `adapt.ts`, here and nowhere else.
 */
import type { PropertyCheck } from './run.ts';
import { onErrorReply, onReply } from '../checks/adapt.ts';
import {
  ensureCalculateAnswersTariffList,
  ensureExtraDataAvailableAreDeclaredFields,
  ensureTariffCostIsNumberOrAbsent,
  ensureTariffTypeIsKnown,
} from '../checks/delivery/calculate-reply.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../checks/delivery/wrong-input.ts';
import { ensureSaveReturnsDeliveryId } from '../checks/delivery/save-reply.ts';
import { ensureVatRateNoneIsAccepted } from '../checks/delivery/vat-rate.ts';
import { ensureActionServedAtItsMethod } from '../checks/callbacks/method.ts';
import { CALLBACKS, type CallbackName } from '../callbacks/table.ts';
import { ensureDeleteAcknowledged, ensureGetAnswersDelivery, ensureGetDatesAreYmd, ensureGetStatusUpdatedAtIsIso8601, ensureLiveDeliveryIsServed, ensureUnknownDeliveryIdIsRefused } from '../checks/delivery/get-reply.ts';
import { ensureShipmentDeleteAcknowledged, ensureShipmentSaveAnswersShipment } from '../checks/delivery/shipment-reply.ts';
import { ensureRefusedCallbackHasNoEffect } from '../checks/callbacks/refusal.ts';
import { ensureRefusalLeftNoEffect } from '../checks/callbacks/refusal-effect.ts';
import { overSteps, refusedStep } from '../checks/adapt.ts';
import { ensureCallbackIsAnswered } from '../checks/callbacks/answered.ts';
import {
  ensureErrorBodyCarriesErrorMsg,
  ensureErrorBodyIsJson,
  ensureErrorBodyMatchesErrorShape,
  ensureErrorStatusIsAccepted,
  ensureErrorStatusIsNot5xx,
} from '../checks/callbacks/error-reply.ts';
import { ensureAutocompleteAnswersSuggestions, ensureShipmentPointListAnswersTerminals, ensureTariffListAnswersTariffs, ensureTerminalsMatchTerminalShape } from '../checks/delivery/lists-reply.ts';
import { creditsCalledForErrorsOnly, ensurePrintAcceptsFlatDeliveryIds, ensurePrintAcceptsNestedDeliveryIds, ensurePrintAnswersPdfOrZip, ensurePrintContentTypeMatches, ensurePrintErrorIs400, isPrintDocument } from '../checks/delivery/print-reply.ts';
import { notApplicable, type Check } from '../checks/check.ts';
import type { CaseOutcome } from '../checks/case.ts';
import { ensureActionIsReported, ensureRefundReturnsAskedAmount, ensureRefundWithoutAmountIsFull, ensureCanceledInvoiceTakesNoPayment, ensureHoldFollowsPassedCheck, ensureInvoiceReportsFollowTable, ensureSuccessFollowsPassedCheck } from '../checks/payment/invoice-reports.ts';
import { ensureCreateReturnsPaymentLink, ensureRefundAnswersRefund } from '../checks/payment/replies.ts';
import { ensureStartedCallAnswers200, ensureUnstartableCallIsNot200 } from '../checks/telephony/make-call.ts';
import { ensureRefusedRecordGivesNoAudio } from '../checks/telephony/record.ts';
import { CHAT_TEMPLATE_PROPERTIES } from './chat-templates.ts';
import { CHAT_BOT_PROPERTY_CHECKS } from './chat-bot.ts';
import { CHAT_WEBHOOK_CHECKS } from './chat-webhooks.ts';
import { CLIENT_ID_PROPERTY_CHECKS } from './client-id-probes.ts';

const MUST = 'MUST' as const;

/** The error form of an answer, judged on every case the module answered with an error; and that every case is answered. */
function errorChecks(profile: boolean): PropertyCheck[] {
  return [
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: [], severity: MUST } },
    { check: onErrorReply(ensureErrorStatusIsAccepted), app: { requirements: profile ? ['WIRE-GEN-ERROR-STATUS-200-OR-4XX'] : ['GEN-ERR-REPLY-200-ERRORMSG'], severity: MUST } },
    { check: onReply(ensureErrorStatusIsNot5xx), app: { requirements: ['WIRE-GEN-ERROR-5XX-FAILURE'], severity: MUST } },
    { check: onReply(ensureErrorBodyIsJson), app: { requirements: ['WIRE-GEN-ERROR-NON-JSON-FAILURE'], severity: MUST } },
    { check: onReply(ensureErrorBodyCarriesErrorMsg), app: { requirements: ['GEN-ERR-REPLY-200-ERRORMSG', 'WIRE-GEN-ERROR-MISSING-ERRORMSG'], severity: MUST } },
    { check: onErrorReply(ensureErrorBodyMatchesErrorShape), app: { requirements: ['WIRE-GEN-ERROR-REPLY-SHAPE'], severity: MUST } },
  ];
}

/**
 * The error form of a print answer: a document answer (2xx, not `{success: false}`) is no error
 * to judge. HTTP 400 is print's error status by the document too (Errors 3), so the status rule
 * of the other callbacks (HTTP 200 by the document alone) is replaced by `ensurePrintErrorIs400`.
 */
function printErrorChecks(): PropertyCheck[] {
  const onPrintError = (c: Check<CaseOutcome>): Check<CaseOutcome> => ({ ...c, run: (o) => (isPrintDocument(o.reply) ? notApplicable('the module answered the document, not an error') : c.run(o)) });
  return [
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: [], severity: MUST } },
    // A refused print of existing deliveries is the accept rules' (its form refused), never credited as a print error (issue 31, item 6).
    { check: creditsCalledForErrorsOnly(ensurePrintErrorIs400), app: { requirements: ['DLV-PRINT-ERROR-400', 'WIRE-DLV-PRINT-ERROR-400'], severity: MUST } },
    { check: creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorStatusIsNot5xx))), app: { requirements: ['WIRE-GEN-ERROR-5XX-FAILURE'], severity: MUST } },
    { check: creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorBodyIsJson))), app: { requirements: ['DLV-PRINT-ERROR-400', 'WIRE-GEN-ERROR-NON-JSON-FAILURE'], severity: MUST } },
    { check: creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorBodyCarriesErrorMsg))), app: { requirements: ['DLV-PRINT-ERROR-400', 'WIRE-GEN-ERROR-MISSING-ERRORMSG'], severity: MUST } },
    { check: creditsCalledForErrorsOnly(onPrintError(onErrorReply(ensureErrorBodyMatchesErrorShape))), app: { requirements: ['WIRE-GEN-ERROR-REPLY-SHAPE'], severity: MUST } },
  ];
}

/** The action is served at its method, credited to the callback's method id (`transport` of the table), judged on that callback's cases only. */
const servedAtItsMethod = (callback: CallbackName): PropertyCheck => ({
  check: { ...ensureActionServedAtItsMethod, run: (o) => (o.case.callback === callback ? ensureActionServedAtItsMethod.run(o) : notApplicable(`not a ${callback.split('.')[1]} call`)) },
  app: { requirements: [...(CALLBACKS[callback].requirements.transport ?? [])], severity: MUST },
});

/**
 * The actions are served at their methods: one check over the cases of several callbacks (one
 * result, one saved failure, found again by its name), credited to their methods' ids.
 */
const servedAtTheirMethod = (callbacks: readonly CallbackName[]): PropertyCheck => ({
  check: { ...ensureActionServedAtItsMethod, run: (o) => (callbacks.includes(o.case.callback) ? ensureActionServedAtItsMethod.run(o) : notApplicable(`not a ${callbacks.map((c) => c.split('.')[1]).join(', ')} call`)) },
  app: { requirements: [...new Set(callbacks.flatMap((c) => CALLBACKS[c].requirements.transport ?? []))], severity: MUST },
});

/** `delivery.tariffList`: the carrier's tariffs, for a default tariff (document, rule 7). */
export const TARIFF_LIST = 'delivery.tariffList: the tariffs';
/** `delivery.shipmentPointList`: terminals for generated places (document, rule 6). */
export const SHIPMENT_POINT_LIST = 'delivery.shipmentPointList: generated filters';
/** A GET to each `autocompleteUrl` of a data field: suggestions for generated texts. */
export const AUTOCOMPLETE = 'delivery.autocomplete: generated texts';
/** `delivery.print`: deliveries the suite saved, printed by each order form of plateList; unknown ones refused. */
export const PRINT = 'delivery.print: saved deliveries';

/** `delivery.calculate: valid requests`: the tariffs answered, or an error of the right form. */
export const CALCULATE_VALID = 'delivery.calculate: valid requests';
/** `delivery.calculate: wrong input`: refused with the error form, the message naming the field. */
export const CALCULATE_WRONG = 'delivery.calculate: wrong input';

/** `delivery.save: valid requests` (create): the deliveryId answered, or an error of the right form. */
export const SAVE_VALID = 'delivery.save: valid requests';
/** `delivery.save: wrong input`: refused with the error form, the message naming the field. */
export const SAVE_WRONG = 'delivery.save: wrong input';
/** `delivery.get: saved deliveries`: get of what save answered, of the profile's shape. */
export const GET_SAVED = 'delivery.get: saved deliveries';
/** `delivery.get: unknown ids`: an error answer. */
export const GET_UNKNOWN = 'delivery.get: unknown ids';
/** `delivery.delete: saved deliveries`: `{success: true}`. */
export const DELETE_SAVED = 'delivery.delete: saved deliveries';

/** `delivery sequences`: save, edit, get, delete, shipments and refused calls over a model, every step judged. */
export const SEQUENCES = 'delivery: stateful sequences';

/** Payment sequences: invoices created, the manager's actions, payment events, refused and wrong calls over the invoice table (`payment-sequences.ts`). */
export const PAYMENT_SEQUENCES = 'payment: stateful sequences';
/** The three typical flows of the document (and payments the honest check refuses), each a fixed sequence judged by the same checks. */
export const PAYMENT_FLOWS = 'payment: typical flows';
/** `payment.create: valid requests`: the payment link answered, or an error of the right form. */
export const CREATE_VALID = 'payment.create: valid requests';
/** `payment.create: wrong input`: refused with the error form, the message naming the field. */
export const CREATE_WRONG = 'payment.create: wrong input';
/** `payment: unknown payment ids`: approve, cancel and refund of a paymentId the module never gave, refused naming it. */
export const UNKNOWN_PAYMENT = 'payment: unknown payment ids';

/** `telephony.makeCall`: calls from a user's extension code to a phone number, answered HTTP 200 exactly. */
export const MAKE_CALL_VALID = 'telephony.makeCall: calls the module can start';
/** `telephony.makeCall`: calls from an unknown extension code or to a phone that is no number, not answered 200. */
export const MAKE_CALL_WRONG = 'telephony.makeCall: calls the module cannot start';
/** `telephony.changeUserStatus`: the four statuses of users with an extension code, answered. */
export const CHANGE_USER_STATUS = 'telephony.changeUserStatus: the four statuses';
/** A call's `recordUrl` with a missing or unknown clientId: refused, without the recording. */
export const RECORD_REFUSED = 'telephony.record: a missing or unknown clientId';

/** A payment step the system sent as a callback (not a trigger the suite fired). */
const callbackStep = (s: CaseOutcome): boolean => s.trigger === undefined;
const reportedFor = (because: string) => (s: CaseOutcome): boolean => s.invoice?.required?.because === because;
const toldOf = (event: string) => (s: CaseOutcome): boolean => s.invoice?.event === event;

/** The checks of a payment sequence (the generated ones, and the typical flows), each over every step. */
function paymentSequenceChecks(profile: boolean): PropertyCheck[] {
  const onCallbacks = (c: PropertyCheck): PropertyCheck => ({ ...c, check: overSteps(c.check, callbackStep) });
  return [
    ...[
      { check: ensureCreateReturnsPaymentLink, app: { requirements: ['PAY-CREATE-RETURNS-PAYMENT-LINK', 'WIRE-PAY-CREATE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
      { check: ensureRefundAnswersRefund, app: { requirements: ['WIRE-PAY-REFUND-RESULT'], severity: MUST } },
      { check: ensureRefundWithoutAmountIsFull, app: { requirements: ['WIRE-PAY-REFUND-NO-AMOUNT-FULL'], severity: MUST } },
      { check: ensureRefundReturnsAskedAmount, app: { requirements: ['WIRE-PAY-REFUND-AMOUNT'], severity: MUST } },
      { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
      { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
      ...errorChecks(profile),
    ].map(onCallbacks),
    { check: overSteps(ensureInvoiceReportsFollowTable), app: { requirements: ['PAY-INVOICE-TABLE-TRANSITIONS'], severity: MUST } },
    { check: overSteps(ensureHoldFollowsPassedCheck), app: { requirements: ['PAY-PENDING-TO-WAITING-ON-HOLD'], severity: MUST } },
    { check: overSteps(ensureSuccessFollowsPassedCheck, toldOf('held')), app: { requirements: ['PAY-FLOW-AUTO-CAPTURE-CHECK'], severity: 'SHOULD' } },
    { check: overSteps(ensureSuccessFollowsPassedCheck, toldOf('paid')), app: { requirements: ['PAY-FLOW-NO-HOLD-CHECK'], severity: 'SHOULD' } },
    { check: overSteps(ensureCanceledInvoiceTakesNoPayment), app: { requirements: ['PAY-CANCELED-NO-MORE-PAYMENTS'], severity: MUST } },
    // Each change is reported with update-invoice (PAY-UPDATE-INVOICE-ENDPOINT: "Changed invoice parameters").
    { check: overSteps(ensureActionIsReported, reportedFor('approve')), app: { requirements: ['PAY-APPROVE-SETS-SUCCEEDED', 'PAY-UPDATE-INVOICE-ENDPOINT'], severity: MUST } },
    { check: overSteps(ensureActionIsReported, reportedFor('cancel')), app: { requirements: ['PAY-CANCEL-SETS-CANCELED', 'PAY-UPDATE-INVOICE-ENDPOINT'], severity: MUST } },
    { check: overSteps(ensureActionIsReported, reportedFor('refund')), app: { requirements: ['PAY-REFUND-SETS-REFUNDSUCCEEDED', 'PAY-UPDATE-INVOICE-ENDPOINT'], severity: MUST } },
    { check: overSteps(ensureActionIsReported, reportedFor('held')), app: { requirements: ['PAY-PENDING-TO-WAITING-ON-HOLD', 'PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT', 'PAY-UPDATE-INVOICE-ENDPOINT'], severity: MUST } },
    { check: overSteps(ensureActionIsReported, reportedFor('paid')), app: { requirements: ['PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT', 'PAY-UPDATE-INVOICE-ENDPOINT'], severity: MUST } },
    { check: overSteps(ensureRefusalLeftNoEffect), app: { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: MUST } },
    { check: overSteps(ensureRefusedCallbackHasNoEffect, refusedStep), app: { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: MUST } },
  ];
}

/** Each property's checks, by the property's name; `profile`: the run's reading (some ids differ by it). */
export const PROPERTY_CHECKS: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = {
  [CALCULATE_VALID]: (profile) => [
    { check: ensureCalculateAnswersTariffList, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-CALCULATE-RESULT-TARIFFS'], severity: MUST } },
    { check: ensureTariffTypeIsKnown, app: { requirements: ['WIRE-DLV-CALCULATE-TARIFF-TYPE'], severity: MUST } },
    { check: ensureTariffCostIsNumberOrAbsent, app: { requirements: ['DLV-CALCULATE-TARIFF-FIELDS'], severity: MUST } },
    { check: ensureExtraDataAvailableAreDeclaredFields, app: { requirements: ['DLV-CALCULATE-EXTRADATAAVAILABLE'], severity: MUST } },
    { check: ensureVatRateNoneIsAccepted, app: { requirements: ['DLV-VATRATE-NONE-ACCEPTED'], severity: MUST } },
    servedAtItsMethod('delivery.calculate'),
    ...errorChecks(profile),
  ],
  [CALCULATE_WRONG]: (profile) => [
    { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    ...errorChecks(profile),
  ],
  [SAVE_VALID]: (profile) => [
    { check: ensureSaveReturnsDeliveryId, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-SAVE-RESULT-DELIVERYID'], severity: MUST } },
    { check: ensureVatRateNoneIsAccepted, app: { requirements: ['DLV-VATRATE-NONE-ACCEPTED'], severity: MUST } },
    servedAtItsMethod('delivery.save'),
    ...errorChecks(profile),
  ],
  [SAVE_WRONG]: (profile) => [
    { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    ...errorChecks(profile),
  ],
  // Run as a sequence (save, then get; `delivery-sequences.ts`): every step judged.
  [GET_SAVED]: (profile) => [
    ...[
      { check: ensureGetAnswersDelivery, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-GET-RESULT-SHAPE'], severity: MUST } },
      { check: ensureGetStatusUpdatedAtIsIso8601, app: { requirements: ['WIRE-DLV-GET-UPDATEDAT-ISO8601'], severity: MUST } },
      { check: ensureGetDatesAreYmd, app: { requirements: ['WIRE-DLV-GET-DATES-YMD'], severity: MUST } },
      { check: ensureLiveDeliveryIsServed, app: { requirements: ['WIRE-DLV-GET-RESULT-SHAPE'], severity: MUST } },
      ...errorChecks(profile),
    ].map((c) => ({ ...c, check: overSteps(c.check) })),
  ],
  [GET_UNKNOWN]: (profile) => [
    { check: ensureUnknownDeliveryIdIsRefused, app: { requirements: ['WIRE-DLV-GET-UNKNOWN-ID-ERROR'], severity: MUST } },
    servedAtItsMethod('delivery.get'),
    ...errorChecks(profile),
  ],
  // Run as a sequence (save, then delete).
  [DELETE_SAVED]: (profile) => [
    ...[
      { check: ensureDeleteAcknowledged, app: { requirements: ['DLV-DELETE-POST', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
      servedAtItsMethod('delivery.delete'),
      ...errorChecks(profile),
    ].map((c) => ({ ...c, check: overSteps(c.check) })),
  ],
  [SEQUENCES]: (profile) => [
    ...[
      { check: ensureSaveReturnsDeliveryId, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-SAVE-RESULT-DELIVERYID'], severity: MUST } },
      { check: ensureGetAnswersDelivery, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-GET-RESULT-SHAPE'], severity: MUST } },
      { check: ensureGetStatusUpdatedAtIsIso8601, app: { requirements: ['WIRE-DLV-GET-UPDATEDAT-ISO8601'], severity: MUST } },
      { check: ensureGetDatesAreYmd, app: { requirements: ['WIRE-DLV-GET-DATES-YMD'], severity: MUST } },
      { check: ensureLiveDeliveryIsServed, app: { requirements: ['WIRE-DLV-GET-RESULT-SHAPE'], severity: MUST } },
      { check: ensureDeleteAcknowledged, app: { requirements: ['DLV-DELETE-POST', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
      { check: ensureShipmentSaveAnswersShipment, app: { requirements: ['WIRE-DLV-SHIPMENTSAVE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
      { check: ensureShipmentDeleteAcknowledged, app: { requirements: ['DLV-SHIPMENTDELETE-POST', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
      { check: ensureRefusalLeftNoEffect, app: { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: MUST } },
      { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
      { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
      ...errorChecks(profile),
    ].map((c) => ({ ...c, check: overSteps(c.check) })),
    { check: overSteps(ensureRefusedCallbackHasNoEffect, refusedStep), app: { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: MUST } },
  ],
  [PAYMENT_SEQUENCES]: paymentSequenceChecks,
  // Flow 2 (hold with manual capture): after the check waitingForCapture; the manager approves; the module acts and reports.
  [PAYMENT_FLOWS]: (profile) => [...paymentSequenceChecks(profile), { check: overSteps(ensureActionIsReported, (s) => reportedFor('approve')(s) && s.invoice?.before === 'waitingForCapture'), app: { requirements: ['PAY-FLOW-MANUAL-CAPTURE-WAITING'], severity: 'SHOULD' } }],
  [CREATE_VALID]: (profile) => [
    { check: ensureCreateReturnsPaymentLink, app: { requirements: ['PAY-CREATE-RETURNS-PAYMENT-LINK', 'WIRE-PAY-CREATE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
    servedAtItsMethod('payment.create'),
    ...errorChecks(profile),
  ],
  [CREATE_WRONG]: (profile) => [
    { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    ...errorChecks(profile),
  ],
  [UNKNOWN_PAYMENT]: (profile) => [
    { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    servedAtTheirMethod(['payment.approve', 'payment.cancel', 'payment.refund']),
    ...errorChecks(profile),
  ],
  [TARIFF_LIST]: (profile) => [
    { check: ensureTariffListAnswersTariffs, app: { requirements: ['WIRE-DLV-TARIFFLIST-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
    servedAtItsMethod('delivery.tariffList'),
    ...errorChecks(profile),
  ],
  [SHIPMENT_POINT_LIST]: (profile) => [
    { check: ensureShipmentPointListAnswersTerminals, app: { requirements: ['WIRE-DLV-SHIPMENTPOINTLIST-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'], severity: MUST } },
    { check: ensureTerminalsMatchTerminalShape, app: { requirements: ['WIRE-DLV-TERMINAL-SHAPE'], severity: MUST } },
    servedAtItsMethod('delivery.shipmentPointList'),
    ...errorChecks(profile),
  ],
  [AUTOCOMPLETE]: () => [
    { check: ensureAutocompleteAnswersSuggestions, app: { requirements: ['WIRE-DLV-AUTOCOMPLETE-RESULT'], severity: 'SHOULD' } },
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: [], severity: MUST } },
    servedAtItsMethod('delivery.autocomplete'),
  ],
  // Telephony (issue 24): the status of the makeCall answer is the answer; the changeUserStatus answer is ignored but must come.
  [MAKE_CALL_VALID]: () => [
    { check: ensureStartedCallAnswers200, app: { requirements: ['TEL-MAKECALL-200-SUCCESS'], severity: MUST } },
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: ['TEL-MAKECALLURL-URL'], severity: MUST } },
  ],
  [MAKE_CALL_WRONG]: () => [
    { check: ensureUnstartableCallIsNot200, app: { requirements: ['TEL-MAKECALL-200-SUCCESS'], severity: MUST } },
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: ['TEL-MAKECALLURL-URL'], severity: MUST } },
  ],
  [CHANGE_USER_STATUS]: () => [{ check: onReply(ensureCallbackIsAnswered), app: { requirements: ['TEL-CHANGEUSERSTATUSURL-URL'], severity: MUST } }],
  [RECORD_REFUSED]: () => [
    { check: ensureRefusedRecordGivesNoAudio, app: { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: MUST } },
    { check: onReply(ensureCallbackIsAnswered), app: { requirements: [], severity: MUST } },
  ],
  [PRINT]: () => [
    { check: ensurePrintAnswersPdfOrZip, app: { requirements: ['DLV-PRINT-PDF-OR-ZIP', 'WIRE-DLV-PRINT-PDF-OR-ZIP'], severity: MUST } },
    { check: ensurePrintContentTypeMatches, app: { requirements: ['DLV-PRINT-PDF-OR-ZIP', 'WIRE-DLV-PRINT-PDF-OR-ZIP'], severity: MUST } },
    { check: ensurePrintAcceptsNestedDeliveryIds, app: { requirements: ['WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH'], severity: 'SHOULD' } },
    { check: ensurePrintAcceptsFlatDeliveryIds, app: { requirements: ['WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH'], severity: 'SHOULD' } },
    servedAtItsMethod('delivery.print'),
    ...printErrorChecks(),
  ],
  // chat: each part's properties in its own file (src/properties/chat-*.ts), spread here
  // chat: webhooks (issue 25, item 2)
  ...CHAT_WEBHOOK_CHECKS,
  // chat: templates (issue 25, item 3)
  ...CHAT_TEMPLATE_PROPERTIES,
  // chat: rate limit (issue 25, item 4)
  // chat: bot (issue 25, item 5)
  ...CHAT_BOT_PROPERTY_CHECKS,
  // the clientId probed on every callback (issue 31, item 5): one property per callback its area's client-id spec probes
  ...CLIENT_ID_PROPERTY_CHECKS,
};

/** The requirement ids a property can credit in either view of the run: what its test declares it covers. */
export const propertyCovers = (property: string): string[] => [true, false].flatMap((profile) => propertyChecks(property, profile).flatMap((c) => c.app.requirements));

/** The checks of a property; throws for a property the registry does not know (a defect of the suite). */
export function propertyChecks(property: string, profile: boolean): PropertyCheck[] {
  const checks = PROPERTY_CHECKS[property];
  if (!checks) throw new Error(`no property named ${JSON.stringify(property)} in src/properties/registry.ts`);
  return checks(profile);
}

/**
 * A property's check by name, as the property applies it to a case's outcome: in the named
 * property first, else in any property (a property renamed since the failure was saved);
 * undefined when no property applies a check of that name.
 */
export function findPropertyCheck(property: string, check: string): PropertyCheck | undefined {
  const names = [property, ...Object.keys(PROPERTY_CHECKS).filter((p) => p !== property)].filter((p) => p in PROPERTY_CHECKS);
  for (const p of names) {
    for (const profile of [true, false]) {
      const found = PROPERTY_CHECKS[p]!(profile).find((c) => c.check.name === check);
      if (found) return found;
    }
  }
  return undefined;
}
