/**
 * The registration rules, and how the registration spec applies them: each rule with the
 * requirement ids it enforces (MUST unless said), and the regions of the generic schema check.
 */
import type { Check } from '../check.ts';
import type { Severity } from '../result.ts';
import type { SchemaSubject } from '../schema-rule.ts';
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

export interface RuleApplication {
  check: Check<SchemaSubject>;
  requirements: string[];
  /** MUST unless said. */
  severity?: Severity;
  /** Why the severity is not the catalogue level of the ids (test/contract/catalogue.spec.ts). */
  levelReason?: string;
}

export const REGISTRATION_RULES: RuleApplication[] = [
  { check: ensureClientIdPresent, requirements: ['REG-CLIENTID-PRESENT'] },
  // SHOULD: the document describes ("the key `activity` appears in every registration shape"), it
  // does not demand; the platform accepts registrations without `actions` (test/corpus/vochi-telephony.json).
  {
    check: ensureActivityActionDeclared,
    requirements: ['REG-ACTIONS-ACTIVITY', 'WIRE-REG-ACTIVITY-PATH-TOP-LEVEL'],
    severity: 'SHOULD',
    levelReason: 'the presence of the key is REG-ACTIONS-ACTIVITY\'s, a SHOULD; the profile\'s id says only where the path lives',
  },
  {
    check: ensureUrlsAreWellFormed,
    requirements: ['REG-BASEURL-URL', 'REG-ACCOUNTURL-URL', 'REG-LOGO-URL', 'TEL-MAKECALLURL-URL', 'TEL-CHANGEUSERSTATUSURL-URL', 'TEL-PERSONALACCOUNTURL-URL', 'DLV-CONFIGURATIONURL-URL', 'DLV-DATAFIELD-AUTOCOMPLETEURL', 'TRN-WEBHOOKURL-URL'],
  },
  { check: ensureDeliveryActionPathsAreUnique, requirements: ['DLV-ACTIONS-UNIQUE-PATH'] },
  { check: ensureRequiredFieldsAreAllowed, requirements: ['DLV-REQUIREDFIELDS-ALLOWED-VALUES', 'DLV-REQUIREDFIELDS-STRINGS'] },
  { check: ensurePayerTypesAreAllowed, requirements: ['DLV-PAYERTYPE-VALUES'] },
  { check: ensureShipmentPointListWithSelfShipment, requirements: ['DLV-SELFSHIPMENT-REQUIRES-POINTLIST'] },
  { check: ensureSaveComesWithCalculateAndDelete, requirements: ['DLV-SAVE-REQUIRES-DELETE-CALCULATE'] },
  { check: ensureDataFieldTypesAreKnown, requirements: ['DLV-DATAFIELD-TYPE-VALUES'] },
  { check: ensureChoiceFieldsHaveChoices, requirements: ['DLV-DATAFIELD-CHOICES-SHAPE'] },
  { check: ensureAutocompleteFieldsHaveUrl, requirements: ['DLV-DATAFIELD-AUTOCOMPLETEURL'] },
  { check: ensureExtraDataKeysAreFieldCodes, requirements: ['DLV-SETTINGS-DELIVERYEXTRADATA-MAP', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP'] },
  { check: ensureAutocompleteDefaultsAreLabelValue, requirements: ['DLV-SETTINGS-AUTOCOMPLETE-DEFAULT'] },
  { check: ensurePaymentDeclaresCreate, requirements: ['PAY-ACTIONS-CREATE-REQUIRED'] },
  { check: ensureCurrenciesAreIso4217, requirements: ['PAY-CURRENCIES-ISO4217'] },
  // SHOULD: official modules list withdrawn codes (wire profile section 9); a code in no list only warns.
  { check: ensureCurrenciesAreListedIso4217, requirements: ['PAY-CURRENCIES-ISO4217'], severity: 'SHOULD', levelReason: 'a code in no ISO 4217 list only warns (official modules list withdrawn codes); the form of a code is ensureCurrenciesAreIso4217\'s MUST' },
  { check: ensureInvoiceTypesAreLink, requirements: ['PAY-INVOICETYPES-LINK'] },
  // Judged on the shops only (FIELD_SCOPES); the payment region's generic schema check leaves the shops' errors to it.
  { check: ensureShopsHaveCodeNameActive, requirements: ['PAY-SHOPS-SHAPE'] },
  { check: ensureBotRegistersEmptyObject, requirements: ['BOT-EMPTY-OBJECT-AT-REGISTRATION'] },
  // A transport without webhookUrl can receive no webhook; the URL's form is ensureUrlsAreWellFormed's (TRN-WEBHOOKURL-URL).
  { check: ensureTransportGivesWebhookUrl, requirements: ['TRN-WEBHOOKURL-GIVEN'] },
];

/**
 * Regions of the registration judged by the generic schema check, with their ids; each id is
 * judged on its own fields (`scopes.ts`), errors on no id's fields are reported without ids.
 */
export const REGISTRATION_REGIONS: Array<{ name: string; region: RegExp; kind?: string; requirements: string[] }> = [
  {
    name: 'common fields',
    region: /^(?!\/integrations\/(telephony|delivery|payment)(\/|$))/,
    requirements: ['REG-CODE-STRING', 'REG-INTEGRATIONCODE-STRING', 'REG-ACTIVE-BOOLEAN', 'REG-NAME-STRING', 'REG-ACTIONS-MAP-TO-PATH', 'REG-INTEGRATIONS-ONE-OR-MORE'],
  },
  {
    name: 'telephony configuration',
    region: /^\/integrations\/telephony(\/|$)/,
    kind: 'telephony',
    requirements: ['TEL-ALLOWEDIT-BOOLEAN', 'TEL-INPUTEVENTSUPPORTED-BOOLEAN', 'TEL-ADDITIONALCODES-SHAPE', 'TEL-EXTERNALPHONES-SHAPE'],
  },
  {
    name: 'delivery configuration',
    region: /^\/integrations\/delivery(\/|$)/,
    kind: 'delivery',
    requirements: [
      'DLV-ACTIONS-MAP-CODE-PATH', 'DLV-SELFSHIPMENT-BOOLEAN', 'DLV-CODAVAILABLE-BOOLEAN', 'DLV-ALLOWPACKAGES-BOOLEAN', 'DLV-RATEDELIVERYCOST-BOOLEAN',
      'DLV-SHIPMENTCOUNTRIES-ARRAY', 'DLV-DESCRIPTION-STRING', 'DLV-DELIVERYDATAFIELDLIST-ARRAY', 'DLV-SHIPMENTDATAFIELDLIST-FORMAT', 'DLV-PLATELIST-ARRAY',
      'DLV-PLATEPRINTLIMIT-INTEGER', 'DLV-SETTINGS-OBJECT', 'DLV-DATAFIELD-CODE-STRING', 'DLV-DATAFIELD-LABEL-STRING', 'DLV-DATAFIELD-HINT-OPTIONAL', 'DLV-DATAFIELD-REQUIRED-BOOLEAN',
      'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN', 'DLV-DATAFIELD-EDITABLE-BOOLEAN', 'DLV-DATAFIELD-MULTIPLE-BOOLEAN', 'DLV-SETTINGS-COSTCALCULATEBY-VALUES',
      'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN', 'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN', 'DLV-SETTINGS-PAYMENTTYPES-SHAPE', 'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE',
      'DLV-SETTINGS-STATUSES-SHAPE', 'DLV-SETTINGS-DELIVERYEXTRADATA-MAP', 'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP', 'WIRE-DLV-EXTRA-REGISTRATION-FIELDS',
    ],
  },
  {
    name: 'payment configuration',
    region: /^\/integrations\/payment(\/|$)/,
    kind: 'payment',
    // PAY-SHOPS-SHAPE is ensureShopsHaveCodeNameActive's, which owns the errors of the shops.
    requirements: ['PAY-ACTIONS-CODES-PATHS'],
  },
];
