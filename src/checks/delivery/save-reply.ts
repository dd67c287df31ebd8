/**
 * The success reply of a delivery module to `save`: `{success: true, result: {deliveryId,
 * trackNumber?, cost?, status?, extraData?}}` (wire profile sections 1 and 2: deliveryId
 * required; schema delivery/save.reply.json, every constraint of the profile). An error answer
 * is the error rules'.
 */
import { fail, notApplicable, pass, show } from '../check.ts';
import { absentMembers, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';

/** An id member of a success answer's result (`deliveryId` of save, `shipmentId` of shipmentSave), as the system sends it back (a text), if it has one. */
export function resultIdOf(json: unknown, member: 'deliveryId' | 'shipmentId'): string | undefined {
  const id = ((json as { result?: Record<string, unknown> } | undefined)?.result ?? {})[member];
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : undefined;
}

/** The deliveryId of a save success answer, if it has one. */
export const deliveryIdOf = (json: unknown): string | undefined => resultIdOf(json, 'deliveryId');

/** A success answer to save carries the created delivery's id: `{success: true, result: {deliveryId, ...}}`. */
export const ensureSaveReturnsDeliveryId = defineSchemaReplyCheck({
  name: 'ensureSaveReturnsDeliveryId',
  checks: 'a success answer to save is {"success": true, "result": {"deliveryId", ...}} of the profile\'s shape',
  schema: 'delivery/save.reply.json',
  when: (o) => (o.case.callback !== 'delivery.save' ? notApplicable('not a save answer') : undefined),
  expected: '{"success": true, "result": {"deliveryId", ...}}',
  holds(o, evidence) {
    const id = deliveryIdOf(o.reply.json);
    if (id === undefined) return fail(`result.deliveryId ${show((o.reply.json as { result?: { deliveryId?: unknown } }).result?.deliveryId)}`, 'a deliveryId, not empty (wire profile section 2: required)', evidence);
    // trackNumber, cost, status and extraData are optional (no sentence requires them): a pass names those it did not see.
    return pass(`deliveryId ${show(id)}${notJudged(absentMembers((o.reply.json as { result?: unknown }).result, ['trackNumber', 'cost', 'status', 'extraData']))}`, evidence);
  },
});
