/**
 * What each registration requirement speaks of, so that a requirement is credited only when a
 * check tested its statement on something the module sent:
 *
 * - `FIELD_SCOPES`: the fields (JSON pointer patterns into the integrationModule) of the
 *   field-level requirements of the generic schema check and of the URL rule. Each such
 *   requirement is judged on its own fields: failed when an error falls on them, passed when
 *   they are present and hold, not applicable when the module did not send them.
 * - `RULE_CASES`: for rules about a case (a choice field, `save` among the actions), when the
 *   module's registration has the case at all; without it, a rule that holds is not applicable.
 */
import type { ErrorObject } from 'ajv';

const D = '^/integrations/delivery/';
const T = '^/integrations/telephony/';
const field = (source: string): RegExp => new RegExp(source.replace(/\//g, '\\/'));

export const FIELD_SCOPES: Record<string, RegExp> = {
  // Common fields.
  'REG-CODE-STRING': field('^/code$'),
  'REG-INTEGRATIONCODE-STRING': field('^/integrationCode$'),
  'REG-ACTIVE-BOOLEAN': field('^/active$'),
  'REG-NAME-STRING': field('^/name$'),
  'REG-ACTIONS-MAP-TO-PATH': field('^/actions(/|$)'),
  'REG-INTEGRATIONS-ONE-OR-MORE': field('^/integrations$'),
  'REG-BASEURL-URL': field('^/baseUrl$'),
  'REG-ACCOUNTURL-URL': field('^/accountUrl$'),
  'REG-LOGO-URL': field('^/logo$'),
  // Telephony.
  'TEL-MAKECALLURL-URL': field(`${T}makeCallUrl$`),
  'TEL-CHANGEUSERSTATUSURL-URL': field(`${T}changeUserStatusUrl$`),
  'TEL-PERSONALACCOUNTURL-URL': field(`${T}personalAccountUrl$`),
  'TEL-ALLOWEDIT-BOOLEAN': field(`${T}allowEdit$`),
  'TEL-INPUTEVENTSUPPORTED-BOOLEAN': field(`${T}inputEventSupported$`),
  'TEL-ADDITIONALCODES-SHAPE': field(`${T}additionalCodes(/|$)`),
  'TEL-EXTERNALPHONES-SHAPE': field(`${T}externalPhones(/|$)`),
  // Delivery.
  'DLV-CONFIGURATIONURL-URL': field(`${D}deliveryConfigurationUrl$`),
  'DLV-ACTIONS-MAP-CODE-PATH': field(`${D}actions(/|$)`),
  'DLV-SELFSHIPMENT-BOOLEAN': field(`${D}selfShipmentAvailable$`),
  'DLV-CODAVAILABLE-BOOLEAN': field(`${D}codAvailable$`),
  'DLV-ALLOWPACKAGES-BOOLEAN': field(`${D}allowPackages$`),
  'DLV-RATEDELIVERYCOST-BOOLEAN': field(`${D}rateDeliveryCost$`),
  'DLV-SHIPMENTCOUNTRIES-ARRAY': field(`${D}availableShipmentCountries(/|$)`),
  'DLV-DESCRIPTION-STRING': field(`${D}description$`),
  'DLV-DELIVERYDATAFIELDLIST-ARRAY': field(`${D}deliveryDataFieldList$`),
  'DLV-SHIPMENTDATAFIELDLIST-FORMAT': field(`${D}shipmentDataFieldList(/|$)`),
  'DLV-PLATELIST-ARRAY': field(`${D}plateList$`),
  'DLV-PLATEPRINTLIMIT-INTEGER': field(`${D}platePrintLimit$`),
  'DLV-SETTINGS-OBJECT': field(`${D}settings$`),
  'DLV-DATAFIELD-CODE-STRING': field(`${D}(delivery|shipment)DataFieldList/\\d+/code$`),
  'DLV-DATAFIELD-LABEL-STRING': field(`${D}(delivery|shipment)DataFieldList/\\d+/label$`),
  'DLV-DATAFIELD-HINT-OPTIONAL': field(`${D}(delivery|shipment)DataFieldList/\\d+/hint$`),
  'DLV-DATAFIELD-REQUIRED-BOOLEAN': field(`${D}(delivery|shipment)DataFieldList/\\d+/required$`),
  'DLV-DATAFIELD-AFFECTSCOST-BOOLEAN': field(`${D}(delivery|shipment)DataFieldList/\\d+/affectsCost$`),
  'DLV-DATAFIELD-EDITABLE-BOOLEAN': field(`${D}(delivery|shipment)DataFieldList/\\d+/editable$`),
  'DLV-DATAFIELD-MULTIPLE-BOOLEAN': field(`${D}(delivery|shipment)DataFieldList/\\d+/multiple$`),
  'DLV-DATAFIELD-AUTOCOMPLETEURL': field(`${D}(delivery|shipment)DataFieldList/\\d+/autocompleteUrl$`),
  'DLV-SETTINGS-COSTCALCULATEBY-VALUES': field(`${D}settings/costCalculateBy$`),
  'DLV-SETTINGS-NULLDECLAREDVALUE-BOOLEAN': field(`${D}settings/nullDeclaredValue$`),
  'DLV-SETTINGS-LOCKEDBYDEFAULT-BOOLEAN': field(`${D}settings/lockedByDefault$`),
  'DLV-SETTINGS-PAYMENTTYPES-SHAPE': field(`${D}settings/paymentTypes(/|$)`),
  'DLV-SETTINGS-SHIPMENTPOINTS-SHAPE': field(`${D}settings/shipmentPoints(/|$)`),
  'DLV-SETTINGS-STATUSES-SHAPE': field(`${D}settings/statuses(/|$)`),
  'DLV-SETTINGS-DELIVERYEXTRADATA-MAP': field(`${D}settings/deliveryExtraData$`),
  'DLV-SETTINGS-SHIPMENTEXTRADATA-MAP': field(`${D}settings/shipmentExtraData$`),
  'WIRE-DLV-EXTRA-REGISTRATION-FIELDS': field(`${D}(plateList/\\d+|statusList|allowTrackNumber|duplicateOrderProductSupported|availableCountries)(/|$)`),
  // Payment.
  'PAY-ACTIONS-CODES-PATHS': field('^/integrations/payment/actions(/|$)'),
  'PAY-SHOPS-SHAPE': field('^/integrations/payment/shops(/|$)'),
  // Chat transport.
  'TRN-WEBHOOKURL-URL': field('^/integrations/mgTransport/webhookUrl$'),
};

/**
 * Every JSON pointer of a value (the root is ""), in document order. Iterative (an explicit
 * stack), so that a value nested however deep cannot overflow the call stack.
 */
export function pointers(value: unknown, at = ''): string[] {
  const out: string[] = [];
  const stack: Array<[unknown, string]> = [[value, at]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    out.push(p);
    const children: Array<[unknown, string]> = [];
    if (Array.isArray(v)) v.forEach((c, i) => children.push([c, `${p}/${i}`]));
    else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) children.push([c, `${p}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** The field an error is about: its instance path, or the missing property's would-be path. */
export function errorField(e: ErrorObject): string {
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  return missing === undefined ? e.instancePath : `${e.instancePath}/${missing}`;
}

type Module = Record<string, unknown>;
const delivery = (m: Module): Module => (((m.integrations as Module | undefined)?.delivery ?? {}) as Module);
const dataFields = (m: Module): Module[] =>
  ['deliveryDataFieldList', 'shipmentDataFieldList'].flatMap((k) => (Array.isArray(delivery(m)[k]) ? (delivery(m)[k] as Module[]) : []));
const hasFieldOfType = (type: string) => (m: Module): string | undefined =>
  dataFields(m).some((f) => f && f.type === type) ? undefined : `no data field of type ${type}`;
const has = (pointer: RegExp, what: string) => (m: Module): string | undefined => (pointers(m).some((p) => pointer.test(p)) ? undefined : `the module sends no ${what}`);

/**
 * When a rule's case is in the registration, by check name: returns why it is not, or nothing.
 * A rule that holds on a registration without its case tested nothing: not applicable.
 */
export const RULE_CASES: Record<string, (module: Module) => string | undefined> = {
  ensureDeliveryActionPathsAreUnique: (m) => {
    const actions = delivery(m).actions;
    return actions && typeof actions === 'object' && Object.keys(actions).length >= 2 ? undefined : 'fewer than two delivery actions';
  },
  ensureRequiredFieldsAreAllowed: has(field(`${D}requiredFields$`), 'requiredFields'),
  ensurePayerTypesAreAllowed: has(field(`${D}payerType$`), 'payerType'),
  ensureShipmentPointListWithSelfShipment: (m) => (delivery(m).selfShipmentAvailable === true ? undefined : 'selfShipmentAvailable is not true'),
  ensureSaveComesWithCalculateAndDelete: (m) => {
    const actions = delivery(m).actions;
    return actions && typeof actions === 'object' && 'save' in actions ? undefined : 'no save action';
  },
  ensureDataFieldTypesAreKnown: (m) => (dataFields(m).length > 0 ? undefined : 'no data field'),
  ensureChoiceFieldsHaveChoices: hasFieldOfType('choice'),
  ensureAutocompleteFieldsHaveUrl: hasFieldOfType('autocomplete'),
  ensureCurrenciesAreIso4217: has(field('^/integrations/payment/currencies$'), 'payment currencies'),
  ensureInvoiceTypesAreLink: has(field('^/integrations/payment/invoiceTypes$'), 'invoiceTypes'),
};
