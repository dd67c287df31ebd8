/**
 * The replies of a delivery module to `get` and `delete` of a delivery it saved (wire profile
 * sections 1 and 2): `get` answers `{success: true, result: {trackNumber, cost, shipmentDate,
 * deliveryDate, status{code, updatedAt, comment}, extraData, ...}}` with the dates `Y-m-d` and
 * updatedAt ISO 8601 (schema delivery/get.reply.json; the date members at
 * `/result/shipmentDate` and `/result/deliveryDate`, `pattern`, are ensureGetDatesAreYmd's,
 * `/result/status/updatedAt` ensureGetStatusUpdatedAtIsIso8601's, the rest
 * ensureGetAnswersDelivery's); no member of the result is required (the profile marks none), so a
 * rule whose member is absent is not applicable, and a pass names the members it did not see;
 * `get` of an id the module never gave is an error answer;
 * `delete` answers `{success: true}` (schema delivery/delete.reply.json).
 */
import { refusesTheMethod } from '../callbacks/method.ts';
import { formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import { absentMembers, claimsSuccess, describeReply, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';
import type { CaseOutcome } from '../case.ts';

/** The date members of get's result: ensureGetDatesAreYmd owns them. */
const DATE_MEMBER = /^\/result\/(shipmentDate|deliveryDate)(\/|$)/;
/** The status's updatedAt: ensureGetStatusUpdatedAtIsIso8601 owns it. */
const UPDATED_AT = /^\/result\/status\/updatedAt(\/|$)/;
/** The members of get's result the shape rule judges (wire profile section 2), all optional. */
const GET_MEMBERS = ['trackNumber', 'cost', 'status', 'status.code', 'status.comment', 'extraData'] as const;
const resultOf = (o: CaseOutcome): Record<string, unknown> => ((o.reply.json as { result?: unknown }).result ?? {}) as Record<string, unknown>;

/** Not applicable unless the case is a get of a delivery the module saved (whether it answered success is the factory's test, next). */
function getOfSaved(o: CaseOutcome): Verdict | undefined {
  if (o.case.callback !== 'delivery.get') return notApplicable(`the save gave no deliveryId to get (${describeReply(o.reply)})`);
  if (o.case.intent.kind !== 'valid') return notApplicable(o.case.intent.kind === 'open' ? `the answer is open: ${o.case.intent.why}` : 'a get of an unknown id');
  return undefined;
}

/** A success answer to get of a saved delivery is `{success: true, result: {...}}` of the profile's shape. */
export const ensureGetAnswersDelivery = defineSchemaReplyCheck({
  name: 'ensureGetAnswersDelivery',
  checks: 'a success answer to get is {"success": true, "result": {...}} of the profile\'s shape',
  schema: 'delivery/get.reply.json',
  when: getOfSaved,
  region: { except: [DATE_MEMBER, UPDATED_AT] },
  expected: '{"success": true, "result": {trackNumber, cost, status{code, updatedAt, comment}, ...}}',
  holds: (o, evidence) => pass(`the delivery, of the profile's shape${notJudged(absentMembers(resultOf(o), GET_MEMBERS))}`, evidence),
});

/** The status's updatedAt of a get answer, if it has one. */
function updatedAtOf(o: CaseOutcome): { status: unknown; at: unknown } {
  const status = resultOf(o).status;
  return { status, at: status && typeof status === 'object' && !Array.isArray(status) ? (status as Record<string, unknown>).updatedAt : undefined };
}

/** The status's `updatedAt` of a get answer is ISO 8601 (wire profile section 2); not applicable when the answer has none. */
export const ensureGetStatusUpdatedAtIsIso8601 = defineSchemaReplyCheck({
  name: 'ensureGetStatusUpdatedAtIsIso8601',
  checks: 'the status.updatedAt of a get answer is ISO 8601',
  schema: 'delivery/get.reply.json',
  when: getOfSaved,
  before(o) {
    const { status, at } = updatedAtOf(o);
    return at === undefined || at === null ? notApplicable(`no status.updatedAt in the answer${status === undefined || status === null ? ' (no status)' : ''}`) : undefined;
  },
  region: { only: UPDATED_AT },
  failure: (o, errors, evidence) => fail(`status.updatedAt ${show(updatedAtOf(o).at)}`, `ISO 8601 (wire profile section 2; ${formatErrors(errors)})`, evidence),
  holds: (o, evidence) => pass(`status.updatedAt ${show(updatedAtOf(o).at)}`, evidence),
});

/**
 * get of a delivery the module saved (and that was not deleted since) answers it: a success, not
 * an error. The rest of its shape is ensureGetAnswersDelivery's.
 */
export const ensureLiveDeliveryIsServed = defineCheck<CaseOutcome>({
  name: 'ensureLiveDeliveryIsServed',
  checks: 'get of a delivery the module saved, and not deleted since, answers the delivery, not an error',
  run(o) {
    if (o.case.callback !== 'delivery.get') return notApplicable(`the save gave no deliveryId to get (${describeReply(o.reply)})`);
    if (o.case.intent.kind !== 'valid') return notApplicable(o.case.intent.kind === 'open' ? `the answer is open: ${o.case.intent.why}` : 'a get of an unknown id');
    const evidence = [o.reply.exchange.id];
    const id = show((o.case.payload as { deliveryId?: unknown }).deliveryId);
    if (o.reply.status === undefined) return notApplicable(`no answer (ensureCallbackIsAnswered's): ${describeReply(o.reply)}`);
    if (refusesTheMethod(o.reply)) return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
    if (!claimsSuccess(o.reply)) return fail(`deliveryId ${id}, which the module gave and was not deleted: ${describeReply(o.reply)}`, 'the delivery: {"success": true, "result": {...}}', evidence);
    return pass(`deliveryId ${id}: answered`, evidence);
  },
});

/** The date members of get's result the answer carries. */
const datesOf = (o: CaseOutcome): string[] => ['shipmentDate', 'deliveryDate'].filter((k) => resultOf(o)[k] !== undefined && resultOf(o)[k] !== null);
const showDates = (o: CaseOutcome): string => datesOf(o).map((k) => `${k} ${show(resultOf(o)[k])}`).join(', ');

/** The shipment and delivery dates of get's result are `Y-m-d` (a time part is accepted, as the official client writes it). */
export const ensureGetDatesAreYmd = defineSchemaReplyCheck({
  name: 'ensureGetDatesAreYmd',
  checks: 'the shipmentDate and deliveryDate of a get answer are Y-m-d',
  schema: 'delivery/get.reply.json',
  when: getOfSaved,
  before: (o) => (datesOf(o).length === 0 ? notApplicable('no date in the answer') : undefined),
  region: { only: DATE_MEMBER },
  failure: (o, errors, evidence) => fail(showDates(o), `Y-m-d dates (wire profile section 2; ${formatErrors(errors)})`, evidence),
  holds: (o, evidence) => pass(`${showDates(o)}${notJudged(['shipmentDate', 'deliveryDate'].filter((k) => !datesOf(o).includes(k)))}`, evidence),
});

/** get of a deliveryId the module never gave is an error answer: not a success, not a 5xx. */
export const ensureUnknownDeliveryIdIsRefused = defineCheck<CaseOutcome>({
  name: 'ensureUnknownDeliveryIdIsRefused',
  checks: 'get of an unknown deliveryId is an error answer, never a success or a 5xx',
  run(o) {
    if (o.case.callback !== 'delivery.get' || o.case.intent.kind !== 'wrong') return notApplicable('not a get of an unknown id');
    const evidence = [o.reply.exchange.id];
    const id = show((o.case.payload as { deliveryId?: unknown }).deliveryId);
    if (o.reply.status === undefined) return fail(`deliveryId ${id}: ${describeReply(o.reply)}`, 'an error answer', evidence);
    if (claimsSuccess(o.reply)) return fail(`deliveryId ${id}: answered success, ${describeReply(o.reply)}`, 'an error answer {"success": false, "errorMsg": ...} (wire profile section 2: unknown id)', evidence);
    if (o.reply.status >= 500) return fail(`deliveryId ${id}: ${describeReply(o.reply)}`, 'an error answer, not a server error (wire profile section 1)', evidence);
    return pass(`deliveryId ${id}: refused, HTTP ${o.reply.status}`, evidence);
  },
});

const deliveryIdSent = (o: CaseOutcome): string => show((o.case.payload as { deliveryId?: unknown }).deliveryId);

/** delete of a saved delivery answers `{success: true}`. */
export const ensureDeleteAcknowledged = defineSchemaReplyCheck({
  name: 'ensureDeleteAcknowledged',
  checks: 'delete of a saved delivery answers {"success": true}',
  schema: 'delivery/delete.reply.json',
  when(o) {
    if (o.case.callback !== 'delivery.delete') return notApplicable(`the save gave no deliveryId to delete (${describeReply(o.reply)})`);
    if (o.case.intent.kind !== 'valid') return notApplicable(o.case.intent.kind === 'open' ? `the answer is open: ${o.case.intent.why}` : 'not a delete of a saved delivery');
    return undefined;
  },
  answer: 'mustSucceed',
  received: (o) => `deliveryId ${deliveryIdSent(o)}: ${describeReply(o.reply)}`,
  expected: '{"success": true}',
  holds: (o, evidence) => pass(`deliveryId ${deliveryIdSent(o)}: deleted`, evidence),
});
