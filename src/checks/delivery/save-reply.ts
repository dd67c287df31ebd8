/**
 * The success reply of a delivery module to `save`: `{success: true, result: {deliveryId,
 * trackNumber?, cost?, status?, extraData?}}` (wire profile sections 1 and 2: deliveryId
 * required; schema delivery/save.reply.json, every constraint of the profile). An error answer
 * is the error rules'.
 */
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import { absentMembers, claimsSuccess, describeReply, notJudged } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

/** An id member of a success answer's result (`deliveryId` of save, `shipmentId` of shipmentSave), as the system sends it back (a text), if it has one. */
export function resultIdOf(json: unknown, member: 'deliveryId' | 'shipmentId'): string | undefined {
  const id = ((json as { result?: Record<string, unknown> } | undefined)?.result ?? {})[member];
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : undefined;
}

/** The deliveryId of a save success answer, if it has one. */
export const deliveryIdOf = (json: unknown): string | undefined => resultIdOf(json, 'deliveryId');

/** A success answer to save carries the created delivery's id: `{success: true, result: {deliveryId, ...}}`. */
export const ensureSaveReturnsDeliveryId = defineCheck<CaseOutcome>({
  name: 'ensureSaveReturnsDeliveryId',
  checks: 'a success answer to save is {"success": true, "result": {"deliveryId", ...}} of the profile\'s shape',
  run(o) {
    if (o.case.callback !== 'delivery.save') return notApplicable('not a save answer');
    if (!claimsSuccess(o.reply)) return notApplicable(`the module did not answer success (${describeReply(o.reply)})`);
    const evidence = [o.reply.exchange.id];
    const out = contract({ profile: o.profile }).validate('delivery/save.reply.json', o.reply.json);
    if (out.errors.length > 0) return fail(describeReply(o.reply), `{"success": true, "result": {"deliveryId", ...}} (${formatErrors(out.errors)})`, evidence);
    const id = deliveryIdOf(o.reply.json);
    if (id === undefined) return fail(`result.deliveryId ${show((o.reply.json as { result?: { deliveryId?: unknown } }).result?.deliveryId)}`, 'a deliveryId, not empty (wire profile section 2: required)', evidence);
    // trackNumber, cost, status and extraData are optional (no sentence requires them): a pass names those it did not see.
    return pass(`deliveryId ${show(id)}${notJudged(absentMembers((o.reply.json as { result?: unknown }).result, ['trackNumber', 'cost', 'status', 'extraData']))}`, evidence);
  },
});
