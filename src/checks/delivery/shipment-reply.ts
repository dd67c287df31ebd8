/**
 * The replies of a delivery module to `shipmentSave` and `shipmentDelete` (wire profile sections
 * 1 and 2): `shipmentSave` answers `{success: true, result: {shipmentId, extraData}}` (schema
 * delivery/shipment-save.reply.json: the profile does not mark shipmentId required, so a result
 * without it is of the shape, but its shipment cannot be edited or deleted afterwards);
 * `shipmentDelete` of a shipment the module saved answers `{success: true}` (schema
 * delivery/shipment-delete.reply.json). An error answer is the error rules'.
 */
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../../properties/types.ts';
import { resultIdOf } from './save-reply.ts';

/** The shipmentId of a shipmentSave success answer, if it has one. */
export const shipmentIdOf = (json: unknown): string | undefined => resultIdOf(json, 'shipmentId');

/** A success answer to shipmentSave is `{success: true, result: {shipmentId, extraData}}` of the profile's shape. */
export const ensureShipmentSaveAnswersShipment = defineCheck<CaseOutcome>({
  name: 'ensureShipmentSaveAnswersShipment',
  checks: 'a success answer to shipmentSave is {"success": true, "result": {shipmentId, extraData}} of the profile\'s shape',
  run(o) {
    if (o.case.callback !== 'delivery.shipmentSave') return notApplicable('not a shipmentSave answer');
    if (!claimsSuccess(o.reply)) return notApplicable(`the module did not answer success (${describeReply(o.reply)})`);
    const evidence = [o.reply.exchange.id];
    const out = contract({ profile: o.profile }).validate('delivery/shipment-save.reply.json', o.reply.json);
    if (out.errors.length > 0) return fail(describeReply(o.reply), `{"success": true, "result": {"shipmentId", "extraData"}} (${formatErrors(out.errors)})`, evidence);
    const id = shipmentIdOf(o.reply.json);
    return pass(id !== undefined ? `shipmentId ${show(id)}` : 'a result without shipmentId (not required by the profile)', evidence);
  },
});

/**
 * shipmentDelete of a shipment the module saved (and that was not deleted yet) answers
 * `{success: true}`. A case whose expectation is open (a shipment deleted before) is not judged.
 */
export const ensureShipmentDeleteAcknowledged = defineCheck<CaseOutcome>({
  name: 'ensureShipmentDeleteAcknowledged',
  checks: 'shipmentDelete of a saved shipment answers {"success": true}',
  run(o) {
    if (o.case.callback !== 'delivery.shipmentDelete' || o.case.intent.kind !== 'valid') return notApplicable('not a shipmentDelete of a saved shipment');
    const evidence = [o.reply.exchange.id];
    const id = show((o.case.payload as { shipmentId?: unknown }).shipmentId);
    const out = o.reply.status !== undefined && o.reply.status < 300 ? contract({ profile: o.profile }).validate('delivery/shipment-delete.reply.json', o.reply.json) : undefined;
    if (!out || out.errors.length > 0 || !claimsSuccess(o.reply)) return fail(`shipmentId ${id}: ${describeReply(o.reply)}`, `{"success": true}${out && out.errors.length > 0 ? ` (${formatErrors(out.errors)})` : ''}`, evidence);
    return pass(`shipmentId ${id}: deleted`, evidence);
  },
});
