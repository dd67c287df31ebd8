/**
 * The fault table: each fault variant of the reference module and the checks that must fail
 * against it, no more and no fewer. Where a fault leaves the suite nothing to send to the
 * module (no activity path, no clientId), the run-level `ensureModuleWasReached` fails too:
 * a run in which nothing reached the module is never a pass.
 */
export interface FaultCase {
  fault: string;
  /** Checks with status failed, exactly. */
  failing: string[];
  /** A requirement id the first failing check (or, with none failing, the first warning) must carry. */
  requirement?: string;
  /** Checks with status warning (SHOULD rules that did not hold), exactly; none when absent. */
  warnings?: string[];
}

export const FAULT_CASES: FaultCase[] = [
  { fault: 'delivery-duplicate-action-path', failing: ['ensureDeliveryActionPathsAreUnique'], requirement: 'DLV-ACTIONS-UNIQUE-PATH' },
  { fault: 'delivery-required-field-unknown', failing: ['ensureRequiredFieldsAreAllowed'], requirement: 'DLV-REQUIREDFIELDS-ALLOWED-VALUES' },
  { fault: 'delivery-payer-type-unknown', failing: ['ensurePayerTypesAreAllowed'], requirement: 'DLV-PAYERTYPE-VALUES' },
  { fault: 'delivery-self-shipment-without-point-list', failing: ['ensureShipmentPointListWithSelfShipment'], requirement: 'DLV-SELFSHIPMENT-REQUIRES-POINTLIST' },
  { fault: 'delivery-save-without-delete', failing: ['ensureSaveComesWithCalculateAndDelete'], requirement: 'DLV-SAVE-REQUIRES-DELETE-CALCULATE' },
  { fault: 'delivery-data-field-type-unknown', failing: ['ensureDataFieldTypesAreKnown'], requirement: 'DLV-DATAFIELD-TYPE-VALUES' },
  { fault: 'delivery-choice-without-choices', failing: ['ensureChoiceFieldsHaveChoices'], requirement: 'DLV-DATAFIELD-CHOICES-SHAPE' },
  { fault: 'delivery-autocomplete-without-url', failing: ['ensureAutocompleteFieldsHaveUrl'], requirement: 'DLV-DATAFIELD-AUTOCOMPLETEURL' },
  { fault: 'payment-without-create', failing: ['ensurePaymentDeclaresCreate'], requirement: 'PAY-ACTIONS-CREATE-REQUIRED' },
  { fault: 'payment-currency-not-iso', failing: ['ensureCurrenciesAreIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-currency-unlisted', failing: [], warnings: ['ensureCurrenciesAreListedIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-invoice-type-unknown', failing: ['ensureInvoiceTypesAreLink'], requirement: 'PAY-INVOICETYPES-LINK' },
  { fault: 'mgbot-not-empty', failing: ['ensureBotRegistersEmptyObject'], requirement: 'BOT-EMPTY-OBJECT-AT-REGISTRATION' },
  { fault: 'url-malformed', failing: ['ensureUrlsAreWellFormed'], requirement: 'TEL-MAKECALLURL-URL' },
  { fault: 'activity-action-missing', failing: ['ensureModuleWasReached'], warnings: ['ensureActivityActionDeclared'] },
  { fault: 'client-id-missing', failing: ['ensureClientIdPresent', 'ensureModuleWasReached'], requirement: 'REG-CLIENTID-PRESENT' },
  {
    fault: 'activity-accepts-unknown-client',
    failing: ['ensureRefusedCallbackHasNoEffect'],
    requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION',
    warnings: ['ensureRefusalUses401Or403'],
  },
  { fault: 'refusal-body-not-json', failing: ['ensureErrorReplyIsWellFormed'], requirement: 'WIRE-GEN-ERROR-REPLY-SHAPE' },
  { fault: 'activity-reply-malformed', failing: ['ensureActivityAcknowledged'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
  { fault: 'tracking-unchunked', failing: ['ensureTrackingHoldsAtMost100'], requirement: 'DLV-TRACKING-MAX-100' },
  { fault: 'tracking-without-api-key', failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER' },
  { fault: 'tracking-ignored', failing: ['ensureTriggerLeadsToSystemCall'], requirement: 'WIRE-DLV-TRACKING-STATUSUPDATE-FIELD' },
  { fault: 'calls-upload-unchunked', failing: ['ensureCallsUploadHoldsAtMost50'], requirement: 'TEL-UPLOAD-MAX-50' },
  { fault: 'call-event-codes-not-strings', failing: ['ensureMessageMatchesSchema'], requirement: 'TEL-EVENT-CODES-STRINGS' },
  { fault: 'call-event-type-unknown', failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-TEL-EVENT-TYPE-VALUES' },
  { fault: 'call-event-json-body', failing: ['ensureSystemCallPayloadDecodes'], requirement: 'WIRE-TEL-EVENT-FIELD' },
  { fault: 'startup-tracking-without-api-key', failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER' },
  { fault: 'callbacks-refuse-all', failing: ['ensureActivityAcknowledged', 'ensureModuleWasReached'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
];
