/**
 * Requests of the delivery `calculate` callback: valid ones, built from the request schema with
 * the contract's semantics on top (delivery/common.ts), and wrong input the module must refuse
 * with an error that names the field (document, Errors 7).
 */
import fc from 'fast-check';
import { schemaArbitrary } from '../from-schema.ts';
import type { GeneratedCase } from '../../checks/case.ts';
import { breakageCases, deliveryBreakages, type Breakage } from './breakages.ts';
import { address, codTotal, dateTimeAt, deliveryTime, extraData, futureDateTime, orderPackages, packageItem, requestShape, type DeliveryContext } from './common.ts';

/** The package item fields the document names (PackageItem: externalId, xmlId, offerId, vatRate; RequestSave: cod per unit). */
const DOCUMENT_ITEM_FIELDS = ['offerId', 'externalId', 'xmlId', 'vatRate', 'cod'];

type Json = Record<string, unknown>;

const sumOf = (packages: Json[], field: string): number =>
  Math.round(packages.flatMap((p) => (Array.isArray(p.items) ? (p.items as Json[]) : [])).reduce((s, i) => s + Number(i[field] ?? 0) * 100 * Number(i.quantity ?? 1), 0)) / 100;

/** A valid `calculate` request for this module and account. */
export function calculateRequest(ctx: DeliveryContext): fc.Arbitrary<Json> {
  // What the registration allows: how many packages, cash on delivery, the required address members.
  const shape = requestShape(ctx.module);
  if (!ctx.profile) {
    // The document alone: `currency` and `packages[]` with `items[]` (RequestCalculate); the rest rests on the profile.
    const item = packageItem({ cod: shape.cod }).map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => DOCUMENT_ITEM_FIELDS.includes(k))));
    return schemaArbitrary('delivery/calculate.request.json', {
      profile: false,
      present: ['/packages', '/currency'],
      overrides: { '/currency': fc.constantFrom(...ctx.currencies), '/packages': fc.array(fc.record({ items: fc.array(item, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: shape.maxPackages }) },
    }) as fc.Arbitrary<Json>;
  }
  const interval = deliveryTime(shape.required.has('deliveryTime.from') || shape.required.has('deliveryTime.to'));
  const base = schemaArbitrary('delivery/calculate.request.json', {
    profile: true,
    present: ['/packages', '/store', '/deliveryAddress', '/currency'],
    absent: ['/cod', '/declaredValue'],
    overrides: {
      '/packages': orderPackages(shape),
      '/currency': fc.constantFrom(...ctx.currencies),
      '/store': fc.constantFrom(...ctx.stores).map((s) => ({ code: s.code, name: s.name })),
      '/shipmentAddress': fc.option(fc.constantFrom(...ctx.stores).map((s) => ({ ...(s.address ?? {}) })), { nil: undefined }),
      '/deliveryAddress': address(shape.required),
      '/shipmentDate': fc.option(futureDateTime(ctx), { nil: undefined }),
      '/deliveryDate': fc.option(futureDateTime(ctx), { nil: undefined }),
      '/deliveryTime': fc.option(interval, { nil: undefined }),
      // The values of the affectsCost data fields, or none at all (an order without them).
      '/extraData': fc.option(extraData(ctx, 'calculate'), { nil: undefined, freq: 4 }),
    },
  }) as fc.Arbitrary<Json>;
  // The order's totals (wire profile section 2: declaredValue, cod), each sent or not: the declared value summed from the items, cash on delivery only with codAvailable.
  return fc.tuple(base, fc.boolean(), shape.cod ? fc.boolean() : fc.constant(false)).map(([r, withDeclared, withCod]) => {
    const packages = r.packages as Json[];
    const { extraData: extra, ...rest } = r;
    const out: Json = { ...rest, ...(extra !== undefined ? { extraData: extra } : {}), ...(withDeclared ? { declaredValue: sumOf(packages, 'declaredValue') } : {}), ...(withCod ? { cod: codTotal(packages) } : {}) };
    // Dates as the system gives them: the delivery not before the shipment.
    const ship = r.shipmentDate as { days: number; text: string } | undefined;
    const deliver = r.deliveryDate as { days: number; text: string } | undefined;
    if (ship) out.shipmentDate = ship.text;
    if (deliver) out.deliveryDate = ship && deliver.days < ship.days ? dateTimeAt(ctx.firstDay, ship.days + 1, 12, 0) : deliver.text;
    return out;
  });
}

/** The kinds of wrong input this view can send. */
export function calculateBreakages(ctx: DeliveryContext): Breakage[] {
  return deliveryBreakages(ctx, 'calculate', false).filter((b) => ctx.profile || !b.profileOnly);
}

/** A generated valid case of `calculate`. */
export function validCalculate(ctx: DeliveryContext): fc.Arbitrary<GeneratedCase> {
  return calculateRequest(ctx).map((payload) => ({ callback: 'delivery.calculate' as const, payload, intent: { kind: 'valid' as const } }));
}

/**
 * A generated wrong-input case of `calculate`: one breakage of a valid request, each citing the
 * sentence that makes it wrong (`breakages.ts`); the ones no sentence makes wrong are sent open.
 */
export function wrongCalculate(ctx: DeliveryContext): fc.Arbitrary<GeneratedCase> {
  // The rest of the request as plain as the platform sends it: no data-field values, which a
  // module may refuse for reasons of its own and name instead of the broken field.
  const plain = calculateRequest(ctx).map(({ extraData: _e, ...r }) => r);
  return breakageCases('delivery.calculate', calculateBreakages(ctx), plain);
}
