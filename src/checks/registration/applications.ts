/**
 * The application table of the registration area: which check is applied to which property, call or
 * session judgement, with its requirement ids and severity (`Row`, `src/checks/apply.ts`).
 *
 * - The registration call (spec test `the registration call`), and the accepted registration
 *   not sent again (the session's judgement of the calls the module made on its own).
 * - The registration rules, each the one row of the spec test named by its check (`checks`),
 *   and the regions of the generic schema check, each the one row of its test; the judge
 *   (`judge.ts`) applies them. The field each field-level requirement speaks of is attached
 *   here too (`REGISTRATION_FIELD_OF`; the fields' paths are `scopes.ts`'s).
 * - The activity callback (spec `activity callback`): its acknowledgement, and the refusal of a
 *   callback with an unknown or a missing clientId, an error answer judged rule by rule.
 */
import { row, type Row } from '../apply.ts';
import type { Check } from '../check.ts';
import type { Severity } from '../result.ts';
import { ensureMessageMatchesSchema, type RegionSubject, type SchemaSubject } from '../schema-rule.ts';
import type { FieldName, RegionName } from './scopes.ts';
import {
  ensureAcceptedRegistrationIsNotRepeated,
  ensureEditCarriesTheApiKey,
  ensureEditSendsIntegrationModuleForm,
  ensureModuleRegistersViaEdit,
  ensureSystemCallsUseApiV5,
} from './edit-call.ts';
import { ensureClientIdPresent } from './client-id.ts';
import { ensureActivityActionDeclared } from './activity-action.ts';
import { ensureUrlsAreWellFormed } from './urls.ts';
import { ensureDeliveryActionPathsAreUnique } from './delivery-action-paths.ts';
import { ensureRequiredFieldsAreAllowed } from './delivery-required-fields.ts';
import { ensurePayerTypesAreAllowed } from './delivery-payer-type.ts';
import { ensureShipmentPointListWithSelfShipment } from './delivery-self-shipment.ts';
import { ensureSaveComesWithCalculateAndDelete } from './delivery-save-needs.ts';
import { ensureDataFieldTypesAreKnown } from './delivery-data-field-type.ts';
import { ensureChoiceFieldsHaveChoices } from './delivery-choice-field.ts';
import { ensureAutocompleteFieldsHaveUrl } from './delivery-autocomplete-field.ts';
import { ensureExtraDataKeysAreFieldCodes } from './delivery-extra-data.ts';
import { ensureAutocompleteDefaultsAreLabelValue } from './delivery-autocomplete-default.ts';
import { ensurePaymentDeclaresCreate } from './payment-create.ts';
import { ensureCurrenciesAreIso4217 } from './payment-currencies.ts';
import { ensureCurrenciesAreListedIso4217 } from './payment-currencies-listed.ts';
import { ensureInvoiceTypesAreLink } from './payment-invoice-types.ts';
import { ensureShopsHaveCodeNameActive } from './payment-shops.ts';
import { ensureBotRegistersEmptyObject } from './bot-empty.ts';
import { ensureTransportGivesWebhookUrl } from './transport-webhook-url.ts';
import { ensureActivityAcknowledged } from '../callbacks/activity.ts';
import { ensureRefusalUses401Or403, ensureRefusedCallbackHasNoEffect } from '../callbacks/refusal.ts';
import {
  ensureErrorBodyCarriesErrorMsg,
  ensureErrorBodyIsJson,
  ensureErrorBodyMatchesErrorShape,
  ensureErrorStatusIsAccepted,
  ensureErrorStatusIsNot5xx,
} from '../callbacks/error-reply.ts';

/** The spec test that judges how the module made its registration call. */
const CALL = 'the registration call';

/** The registration call, in the order the spec applies them. */
export const REGISTRATION_CALL = {
  viaEdit: row(CALL, ensureModuleRegistersViaEdit, ['REG-REGISTER-VIA-EDIT']),
  apiKey: row(CALL, ensureEditCarriesTheApiKey, ['GEN-AUTH-APIKEY-AT-REGISTRATION']),
  form: row(CALL, ensureEditSendsIntegrationModuleForm, ['REG-EDIT-FORM-PARAMS', 'WIRE-REG-EDIT-INTEGRATIONMODULE-FIELD']),
  apiV5: row(CALL, ensureSystemCallsUseApiV5, ['GEN-VERSION-SYSTEM-V5']),
};

/** Judged when the session ends, on the registrations the system accepted (updates are fine). */
export const ACCEPTED_REGISTRATION_NOT_REPEATED = row('calls the module made on its own', ensureAcceptedRegistrationIsNotRepeated, ['REG-EDIT-REPLY-SUCCESS']);

/** A registration rule's row: applied in the spec test named by what the check checks. */
const rule = (check: Check<SchemaSubject>, ids: readonly string[], severity?: Severity, more?: { levelReason: string }): Row<SchemaSubject> => row(check.checks, check, ids, severity, more);

/** The registration rules, in the order of the report. */
export const REGISTRATION_RULES: ReadonlyArray<Row<SchemaSubject>> = [
  rule(ensureClientIdPresent, ['REG-CLIENTID-PRESENT']),
  // SHOULD: the document describes ("the key `activity` appears in every registration shape"), it
  // does not demand; the platform accepts registrations without `actions` (test/corpus/vochi-telephony.json).
  rule(ensureActivityActionDeclared, ['REG-ACTIONS-ACTIVITY', 'WIRE-REG-ACTIVITY-PATH-TOP-LEVEL'], 'SHOULD', {
    levelReason: 'the presence of the key is REG-ACTIONS-ACTIVITY\'s, a SHOULD; the profile\'s id says only where the path lives',
  }),
  rule(ensureUrlsAreWellFormed, ['REG-BASEURL-URL', 'REG-ACCOUNTURL-URL', 'REG-LOGO-URL', 'TEL-MAKECALLURL-URL', 'TEL-CHANGEUSERSTATUSURL-URL', 'TEL-PERSONALACCOUNTURL-URL', 'DLV-CONFIGURATIONURL-URL', 'DLV-DATAFIELD-AUTOCOMPLETEURL', 'TRN-WEBHOOKURL-URL']),
  rule(ensureDeliveryActionPathsAreUnique, ['DLV-ACTIONS-UNIQUE-PATH']),
  rule(ensureRequiredFieldsAreAllowed, ['DLV-REQUIREDFIELDS-ALLOWED-VALUES', 'DLV-REQUIREDFIELDS-STRINGS']),
  rule(ensurePayerTypesAreAllowed, ['DLV-PAYERTYPE-VALUES']),
  rule(ensureShipmentPointListWithSelfShipment, ['DLV-SELFSHIPMENT-REQUIRES-POINTLIST']),
  rule(ensureSaveComesWithCalculateAndDelete, ['DLV-SAVE-REQUIRES-DELETE-CALCULATE']),
  rule(ensureDataFieldTypesAreKnown, ['DLV-DATAFIELD-TYPE-VALUES']),
  rule(ensureChoiceFieldsHaveChoices, ['DLV-DATAFIELD-CHOICES-SHAPE']),
  rule(ensureAutocompleteFieldsHaveUrl, ['DLV-DATAFIELD-AUTOCOMPLETEURL']),
  rule(ensureExtraDataKeysAreFieldCodes, ['DLV-SETTINGS-DELIVERYEXTRADATA-MAP', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP']),
  rule(ensureAutocompleteDefaultsAreLabelValue, ['DLV-SETTINGS-AUTOCOMPLETE-DEFAULT']),
  rule(ensurePaymentDeclaresCreate, ['PAY-ACTIONS-CREATE-REQUIRED']),
  rule(ensureCurrenciesAreIso4217, ['PAY-CURRENCIES-ISO4217']),
  // SHOULD: official modules list withdrawn codes (wire profile section 9); a code in no list only warns.
  rule(ensureCurrenciesAreListedIso4217, ['PAY-CURRENCIES-ISO4217'], 'SHOULD', {
    levelReason: 'a code in no ISO 4217 list only warns (official modules list withdrawn codes); the form of a code is ensureCurrenciesAreIso4217\'s MUST',
  }),
  rule(ensureInvoiceTypesAreLink, ['PAY-INVOICETYPES-LINK']),
  // Judged on the shops only (REGISTRATION_FIELD_OF); the payment region's generic schema check leaves the shops' errors to it.
  rule(ensureShopsHaveCodeNameActive, ['PAY-SHOPS-SHAPE']),
  rule(ensureBotRegistersEmptyObject, ['BOT-EMPTY-OBJECT-AT-REGISTRATION']),
  // A transport without webhookUrl can receive no webhook; the URL's form is ensureUrlsAreWellFormed's (TRN-WEBHOOKURL-URL).
  rule(ensureTransportGivesWebhookUrl, ['TRN-WEBHOOKURL-GIVEN']),
];

/** The spec test of a region of the generic schema check. */
export const regionTest = (name: RegionName): string => `the ${name} conform to the contract schema`;

const region = (name: RegionName, ids: readonly string[]): Row<RegionSubject> => row(regionTest(name), ensureMessageMatchesSchema, ids);

/**
 * The regions of the registration judged by the generic schema check (where each lies:
 * `scopes.ts`), with their ids; each id is judged on its own fields (`REGISTRATION_FIELD_OF`),
 * errors on no id's fields are reported without ids.
 */
export const REGISTRATION_REGIONS: Readonly<Record<RegionName, Row<RegionSubject>>> = {
  'common fields': region('common fields', ['REG-CODE-STRING', 'REG-INTEGRATIONCODE-STRING', 'REG-ACTIVE-BOOLEAN', 'REG-NAME-STRING', 'REG-ACTIONS-MAP-TO-PATH', 'REG-INTEGRATIONS-ONE-OR-MORE']),
  'telephony configuration': region('telephony configuration', ['TEL-ALLOWEDIT-BOOLEAN', 'TEL-INPUTEVENTSUPPORTED-BOOLEAN', 'TEL-ADDITIONALCODES-SHAPE', 'TEL-EXTERNALPHONES-SHAPE']),
  'delivery configuration': region('delivery configuration', [
    'DLV-ACTIONS-MAP-CODE-PATH', 'DLV-SELFSHIPMENT-BOOLEAN', 'DLV-CODAVAILABLE-BOOLEAN', 'DLV-ALLOWPACKAGES-BOOLEAN', 'DLV-RATEDELIVERYCOST-BOOLEAN',
    'DLV-SHIPMENTCOUNTRIES-ARRAY', 'DLV-DESCRIPTION-STRING', 'DLV-DELIVERYDATAFIELDLIST-ARRAY', 'DLV-SHIPMENTDATAFIELDLIST-FORMAT', 'DLV-PLATELIST-ARRAY',
    'DLV-PLATEPRINTLIMIT-INTEGER', 'DLV-SETTINGS-OBJECT', 'DLV-DATAFIELD-CODE-STRING', 'DLV-DATAFIELD-LABEL-STRING', 'DLV-DATAFIELD-HINT-OPTIONAL', 'DLV-DATAFIELD-REQUIRED-BOOLEAN',
    'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN', 'DLV-DATAFIELD-EDITABLE-BOOLEAN', 'DLV-DATAFIELD-MULTIPLE-BOOLEAN', 'DLV-SETTINGS-COSTCALCULATEBY-VALUES',
    'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN', 'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN', 'DLV-SETTINGS-PAYMENTTYPES-SHAPE', 'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE',
    'DLV-SETTINGS-STATUSES-SHAPE', 'DLV-SETTINGS-DELIVERYEXTRADATA-MAP', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP', 'WIRE-DLV-EXTRA-REGISTRATION-FIELDS',
  ]),
  // PAY-SHOPS-SHAPE is ensureShopsHaveCodeNameActive's, which owns the errors of the shops.
  'payment configuration': region('payment configuration', ['PAY-ACTIONS-CODES-PATHS']),
};

/**
 * The field each field-level requirement speaks of (the fields' paths: `scopes.ts` `FIELDS`):
 * a rule or region applies such an id on that field alone, failed when an error falls on it,
 * not applicable when the module did not send it.
 */
export const REGISTRATION_FIELD_OF: Readonly<Partial<Record<string, FieldName>>> = {
  // Common fields.
  'REG-CODE-STRING': 'code',
  'REG-INTEGRATIONCODE-STRING': 'integrationCode',
  'REG-ACTIVE-BOOLEAN': 'active',
  'REG-NAME-STRING': 'name',
  'REG-ACTIONS-MAP-TO-PATH': 'actions',
  'REG-INTEGRATIONS-ONE-OR-MORE': 'integrations',
  'REG-BASEURL-URL': 'baseUrl',
  'REG-ACCOUNTURL-URL': 'accountUrl',
  'REG-LOGO-URL': 'logo',
  // Telephony.
  'TEL-MAKECALLURL-URL': 'telephony.makeCallUrl',
  'TEL-CHANGEUSERSTATUSURL-URL': 'telephony.changeUserStatusUrl',
  'TEL-PERSONALACCOUNTURL-URL': 'telephony.personalAccountUrl',
  'TEL-ALLOWEDIT-BOOLEAN': 'telephony.allowEdit',
  'TEL-INPUTEVENTSUPPORTED-BOOLEAN': 'telephony.inputEventSupported',
  'TEL-ADDITIONALCODES-SHAPE': 'telephony.additionalCodes',
  'TEL-EXTERNALPHONES-SHAPE': 'telephony.externalPhones',
  // Delivery.
  'DLV-CONFIGURATIONURL-URL': 'delivery.deliveryConfigurationUrl',
  'DLV-ACTIONS-MAP-CODE-PATH': 'delivery.actions',
  'DLV-SELFSHIPMENT-BOOLEAN': 'delivery.selfShipmentAvailable',
  'DLV-CODAVAILABLE-BOOLEAN': 'delivery.codAvailable',
  'DLV-ALLOWPACKAGES-BOOLEAN': 'delivery.allowPackages',
  'DLV-RATEDELIVERYCOST-BOOLEAN': 'delivery.rateDeliveryCost',
  'DLV-SHIPMENTCOUNTRIES-ARRAY': 'delivery.availableShipmentCountries',
  'DLV-DESCRIPTION-STRING': 'delivery.description',
  'DLV-DELIVERYDATAFIELDLIST-ARRAY': 'delivery.deliveryDataFieldList',
  'DLV-SHIPMENTDATAFIELDLIST-FORMAT': 'delivery.shipmentDataFieldList',
  'DLV-PLATELIST-ARRAY': 'delivery.plateList',
  'DLV-PLATEPRINTLIMIT-INTEGER': 'delivery.platePrintLimit',
  'DLV-SETTINGS-OBJECT': 'delivery.settings',
  'DLV-DATAFIELD-CODE-STRING': 'delivery.dataField.code',
  'DLV-DATAFIELD-LABEL-STRING': 'delivery.dataField.label',
  'DLV-DATAFIELD-HINT-OPTIONAL': 'delivery.dataField.hint',
  'DLV-DATAFIELD-REQUIRED-BOOLEAN': 'delivery.dataField.required',
  'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN': 'delivery.dataField.affectsCost',
  'DLV-DATAFIELD-EDITABLE-BOOLEAN': 'delivery.dataField.editable',
  'DLV-DATAFIELD-MULTIPLE-BOOLEAN': 'delivery.dataField.multiple',
  'DLV-DATAFIELD-AUTOCOMPLETEURL': 'delivery.dataField.autocompleteUrl',
  'DLV-SETTINGS-COSTCALCULATEBY-VALUES': 'delivery.settings.costCalculateBy',
  'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN': 'delivery.settings.nullDeclaredValue',
  'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN': 'delivery.settings.lockedByDefault',
  'DLV-SETTINGS-PAYMENTTYPES-SHAPE': 'delivery.settings.paymentTypes',
  'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE': 'delivery.settings.shipmentPoints',
  'DLV-SETTINGS-STATUSES-SHAPE': 'delivery.settings.statuses',
  'DLV-SETTINGS-DELIVERYEXTRADATA-MAP': 'delivery.settings.deliveryExtraData',
  'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP': 'delivery.settings.shipmentExtraData',
  'WIRE-DLV-EXTRA-REGISTRATION-FIELDS': 'delivery.profileFields',
  // Payment.
  'PAY-ACTIONS-CODES-PATHS': 'payment.actions',
  'PAY-SHOPS-SHAPE': 'payment.shops',
  // Chat transport.
  'TRN-WEBHOOKURL-URL': 'mgTransport.webhookUrl',
};

/** The spec tests of the activity callback. */
const ACKNOWLEDGED = 'the module acknowledges activity';
export const refusedTest = (variant: 'unknown' | 'missing'): string => `a callback with a ${variant} clientId is refused and not acted on`;

/**
 * A callback with a wrong clientId refused: not acted on, and an error answer, each rule with the
 * ids whose statement it tests (so that one broken rule fails only its own ids), in the order
 * the spec applies them.
 */
const refused = (variant: 'unknown' | 'missing') => {
  const to = refusedTest(variant);
  return {
    noEffect: row(to, ensureRefusedCallbackHasNoEffect, ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']),
    statusAccepted: row(to, ensureErrorStatusIsAccepted, ['WIRE-GEN-ERROR-STATUS-200-OR-4XX']),
    not5xx: row(to, ensureErrorStatusIsNot5xx, ['WIRE-GEN-ERROR-5XX-FAILURE']),
    json: row(to, ensureErrorBodyIsJson, ['WIRE-GEN-ERROR-NON-JSON-FAILURE']),
    errorMsg: row(to, ensureErrorBodyCarriesErrorMsg, ['WIRE-GEN-ERROR-MISSING-ERRORMSG']),
    errorShape: row(to, ensureErrorBodyMatchesErrorShape, ['WIRE-GEN-ERROR-REPLY-SHAPE']),
    status401Or403: row(to, ensureRefusalUses401Or403, [variant === 'unknown' ? 'WIRE-GEN-UNKNOWN-CLIENTID-401-403' : 'WIRE-GEN-MISSING-CLIENTID-401-403'], 'SHOULD'),
  };
};

/** The activity callback. */
export const ACTIVITY = {
  acknowledged: row(ACKNOWLEDGED, ensureActivityAcknowledged, ['WIRE-REG-ACTIVITY-REPLY-SUCCESS']),
  refused: { unknown: refused('unknown'), missing: refused('missing') },
};

/** Every row of the area, in the order they are applied. */
export const REGISTRATION_ROWS: ReadonlyArray<Row<never>> = [
  ...Object.values(REGISTRATION_CALL),
  ...REGISTRATION_RULES,
  ...Object.values(REGISTRATION_REGIONS),
  ACTIVITY.acknowledged,
  ...Object.values(ACTIVITY.refused.unknown),
  ...Object.values(ACTIVITY.refused.missing),
  ACCEPTED_REGISTRATION_NOT_REPEATED,
] as ReadonlyArray<Row<never>>;
