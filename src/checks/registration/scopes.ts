/**
 * What each registration requirement speaks of, so that a requirement is credited only when a
 * check tested its statement on something the module sent:
 *
 * - `FIELDS`: the fields (JSON pointer patterns into the integrationModule) that the
 *   field-level requirements of the generic schema check and of the URL rule speak of, by name
 *   (which requirement speaks of which field is the table's: `REGISTRATION_FIELD_OF` in
 *   `applications.ts`). Each such requirement is judged on its own fields: failed when an error
 *   falls on them, passed when they are present and hold, not applicable when the module did
 *   not send them.
 * - `REGIONS`: the parts of the registration the generic schema check judges, by name (their
 *   ids are the table's rows).
 * - `RULE_CASES`: for rules about a case (a choice field, `save` among the actions), when the
 *   module's registration has the case at all; without it, a rule that holds is not applicable.
 */
import type { ErrorObject } from 'ajv';

const D = '^/integrations/delivery/';
const T = '^/integrations/telephony/';
const field = (source: string): RegExp => new RegExp(source.replace(/\//g, '\\/'));

export const FIELDS = {
  // Common fields.
  code: field('^/code$'),
  integrationCode: field('^/integrationCode$'),
  active: field('^/active$'),
  name: field('^/name$'),
  actions: field('^/actions(/|$)'),
  integrations: field('^/integrations$'),
  baseUrl: field('^/baseUrl$'),
  accountUrl: field('^/accountUrl$'),
  logo: field('^/logo$'),
  // Telephony.
  'telephony.makeCallUrl': field(`${T}makeCallUrl$`),
  'telephony.changeUserStatusUrl': field(`${T}changeUserStatusUrl$`),
  'telephony.personalAccountUrl': field(`${T}personalAccountUrl$`),
  'telephony.allowEdit': field(`${T}allowEdit$`),
  'telephony.inputEventSupported': field(`${T}inputEventSupported$`),
  'telephony.additionalCodes': field(`${T}additionalCodes(/|$)`),
  'telephony.externalPhones': field(`${T}externalPhones(/|$)`),
  // Delivery.
  'delivery.deliveryConfigurationUrl': field(`${D}deliveryConfigurationUrl$`),
  'delivery.actions': field(`${D}actions(/|$)`),
  'delivery.selfShipmentAvailable': field(`${D}selfShipmentAvailable$`),
  'delivery.codAvailable': field(`${D}codAvailable$`),
  'delivery.allowPackages': field(`${D}allowPackages$`),
  'delivery.rateDeliveryCost': field(`${D}rateDeliveryCost$`),
  'delivery.availableShipmentCountries': field(`${D}availableShipmentCountries(/|$)`),
  'delivery.description': field(`${D}description$`),
  'delivery.deliveryDataFieldList': field(`${D}deliveryDataFieldList$`),
  'delivery.shipmentDataFieldList': field(`${D}shipmentDataFieldList(/|$)`),
  'delivery.plateList': field(`${D}plateList$`),
  'delivery.platePrintLimit': field(`${D}platePrintLimit$`),
  'delivery.settings': field(`${D}settings$`),
  'delivery.dataField.code': field(`${D}(delivery|shipment)DataFieldList/\\d+/code$`),
  'delivery.dataField.label': field(`${D}(delivery|shipment)DataFieldList/\\d+/label$`),
  'delivery.dataField.hint': field(`${D}(delivery|shipment)DataFieldList/\\d+/hint$`),
  'delivery.dataField.required': field(`${D}(delivery|shipment)DataFieldList/\\d+/required$`),
  'delivery.dataField.affectsCost': field(`${D}(delivery|shipment)DataFieldList/\\d+/affectsCost$`),
  'delivery.dataField.editable': field(`${D}(delivery|shipment)DataFieldList/\\d+/editable$`),
  'delivery.dataField.multiple': field(`${D}(delivery|shipment)DataFieldList/\\d+/multiple$`),
  'delivery.dataField.autocompleteUrl': field(`${D}(delivery|shipment)DataFieldList/\\d+/autocompleteUrl$`),
  'delivery.settings.costCalculateBy': field(`${D}settings/costCalculateBy$`),
  'delivery.settings.nullDeclaredValue': field(`${D}settings/nullDeclaredValue$`),
  'delivery.settings.lockedByDefault': field(`${D}settings/lockedByDefault$`),
  'delivery.settings.paymentTypes': field(`${D}settings/paymentTypes(/|$)`),
  'delivery.settings.shipmentPoints': field(`${D}settings/shipmentPoints(/|$)`),
  'delivery.settings.statuses': field(`${D}settings/statuses(/|$)`),
  'delivery.settings.deliveryExtraData': field(`${D}settings/deliveryExtraData$`),
  'delivery.settings.shipmentExtraData': field(`${D}settings/shipmentExtraData$`),
  'delivery.profileFields': field(`${D}(plateList/\\d+|statusList|allowTrackNumber|duplicateOrderProductSupported|availableCountries)(/|$)`),
  // Payment.
  'payment.actions': field('^/integrations/payment/actions(/|$)'),
  'payment.shops': field('^/integrations/payment/shops(/|$)'),
  // Chat transport.
  'mgTransport.webhookUrl': field('^/integrations/mgTransport/webhookUrl$'),
} satisfies Record<string, RegExp>;

/** A field a field-level requirement speaks of (the table attaches the ids: `REGISTRATION_FIELD_OF`). */
export type FieldName = keyof typeof FIELDS;

/**
 * The regions of the registration judged by the generic schema check, by name: where each
 * lies, and the module kind it is about (errors outside every region's requirement fields are
 * reported without ids).
 */
export const REGIONS = {
  'common fields': { region: /^(?!\/integrations\/(telephony|delivery|payment)(\/|$))/ },
  'telephony configuration': { region: /^\/integrations\/telephony(\/|$)/, kind: 'telephony' },
  'delivery configuration': { region: /^\/integrations\/delivery(\/|$)/, kind: 'delivery' },
  'payment configuration': { region: /^\/integrations\/payment(\/|$)/, kind: 'payment' },
} satisfies Record<string, { region: RegExp; kind?: string }>;

/** A region of the generic schema check. */
export type RegionName = keyof typeof REGIONS;

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
