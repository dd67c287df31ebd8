/**
 * The `extraData` a delivery module answers (save, get, shipmentSave) is keyed by its data
 * fields: wire profile 2, "`extraData` is a map of data-field code to value" (the values of
 * editable-false fields are filled from these answers). The data fields are the registration's
 * `deliveryDataFieldList` and `shipmentDataFieldList`; the profile does not say which list keys
 * which answer, so a code of either is taken. Whether it is a map at all (an object, or `[]`:
 * PHP's empty map) is the reply schemas' rule.
 */
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import type { CaseOutcome } from '../case.ts';
import { claimsSuccess } from '../callbacks/reply.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The callbacks whose success answer carries extraData. */
const ANSWERS = ['delivery.save', 'delivery.get', 'delivery.shipmentSave'];

/** The codes of the registration's data fields (deliveryDataFieldList and shipmentDataFieldList). */
function fieldCodes(module: Json): string[] {
  const delivery = isObject(module.integrations) && isObject(module.integrations.delivery) ? module.integrations.delivery : {};
  const fields = [delivery.deliveryDataFieldList, delivery.shipmentDataFieldList].flatMap((list) => (Array.isArray(list) ? list : []));
  return fields.map((f) => (isObject(f) ? f.code : undefined)).filter((c): c is string => typeof c === 'string');
}

export const ensureReplyExtraDataKeysAreDataFields = defineCheck<CaseOutcome>({
  name: 'ensureReplyExtraDataKeysAreDataFields',
  checks: "the keys of the extraData a save, get or shipmentSave answers are codes of the registration's data fields",
  run(o) {
    if (!ANSWERS.includes(o.case.callback)) return notApplicable(`not a save, get or shipmentSave call (${o.case.callback})`);
    if (!claimsSuccess(o.reply)) return notApplicable('not a success answer');
    const result = isObject(o.reply.json) ? o.reply.json.result : undefined;
    const extraData = isObject(result) ? result.extraData : undefined;
    if (!isObject(extraData) || Object.keys(extraData).length === 0) return notApplicable('no extraData map with a key in the answer');
    const known = new Set(fieldCodes(o.module));
    const unknown = Object.keys(extraData).filter((k) => !known.has(k));
    if (unknown.length > 0) return fail(`result.extraData of the ${o.case.callback.split('.')[1]} answer has ${unknown.map((k) => show(k)).join(', ')}`, `keys that are codes of the data fields of deliveryDataFieldList or shipmentDataFieldList (${[...known].join(', ') || 'none declared'}): "extraData is a map of data-field code to value" (wire profile 2)`, [o.reply.exchange.id]);
    return pass(`${Object.keys(extraData).length} key(s), each a data field's code`, [o.reply.exchange.id]);
  },
});
