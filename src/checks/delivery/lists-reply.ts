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
import { formatErrors } from '../../contract/schemas.ts';
import { fail, notApplicable, pass, show } from '../check.ts';
import { absentFromAll, describeReply, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';
import type { CaseOutcome } from '../case.ts';

type Json = Record<string, unknown>;

const itemsOf = (o: CaseOutcome): unknown[] => {
  const result = (o.reply.json as Json).result;
  return Array.isArray(result) ? result : [];
};

/** A success answer to `tariffList` is `{success: true, result: [{code, name, description?, type?}]}`, code and name texts. */
export const ensureTariffListAnswersTariffs = defineSchemaReplyCheck({
  name: 'ensureTariffListAnswersTariffs',
  checks: 'a success answer to tariffList is {"success": true, "result": [{code, name, description, type}, ...]}',
  schema: 'delivery/tariff-list.reply.json',
  expected: '{"success": true, "result": [{code, name, description, type}]}',
  holds(o, evidence) {
    const items = itemsOf(o) as Json[];
    const bad = items.findIndex((t) => typeof t.code !== 'string' || t.code === '' || typeof t.name !== 'string');
    if (bad >= 0) return fail(`tariff ${bad}: ${show(items[bad])}`, 'each tariff with a code and a name (wire profile section 2: {code, name, description, type})', evidence);
    return pass(`${items.length} tariff(s), each with its code and name${notJudged(absentFromAll(items, ['description', 'type']))}`, evidence);
  },
});

/** Errors of the reply's schema inside a terminal: the terminal rule's. */
const TERMINAL_MEMBER = /^\/result\/\d+(\/|$)/;

/** A success answer to `shipmentPointList` is `{success: true, result: [terminal, ...]}`. */
export const ensureShipmentPointListAnswersTerminals = defineSchemaReplyCheck({
  name: 'ensureShipmentPointListAnswersTerminals',
  checks: 'a success answer to shipmentPointList is {"success": true, "result": [terminal, ...]}',
  schema: 'delivery/shipment-point-list.reply.json',
  region: { except: [TERMINAL_MEMBER] },
  expected: '{"success": true, "result": [terminals]}',
  holds: (o, evidence) => pass(`${itemsOf(o).length} terminal(s)`, evidence),
});

/** Each terminal is `{code, name, address, schedule, phone, cost, description, extraData, coordinates{latitude, longitude}}` of their types. */
export const ensureTerminalsMatchTerminalShape = defineSchemaReplyCheck({
  name: 'ensureTerminalsMatchTerminalShape',
  checks: 'each terminal of shipmentPointList has the profile\'s fields of their types (coordinates numbers, cost a number)',
  schema: 'delivery/shipment-point-list.reply.json',
  before: (o) => (itemsOf(o).length === 0 ? notApplicable('no terminal in the answer') : undefined),
  region: { only: TERMINAL_MEMBER },
  failure: (o, errors, evidence) => fail(`terminal ${errors[0]!.instancePath.split('/')[2]}: ${formatErrors(errors)}`, 'terminals {code, name, address, schedule, phone, cost, description, extraData, coordinates{latitude, longitude}} (wire profile section 2)', evidence),
  holds: (o, evidence) => pass(`${itemsOf(o).length} terminal(s), each with its code${notJudged(absentFromAll(itemsOf(o), TERMINAL_OPTIONAL))}`, evidence),
});

/** The optional members of a terminal (wire profile section 2). */
const TERMINAL_OPTIONAL = ['name', 'address', 'schedule', 'phone', 'cost', 'description', 'extraData', 'coordinates', 'coordinates.latitude', 'coordinates.longitude'] as const;

const AUTOCOMPLETE_EXPECTED = '{"success": true, "result": [{value, label, description}]}, each suggestion with its value';

/** A success answer of an `autocompleteUrl` is `{success: true, result: [{value, label, description}]}`. */
export const ensureAutocompleteAnswersSuggestions = defineSchemaReplyCheck({
  name: 'ensureAutocompleteAnswersSuggestions',
  checks: 'a success answer of an autocompleteUrl is {"success": true, "result": [{value, label, description}, ...]}',
  schema: 'delivery/autocomplete.reply.json',
  // autocomplete's errors are not shown (no error rule judges them): every 2xx answer but the error form is judged, so that one without success is not passed over.
  answer(r) {
    if (r.status === undefined || r.status < 200 || r.status >= 300) return notApplicable(`no success answer (${describeReply(r)})`);
    if (r.json && typeof r.json === 'object' && !Array.isArray(r.json) && (r.json as Json).success === false) return notApplicable(`the error form (${describeReply(r)}): autocomplete's errors are not shown`);
    return undefined;
  },
  notJson: (o, evidence) => (o.profile ? fail(`${describeReply(o.reply)}: not JSON`, AUTOCOMPLETE_EXPECTED, evidence) : notApplicable('the document alone shows no autocomplete answer')),
  expected: AUTOCOMPLETE_EXPECTED,
  holds(o, evidence) {
    const result = (o.reply.json as Json).result;
    const items = Array.isArray(result) ? result : [result];
    return pass(`${items.length} suggestion(s), each with its value${notJudged(absentFromAll(items, ['label', 'description']))}`, evidence);
  },
});
