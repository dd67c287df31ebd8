/**
 * The application table of the delivery area: which check is applied to which property's
 * generated cases, with its requirement ids and severity (`Row`, `src/checks/apply.ts`). The
 * error form, the methods and the clientId probes come from the callbacks' table.
 */
import { forProperty, use, type Row, type Use } from '../apply.ts';
import { onErrorReply, onReply, overSteps } from '../adapt.ts';
import type { CaseOutcome } from '../case.ts';
import { notApplicable, type Check } from '../check.ts';
import { ERROR_FORM, REFUSAL_LEFT_NO_EFFECT, REFUSED_NOT_ACTED_ON, WRONG_INPUT, answered, servedAtItsMethod } from '../callbacks/applications.ts';
import { ensureCallbackIsAnswered } from '../callbacks/answered.ts';
import { ensureErrorBodyCarriesErrorMsg, ensureErrorBodyIsJson, ensureErrorBodyMatchesErrorShape, ensureErrorStatusIsNot5xx } from '../callbacks/error-reply.ts';
import { ensureCalculateAnswersTariffList, ensureExtraDataAvailableAreDeclaredFields, ensureTariffCostIsNumberOrAbsent, ensureTariffTypeIsKnown } from './calculate-reply.ts';
import { ensureSaveReturnsDeliveryId } from './save-reply.ts';
import { ensureVatRateNoneIsAccepted } from './vat-rate.ts';
import { ensureDeleteAcknowledged, ensureGetAnswersDelivery, ensureGetDatesAreYmd, ensureGetStatusUpdatedAtIsIso8601, ensureLiveDeliveryIsServed, ensureUnknownDeliveryIdIsRefused } from './get-reply.ts';
import { ensureShipmentDeleteAcknowledged, ensureShipmentSaveAnswersShipment } from './shipment-reply.ts';
import { ensureAutocompleteAnswersSuggestions, ensureShipmentPointListAnswersTerminals, ensureTariffListAnswersTariffs, ensureTerminalsMatchTerminalShape } from './lists-reply.ts';
import { ensureReplyExtraDataKeysAreDataFields } from './extra-data.ts';
import { creditsCalledForErrorsOnly, ensurePrintAcceptsFlatDeliveryIds, ensurePrintAcceptsNestedDeliveryIds, ensurePrintAnswersPdfOrZip, ensurePrintContentTypeMatches, ensurePrintErrorIs400, isPrintDocument } from './print-reply.ts';

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
/** `delivery.tariffList`: the carrier's tariffs, for a default tariff (document, rule 7). */
export const TARIFF_LIST = 'delivery.tariffList: the tariffs';
/** `delivery.shipmentPointList`: terminals for generated places (document, rule 6). */
export const SHIPMENT_POINT_LIST = 'delivery.shipmentPointList: generated filters';
/** A GET to each `autocompleteUrl` of a data field: suggestions for generated texts. */
export const AUTOCOMPLETE = 'delivery.autocomplete: generated texts';
/** `delivery.print`: deliveries the suite saved, printed by each order form of plateList; unknown ones refused. */
export const PRINT = 'delivery.print: saved deliveries';

/** Each use over every step of a sequence (or the case itself when it is not one). */
const eachStep = (uses: ReadonlyArray<Use<CaseOutcome>>): Array<Use<CaseOutcome>> => uses.map((u) => ({ ...u, check: overSteps(u.check) }));

const SAVE_ANSWER = use(ensureSaveReturnsDeliveryId, ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-SAVE-RESULT-DELIVERYID']);
const VAT_NONE = use(ensureVatRateNoneIsAccepted, ['DLV-VATRATE-NONE-ACCEPTED']);
const GET_ANSWER: ReadonlyArray<Use<CaseOutcome>> = [
  use(ensureGetAnswersDelivery, ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-GET-RESULT-SHAPE']),
  use(ensureGetStatusUpdatedAtIsIso8601, ['WIRE-DLV-GET-UPDATEDAT-ISO8601']),
  use(ensureGetDatesAreYmd, ['WIRE-DLV-GET-DATES-YMD']),
  use(ensureLiveDeliveryIsServed, ['WIRE-DLV-GET-RESULT-SHAPE']),
];
const DELETE_ANSWER = use(ensureDeleteAcknowledged, ['DLV-DELETE-POST', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']);

/**
 * The error form of a print answer: a document answer (2xx, not `{success: false}`) is no error
 * to judge. HTTP 400 is print's error status by the document too (Errors 3), so the status rule
 * of the other callbacks (HTTP 200 by the document alone) is replaced by `ensurePrintErrorIs400`.
 * A refused print of existing deliveries is the accept rules' (its form refused), never credited
 * as a print error (issue 31, item 6).
 */
const onPrintError = (c: Check<CaseOutcome>): Check<CaseOutcome> => ({ ...c, run: (o) => (isPrintDocument(o.reply) ? notApplicable('the module answered the document, not an error') : c.run(o)) });
const PRINT_ERROR_FORM: ReadonlyArray<Use<CaseOutcome>> = [
  answered(),
  use(creditsCalledForErrorsOnly(ensurePrintErrorIs400), ['DLV-PRINT-ERROR-400', 'WIRE-DLV-PRINT-ERROR-400']),
  use(creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorStatusIsNot5xx))), ['WIRE-GEN-ERROR-5XX-FAILURE']),
  use(creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorBodyIsJson))), ['DLV-PRINT-ERROR-400', 'WIRE-GEN-ERROR-NON-JSON-FAILURE']),
  use(creditsCalledForErrorsOnly(onPrintError(onReply(ensureErrorBodyCarriesErrorMsg))), ['DLV-PRINT-ERROR-400', 'WIRE-GEN-ERROR-MISSING-ERRORMSG']),
  use(creditsCalledForErrorsOnly(onPrintError(onErrorReply(ensureErrorBodyMatchesErrorShape))), ['WIRE-GEN-ERROR-REPLY-SHAPE']),
];

export const DELIVERY_ROWS: ReadonlyArray<Row<never>> = [
  ...forProperty(CALCULATE_VALID, [
    use(ensureCalculateAnswersTariffList, ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-CALCULATE-RESULT-TARIFFS']),
    use(ensureTariffTypeIsKnown, ['WIRE-DLV-CALCULATE-TARIFF-TYPE']),
    use(ensureTariffCostIsNumberOrAbsent, ['DLV-CALCULATE-TARIFF-FIELDS']),
    use(ensureExtraDataAvailableAreDeclaredFields, ['DLV-CALCULATE-EXTRADATAAVAILABLE']),
    VAT_NONE,
    servedAtItsMethod('delivery.calculate'),
    ...ERROR_FORM,
  ]),
  ...forProperty(CALCULATE_WRONG, [...WRONG_INPUT, ...ERROR_FORM]),
  ...forProperty(SAVE_VALID, [SAVE_ANSWER, VAT_NONE, servedAtItsMethod('delivery.save'), ...ERROR_FORM]),
  ...forProperty(SAVE_WRONG, [...WRONG_INPUT, ...ERROR_FORM]),
  // Run as a sequence (save, then get; `src/properties/delivery-sequences.ts`): every step judged.
  ...forProperty(GET_SAVED, eachStep([...GET_ANSWER, ...ERROR_FORM])),
  ...forProperty(GET_UNKNOWN, [use(ensureUnknownDeliveryIdIsRefused, ['WIRE-DLV-GET-UNKNOWN-ID-ERROR']), servedAtItsMethod('delivery.get'), ...ERROR_FORM]),
  // Run as a sequence (save, then delete).
  ...forProperty(DELETE_SAVED, eachStep([DELETE_ANSWER, servedAtItsMethod('delivery.delete'), ...ERROR_FORM])),
  ...forProperty(SEQUENCES, [
    ...eachStep([
      SAVE_ANSWER,
      ...GET_ANSWER,
      DELETE_ANSWER,
      use(ensureShipmentSaveAnswersShipment, ['WIRE-DLV-SHIPMENTSAVE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']),
      use(ensureShipmentDeleteAcknowledged, ['DLV-SHIPMENTDELETE-POST', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']),
      use(ensureReplyExtraDataKeysAreDataFields, ['WIRE-DLV-EXTRADATA-MAP']),
      REFUSAL_LEFT_NO_EFFECT,
      ...WRONG_INPUT,
      ...ERROR_FORM,
    ]),
    REFUSED_NOT_ACTED_ON,
  ]),
  ...forProperty(TARIFF_LIST, [use(ensureTariffListAnswersTariffs, ['WIRE-DLV-TARIFFLIST-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']), servedAtItsMethod('delivery.tariffList'), ...ERROR_FORM]),
  ...forProperty(SHIPMENT_POINT_LIST, [
    use(ensureShipmentPointListAnswersTerminals, ['WIRE-DLV-SHIPMENTPOINTLIST-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']),
    use(ensureTerminalsMatchTerminalShape, ['WIRE-DLV-TERMINAL-SHAPE']),
    servedAtItsMethod('delivery.shipmentPointList'),
    ...ERROR_FORM,
  ]),
  ...forProperty(AUTOCOMPLETE, [use(ensureAutocompleteAnswersSuggestions, ['WIRE-DLV-AUTOCOMPLETE-RESULT'], 'SHOULD'), use(onReply(ensureCallbackIsAnswered), []), servedAtItsMethod('delivery.autocomplete')]),
  ...forProperty(PRINT, [
    use(ensurePrintAnswersPdfOrZip, ['DLV-PRINT-PDF-OR-ZIP', 'WIRE-DLV-PRINT-PDF-OR-ZIP']),
    use(ensurePrintContentTypeMatches, ['DLV-PRINT-PDF-OR-ZIP', 'WIRE-DLV-PRINT-PDF-OR-ZIP']),
    use(ensurePrintAcceptsNestedDeliveryIds, ['WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH'], 'SHOULD'),
    use(ensurePrintAcceptsFlatDeliveryIds, ['WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH'], 'SHOULD'),
    servedAtItsMethod('delivery.print'),
    ...PRINT_ERROR_FORM,
  ]),
];
