/**
 * The success replies of a delivery module to its list callbacks (wire profile sections 1 and
 * 2; the document shows none of these bodies): `tariffList` answers `{success: true, result:
 * [{code, name, description, type}]}` (schema delivery/tariff-list.reply.json),
 * `shipmentPointList` an array of terminals (delivery/shipment-point-list.reply.json, each of
 * delivery/terminal.json), an `autocompleteUrl` suggestions `{value, label, description}`
 * (delivery/autocomplete.reply.json, low confidence: a SHOULD). Each rule judges only the
 * replies that claim success; an error answer is the error rules'.
 */
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../../properties/types.ts';

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
    return pass(`${items.length} tariff(s)`, evidence);
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
    return pass(`${items.length} terminal(s)`, evidence);
  },
});

/** A success answer of an `autocompleteUrl` is `{success: true, result: [{value, label, description}]}`. */
export const ensureAutocompleteAnswersSuggestions = defineCheck<CaseOutcome>({
  name: 'ensureAutocompleteAnswersSuggestions',
  checks: 'a success answer of an autocompleteUrl is {"success": true, "result": [{value, label, description}, ...]}',
  run(o) {
    const na = notASuccess(o);
    if (na) return na;
    const evidence = [o.reply.exchange.id];
    const out = contract({ profile: o.profile }).validate('delivery/autocomplete.reply.json', o.reply.json);
    if (!out.valid) return fail(describeReply(o.reply), `{"success": true, "result": [{value, label, description}]} (${formatErrors(out.errors)})`, evidence);
    const result = (o.reply.json as Json).result;
    return pass(`${Array.isArray(result) ? result.length : result === undefined ? 0 : 1} suggestion(s)`, evidence);
  },
});
