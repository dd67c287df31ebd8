import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import type { SchemaSubject } from '../schema-rule.ts';
import { EXTRA_DATA_MAPS } from './delivery-extra-data.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * The default (in `deliveryExtraData` or `shipmentExtraData`) of a data field of type
 * `autocomplete` is an object `{label, value}` (document: "For an `autocomplete` field the
 * default is an object `{label, value}`"); defaults of other fields may be any JSON. A key that
 * names no field of its list is `ensureExtraDataKeysAreFieldCodes`'s failure, not judged here.
 */
export const ensureAutocompleteDefaultsAreLabelValue = defineCheck<SchemaSubject>({
  name: 'ensureAutocompleteDefaultsAreLabelValue',
  checks: 'the default of an autocomplete data field (deliveryExtraData, shipmentExtraData) is an object {label, value}',
  run(s) {
    if (!(s.kinds ?? []).includes('delivery')) return notApplicable('the module declares no delivery integration');
    const delivery = (s.message as { integrations?: { delivery?: unknown } }).integrations?.delivery;
    const settings = isObj(delivery) ? delivery.settings : undefined;
    const judged: Array<{ at: string; value: unknown }> = [];
    for (const { map, list } of EXTRA_DATA_MAPS) {
      const defaults = isObj(settings) ? settings[map] : undefined;
      const fields = isObj(delivery) ? delivery[list] : undefined;
      if (!isObj(defaults) || !Array.isArray(fields)) continue;
      for (const f of fields) {
        if (!isObj(f) || f.type !== 'autocomplete' || typeof f.code !== 'string' || !has(defaults, f.code)) continue;
        judged.push({ at: `${map}.${f.code}`, value: defaults[f.code] });
      }
    }
    if (judged.length === 0) return notApplicable('no autocomplete data field has a default in deliveryExtraData or shipmentExtraData');
    const bad = judged.filter((d) => !isObj(d.value) || !has(d.value, 'label') || !has(d.value, 'value'));
    if (bad.length > 0) {
      return fail(bad.map((d) => `${d.at} = ${show(d.value, 120)}`).join('; '), 'the default of an autocomplete field is an object {label, value} (label shown in the system, value sent to the module)', s.evidence);
    }
    return pass(`${judged.length} autocomplete default(s), each {label, value}: ${judged.map((d) => d.at).join(', ')}`, s.evidence);
  },
});
