/**
 * Requests of the delivery `shipmentSave` and `shipmentDelete` callbacks (wire profile section
 * 2: `{shipmentId? (edit), manager, date, time, address, store (code), orders[{deliveryId,
 * packages[]}], comment, extraData}`; `{shipmentId, extraData}`): a shipment (a pickup request)
 * of deliveries the module saved in this run, from one of the account's stores, on a day ahead
 * of the run, with the values of the registration's shipment data fields (editable ones: the
 * document's rule for delivery data fields, whose format shipment fields share).
 */
import fc from 'fast-check';
import { address, dateTimeAt, extraData, orderPackages, requestShape, type DeliveryContext } from './common.ts';
import { comment, firstName, lastName } from '../people.ts';

type Json = Record<string, unknown>;

/** Codes of the registration's editable shipment data fields, autocomplete fields aside (their values are the module's own). */
function editableShipmentCodes(module: Json): Set<string> {
  const list = ((module.integrations ?? {}) as Record<string, Json | undefined>).delivery?.shipmentDataFieldList;
  const fields = Array.isArray(list) ? (list as Json[]) : [];
  return new Set(fields.filter((f) => f && f.editable === true && f.type !== 'autocomplete' && typeof f.code === 'string').map((f) => f.code as string));
}

/** What a shipment of one store and day says beyond its orders. */
export function shipmentFields(ctx: DeliveryContext): fc.Arbitrary<Json> {
  const editable = editableShipmentCodes(ctx.module);
  return fc
    .record({
      store: fc.constantFrom(...ctx.stores),
      days: fc.integer({ min: 1, max: 30 }),
      from: fc.integer({ min: 8, max: 15 }),
      hours: fc.integer({ min: 2, max: 4 }),
      manager: fc.record({ id: fc.integer({ min: 1, max: 9999 }), firstName, lastName }),
      comment: fc.option(comment, { nil: undefined }),
      address: address(),
      extraData: extraData(ctx, 'shipment').map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => editable.has(k)))),
    })
    .map((g) => ({
      manager: g.manager,
      date: dateTimeAt(ctx.firstDay, g.days, 9, 0),
      time: { from: `${String(g.from).padStart(2, '0')}:00`, to: `${String(g.from + g.hours).padStart(2, '0')}:00` },
      address: g.store.address ? { ...g.store.address } : g.address,
      store: g.store.code,
      ...(g.comment !== undefined ? { comment: g.comment } : {}),
      extraData: g.extraData,
    }));
}

/** A shipmentSave request (create, or edit with `shipmentId`) of the given deliveries, one package each. */
export function shipmentSaveRequest(fields: Json, deliveryIds: readonly string[], packages: readonly Json[], shipmentId?: string): Json {
  return {
    ...(shipmentId !== undefined ? { shipmentId } : {}),
    ...fields,
    orders: deliveryIds.map((deliveryId, i) => ({ deliveryId, packages: [packages[i % Math.max(1, packages.length)] ?? {}] })),
  };
}

/** Packages for the orders of a shipment. */
export const shipmentPackages = (ctx: DeliveryContext): fc.Arbitrary<Json[]> => orderPackages({ ...requestShape(ctx.module), maxPackages: 3 });

/** A shipmentDelete request: the shipment's id and the shipment's data-field values. */
export const shipmentDeleteRequest = (shipmentId: string, fields?: Json): Json => ({ shipmentId, extraData: (fields?.extraData as Json | undefined) ?? {} });
