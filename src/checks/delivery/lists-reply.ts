/**
 * The success replies of a delivery module to its list callbacks (wire profile sections 1 and
 * 2; the document shows none of these bodies): `tariffList` answers `{success: true, result:
 * [{code, name, description, type}]}` (schema delivery/tariff-list.reply.json),
 * `shipmentPointList` an array of terminals (delivery/shipment-point-list.reply.json, each of
 * delivery/terminal.json), an `autocompleteUrl` suggestions `{value, label, description}`
 * (delivery/autocomplete.reply.json, low confidence: a SHOULD). Each rule judges only the
 * replies that claim success (autocomplete: every 2xx answer that is not the error form, since
 * its errors are not shown and no error rule judges it); an error answer is the error rules'.
 *
 * Required members: a tariff's `code` and `name` (tariffList), a terminal's `code` (document: "When
 * a terminal is chosen only its code is sent as the sender address"), a suggestion's `value`
 * (document: the value of an autocomplete `{label, value}` is what is sent to the module), and
 * `success` and `result` (wire profile section 1). The rest are optional: a pass names those it
 * did not see ("absent, not judged"), never crediting them.
 */
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import { absentFromAll, claimsSuccess, describeReply, notJudged } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

type Json = Record<string, unknown>;

function notASuccess(o: CaseOutcome): Verdict | undefined {
  if (!claimsSuccess(o.reply)) return notApplicable(`the module did not answer success (${describeReply(o.reply)})`);
  return undefined;
}

const itemsOf = (o: CaseOutcome): unknown[] => {
  const result = (o.reply.json as Json).result;
  return Array.isArray(result) ? result : [];
};

/** A success answer to `tariffList` is `{success: true, result: [{code, name, description?, type?}]}`, code and name texts. */
export const ensureTariffListAnswersTariffs = defineCheck<CaseOutcome>({
  name: 'ensureTariffListAnswersTariffs',
  checks: 'a success answer to tariffList is {"success": true, "result": [{code, name, description, type}, ...]}',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const evidence = [o.reply.exchange.id];
    const out = contract({ profile: o.profile }).validate('delivery/tariff-list.reply.json', o.reply.json);
    if (!out.valid) return fail(describeReply(o.reply), `{"success": true, "result": [{code, name, description, type}]} (${formatErrors(out.errors)})`, evidence);
    const items = itemsOf(o) as Json[];
    const bad = items.findIndex((t) => typeof t.code !== 'string' || t.code === '' || typeof t.name !== 'string');
    if (bad >= 0) return fail(`tariff ${bad}: ${show(items[bad])}`, 'each tariff with a code and a name (wire profile section 2: {code, name, description, type})', evidence);
    return pass(`${items.length} tariff(s), each with its code and name${notJudged(absentFromAll(items, ['description', 'type']))}`, evidence);
  },
});

/** Errors of the reply's schema inside a terminal: the terminal rule's. */
const TERMINAL_MEMBER = /^\/result\/\d+(\/|$)/;

/** A success answer to `shipmentPointList` is `{success: true, result: [terminal, ...]}`. */
export const ensureShipmentPointListAnswersTerminals = defineCheck<CaseOutcome>({
  name: 'ensureShipmentPointListAnswersTerminals',
  checks: 'a success answer to shipmentPointList is {"success": true, "result": [terminal, ...]}',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const evidence = [o.reply.exchange.id];
    const out = contract({ profile: o.profile }).validate('delivery/shipment-point-list.reply.json', o.reply.json);
    const errors = out.errors.filter((e) => !TERMINAL_MEMBER.test(e.instancePath));
    if (errors.length > 0) return fail(describeReply(o.reply), `{"success": true, "result": [terminals]} (${formatErrors(errors)})`, evidence);
    return pass(`${itemsOf(o).length} terminal(s)`, evidence);
  },
});

/** Each terminal is `{code, name, address, schedule, phone, cost, description, extraData, coordinates{latitude, longitude}}` of their types. */
export const ensureTerminalsMatchTerminalShape = defineCheck<CaseOutcome>({
  name: 'ensureTerminalsMatchTerminalShape',
  checks: 'each terminal of shipmentPointList has the profile\'s fields of their types (coordinates numbers, cost a number)',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const items = itemsOf(o);
    if (items.length === 0) return notApplicable('no terminal in the answer');
    const evidence = [o.reply.exchange.id];
    const errors = contract({ profile: o.profile }).validate('delivery/shipment-point-list.reply.json', o.reply.json).errors.filter((e) => TERMINAL_MEMBER.test(e.instancePath));
    if (errors.length > 0) return fail(`terminal ${errors[0]!.instancePath.split('/')[2]}: ${formatErrors(errors)}`, 'terminals {code, name, address, schedule, phone, cost, description, extraData, coordinates{latitude, longitude}} (wire profile section 2)', evidence);
    return pass(`${items.length} terminal(s), each with its code${notJudged(absentFromAll(items, TERMINAL_OPTIONAL))}`, evidence);
  },
});

/** The optional members of a terminal (wire profile section 2). */
const TERMINAL_OPTIONAL = ['name', 'address', 'schedule', 'phone', 'cost', 'description', 'extraData', 'coordinates', 'coordinates.latitude', 'coordinates.longitude'] as const;

/** A success answer of an `autocompleteUrl` is `{success: true, result: [{value, label, description}]}`. */
export const ensureAutocompleteAnswersSuggestions = defineCheck<CaseOutcome>({
  name: 'ensureAutocompleteAnswersSuggestions',
  checks: 'a success answer of an autocompleteUrl is {"success": true, "result": [{value, label, description}, ...]}',
  run(o) {
    // autocomplete's errors are not shown (no error rule judges them): every 2xx answer but the error form is judged, so that one without success is not passed over.
    const r = o.reply;
    if (r.status === undefined || r.status < 200 || r.status >= 300) return notApplicable(`no success answer (${describeReply(r)})`);
    if (r.json && typeof r.json === 'object' && !Array.isArray(r.json) && (r.json as Json).success === false) return notApplicable(`the error form (${describeReply(r)}): autocomplete's errors are not shown`);
    const evidence = [r.exchange.id];
    const expected = '{"success": true, "result": [{value, label, description}]}, each suggestion with its value';
    if (r.json === undefined) return o.profile ? fail(`${describeReply(r)}: not JSON`, expected, evidence) : notApplicable('the document alone shows no autocomplete answer');
    const out = contract({ profile: o.profile }).validate('delivery/autocomplete.reply.json', r.json);
    if (!out.valid) return fail(describeReply(r), `${expected} (${formatErrors(out.errors)})`, evidence);
    const result = (r.json as Json).result;
    const items = Array.isArray(result) ? result : [result];
    return pass(`${items.length} suggestion(s), each with its value${notJudged(absentFromAll(items, ['label', 'description']))}`, evidence);
  },
});
