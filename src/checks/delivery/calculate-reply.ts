/**
 * The success reply of a delivery module to `calculate`: `{success: true, result: [tariff, ...]}`
 * (wire profile sections 1 and 2), each tariff with `cost` a number or absent and `description`
 * (document, Calculate response), `type` courier or selfDelivery (profile), and the codes of
 * `extraDataAvailable` taken from the registration's `deliveryDataFieldList` (document).
 * Each rule judges only the replies that claim success; an error answer is the error rules'.
 *
 * A tariff's `code` is required (wire profile section 2: `{code, group, name, type, description,
 * cost?, ...}` marks cost alone optional, and the tariff the user chooses is sent back by its code,
 * save's `delivery.tariff`; schema delivery/tariff.json, profile only). The other members are
 * optional: a rule that judges one of them is not applicable when no tariff carries it, and a
 * pass names the members it did not see ("absent, not judged"), so that it never credits them.
 */
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import { absentFromAll, claimsSuccess, describeReply, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';
import type { CaseOutcome } from '../case.ts';

type Json = Record<string, unknown>;

/** Not applicable unless the module answered success. */
function notASuccess(o: CaseOutcome): Verdict | undefined {
  if (!claimsSuccess(o.reply)) return notApplicable(`the module did not answer success (${describeReply(o.reply)})`);
  return undefined;
}

const tariffsOf = (o: CaseOutcome): Json[] => {
  const result = (o.reply.json as Json).result;
  return Array.isArray(result) ? result.filter((t): t is Json => !!t && typeof t === 'object' && !Array.isArray(t)) : [];
};

/** The optional members of a tariff the list rule judges (type, cost, description and extraDataAvailable are other rules'). */
const LISTED_TARIFF_MEMBERS = ['group', 'name', 'minTerm', 'maxTerm', 'extraData', 'pickuppointList'] as const;

/** Errors of the reply's schema at a tariff member, for the rule that owns it. */
const TARIFF_MEMBER = /^\/result\/\d+\/(type|cost|description)(\/|$)/;

/** A success answer to `calculate` is `{success: true, result: [tariff, ...]}`, each tariff of the tariff schema. */
export const ensureCalculateAnswersTariffList = defineSchemaReplyCheck({
  name: 'ensureCalculateAnswersTariffList',
  checks: 'a success answer to calculate is {"success": true, "result": [tariff, ...]} with tariffs of the profile\'s shape',
  schema: 'delivery/calculate.reply.json',
  region: { except: [TARIFF_MEMBER] },
  expected: '{"success": true, "result": [tariffs]}',
  holds(o, evidence) {
    const tariffs = tariffsOf(o);
    return pass(`${tariffs.length} tariff(s), each with its code${notJudged(absentFromAll(tariffs, LISTED_TARIFF_MEMBERS))}`, evidence);
  },
});

/** A tariff's `type` is `courier` or `selfDelivery`. */
export const ensureTariffTypeIsKnown = defineCheck<CaseOutcome>({
  name: 'ensureTariffTypeIsKnown',
  checks: 'the type of a tariff is courier or selfDelivery',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const typed = tariffsOf(o).filter((t) => t.type !== undefined && t.type !== null);
    if (typed.length === 0) return notApplicable('no tariff with a type');
    const bad = typed.filter((t) => t.type !== 'courier' && t.type !== 'selfDelivery');
    if (bad.length > 0) return fail(`tariff ${show(bad[0]!.code)} has type ${show(bad[0]!.type)}`, 'courier or selfDelivery (wire profile section 2)', [o.reply.exchange.id]);
    return pass(`${typed.length} typed tariff(s)`, [o.reply.exchange.id]);
  },
});

/** A tariff's `cost` is a number or absent (a tariff without cost cannot be chosen), its `description` a text. */
export const ensureTariffCostIsNumberOrAbsent = defineCheck<CaseOutcome>({
  name: 'ensureTariffCostIsNumberOrAbsent',
  checks: 'the cost of a tariff is a number or absent, its description a text',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const tariffs = tariffsOf(o);
    if (tariffs.length === 0) return notApplicable('no tariff');
    const absent = absentFromAll(tariffs, ['cost', 'description']);
    if (absent.length === 2) return notApplicable(`no tariff with a cost or a description (${tariffs.length} tariff(s); cost may be omitted, and no sentence requires a description)`);
    for (const t of tariffs) {
      if (t.cost !== undefined && t.cost !== null && (typeof t.cost !== 'number' || !Number.isFinite(t.cost))) return fail(`tariff ${show(t.code)} has cost ${show(t.cost)}`, 'a number, or no cost (the tariff is then shown but cannot be chosen)', [o.reply.exchange.id]);
      if (t.description !== undefined && t.description !== null && typeof t.description !== 'string') return fail(`tariff ${show(t.code)} has description ${show(t.description)}`, 'a text', [o.reply.exchange.id]);
    }
    return pass(`${tariffs.length} tariff(s), costs numbers or absent, descriptions texts${notJudged(absent)}`, [o.reply.exchange.id]);
  },
});

/** The codes of the registration's delivery data fields. */
export function dataFieldCodes(module: Json): string[] {
  const delivery = ((module.integrations ?? {}) as Record<string, Json | undefined>).delivery;
  const list = delivery?.deliveryDataFieldList;
  return Array.isArray(list) ? list.map((f) => (f && typeof f === 'object' ? (f as Json).code : undefined)).filter((c): c is string => typeof c === 'string') : [];
}

/** `extraDataAvailable` (of the reply and of each tariff) names codes of the registration's `deliveryDataFieldList`. */
export const ensureExtraDataAvailableAreDeclaredFields = defineCheck<CaseOutcome>({
  name: 'ensureExtraDataAvailableAreDeclaredFields',
  checks: 'the codes of extraDataAvailable are codes of the registration\'s deliveryDataFieldList',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const body = o.reply.json as Json;
    const perTariff = tariffsOf(o).map((t) => t.extraDataAvailable).filter(Array.isArray) as unknown[][];
    const lists = [body.extraDataAvailable, ...perTariff].filter(Array.isArray) as unknown[][];
    const absent = [...(Array.isArray(body.extraDataAvailable) ? [] : ['extraDataAvailable of the reply']), ...(perTariff.length > 0 ? [] : ['extraDataAvailable of a tariff'])];
    const codes = lists.flat();
    if (codes.length === 0) return notApplicable('no extraDataAvailable code in the answer');
    const known = new Set(dataFieldCodes(o.module));
    const unknown = [...new Set(codes.filter((c) => typeof c !== 'string' || !known.has(c)))];
    if (unknown.length > 0) return fail(`extraDataAvailable names ${unknown.map((c) => show(c)).join(', ')}`, `codes of deliveryDataFieldList (${[...known].join(', ') || 'none declared'})`, [o.reply.exchange.id]);
    return pass(`${new Set(codes).size} code(s), each a declared data field${notJudged(absent)}`, [o.reply.exchange.id]);
  },
});
