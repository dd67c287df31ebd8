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
  /** More requirement ids the run shows caught: each is carried by a failed or warning result of the run. */
  also?: string[];
}

export const FAULT_CASES: FaultCase[] = [
  { fault: 'delivery-duplicate-action-path', failing: ['ensureDeliveryActionPathsAreUnique'], requirement: 'DLV-ACTIONS-UNIQUE-PATH' },
  { fault: 'delivery-required-field-unknown', failing: ['ensureRequiredFieldsAreAllowed'], requirement: 'DLV-REQUIREDFIELDS-ALLOWED-VALUES', also: ['DLV-REQUIREDFIELDS-STRINGS'] },
  { fault: 'delivery-payer-type-unknown', failing: ['ensurePayerTypesAreAllowed'], requirement: 'DLV-PAYERTYPE-VALUES' },
  { fault: 'delivery-self-shipment-without-point-list', failing: ['ensureShipmentPointListWithSelfShipment'], requirement: 'DLV-SELFSHIPMENT-REQUIRES-POINTLIST' },
  { fault: 'delivery-save-without-delete', failing: ['ensureSaveComesWithCalculateAndDelete'], requirement: 'DLV-SAVE-REQUIRES-DELETE-CALCULATE' },
  { fault: 'delivery-data-field-type-unknown', failing: ['ensureDataFieldTypesAreKnown'], requirement: 'DLV-DATAFIELD-TYPE-VALUES' },
  { fault: 'delivery-choice-without-choices', failing: ['ensureChoiceFieldsHaveChoices'], requirement: 'DLV-DATAFIELD-CHOICES-SHAPE' },
  { fault: 'delivery-autocomplete-without-url', failing: ['ensureAutocompleteFieldsHaveUrl'], requirement: 'DLV-DATAFIELD-AUTOCOMPLETEURL' },
  { fault: 'delivery-extra-data-unknown-key', failing: ['ensureExtraDataKeysAreFieldCodes'], requirement: 'DLV-SETTINGS-DELIVERYEXTRADATA-MAP' },
  { fault: 'delivery-autocomplete-default-not-label-value', failing: ['ensureAutocompleteDefaultsAreLabelValue'], requirement: 'DLV-SETTINGS-AUTOCOMPLETE-DEFAULT' },
  { fault: 'payment-without-create', failing: ['ensurePaymentDeclaresCreate'], requirement: 'PAY-ACTIONS-CREATE-REQUIRED' },
  { fault: 'payment-currency-not-iso', failing: ['ensureCurrenciesAreIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-currency-unlisted', failing: [], warnings: ['ensureCurrenciesAreListedIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-invoice-type-unknown', failing: ['ensureInvoiceTypesAreLink'], requirement: 'PAY-INVOICETYPES-LINK' },
  { fault: 'mgbot-not-empty', failing: ['ensureBotRegistersEmptyObject'], requirement: 'BOT-EMPTY-OBJECT-AT-REGISTRATION' },
  {
    fault: 'url-malformed',
    failing: ['ensureUrlsAreWellFormed'],
    requirement: 'TEL-MAKECALLURL-URL',
    also: ['REG-ACCOUNTURL-URL', 'REG-LOGO-URL', 'TEL-CHANGEUSERSTATUSURL-URL', 'TEL-PERSONALACCOUNTURL-URL', 'DLV-CONFIGURATIONURL-URL', 'DLV-DATAFIELD-AUTOCOMPLETEURL', 'TRN-WEBHOOKURL-URL'],
  },
  {
    fault: 'registration-field-types-wrong',
    failing: ['ensureMessageMatchesSchema'],
    requirement: 'REG-ACTIVE-BOOLEAN',
    also: [
      'REG-CODE-STRING', 'REG-INTEGRATIONCODE-STRING', 'REG-NAME-STRING', 'REG-ACTIONS-MAP-TO-PATH',
      'TEL-ALLOWEDIT-BOOLEAN', 'TEL-INPUTEVENTSUPPORTED-BOOLEAN', 'TEL-ADDITIONALCODES-SHAPE', 'TEL-EXTERNALPHONES-SHAPE',
      'DLV-ACTIONS-MAP-CODE-PATH', 'DLV-SELFSHIPMENT-BOOLEAN', 'DLV-CODAVAILABLE-BOOLEAN', 'DLV-ALLOWPACKAGES-BOOLEAN', 'DLV-RATEDELIVERYCOST-BOOLEAN',
      'DLV-SHIPMENTCOUNTRIES-ARRAY', 'DLV-DESCRIPTION-STRING', 'DLV-SHIPMENTDATAFIELDLIST-FORMAT', 'DLV-PLATELIST-ARRAY', 'DLV-PLATEPRINTLIMIT-INTEGER',
      'DLV-DATAFIELD-CODE-STRING', 'DLV-DATAFIELD-LABEL-STRING', 'DLV-DATAFIELD-REQUIRED-BOOLEAN', 'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN', 'DLV-DATAFIELD-EDITABLE-BOOLEAN',
      'DLV-DATAFIELD-MULTIPLE-BOOLEAN', 'DLV-SETTINGS-COSTCALCULATEBY-VALUES', 'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN', 'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN',
      'DLV-SETTINGS-PAYMENTTYPES-SHAPE', 'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE', 'DLV-SETTINGS-STATUSES-SHAPE', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP',
      'WIRE-DLV-EXTRA-REGISTRATION-FIELDS', 'PAY-ACTIONS-CODES-PATHS', 'PAY-SHOPS-SHAPE',
    ],
  },
  { fault: 'registration-never-sent', failing: ['ensureModuleRegistersViaEdit', 'ensureModuleWasReached'], requirement: 'REG-REGISTER-VIA-EDIT' },
  { fault: 'refusal-missing-clientid-400', failing: [], warnings: ['ensureRefusalUses401Or403'], requirement: 'WIRE-GEN-MISSING-CLIENTID-401-403' },
  { fault: 'call-event-ignored', failing: ['ensureTriggerLeadsToSystemCall'], requirement: 'TEL-EVENT-KINDS' },
  {
    fault: 'system-calls-wrong-field',
    failing: ['ensureSystemCallPayloadDecodes'],
    requirement: 'WIRE-DLV-TRACKING-STATUSUPDATE-FIELD',
    also: ['WIRE-TEL-UPLOAD-CALLS-FIELD', 'TEL-EVENT-PARAM-JSON', 'TEL-EVENT-PHONE', 'WIRE-TEL-EVENT-FIELD'],
  },
  { fault: 'activity-action-missing', failing: ['ensureModuleWasReached'], warnings: ['ensureActivityActionDeclared'], also: ['REG-ACTIONS-ACTIVITY', 'WIRE-REG-ACTIVITY-PATH-TOP-LEVEL'] },
  { fault: 'client-id-missing', failing: ['ensureClientIdPresent', 'ensureModuleWasReached'], requirement: 'REG-CLIENTID-PRESENT' },
  {
    fault: 'activity-accepts-unknown-client',
    failing: ['ensureRefusedCallbackHasNoEffect'],
    requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION',
    warnings: ['ensureRefusalUses401Or403'],
    also: ['WIRE-GEN-UNKNOWN-CLIENTID-401-403'],
  },
  // Error answers to a refusal: each fails the checks of the statements it breaks, no other.
  { fault: 'refusal-body-not-json', failing: ['ensureErrorBodyIsJson', 'ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-NON-JSON-FAILURE', also: ['WIRE-GEN-ERROR-REPLY-SHAPE'] },
  { fault: 'refusal-without-errormsg', failing: ['ensureErrorBodyCarriesErrorMsg', 'ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-MISSING-ERRORMSG', also: ['WIRE-GEN-ERROR-REPLY-SHAPE'] },
  { fault: 'refusal-errormsg-not-text', failing: ['ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-REPLY-SHAPE' },
  {
    fault: 'refusal-status-500',
    failing: ['ensureErrorStatusIsNot5xx', 'ensureErrorStatusIsAccepted'],
    requirement: 'WIRE-GEN-ERROR-5XX-FAILURE',
    warnings: ['ensureRefusalUses401Or403'],
    also: ['WIRE-GEN-ERROR-STATUS-200-OR-4XX', 'WIRE-GEN-UNKNOWN-CLIENTID-401-403', 'WIRE-GEN-MISSING-CLIENTID-401-403'],
  },
  { fault: 'activity-reply-malformed', failing: ['ensureActivityAcknowledged'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
  { fault: 'tracking-unchunked', failing: ['ensureTrackingHoldsAtMost100'], requirement: 'DLV-TRACKING-MAX-100' },
  { fault: 'tracking-without-api-key', failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER' },
  { fault: 'tracking-ignored', failing: ['ensureTriggerLeadsToSystemCall'], requirement: 'REG-PUSH-CURRENT-DATA' },
  { fault: 'calls-upload-unchunked', failing: ['ensureCallsUploadHoldsAtMost50'], requirement: 'TEL-UPLOAD-MAX-50' },
  { fault: 'calls-upload-without-record-url', failing: ['ensureUploadedCallsHaveRecordUrl'], requirement: 'TEL-CALL-HAS-RECORDURL' },
  { fault: 'call-event-codes-not-strings', failing: ['ensureMessageMatchesSchema'], requirement: 'TEL-EVENT-CODES-STRINGS' },
  { fault: 'call-event-type-unknown', failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-TEL-EVENT-TYPE-VALUES' },
  { fault: 'call-event-json-body', failing: ['ensureSystemCallPayloadDecodes'], requirement: 'WIRE-TEL-EVENT-FIELD' },
  { fault: 'startup-tracking-without-api-key', failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER' },
  // The registration call: a refused registration is judged (exit 1), not an aborted run; nothing then reaches the module.
  { fault: 'registration-missing-api-key', failing: ['ensureEditCarriesTheApiKey', 'ensureModuleWasReached'], requirement: 'GEN-AUTH-APIKEY-AT-REGISTRATION' },
  { fault: 'registration-wrong-api-key', failing: ['ensureEditCarriesTheApiKey', 'ensureModuleWasReached'], requirement: 'GEN-AUTH-APIKEY-AT-REGISTRATION' },
  { fault: 'registration-json-body', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'REG-EDIT-FORM-PARAMS' },
  { fault: 'registration-without-integration-module', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'WIRE-REG-EDIT-INTEGRATIONMODULE-FIELD' },
  { fault: 'registration-malformed-json', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'REG-EDIT-FORM-PARAMS' },
  { fault: 'registration-api-v4', failing: ['ensureSystemCallsUseApiV5'], requirement: 'GEN-VERSION-SYSTEM-V5' },
  { fault: 'registration-201-as-failure', failing: ['ensureAcceptedRegistrationIsNotRepeated'], requirement: 'REG-EDIT-REPLY-SUCCESS' },
  // Module-to-system calls judged on what the system answered.
  { fault: 'tracking-wrong-api-key', failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER' },
  { fault: 'tracking-wrong-subcode', failing: ['ensureTrackingSubcodeIsModuleCode'], requirement: 'DLV-TRACKING-SUBCODE-IS-CODE' },
  { fault: 'system-calls-put', failing: ['ensureSystemCallUsesDocumentedMethod'], requirement: 'GEN-METHOD-TRACKING-POST', also: ['GEN-METHOD-CALLS-UPLOAD-POST', 'GEN-METHOD-CALL-EVENT-POST'] },
  { fault: 'tracking-truncated', failing: ['ensureRequestedItemsArrive'], requirement: 'REG-PUSH-CURRENT-DATA' },
  { fault: 'calculate-result-not-array', failing: ['ensureCalculateAnswersTariffList'], requirement: 'WIRE-DLV-CALCULATE-RESULT-TARIFFS', also: ['WIRE-GEN-SUCCESS-REPLY-SHAPE'] },
  { fault: 'calculate-tariff-type-unknown', failing: ['ensureTariffTypeIsKnown'], requirement: 'WIRE-DLV-CALCULATE-TARIFF-TYPE' },
  { fault: 'calculate-cost-as-text-over-10kg', failing: ['ensureTariffCostIsNumberOrAbsent'], requirement: 'DLV-CALCULATE-TARIFF-FIELDS' },
  { fault: 'calculate-extra-data-available-unknown', failing: ['ensureExtraDataAvailableAreDeclaredFields'], requirement: 'DLV-CALCULATE-EXTRADATAAVAILABLE' },
  { fault: 'calculate-accepts-zero-weight', failing: ['ensureWrongInputIsRefused'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD' },
  { fault: 'calculate-error-without-field', failing: ['ensureErrorNamesTheIncorrectField'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD' },
  { fault: 'calculate-error-without-errormsg', failing: ['ensureErrorBodyCarriesErrorMsg', 'ensureErrorBodyMatchesErrorShape'], requirement: 'GEN-ERR-REPLY-200-ERRORMSG', also: ['WIRE-GEN-ERROR-MISSING-ERRORMSG'] },
  { fault: 'tracking-updatedat-ymd', failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-DLV-TRACKING-UPDATEDAT-ISO8601' },
  { fault: 'callbacks-refuse-all', failing: ['ensureActivityAcknowledged', 'ensureModuleWasReached'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
];

/**
 * The hostile faults (and the process faults): a module correct in what the suite judges but
 * that floods, stalls, sends what no limit admits or will not stop. Each runs through the whole
 * suite (test/gauntlet/hostile.spec.ts): `failing` exactly, `info` at least (the information
 * checks that name what it did).
 */
export interface HostileCase {
  fault: string;
  failing: string[];
  info: string[];
}

export const HOSTILE_CASES: HostileCase[] = [
  { fault: 'flood-system', failing: [], info: [] },
  { fault: 'flood-gateway', failing: [], info: ['checkGatewayRateLimitIsKept'] },
  { fault: 'body-64mb', failing: [], info: ['checkModuleRequestsAreReadWhole'] },
  { fault: 'slow-connections', failing: [], info: ['checkModuleRequestsAreReadWhole'] },
  { fault: 'deep-json', failing: ['ensureSystemCallPayloadDecodes'], info: [] },
  { fault: 'ws-huge-frames', failing: [], info: ['checkModuleRequestsAreReadWhole'] },
  { fault: 'module-ignores-sigterm', failing: [], info: [] },
  { fault: 'child-ignores-sigterm', failing: [], info: [] },
];
