/**
 * The fault table: each fault variant of the reference module and the checks that must fail
 * against it, no more and no fewer. Where a fault leaves the suite nothing to send to the
 * module (no activity path, no clientId), the run-level `ensureModuleWasReached` fails too:
 * a run in which nothing reached the module is never a pass.
 */
import type { AreaName } from '../../src/run/areas.ts';

export interface FaultCase {
  fault: string;
  /**
   * The area (or areas) of the specs whose checks the fault fails: its row runs the suite narrowed
   * to it (`conformance run --area`; the registration area always runs).
   */
  area: AreaName | AreaName[];
  /**
   * Within a large area, the part the fault's check belongs to (a `--grep` pattern of its tests'
   * titles): the chat area's transport calls, webhooks, templates, rate limit and bot each take
   * about ten seconds alone and forty together; a delivery row took 17 s under the self-test's
   * load with its whole area and about 7 s with its part. The clean run and the whole-run tests
   * run every part; the session-end judgements run in every run, narrowed or not.
   */
  part?: string;
  /** Checks with status failed, exactly. */
  failing: string[];
  /** A requirement id the first failing check (or, with none failing, the first warning) must carry. */
  requirement?: string;
  /** Checks with status warning (SHOULD rules that did not hold), exactly; none when absent. */
  warnings?: string[];
  /** More requirement ids the run shows caught: each is carried by a failed or warning result of the run. */
  also?: string[];
  /** Cases per property of the row's run (`--runs`), where fewer than the default catch the fault every time. */
  runs?: number;
  /**
   * Settings merged over the reference module's configuration for the row's run: a shorter
   * per-request timeout for a fault that leaves callbacks unanswered (each costs the run that long).
   */
  settings?: { callbacks?: { timeoutMs?: number }; flowTimeoutMs?: number };
}

/**
 * The chat faults of the gateway calls are judged when the session ends, in any run: their rows
 * select the shortest chat test (the bot's command registration, read off the calls already made).
 */
const GW_PART = 'chat bot.*commands: PUT';

/**
 * The parts of the delivery, payment and telephony areas a fault row narrows to: a test (or a few)
 * whose check the fault fails, by the start of its title. Each area runs whole in the clean run.
 */
const DLV = {
  calculateValid: 'calculate: generated valid requests',
  calculateWrong: 'calculate: generated wrong input',
  saveValid: 'save: generated valid requests',
  saveWrong: 'save: generated wrong input',
  getSaved: 'get: each saved delivery',
  getUnknown: 'get: an unknown deliveryId',
  deleteSaved: 'delete: each saved delivery',
  sequences: 'delivery sequences',
  print: 'print: saved deliveries',
  lists: 'delivery lists',
  tariffList: 'tariffList: the tariffs',
  points: 'shipmentPointList: terminals',
  autocomplete: 'autocomplete: suggestions',
  tracking: 'delivery statuses pushed through tracking',
} as const;
const TEL = {
  callsUpload: 'call history uploaded',
  incomingEvent: 'an incoming call reported as a call event',
  managerFree: 'manager lookup answered with the free',
  managerNone: 'manager lookup answered without a manager',
  makeCallStarted: 'makeCallUrl: generated calls the module can start',
  makeCallUnstartable: 'makeCallUrl: generated calls the module cannot start',
  changeStatus: 'changeUserStatusUrl: the four statuses',
  recordFetched: 'recordUrl: every uploaded call',
  recordRefused: 'recordUrl: generated fetches with a missing',
} as const;
const PAY = {
  createValid: 'create: generated valid invoices',
  createWrong: 'create: generated wrong input',
  held: 'funds held: checked, then captured',
  heldCanceled: 'funds held, then the manager cancels',
  heldZeroApprove: 'funds held, then an approve of zero',
  noHold: 'no hold: paid after the check',
  canceledPaid: 'canceled, then paid',
  refusedCreate: 'a create with a missing clientId',
  refusedCancel: 'a cancel with an unknown clientId',
  systemCalls: 'payment calls to the system',
} as const;

/** A verdict or report the gateway never accepts is waited for once per run, for the flow timeout (at most 5 s): 3 s in the template rows that meet one. */
const VERDICT_WAIT = { flowTimeoutMs: 3000 };

export const FAULT_CASES: FaultCase[] = [
  { fault: 'delivery-duplicate-action-path', area: 'registration', failing: ['ensureDeliveryActionPathsAreUnique'], requirement: 'DLV-ACTIONS-UNIQUE-PATH' },
  { fault: 'delivery-required-field-unknown', area: 'registration', failing: ['ensureRequiredFieldsAreAllowed'], requirement: 'DLV-REQUIREDFIELDS-ALLOWED-VALUES', also: ['DLV-REQUIREDFIELDS-STRINGS'] },
  { fault: 'delivery-payer-type-unknown', area: 'registration', failing: ['ensurePayerTypesAreAllowed'], requirement: 'DLV-PAYERTYPE-VALUES' },
  { fault: 'delivery-self-shipment-without-point-list', area: 'registration', failing: ['ensureShipmentPointListWithSelfShipment'], requirement: 'DLV-SELFSHIPMENT-REQUIRES-POINTLIST' },
  { fault: 'delivery-save-without-delete', area: 'registration', failing: ['ensureSaveComesWithCalculateAndDelete'], requirement: 'DLV-SAVE-REQUIRES-DELETE-CALCULATE' },
  { fault: 'delivery-data-field-type-unknown', area: 'registration', failing: ['ensureDataFieldTypesAreKnown'], requirement: 'DLV-DATAFIELD-TYPE-VALUES' },
  { fault: 'delivery-choice-without-choices', area: 'registration', failing: ['ensureChoiceFieldsHaveChoices'], requirement: 'DLV-DATAFIELD-CHOICES-SHAPE' },
  { fault: 'delivery-autocomplete-without-url', area: 'registration', failing: ['ensureAutocompleteFieldsHaveUrl'], requirement: 'DLV-DATAFIELD-AUTOCOMPLETEURL' },
  { fault: 'delivery-extra-data-unknown-key', area: 'registration', failing: ['ensureExtraDataKeysAreFieldCodes'], requirement: 'DLV-SETTINGS-DELIVERYEXTRADATA-MAP' },
  { fault: 'delivery-autocomplete-default-not-label-value', area: 'registration', failing: ['ensureAutocompleteDefaultsAreLabelValue'], requirement: 'DLV-SETTINGS-AUTOCOMPLETE-DEFAULT' },
  { fault: 'payment-without-create', area: 'registration', failing: ['ensurePaymentDeclaresCreate'], requirement: 'PAY-ACTIONS-CREATE-REQUIRED' },
  { fault: 'payment-currency-not-iso', area: 'registration', failing: ['ensureCurrenciesAreIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-currency-unlisted', area: 'registration', failing: [], warnings: ['ensureCurrenciesAreListedIso4217'], requirement: 'PAY-CURRENCIES-ISO4217' },
  { fault: 'payment-invoice-type-unknown', area: 'registration', failing: ['ensureInvoiceTypesAreLink'], requirement: 'PAY-INVOICETYPES-LINK' },
  { fault: 'payment-shop-without-active', area: 'registration', failing: ['ensureShopsHaveCodeNameActive'], requirement: 'PAY-SHOPS-SHAPE' },
  { fault: 'mgbot-not-empty', area: 'registration', failing: ['ensureBotRegistersEmptyObject'], requirement: 'BOT-EMPTY-OBJECT-AT-REGISTRATION' },
  {
    fault: 'url-malformed', area: 'registration',
    failing: ['ensureUrlsAreWellFormed'],
    requirement: 'TEL-MAKECALLURL-URL',
    also: ['REG-ACCOUNTURL-URL', 'REG-LOGO-URL', 'TEL-CHANGEUSERSTATUSURL-URL', 'TEL-PERSONALACCOUNTURL-URL', 'DLV-CONFIGURATIONURL-URL', 'DLV-DATAFIELD-AUTOCOMPLETEURL', 'TRN-WEBHOOKURL-URL'],
  },
  {
    fault: 'registration-field-types-wrong', area: 'registration',
    failing: ['ensureMessageMatchesSchema'],
    requirement: 'REG-ACTIVE-BOOLEAN',
    also: [
      'REG-CODE-STRING', 'REG-INTEGRATIONCODE-STRING', 'REG-NAME-STRING', 'REG-ACTIONS-MAP-TO-PATH',
      'TEL-ALLOWEDIT-BOOLEAN', 'TEL-INPUTEVENTSUPPORTED-BOOLEAN', 'TEL-ADDITIONALCODES-SHAPE', 'TEL-EXTERNALPHONES-SHAPE',
      'DLV-ACTIONS-MAP-CODE-PATH', 'DLV-SELFSHIPMENT-BOOLEAN', 'DLV-CODAVAILABLE-BOOLEAN', 'DLV-ALLOWPACKAGES-BOOLEAN', 'DLV-RATEDELIVERYCOST-BOOLEAN',
      'DLV-SHIPMENTCOUNTRIES-ARRAY', 'DLV-DESCRIPTION-STRING', 'DLV-SHIPMENTDATAFIELDLIST-FORMAT', 'DLV-PLATELIST-ARRAY', 'DLV-PLATEPRINTLIMIT-INTEGER',
      'DLV-DATAFIELD-CODE-STRING', 'DLV-DATAFIELD-LABEL-STRING', 'DLV-DATAFIELD-HINT-OPTIONAL', 'DLV-DATAFIELD-REQUIRED-BOOLEAN', 'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN', 'DLV-DATAFIELD-EDITABLE-BOOLEAN',
      'DLV-DATAFIELD-MULTIPLE-BOOLEAN', 'DLV-SETTINGS-COSTCALCULATEBY-VALUES', 'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN', 'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN',
      'DLV-SETTINGS-PAYMENTTYPES-SHAPE', 'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE', 'DLV-SETTINGS-STATUSES-SHAPE', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP',
      'WIRE-DLV-EXTRA-REGISTRATION-FIELDS', 'PAY-ACTIONS-CODES-PATHS',
    ],
  },
  { fault: 'registration-never-sent', area: 'registration', failing: ['ensureModuleRegistersViaEdit', 'ensureModuleWasReached'], requirement: 'REG-REGISTER-VIA-EDIT' },
  { fault: 'refusal-missing-clientid-400', area: 'registration', failing: [], warnings: ['ensureRefusalUses401Or403'], requirement: 'WIRE-GEN-MISSING-CLIENTID-401-403' },
  { fault: 'call-event-ignored', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureTriggerLeadsToSystemCall'], requirement: 'TEL-EVENT-KINDS', settings: { flowTimeoutMs: 2000 } },
  {
    fault: 'system-calls-wrong-field', area: ['delivery', 'telephony'], part: `${DLV.tracking}|${TEL.callsUpload}|${TEL.incomingEvent}`,
    failing: ['ensureSystemCallPayloadDecodes'],
    requirement: 'WIRE-DLV-TRACKING-STATUSUPDATE-FIELD',
    also: ['WIRE-TEL-UPLOAD-CALLS-FIELD', 'TEL-EVENT-PARAM-JSON', 'TEL-EVENT-PHONE', 'WIRE-TEL-EVENT-FIELD'],
  },
  { fault: 'activity-action-missing', area: 'registration', failing: ['ensureModuleWasReached'], warnings: ['ensureActivityActionDeclared'], also: ['REG-ACTIONS-ACTIVITY', 'WIRE-REG-ACTIVITY-PATH-TOP-LEVEL'] },
  { fault: 'client-id-missing', area: 'registration', failing: ['ensureClientIdPresent', 'ensureModuleWasReached'], requirement: 'REG-CLIENTID-PRESENT' },
  {
    fault: 'activity-accepts-unknown-client', area: 'registration',
    failing: ['ensureRefusedCallbackHasNoEffect'],
    requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION',
    warnings: ['ensureRefusalUses401Or403'],
    also: ['WIRE-GEN-UNKNOWN-CLIENTID-401-403'],
  },
  // Error answers to a refusal: each fails the checks of the statements it breaks, no other.
  { fault: 'refusal-body-not-json', area: 'registration', failing: ['ensureErrorBodyIsJson', 'ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-NON-JSON-FAILURE', also: ['WIRE-GEN-ERROR-REPLY-SHAPE'] },
  { fault: 'refusal-without-errormsg', area: 'registration', failing: ['ensureErrorBodyCarriesErrorMsg', 'ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-MISSING-ERRORMSG', also: ['WIRE-GEN-ERROR-REPLY-SHAPE'] },
  { fault: 'refusal-errormsg-not-text', area: 'registration', failing: ['ensureErrorBodyMatchesErrorShape'], requirement: 'WIRE-GEN-ERROR-REPLY-SHAPE' },
  {
    fault: 'refusal-status-500', area: 'registration',
    failing: ['ensureErrorStatusIsNot5xx', 'ensureErrorStatusIsAccepted'],
    requirement: 'WIRE-GEN-ERROR-5XX-FAILURE',
    warnings: ['ensureRefusalUses401Or403'],
    also: ['WIRE-GEN-ERROR-STATUS-200-OR-4XX', 'WIRE-GEN-UNKNOWN-CLIENTID-401-403', 'WIRE-GEN-MISSING-CLIENTID-401-403'],
  },
  { fault: 'activity-reply-malformed', area: 'registration', failing: ['ensureActivityAcknowledged'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
  { fault: 'tracking-unchunked', area: 'delivery', part: DLV.tracking, failing: ['ensureTrackingHoldsAtMost100'], requirement: 'DLV-TRACKING-MAX-100', also: ['WIRE-DLV-TRACKING-MAX-100-ITEMS'], runs: 10 },
  { fault: 'tracking-without-api-key', area: 'delivery', part: DLV.tracking, failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER', runs: 10 },
  { fault: 'tracking-ignored', area: 'delivery', part: DLV.tracking, failing: ['ensureTriggerLeadsToSystemCall'], requirement: 'REG-PUSH-CURRENT-DATA', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'calls-upload-unchunked', area: 'telephony', part: TEL.callsUpload, failing: ['ensureCallsUploadHoldsAtMost50'], requirement: 'TEL-UPLOAD-MAX-50' },
  { fault: 'calls-upload-without-record-url', area: 'telephony', part: TEL.callsUpload, failing: ['ensureUploadedCallsHaveRecordUrl'], requirement: 'TEL-CALL-HAS-RECORDURL' },
  { fault: 'call-event-codes-not-strings', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureMessageMatchesSchema'], requirement: 'TEL-EVENT-CODES-STRINGS' },
  { fault: 'call-event-type-unknown', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-TEL-EVENT-TYPE-VALUES' },
  { fault: 'call-event-json-body', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureSystemCallPayloadDecodes'], requirement: 'WIRE-TEL-EVENT-FIELD' },
  // Telephony module-to-system flows and registration (issue 24, items 4-5): specs/system-api/telephony-flows.ts.
  { fault: 'calls-upload-drops-asked-call', area: 'telephony', part: TEL.callsUpload, failing: ['ensureRequestedItemsArrive'], requirement: 'REG-PUSH-CURRENT-DATA', runs: 30 },
  { fault: 'call-event-in-out-swapped', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureCallEventReportsAskedKind'], requirement: 'TEL-EVENT-KINDS', also: ['TEL-EVENT-TYPE-IN', 'WIRE-TEL-EVENT-TYPE-VALUES'], runs: 30 },
  { fault: 'call-event-phone-is-external', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureCallEventPhoneIsAsked'], requirement: 'TEL-EVENT-PHONE', runs: 30 },
  // The incoming call's number has 13 to 15 digits (issue 31, item 8): cut to 12 characters, it is another number.
  { fault: 'long-phone-truncated', area: 'telephony', part: TEL.incomingEvent, failing: ['ensureCallEventPhoneIsAsked'], requirement: 'TEL-EVENT-PHONE', runs: 30 },
  { fault: 'manager-lookup-by-post', area: 'telephony', part: TEL.managerFree, failing: ['ensureSystemCallUsesDocumentedMethod'], requirement: 'GEN-METHOD-MANAGER-GET', runs: 30 },
  { fault: 'manager-lookup-phone-param-renamed', area: 'telephony', part: TEL.managerFree, failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-TEL-MANAGER-PHONE-QUERY', runs: 30 },
  { fault: 'manager-lookup-crashes-without-manager', area: 'telephony', part: TEL.managerNone, failing: ['ensureManagerLookupCopesWithAnswer'], requirement: 'WIRE-TEL-MANAGER-REPLY-FORMS', runs: 30 },
  { fault: 'telephony-additional-codes-as-map', area: 'registration', failing: ['ensureMessageMatchesSchema'], requirement: 'TEL-ADDITIONALCODES-SHAPE' },
  { fault: 'telephony-external-phones-as-strings', area: 'registration', failing: ['ensureMessageMatchesSchema'], requirement: 'TEL-EXTERNALPHONES-SHAPE' },
  // Telephony callbacks (issue 24, items 1-3): specs/telephony/calls.spec.ts, records.spec.ts.
  { fault: 'make-call-201', area: 'telephony', part: TEL.makeCallStarted, failing: ['ensureStartedCallAnswers200'], requirement: 'TEL-MAKECALL-200-SUCCESS', runs: 30 },
  { fault: 'make-call-no-number-200', area: 'telephony', part: TEL.makeCallUnstartable, failing: ['ensureUnstartableCallIsNot200'], requirement: 'TEL-MAKECALL-200-SUCCESS', runs: 30 },
  // A status change never answered costs the run the per-request timeout: 1 s instead of 10 (the telephony triggers answer within 50 ms).
  { fault: 'change-status-hangs', area: 'telephony', part: TEL.changeStatus, failing: ['ensureCallbackIsAnswered'], requirement: 'TEL-CHANGEUSERSTATUSURL-URL', runs: 30, settings: { callbacks: { timeoutMs: 1000 } } },
  { fault: 'record-wav-as-mpeg', area: 'telephony', part: TEL.recordFetched, failing: ['ensureRecordIsAudioOfItsContentType'], requirement: 'TEL-RECORD-AUDIO-CONTENT-TYPE', runs: 30 },
  { fault: 'record-without-client-id', area: 'telephony', part: TEL.recordRefused, failing: ['ensureRefusedRecordGivesNoAudio'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 30 },
  // Chat: gateway calls and webhooks (issue 25, items 1-2): specs/chat/transport.spec.ts.
  // Chat: gateway calls, judged when the session ends (src/run/gateway-calls.ts).
  { fault: 'gw-calls-without-token', area: 'chat', part: GW_PART, failing: ['ensureGatewayCallCarriesToken'], requirement: 'TRN-AUTH-TOKEN-HEADER', also: ['BOT-AUTH-TOKEN-HEADER'], runs: 10 },
  { fault: 'gw-calls-unknown-token', area: 'chat', part: GW_PART, failing: ['ensureGatewayTokenIsFromRegistration'], requirement: 'TRN-AUTH-TOKEN-FROM-REGISTRATION', also: ['BOT-AUTH-TOKEN-FROM-REGISTRATION'], runs: 10 },
  { fault: 'gw-wrong-api-prefix', area: 'chat', part: GW_PART, failing: ['ensureGatewayCallAtKnownEndpoint'], requirement: 'TRN-API-BASE-PATH', also: ['WIRE-TRN-ENDPOINTURL-BASE', 'BOT-API-BASE-PATH', 'WIRE-BOT-ENDPOINTURL-BASE'], runs: 10 },
  { fault: 'gw-channel-update-patch', area: 'chat', part: GW_PART, failing: ['ensureGatewayCallAtKnownEndpoint'], requirement: 'WIRE-TRN-API-PATHS', runs: 10 },
  { fault: 'gw-channel-settings-bad-json', area: 'chat', part: GW_PART, failing: ['ensureGatewayAcceptedCall'], requirement: 'WIRE-TRN-API-JSON', runs: 10 },
  { fault: 'gw-channel-policy-unknown', area: 'chat', part: GW_PART, failing: ['ensureChannelSettingsAreLegal'], requirement: 'TRN-POLICY-NEW-CUSTOMER-VALUES', also: ['TRN-POLICY-AFTER-REPLY-VALUES'], runs: 10 },
  { fault: 'gw-channel-feature-unknown', area: 'chat', part: GW_PART, failing: ['ensureChannelSettingsAreLegal'], requirement: 'WIRE-TRN-CHANNEL-FEATURE-VALUES', runs: 10 },
  { fault: 'gw-channel-creation-string', area: 'chat', part: GW_PART, failing: ['ensureChannelSettingsAreLegal'], requirement: 'TRN-TEMPLATE-CREATION-BOOLEAN', runs: 10 },
  { fault: 'gw-channel-external-id-number', area: 'chat', part: GW_PART, failing: ['ensureChannelSettingsAreLegal'], requirement: 'WIRE-TRN-CHANNEL-ACTIVATION-BODY', runs: 10 },
  { fault: 'transport-without-webhook-url', area: 'registration', failing: ['ensureTransportGivesWebhookUrl'], requirement: 'TRN-WEBHOOKURL-GIVEN' },
  // Chat: webhooks to webhookUrl (specs/chat/webhooks.spec.ts).
  { fault: 'webhook-template-code-reused', area: 'chat', part: 'transport webhooks', failing: ['ensureTemplateCodeUniqueInChannel'], requirement: 'TRN-TEMPLATE-CODE-UNIQUE-IN-CHANNEL', runs: 20 },
  { fault: 'webhook-template-create-without-code', area: 'chat', part: 'transport webhooks', failing: ['ensureTemplateCreateAnswersCode'], requirement: 'TRN-TEMPLATE-CREATE-REPLY-CODE', also: ['TRN-TEMPLATE-CODE-STRING'], runs: 20 },
  { fault: 'webhook-message-sent-error-code-unknown', area: 'chat', part: 'transport webhooks', failing: ['ensureMessageSentErrorCodeKnown'], requirement: 'WIRE-TRN-MESSAGE-SENT-ERROR-CODES', runs: 20 },
  { fault: 'webhook-message-sent-without-id', area: 'chat', part: 'transport webhooks', failing: ['ensureMessageSentAnswersReply'], requirement: 'WIRE-TRN-MESSAGE-SENT-REPLY', runs: 20 },
  { fault: 'webhook-without-client-id-accepted', area: 'chat', part: 'transport webhooks', failing: ['ensureWebhookWithoutClientIdRefused'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 10 },
  { fault: 'webhook-refused-but-acted', area: 'chat', part: 'transport webhooks', failing: ['ensureRefusedWebhookLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 20 },
  // A transport that refuses every webhook: what needs acceptance fails, the probes' refusals prove nothing (not applicable, test/gauntlet/refusal-credit.spec.ts); nothing reached it (issue 31, item 4).
  { fault: 'transport-refuses-every-webhook', area: 'chat', part: 'transport webhooks', failing: ['ensureMessageSentAnswersReply', 'ensureMessageWebhookAcknowledged', 'ensureModuleWasReached', 'ensureTemplateCreateAnswersCode'], requirement: 'WIRE-TRN-MESSAGE-SENT-REPLY', runs: 60 },
  { fault: 'webhook-delete-500', area: 'chat', part: 'transport webhooks', failing: ['ensureTemplateDeleteAcknowledged'], requirement: 'TRN-WEBHOOKURL-GIVEN', runs: 60 },
  { fault: 'webhook-template-update-refused', area: 'chat', part: 'transport webhooks', failing: ['ensureTemplateUpdateAcknowledged'], requirement: 'TRN-WEBHOOKURL-GIVEN', runs: 60 },
  { fault: 'webhook-message-events-unhandled', area: 'chat', part: 'transport webhooks', failing: ['ensureMessageWebhookAcknowledged'], requirement: 'WIRE-TRN-WEBHOOK-ANSWERED', runs: 20 },
  // Chat: templates (issue 25, item 3): specs/chat/templates.spec.ts.
  { fault: 'template-verdict-status-unknown', area: 'chat', part: 'chat templates', failing: ['ensureTemplateVerificationStatusIsKnown'], requirement: 'TRN-TEMPLATE-VERIFICATION-VALUES', runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-rejection-reason-unknown', area: 'chat', part: 'chat templates', failing: ['ensureTemplateRejectionReasonIsKnown'], requirement: 'TRN-TEMPLATE-REJECTION-REASON-VALUES', runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-quality-unknown', area: 'chat', part: 'chat templates', failing: ['ensureTemplateQualityIsKnown'], requirement: 'WIRE-TRN-TEMPLATE-QUALITY-VALUES', runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-verdict-by-post', area: 'chat', part: 'chat templates', failing: ['ensureTemplateVerdictFollowsTable'], requirement: 'TRN-TEMPLATE-UPDATE-PUT', also: ['TRN-VERIFY-APPROVED-VIA-PUT', 'TRN-VERIFY-REJECTED-VIA-PUT'], runs: 20 },
  { fault: 'template-approve-rejected', area: 'chat', part: 'chat templates', failing: ['ensureTemplateVerdictFollowsTable'], requirement: 'TRN-VERIFY-REJECTED-VIA-PUT', also: ['TRN-VERIFY-APPROVED-VIA-PUT', 'TRN-TEMPLATE-UPDATE-PUT'], runs: 20 },
  { fault: 'template-verdict-not-sent', area: 'chat', part: 'chat templates', failing: ['ensureTemplateVerdictIsReported'], requirement: 'TRN-VERIFY-REJECTED-VIA-PUT', also: ['TRN-VERIFY-APPROVED-VIA-PUT'], runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-verdict-without-name', area: 'chat', part: 'chat templates', failing: ['ensureTemplateUpdateCarriesFields'], requirement: 'TRN-TEMPLATE-UPDATE-FIELDS', runs: 20 },
  { fault: 'template-verdict-unknown-code', area: 'chat', part: 'chat templates', failing: ['ensureTemplateCallsAreAccepted'], runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-report-eleven-quick-replies', area: 'chat', part: 'chat templates', failing: ['ensureTemplateQuickRepliesWithinLimit'], requirement: 'TRN-TEMPLATE-QUICK-REPLIES-MAX-10', runs: 20 },
  { fault: 'template-report-by-put', area: 'chat', part: 'chat templates', failing: ['ensureTemplateReportIsPosted'], requirement: 'TRN-TEMPLATE-REPORT-POST', runs: 20 },
  { fault: 'template-report-without-code', area: 'chat', part: 'chat templates', failing: ['ensureTemplateReportCarriesFields'], requirement: 'TRN-TEMPLATE-REPORT-FIELDS', runs: 20, settings: VERDICT_WAIT },
  { fault: 'template-attachment-type-unknown', area: 'chat', part: 'chat templates', failing: ['ensureTemplateAttachmentTypesAreKnown'], requirement: 'TRN-TEMPLATE-ATTACHMENT-TYPES', runs: 20 },
  { fault: 'template-button-type-unknown', area: 'chat', part: 'chat templates', failing: ['ensureTemplateButtonTypesAreKnown'], requirement: 'TRN-TEMPLATE-BUTTON-TYPES', runs: 20 },
  { fault: 'template-url-button-without-url', area: 'chat', part: 'chat templates', failing: ['ensureTemplateUrlButtonsHaveUrl'], requirement: 'TRN-TEMPLATE-URL-BUTTON-URL', runs: 20 },
  {
    fault: 'template-header-and-attachments', area: 'chat', part: 'chat templates',
    failing: ['ensureTemplateCallMatchesSchema'],
    requirement: 'TRN-TEMPLATE-ATTACHMENTS-REPLACE-HEADER',
    also: ['TRN-TEMPLATE-HEADER-SHAPE', 'TRN-TEMPLATE-EXAMPLES-SHAPE', 'TRN-TEMPLATE-NAME-STRING', 'TRN-TEMPLATE-FOOTER-STRING', 'TRN-TEMPLATE-BUTTONS-ITEMS', 'TRN-TEMPLATE-PHONE-BUTTON-PHONE'],
    runs: 20,
  },
  // Chat: rate limit (issue 25, item 4): specs/chat/rate-limit.spec.ts.
  // The resend after a 429 is a SHOULD (issue 31, item 7: no sentence binds the module to resend): a warning.
  { fault: 'rate-drops-on-429', area: 'chat', part: 'gateway rate limit.*transport:', failing: [], warnings: ['ensureEveryMessageArrives'], requirement: 'TRN-RATE-LIMIT-BACKOFF', runs: 10 },
  { fault: 'rate-retry-new-external-id', area: 'chat', part: 'gateway rate limit.*transport:', failing: [], warnings: ['ensureRetryKeepsExternalId'], requirement: 'TRN-RATE-LIMIT-BACKOFF', runs: 10 },
  { fault: 'rate-no-backoff', area: 'chat', part: 'gateway rate limit.*transport:', failing: ['ensureRateBacksOff'], requirement: 'GEN-RATE-30-PER-SECOND', runs: 10 },
  { fault: 'rate-bot-drops-on-429', area: 'chat', part: 'gateway rate limit.*bot:', failing: [], warnings: ['ensureEveryMessageArrives'], requirement: 'BOT-RATE-LIMIT-BACKOFF', runs: 10 },
  // Chat: bot (issue 25, item 5): specs/chat/bot.spec.ts.
  { fault: 'bot-command-by-post', area: 'chat', part: 'chat bot', failing: ['ensureBotCommandsArePut'], requirement: 'BOT-COMMANDS-PUT', runs: 10 },
  { fault: 'bot-command-body-array', area: 'chat', part: 'chat bot', failing: ['ensureBotCommandBodyIsNameDescription'], requirement: 'WIRE-BOT-COMMAND-BODY', runs: 10 },
  { fault: 'bot-command-description-long', area: 'chat', part: 'chat bot', failing: ['ensureBotCommandDescriptionFits'], requirement: 'WIRE-BOT-COMMAND-DESCRIPTION-MAX-64', runs: 10 },
  { fault: 'bot-no-command-registration', area: 'chat', part: 'chat bot', failing: ['ensureBotRegistersCommandsAfterRegistration'], requirement: 'BOT-COMMANDS-AFTER-REGISTRATION', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'bot-ws-without-token', area: 'chat', part: 'chat bot', failing: ['ensureBotSocketCarriesToken'], requirement: 'WIRE-BOT-WS-TOKEN-HEADER', also: ['BOT-AUTH-TOKEN-HEADER'], runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'bot-ws-wrong-path', area: 'chat', part: 'chat bot', failing: ['ensureBotSocketAddress'], requirement: 'WIRE-BOT-WS-URL', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'bot-no-websocket', area: 'chat', part: 'chat bot', failing: ['ensureBotListensOnSocket'], requirement: 'BOT-WEBSOCKET-LISTEN', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'bot-answers-other-chat', area: 'chat', part: 'chat bot', failing: ['ensureBotAnswersInItsChat'], requirement: 'BOT-WEBSOCKET-LISTEN', runs: 10 },
  { fault: 'bot-message-without-scope', area: 'chat', part: 'chat bot', failing: ['ensureBotMessageBody'], requirement: 'WIRE-BOT-MESSAGES-BODY', runs: 10 },
  // Redialing at once after each close also warns (a SHOULD: "after a timeout", issue 31 item 7).
  { fault: 'bot-reconnect-tight-loop', area: 'chat', part: 'chat bot', failing: ['ensureBotReconnectIsNotTightLoop'], warnings: ['ensureBotPausesBeforeRedialing'], requirement: 'BOT-RECONNECT-AFTER-CLOSE', runs: 10 },
  { fault: 'bot-no-reconnect-after-abnormal-close', area: 'chat', part: 'chat bot', failing: ['ensureBotReconnectsAfterAbnormalClose'], requirement: 'BOT-RECONNECT-AFTER-CLOSE', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'bot-no-reconnect-after-normal-close', area: 'chat', part: 'chat bot', failing: ['ensureBotReconnectsAfterNormalClose'], requirement: 'BOT-RECONNECT-AFTER-CLOSE', runs: 10, settings: { flowTimeoutMs: 2000 } },
  { fault: 'startup-tracking-without-api-key', area: 'delivery', part: DLV.tariffList, failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER', runs: 10 },
  // The registration call: a refused registration is judged (exit 1), not an aborted run; nothing then reaches the module.
  { fault: 'registration-missing-api-key', area: 'registration', failing: ['ensureEditCarriesTheApiKey', 'ensureModuleWasReached'], requirement: 'GEN-AUTH-APIKEY-AT-REGISTRATION' },
  { fault: 'registration-wrong-api-key', area: 'registration', failing: ['ensureEditCarriesTheApiKey', 'ensureModuleWasReached'], requirement: 'GEN-AUTH-APIKEY-AT-REGISTRATION' },
  { fault: 'registration-json-body', area: 'registration', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'REG-EDIT-FORM-PARAMS' },
  { fault: 'registration-without-integration-module', area: 'registration', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'WIRE-REG-EDIT-INTEGRATIONMODULE-FIELD' },
  { fault: 'registration-malformed-json', area: 'registration', failing: ['ensureEditSendsIntegrationModuleForm', 'ensureModuleWasReached'], requirement: 'REG-EDIT-FORM-PARAMS' },
  { fault: 'registration-api-v4', area: 'registration', failing: ['ensureSystemCallsUseApiV5'], requirement: 'GEN-VERSION-SYSTEM-V5' },
  { fault: 'registration-201-as-failure', area: 'registration', failing: ['ensureAcceptedRegistrationIsNotRepeated'], requirement: 'REG-EDIT-REPLY-SUCCESS' },
  // Module-to-system calls judged on what the system answered.
  { fault: 'tracking-wrong-api-key', area: 'delivery', part: DLV.tracking, failing: ['ensureSystemCallCarriesApiKey'], requirement: 'WIRE-GEN-APIKEY-PARAM-OR-HEADER', runs: 10 },
  { fault: 'tracking-wrong-subcode', area: 'delivery', part: DLV.tracking, failing: ['ensureTrackingSubcodeIsModuleCode'], requirement: 'DLV-TRACKING-SUBCODE-IS-CODE', runs: 10 },
  { fault: 'system-calls-put', area: ['delivery', 'telephony'], part: `${DLV.tracking}|${TEL.callsUpload}|${TEL.incomingEvent}`, failing: ['ensureSystemCallUsesDocumentedMethod'], requirement: 'GEN-METHOD-TRACKING-POST', also: ['GEN-METHOD-CALLS-UPLOAD-POST', 'GEN-METHOD-CALL-EVENT-POST'], runs: 10 },
  { fault: 'tracking-truncated', area: 'delivery', part: DLV.tracking, failing: ['ensureRequestedItemsArrive'], requirement: 'REG-PUSH-CURRENT-DATA', runs: 10 },
  // Tracking asked about the deliveries the run saved (issue 22, item 5): both passed when only a count was asked for.
  { fault: 'tracking-drops-one-syncs-others', area: 'delivery', part: DLV.tracking, failing: ['ensureRequestedItemsArrive'], requirement: 'REG-PUSH-CURRENT-DATA', runs: 10 },
  { fault: 'tracking-track-number-as-id', area: 'delivery', part: DLV.tracking, failing: ['ensureRequestedItemsArrive'], requirement: 'REG-PUSH-CURRENT-DATA', runs: 10 },
  { fault: 'calculate-result-not-array', area: 'delivery', part: DLV.calculateValid, failing: ['ensureCalculateAnswersTariffList'], requirement: 'WIRE-DLV-CALCULATE-RESULT-TARIFFS', also: ['WIRE-GEN-SUCCESS-REPLY-SHAPE'], runs: 30 },
  { fault: 'calculate-tariff-type-unknown', area: 'delivery', part: DLV.calculateValid, failing: ['ensureTariffTypeIsKnown'], requirement: 'WIRE-DLV-CALCULATE-TARIFF-TYPE', runs: 30 },
  // Issue 31, item 6: a check never holds on what it judges being absent.
  { fault: 'tariff-without-code', area: 'delivery', part: DLV.calculateValid, failing: ['ensureCalculateAnswersTariffList'], requirement: 'WIRE-DLV-CALCULATE-RESULT-TARIFFS', runs: 30 },
  { fault: 'calculate-cost-as-text-over-10kg', area: 'delivery', part: DLV.calculateValid, failing: ['ensureTariffCostIsNumberOrAbsent'], requirement: 'DLV-CALCULATE-TARIFF-FIELDS', runs: 30 },
  { fault: 'calculate-extra-data-available-unknown', area: 'delivery', part: DLV.calculateValid, failing: ['ensureExtraDataAvailableAreDeclaredFields'], requirement: 'DLV-CALCULATE-EXTRADATAAVAILABLE', runs: 30 },
  // Valid addresses in Cyrillic and with diacritics (issue 31, item 8): a 500 to them is caught by the error-status rules.
  { fault: 'non-ascii-city-500', area: 'delivery', part: DLV.calculateValid, failing: ['ensureErrorStatusIsNot5xx', 'ensureErrorStatusIsAccepted'], requirement: 'WIRE-GEN-ERROR-5XX-FAILURE', runs: 30 },
  { fault: 'calculate-accepts-zero-weight', area: 'delivery', part: DLV.calculateWrong, failing: ['ensureWrongInputIsRefused'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 30 },
  { fault: 'calculate-error-without-field', area: 'delivery', part: DLV.calculateWrong, failing: ['ensureErrorNamesTheIncorrectField'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 30 },
  { fault: 'calculate-resets-connection', area: 'delivery', part: DLV.calculateValid, failing: ['ensureCallbackIsAnswered'], runs: 30 },
  { fault: 'calculate-error-without-errormsg', area: 'delivery', part: DLV.calculateWrong, failing: ['ensureErrorBodyCarriesErrorMsg', 'ensureErrorBodyMatchesErrorShape'], requirement: 'GEN-ERR-REPLY-200-ERRORMSG', also: ['WIRE-GEN-ERROR-MISSING-ERRORMSG'], runs: 30 },
  { fault: 'save-result-without-delivery-id', area: 'delivery', part: DLV.saveValid, failing: ['ensureSaveReturnsDeliveryId'], requirement: 'WIRE-GEN-SUCCESS-REPLY-SHAPE', also: ['WIRE-DLV-SAVE-RESULT-DELIVERYID'], runs: 30 },
  // A past delivery date (document, Errors 7's own example), sent in calculate and save; a past shipment date is no wrong input (variation accepts-past-shipment-date).
  { fault: 'accepts-past-delivery-date', area: 'delivery', part: `${DLV.calculateWrong}|${DLV.saveWrong}`, failing: ['ensureWrongInputIsRefused'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 40 },
  { fault: 'get-dates-d-m-y', area: 'delivery', part: DLV.getSaved, failing: ['ensureGetDatesAreYmd'], requirement: 'WIRE-DLV-GET-DATES-YMD', runs: 30 },
  { fault: 'get-updatedat-ymd', area: 'delivery', part: DLV.getSaved, failing: ['ensureGetStatusUpdatedAtIsIso8601'], requirement: 'WIRE-DLV-GET-UPDATEDAT-ISO8601', runs: 30 },
  { fault: 'get-cost-as-text', area: 'delivery', part: DLV.getSaved, failing: ['ensureGetAnswersDelivery'], requirement: 'WIRE-DLV-GET-RESULT-SHAPE', also: ['WIRE-GEN-SUCCESS-REPLY-SHAPE'], runs: 30 },
  { fault: 'get-unknown-id-success', area: 'delivery', part: DLV.getUnknown, failing: ['ensureUnknownDeliveryIdIsRefused'], requirement: 'WIRE-DLV-GET-UNKNOWN-ID-ERROR', runs: 30 },
  { fault: 'delete-refuses-saved', area: 'delivery', part: DLV.deleteSaved, failing: ['ensureDeleteAcknowledged'], requirement: 'DLV-DELETE-POST' },
  { fault: 'delivery-get-actions-on-post', area: 'delivery', part: `${DLV.lists}|${DLV.getUnknown}`, failing: ['ensureActionServedAtItsMethod'], requirement: 'DLV-GET-GET', also: ['DLV-SHIPMENTPOINTLIST-GET', 'DLV-TARIFFLIST-GET', 'DLV-AUTOCOMPLETE-GET'], runs: 30 },
  { fault: 'delivery-post-actions-on-get', area: 'delivery', part: `${DLV.calculateValid}|${DLV.print}`, failing: ['ensureActionServedAtItsMethod'], requirement: 'DLV-CALCULATE-POST', also: ['DLV-PRINT-POST'], runs: 30 },
  { fault: 'save-on-get', area: 'delivery', part: DLV.saveValid, failing: ['ensureActionServedAtItsMethod'], requirement: 'DLV-SAVE-POST', runs: 30 },
  { fault: 'vat-none-refused', area: 'delivery', part: DLV.calculateValid, failing: ['ensureVatRateNoneIsAccepted'], requirement: 'DLV-VATRATE-NONE-ACCEPTED', runs: 30 },
  // Caught by the stateful sequences only (specs/delivery/sequences.spec.ts).
  { fault: 'shipment-save-id-as-object', area: 'delivery', part: DLV.sequences, failing: ['ensureShipmentSaveAnswersShipment'], requirement: 'WIRE-DLV-SHIPMENTSAVE-RESULT', also: ['WIRE-GEN-SUCCESS-REPLY-SHAPE'] },
  { fault: 'save-extra-data-unknown-key', area: 'delivery', part: DLV.sequences, failing: ['ensureReplyExtraDataKeysAreDataFields'], requirement: 'WIRE-DLV-EXTRADATA-MAP' },
  { fault: 'shipment-save-without-shipment-id', area: 'delivery', part: DLV.sequences, failing: ['ensureShipmentSaveAnswersShipment'], requirement: 'WIRE-DLV-SHIPMENTSAVE-RESULT' },
  { fault: 'shipment-delete-refuses-saved', area: 'delivery', part: DLV.sequences, failing: ['ensureShipmentDeleteAcknowledged'], requirement: 'DLV-SHIPMENTDELETE-POST' },
  { fault: 'get-after-edit-unknown', area: 'delivery', part: DLV.sequences, failing: ['ensureLiveDeliveryIsServed'], requirement: 'WIRE-DLV-GET-RESULT-SHAPE' },
  { fault: 'refused-delete-takes-effect', area: 'delivery', part: DLV.sequences, failing: ['ensureRefusalLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION' },
  // The clientId probed on every callback (issue 31, item 5): specs/delivery/client-id.spec.ts.
  { fault: 'tariff-list-accepts-any-client-id', area: 'delivery', part: 'clientId: tariffList', failing: ['ensureRefusedCallbackHasNoEffect'], warnings: ['ensureRefusalUses401Or403'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', also: ['WIRE-GEN-MISSING-CLIENTID-401-403', 'WIRE-GEN-UNKNOWN-CLIENTID-401-403'], runs: 4 },
  { fault: 'refused-shipment-save-takes-effect', area: 'delivery', part: 'clientId: shipmentSave', failing: ['ensureRefusalLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 4 },
  { fault: 'refused-make-call-takes-effect', area: 'telephony', part: 'clientId: makeCallUrl', failing: ['ensureRefusalLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 4 },
  { fault: 'tracking-updatedat-ymd', area: 'delivery', part: DLV.tracking, failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-DLV-TRACKING-UPDATEDAT-ISO8601', runs: 10 },
  { fault: 'callbacks-refuse-all', area: 'registration', failing: ['ensureActivityAcknowledged', 'ensureModuleWasReached'], requirement: 'WIRE-REG-ACTIVITY-REPLY-SUCCESS' },
  // Delivery print and lists (issue 22): generated print, tariffList, shipmentPointList, autocomplete.
  { fault: 'print-pdf-without-xref', area: 'delivery', part: DLV.print, failing: ['ensurePrintAnswersPdfOrZip'], requirement: 'DLV-PRINT-PDF-OR-ZIP', also: ['WIRE-DLV-PRINT-PDF-OR-ZIP'], runs: 30 },
  { fault: 'print-zip-content-type-pdf', area: 'delivery', part: DLV.print, failing: ['ensurePrintContentTypeMatches'], requirement: 'DLV-PRINT-PDF-OR-ZIP', also: ['WIRE-DLV-PRINT-PDF-OR-ZIP'], runs: 30 },
  { fault: 'print-flat-ids-refused', area: 'delivery', part: DLV.print, failing: [], warnings: ['ensurePrintAcceptsFlatDeliveryIds'], requirement: 'WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH', runs: 30 },
  { fault: 'print-refuses-nested-ids', area: 'delivery', part: DLV.print, failing: [], warnings: ['ensurePrintAcceptsNestedDeliveryIds'], requirement: 'WIRE-DLV-PRINT-DELIVERYIDS-ACCEPT-BOTH', runs: 30 },
  { fault: 'print-error-200', area: 'delivery', part: DLV.print, failing: ['ensurePrintErrorIs400'], requirement: 'DLV-PRINT-ERROR-400', also: ['WIRE-DLV-PRINT-ERROR-400'] },
  { fault: 'tariff-list-result-not-array', area: 'delivery', part: DLV.tariffList, failing: ['ensureTariffListAnswersTariffs'], requirement: 'WIRE-DLV-TARIFFLIST-RESULT', runs: 30 },
  { fault: 'points-result-not-array', area: 'delivery', part: DLV.points, failing: ['ensureShipmentPointListAnswersTerminals'], requirement: 'WIRE-DLV-SHIPMENTPOINTLIST-RESULT', runs: 30 },
  { fault: 'points-coordinates-as-text', area: 'delivery', part: DLV.points, failing: ['ensureTerminalsMatchTerminalShape'], requirement: 'WIRE-DLV-TERMINAL-SHAPE', runs: 30 },
  { fault: 'autocomplete-result-as-labels', area: 'delivery', part: DLV.autocomplete, failing: [], warnings: ['ensureAutocompleteAnswersSuggestions'], requirement: 'WIRE-DLV-AUTOCOMPLETE-RESULT', runs: 30 },
  // Payment create and unknown payment ids (issue 23, item 1): specs/payment/callbacks.spec.ts.
  // Caught by the payment sequences and flows (specs/payment/sequences.spec.ts, flows.spec.ts).
  { fault: 'approve-reports-canceled', area: 'payment', part: PAY.held, failing: ['ensureInvoiceReportsFollowTable'], requirement: 'PAY-INVOICE-TABLE-TRANSITIONS', runs: 15 },
  { fault: 'hold-skips-check', area: 'payment', part: PAY.held, failing: ['ensureHoldFollowsPassedCheck'], requirement: 'PAY-PENDING-TO-WAITING-ON-HOLD', runs: 15 },
  { fault: 'paid-skips-check', area: 'payment', part: PAY.noHold, failing: [], warnings: ['ensureSuccessFollowsPassedCheck'], requirement: 'PAY-FLOW-NO-HOLD-CHECK', runs: 15 },
  { fault: 'canceled-still-paid', area: 'payment', part: PAY.canceledPaid, failing: ['ensureCanceledInvoiceTakesNoPayment'], requirement: 'PAY-CANCELED-NO-MORE-PAYMENTS', runs: 15 },
  { fault: 'refused-create-takes-effect', area: 'payment', part: PAY.refusedCreate, failing: ['ensureRefusalLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 15 },
  { fault: 'refused-cancel-takes-effect', area: 'payment', part: PAY.refusedCancel, failing: ['ensureRefusalLeftNoEffect'], requirement: 'WIRE-GEN-BAD-CLIENTID-NO-ACTION', runs: 15 },
  { fault: 'refund-not-reported', area: 'payment', part: PAY.noHold, failing: ['ensureActionIsReported'], requirement: 'PAY-REFUND-SETS-REFUNDSUCCEEDED', runs: 15 },
  { fault: 'refund-result-as-list', area: 'payment', part: PAY.noHold, failing: ['ensureRefundAnswersRefund'], requirement: 'WIRE-PAY-REFUND-RESULT', runs: 15 },
  { fault: 'approve-not-reported', area: 'payment', part: PAY.held, failing: ['ensureActionIsReported'], warnings: ['ensureActionIsReported'], requirement: 'PAY-APPROVE-SETS-SUCCEEDED', also: ['PAY-FLOW-MANUAL-CAPTURE-WAITING'], runs: 15 },
  { fault: 'cancel-not-reported', area: 'payment', part: PAY.heldCanceled, failing: ['ensureActionIsReported'], requirement: 'PAY-CANCEL-SETS-CANCELED', also: ['PAY-UPDATE-INVOICE-ENDPOINT'], runs: 15 },
  { fault: 'paid-not-reported', area: 'payment', part: PAY.noHold, failing: ['ensureActionIsReported'], requirement: 'PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT', runs: 15 },
  { fault: 'refund-without-amount-partial', area: 'payment', part: PAY.noHold, failing: ['ensureRefundWithoutAmountIsFull'], requirement: 'WIRE-PAY-REFUND-NO-AMOUNT-FULL', runs: 15 },
  // The flow 'no hold: paid after the check (succeeded), then partly refunded' asks for a part (issue 31, item 8).
  { fault: 'partial-refund-refunds-all', area: 'payment', part: PAY.noHold, failing: ['ensureRefundReturnsAskedAmount'], requirement: 'WIRE-PAY-REFUND-AMOUNT', runs: 15 },
  { fault: 'update-invoice-status-unknown', area: 'payment', part: PAY.noHold, failing: ['ensureInvoiceStatusIsKnown'], requirement: 'PAY-INVOICE-STATUS-VALUES', also: ['WIRE-PAY-UPDATE-INVOICE-STATUS'], runs: 15 },
  { fault: 'update-invoice-amount-as-text', area: 'payment', part: PAY.noHold, failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-PAY-UPDATE-INVOICE-FIELD', runs: 15 },
  { fault: 'update-invoice-put', area: 'payment', part: `${PAY.noHold}|${PAY.systemCalls}`, failing: ['ensureSystemCallUsesDocumentedMethod'], requirement: 'GEN-METHOD-UPDATE-INVOICE-POST', runs: 15 },
  { fault: 'check-by-get', area: 'payment', part: `${PAY.noHold}|${PAY.systemCalls}`, failing: ['ensureSystemCallUsesDocumentedMethod'], requirement: 'GEN-METHOD-PAYMENT-CHECK-POST', runs: 15 },
  { fault: 'check-amount-as-text', area: 'payment', part: PAY.noHold, failing: ['ensureMessageMatchesSchema'], requirement: 'WIRE-PAY-CHECK-FIELD', runs: 15 },
  { fault: 'approve-accepts-zero-amount', area: 'payment', part: PAY.heldZeroApprove, failing: ['ensureWrongInputIsRefused'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 15 },
  { fault: 'create-without-invoice-url', area: 'payment', part: PAY.createValid, failing: ['ensureCreateReturnsPaymentLink'], requirement: 'PAY-CREATE-RETURNS-PAYMENT-LINK', also: ['WIRE-PAY-CREATE-RESULT'], runs: 15 },
  { fault: 'create-accepts-zero-amount', area: 'payment', part: PAY.createWrong, failing: ['ensureWrongInputIsRefused'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 40 },
  { fault: 'create-error-without-field', area: 'payment', part: PAY.createWrong, failing: ['ensureErrorNamesTheIncorrectField'], requirement: 'GEN-ERR-NAMES-INCORRECT-FIELD', runs: 40 },
  { fault: 'payment-create-on-get', area: 'payment', part: PAY.createValid, failing: ['ensureActionServedAtItsMethod'], requirement: 'PAY-CALLBACKS-POST', runs: 15 },
];

/**
 * The hostile faults (and the process faults): a module correct in what the suite judges but
 * that floods, stalls, sends what no limit admits or will not stop. Each runs the suite narrowed
 * to where its hostile behaviour happens (test/gauntlet/hostile.spec.ts): `failing` exactly,
 * `info` at least (the information checks that name what it did).
 */
export interface HostileCase {
  fault: string;
  failing: string[];
  info: string[];
  /**
   * The options that narrow its run (`--area`, `--grep`, `--runs`) to where its hostile behaviour
   * happens, the whole behaviour met before the run ends (hostile.spec.ts reads the module's log).
   */
  narrow: string[];
  /** Settings merged over the reference module's configuration. */
  settings?: { callbacks?: { timeoutMs?: number; maxBodyBytes?: number }; generation?: { seed?: number; runs?: number; timeLimitMs?: number } };
}

/**
 * The hostile answers of calculate, to a calculate over 60 kg, run the calculate property of valid
 * requests alone (its wrong input meets a heavy case once in a hundred; the fixed cost of a run is
 * most of a row's time), 30 cases (3 of them over 60 kg), with a per-request timeout of 1 s (a
 * stalled callback costs the run at most that), the seed fixed (the same few calculates over 60 kg
 * each time: the first is the fifth case) and a time budget of 3 s (which bounds how many stalled
 * cases and shrink steps the property sends). The body cap stays the default (20 MB).
 */
const CALCULATE_SETTINGS = { callbacks: { timeoutMs: 1000 }, generation: { seed: 1, timeLimitMs: 3000 } } as const;
const CALCULATE_HOSTILE = {
  narrow: ['--area', 'delivery', '--grep', 'calculate: generated valid requests', '--runs', '30'],
  settings: CALCULATE_SETTINGS,
} as const satisfies Partial<HostileCase>;
/** The body rules an answer that is not JSON breaks (it is then judged as an error answer: it does not claim success). */
const NOT_THE_ERROR_FORM = ['ensureErrorBodyIsJson', 'ensureErrorBodyMatchesErrorShape'];

/*
 * Where each process-level fault acts (examples/reference-module/hostile.ts, processes.ts, main.ts):
 * the module starts it once registered, whatever the suite then runs, and the session judges its
 * traffic when it ends. Those done within a second of registration (the 64 MB uploads, the stalled
 * connections, the deep JSON) and those that act at the module's stop (SIGTERM ignored by the
 * module or its child) run the registration area alone. The system flood lasts 5 s: it runs the
 * telephony area (about 15 s: the module's own system calls, uploads, call events and manager
 * lookups, meet the flood), 10 cases a property. The gateway flood runs the chat rate-limit spec
 * of the transport (it judges the token's whole traffic); the huge bot frames, sent on each of the
 * bot's first 3 connections, the bot's reconnection test (it closes the socket: the third
 * connection comes within it).
 */
export const HOSTILE_CASES: HostileCase[] = [
  { fault: 'flood-system', failing: [], info: [], narrow: ['--area', 'telephony', '--runs', '10'] },
  // Above 30 requests a second on its token for 10 s (Limits): the chat rate-limit spec judges the token's whole traffic.
  { fault: 'flood-gateway', failing: ['ensureRateBacksOff'], info: ['checkGatewayRateLimitIsKept'], narrow: ['--area', 'chat', '--grep', 'gateway rate limit.*transport:', '--runs', '30'] },
  { fault: 'body-64mb', failing: [], info: ['checkModuleRequestsAreReadWhole'], narrow: ['--area', 'registration'] },
  { fault: 'slow-connections', failing: [], info: ['checkModuleRequestsAreReadWhole'], narrow: ['--area', 'registration'] },
  // The deep gateway message is refused 400 (nested too deep): not a JSON object the gateway can read.
  { fault: 'deep-json', failing: ['ensureGatewayAcceptedCall', 'ensureSystemCallPayloadDecodes'], info: [], narrow: ['--area', 'registration'] },
  { fault: 'ws-huge-frames', failing: [], info: ['checkModuleRequestsAreReadWhole'], narrow: ['--area', 'chat', '--grep', 'chat bot.*reconnects'] },
  { fault: 'module-ignores-sigterm', failing: [], info: [], narrow: ['--area', 'registration'] },
  { fault: 'child-ignores-sigterm', failing: [], info: [], narrow: ['--area', 'registration'] },
  // The module's answers to a callback (issue 22, item 6): delivery calculate over 60 kg.
  { fault: 'calculate-never-answers', failing: ['ensureCallbackIsAnswered'], info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-answers-after-20s', failing: ['ensureCallbackIsAnswered'], info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-drips', failing: ['ensureCallbackIsAnswered'], info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-50mb', failing: ['ensureCallbackIsAnswered'], info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-short-content-length', failing: ['ensureCallbackIsAnswered'], info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-invalid-utf8', failing: NOT_THE_ERROR_FORM, info: [], ...CALCULATE_HOSTILE },
  { fault: 'calculate-redirect-loop', failing: [...NOT_THE_ERROR_FORM, 'ensureErrorStatusIsAccepted'], info: [], ...CALCULATE_HOSTILE },
  // Markup in every refusal (not only over 60 kg): the property of wrong input, whose every case is refused.
  { fault: 'calculate-script-in-error', failing: [], info: [], narrow: ['--area', 'delivery', '--grep', 'calculate: generated wrong input', '--runs', '30'], settings: CALCULATE_SETTINGS },
];
