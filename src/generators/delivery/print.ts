/**
 * `print` (wire profile section 2): `{entityType, type, deliveryIds}` with `type` the code of a
 * printable form of the registration's `plateList` for orders, `deliveryIds` nested as the
 * platform sends them (`[["id", ...]]`) or flat (`["id", ...]`, which modules should accept too), several ids only when `platePrintLimit` is above 1
 * (document, Limits). The ids are deliveries the suite created first with `save` (the minimal
 * payload below); wrong input asks for a delivery the module never made (document, Errors 3:
 * HTTP 400 with the error body).
 */
import fc from 'fast-check';
import { address, dateTimeAt, deliveryPackage, requestShape, type DeliveryContext } from './common.ts';
import type { GeneratedCase } from '../../checks/case.ts';

/** A printable form of the registration. */
export interface Plate {
  code: string;
  type?: string;
}

const delivery = (module: Record<string, unknown>): Record<string, unknown> => ((module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>).delivery ?? {};

/** The forms of `plateList` that print orders (a form without a type is taken to print orders). */
export function orderPlates(module: Record<string, unknown>): Plate[] {
  const list = delivery(module).plateList;
  if (!Array.isArray(list)) return [];
  return list.filter((p): p is Plate => !!p && typeof p === 'object' && typeof (p as Plate).code === 'string' && ((p as Plate).type === undefined || (p as Plate).type === 'order'));
}

/** How many orders may be printed at once (`platePrintLimit`; 1 when not declared). */
export function printLimit(module: Record<string, unknown>): number {
  const n = delivery(module).platePrintLimit;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}

/** The minimal `save` payload that creates a delivery to print: an order, a store, a package and an address. */
export function minimalSave(ctx: DeliveryContext, n: number): fc.Arbitrary<Record<string, unknown>> {
  const store = ctx.stores[0];
  const shape = requestShape(ctx.module);
  const sizes = ['length', 'width', 'height'].some((f) => shape.required.has(f));
  // What the registration requires is filled (requiredFields), as the system has the user do.
  const need = (f: string): boolean => shape.required.has(f);
  return fc.record({ pkg: deliveryPackage({ sizes, cod: shape.cod }), to: address(shape.required) }).map(({ pkg, to }) => ({
    orderNumber: `PRINT-${n + 1}`,
    ...(store ? { store: store.code } : {}),
    ...(ctx.currencies[0] ? { currency: ctx.currencies[0] } : {}),
    ...(need('email') || need('patronymic') ? { customer: { firstName: 'Ana', lastName: 'Garcia', ...(need('patronymic') ? { patronymic: 'Ivanovna' } : {}), ...(need('email') ? { email: 'customer@shop.test' } : {}) } } : {}),
    packages: [pkg],
    delivery: {
      deliveryAddress: to,
      ...(store?.address ? { shipmentAddress: store.address } : {}),
      ...(need('shipmentDate') ? { shipmentDate: dateTimeAt(ctx.firstDay, 1, 10, 0) } : {}),
      ...(need('deliveryDate') ? { deliveryDate: dateTimeAt(ctx.firstDay, 3, 12, 0) } : {}),
      ...(need('deliveryTime.from') || need('deliveryTime.to') ? { deliveryTime: { from: '10:00', to: '14:00' } } : {}),
    },
  }));
}

/** What a print property prints: the created deliveries and the forms. */
export interface PrintContext {
  deliveryIds: readonly string[];
  plates: readonly Plate[];
  limit: number;
}

/** A print request: mostly existing deliveries (valid), sometimes one the module never made (wrong input). */
export function printRequest(p: PrintContext): fc.Arbitrary<GeneratedCase> {
  const plate = fc.constantFrom(...p.plates.map((x) => x.code));
  const max = Math.max(1, Math.min(p.limit, p.deliveryIds.length));
  // Nested as the platform sends them, or flat, the other form a module should accept (wire profile section 2): drawn per case,
  // independently, so each form is sent and judged on its own (ensurePrintAcceptsNestedDeliveryIds, ensurePrintAcceptsFlatDeliveryIds).
  const valid = fc.record({ type: plate, ids: fc.shuffledSubarray([...p.deliveryIds], { minLength: 1, maxLength: max }), flat: fc.boolean() }).map(
    ({ type, ids, flat }): GeneratedCase => ({ callback: 'delivery.print', payload: { entityType: 'order', type, deliveryIds: flat ? ids : [ids] }, intent: { kind: 'valid' } }),
  );
  const wrong = fc.record({ type: plate, id: fc.integer({ min: 1, max: 999_999 }).map((n) => `NO-SUCH-${n}`) }).map(
    // No document of a delivery it never made: the module "must show a message", and then "answers HTTP 400 with the standard error body" (document, Errors 3).
    // Only the error's form is judged (the print property applies no refusal rule): a document answered is judged as a document.
    ({ type, id }): GeneratedCase => ({
      callback: 'delivery.print',
      payload: { entityType: 'order', type, deliveryIds: [[id]] },
      intent: { kind: 'wrong', field: 'deliveryIds', why: `deliveryIds names ${id}, a delivery the module never made`, value: id, source: 'document, Errors 3: "A print callback that must show a message answers HTTP 400 with the standard error body"' },
    }),
  );
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: wrong, weight: 1 });
}
