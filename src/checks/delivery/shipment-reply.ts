/**
 * The replies of a delivery module to `shipmentSave` and `shipmentDelete` (wire profile sections
 * 1 and 2): `shipmentSave` answers `{success: true, result: {shipmentId, extraData}}` (schema
 * delivery/shipment-save.reply.json). The `shipmentId` is the shipment's id the system sends back
 * when it edits the shipment (shipmentSave `shipmentId?`) or deletes it (shipmentDelete
 * `{shipmentId}`), and it learns it nowhere else: required of a module that declares
 * `shipmentDelete`. Without `shipmentDelete` shipments are never edited or deleted (document,
 * rule 5), so the id is never sent back and may be absent; `extraData` is optional;
 * `shipmentDelete` of a shipment the module saved answers `{success: true}` (schema
 * delivery/shipment-delete.reply.json). An error answer is the error rules'.
 */
import { fail, notApplicable, pass, show } from '../check.ts';
import { absentMembers, describeReply, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';
import type { CaseOutcome } from '../case.ts';
import { resultIdOf } from './save-reply.ts';

/** Whether the registration declares the `shipmentDelete` action (document, rule 5: without it shipments cannot be edited or deleted). */
function declaresShipmentDelete(module: Record<string, unknown>): boolean {
  const delivery = ((module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>).delivery;
  const actions = delivery?.actions;
  return !!actions && typeof actions === 'object' && typeof (actions as Record<string, unknown>).shipmentDelete === 'string' && (actions as Record<string, unknown>).shipmentDelete !== '';
}

/** The shipmentId of a shipmentSave success answer, if it has one. */
export const shipmentIdOf = (json: unknown): string | undefined => resultIdOf(json, 'shipmentId');

/** A success answer to shipmentSave is `{success: true, result: {shipmentId, extraData}}` of the profile's shape. */
export const ensureShipmentSaveAnswersShipment = defineSchemaReplyCheck({
  name: 'ensureShipmentSaveAnswersShipment',
  checks: 'a success answer to shipmentSave is {"success": true, "result": {shipmentId, extraData}} of the profile\'s shape',
  schema: 'delivery/shipment-save.reply.json',
  when: (o) => (o.case.callback !== 'delivery.shipmentSave' ? notApplicable('not a shipmentSave answer') : undefined),
  expected: '{"success": true, "result": {"shipmentId", "extraData"}}',
  holds(o, evidence) {
    const id = shipmentIdOf(o.reply.json);
    const result = (o.reply.json as { result?: unknown }).result;
    const editable = declaresShipmentDelete(o.module);
    if (id === undefined && editable) {
      return fail(
        `result.shipmentId ${show((result as { shipmentId?: unknown } | undefined)?.shipmentId)}: ${describeReply(o.reply)}`,
        'the shipment\'s id, a text or a number, not empty: the system edits (shipmentSave shipmentId) and deletes (shipmentDelete {shipmentId}) the shipment by it (wire profile section 2: result {shipmentId, extraData}); the module declares shipmentDelete',
        evidence,
      );
    }
    const absent = absentMembers(result, ['shipmentId', 'extraData']);
    if (absent.length === 2) return notApplicable('a result without shipmentId or extraData: the module declares no shipmentDelete, so its shipments are never edited or deleted (document, rule 5) and the id is never sent back');
    return pass(`${id !== undefined ? `shipmentId ${show(id)}` : 'the result'}${notJudged(absent.map((m) => (m === 'shipmentId' ? 'shipmentId (no shipmentDelete declared: never sent back, document rule 5)' : m)))}`, evidence);
  },
});

const shipmentIdSent = (o: CaseOutcome): string => show((o.case.payload as { shipmentId?: unknown }).shipmentId);

/**
 * shipmentDelete of a shipment the module saved (and that was not deleted yet) answers
 * `{success: true}`. A case whose expectation is open (a shipment deleted before) is not judged.
 */
export const ensureShipmentDeleteAcknowledged = defineSchemaReplyCheck({
  name: 'ensureShipmentDeleteAcknowledged',
  checks: 'shipmentDelete of a saved shipment answers {"success": true}',
  schema: 'delivery/shipment-delete.reply.json',
  when: (o) => (o.case.callback !== 'delivery.shipmentDelete' || o.case.intent.kind !== 'valid' ? notApplicable('not a shipmentDelete of a saved shipment') : undefined),
  answer: 'mustSucceed',
  received: (o) => `shipmentId ${shipmentIdSent(o)}: ${describeReply(o.reply)}`,
  expected: '{"success": true}',
  holds: (o, evidence) => pass(`shipmentId ${shipmentIdSent(o)}: deleted`, evidence),
});
