import type { ErrorObject } from 'ajv';
import { defineSchemaRule } from '../schema-rule.ts';

/** Each map of defaults and the data-field list whose codes it is keyed by (document: "Map of delivery field code to default value"). */
export const EXTRA_DATA_MAPS = [
  { map: 'deliveryExtraData', list: 'deliveryDataFieldList' },
  { map: 'shipmentExtraData', list: 'shipmentDataFieldList' },
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The string codes of a data-field list (entries without one are the schema's failures). */
export function fieldCodes(delivery: Obj, list: string): string[] {
  const fields = delivery[list];
  return Array.isArray(fields) ? fields.filter(isObj).map((f) => f.code).filter((c): c is string => typeof c === 'string') : [];
}

/**
 * The keys of `deliveryExtraData` and `shipmentExtraData` that name no data field of their
 * list, as errors at the map (keyword `fieldCode`): the constraint is a `propertyNames` whose
 * allowed names are the codes of another field of the message, which a schema cannot state,
 * so it is found here and reported like a schema error on the map it concerns. The
 * registration subject carries these errors (`cross-field.ts`); each map's requirement is then
 * judged on its own map, like any field-level requirement. Source: the document.
 */
export function extraDataKeyErrors(module: unknown): ErrorObject[] {
  const delivery = isObj(module) && isObj(module.integrations) ? module.integrations.delivery : undefined;
  const settings = isObj(delivery) ? delivery.settings : undefined;
  if (!isObj(delivery) || !isObj(settings)) return [];
  const errors: ErrorObject[] = [];
  for (const { map, list } of EXTRA_DATA_MAPS) {
    const defaults = settings[map];
    if (!isObj(defaults)) continue;
    const codes = fieldCodes(delivery, list);
    for (const key of Object.keys(defaults).filter((k) => !codes.includes(k))) {
      errors.push({
        instancePath: `/integrations/delivery/settings/${map}`,
        schemaPath: `#/cross-field/${map}/fieldCode`,
        keyword: 'fieldCode',
        params: { propertyName: key, codes },
        message: `key ${JSON.stringify(key)} is not a code of ${list} (${codes.length > 0 ? `its codes: ${codes.map((c) => JSON.stringify(c)).join(', ')}` : `${list} has no field`})`,
      });
    }
  }
  return errors;
}

/** Every key of the maps of defaults is the code of a data field of its list. */
export const ensureExtraDataKeysAreFieldCodes = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureExtraDataKeysAreFieldCodes',
  checks: 'every key of deliveryExtraData is a code of deliveryDataFieldList, every key of shipmentExtraData a code of shipmentDataFieldList',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/settings\/(deliveryExtraData|shipmentExtraData)$/, keyword: 'fieldCode' }],
});
