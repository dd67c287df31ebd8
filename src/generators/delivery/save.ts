/**
 * Requests of the delivery `save` callback (create: no deliveryId), wire profile section 2:
 * the order, its site and store from the run's account, the customer and the manager, packages,
 * the delivery (addresses, cash on delivery consistent with the items, dates ahead of the run,
 * a tariff code the module gave, the values of the editable data fields) and the site's
 * currency; and wrong input the module must refuse naming the field (document, Errors 7).
 */
import fc from 'fast-check';
import type { GeneratedCase } from '../../checks/case.ts';
import { address, codTotal, dateTimeAt, deliveryTime, extraData, futureDateTime, money, orderPackages, requestShape, type DeliveryContext } from './common.ts';
import { breakageCases, deliveryBreakages } from './breakages.ts';
import { firstName, lastName, patronymic, shopName, typedPhone } from '../people.ts';
import { matching } from '../matching.ts';

type Json = Record<string, unknown>;

/** A tariff the module gave (calculate or tariffList): its code, type, and the pickup points it named. */
export interface KnownTariff {
  code: string;
  type?: string;
  terminals: string[];
}

/** What save requests draw on beyond the delivery context: the account's sites and the module's tariffs. */
export interface SaveContext extends DeliveryContext {
  sites: ReadonlyArray<{ code: string; name: string; currency: string }>;
  /** Tariffs the module gave; empty: `delivery.tariff` is not sent (codes are never invented). */
  tariffs: readonly KnownTariff[];
}

/** The tariffs of a `calculate` or `tariffList` success answer that a save can name: pickup tariffs only with a point code. */
export function tariffsOfAnswer(json: unknown): KnownTariff[] {
  const result = (json as { success?: unknown; result?: unknown } | undefined)?.result;
  if ((json as { success?: unknown } | undefined)?.success !== true || !Array.isArray(result)) return [];
  return result
    .filter((t): t is Json => !!t && typeof t === 'object' && typeof (t as Json).code === 'string' && (t as Json).code !== '')
    .map((t) => ({
      code: t.code as string,
      ...(typeof t.type === 'string' ? { type: t.type } : {}),
      terminals: (Array.isArray(t.pickuppointList) ? (t.pickuppointList as Json[]) : []).map((p) => p?.code).filter((c): c is string => typeof c === 'string' && c !== ''),
    }))
    .filter((t) => t.type !== 'selfDelivery' || t.terminals.length > 0);
}

/** Codes of the registration's editable delivery data fields (document: "When true the value is sent when the delivery is created"), autocomplete fields aside (their values are the module's own). */
function editableCodes(module: Json): Set<string> {
  const list = ((module.integrations ?? {}) as Record<string, Json | undefined>).delivery?.deliveryDataFieldList;
  const fields = Array.isArray(list) ? (list as Json[]) : [];
  return new Set(fields.filter((f) => f && f.editable === true && f.type !== 'autocomplete' && typeof f.code === 'string').map((f) => f.code as string));
}

/**
 * A customer or a manager, named in any of the scripts (`people.ts`). A customer's last name,
 * patronymic, email and phones are each sent or not, and always when the registration requires
 * them (requiredFields `lastName`, `patronymic`, `email`, `phone`); the phones typed as users
 * type them (8 to 15 digits, with `+` or without, spaces, dashes, parentheses).
 */
const person = (kind: 'customer' | 'manager', required: ReadonlySet<string> = new Set()): fc.Arbitrary<Json> => {
  const opt = <T>(field: string, a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => (required.has(field) ? a : fc.option(a, { nil: undefined, freq: 3 }));
  const id = fc.integer({ min: 1, max: 9999 });
  if (kind === 'manager') return fc.record({ id, firstName, lastName }).map((p) => ({ ...p, email: `manager${p.id}@shop.test` }));
  return fc
    .record({
      id,
      firstName,
      lastName: opt('lastName', lastName),
      patronymic: opt('patronymic', patronymic),
      email: opt('email', fc.constant(true)),
      phones: opt('phone', fc.array(typedPhone, { minLength: 1, maxLength: 2 }).map((numbers) => numbers.map((number) => ({ number })))),
    })
    .map(({ email, ...p }) => ({ ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)), ...(email ? { email: `customer${p.id}@shop.test` } : {}) }));
};

/** A valid `save` request (create) for this module and account. */
export function saveRequest(ctx: SaveContext): fc.Arbitrary<Json> {
  // What the registration allows and requires (document, Delivery configuration): packages, cash on delivery, requiredFields.
  const shape = requestShape(ctx.module);
  const always = <T>(field: string, a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => (shape.required.has(field) ? a : fc.option(a, { nil: undefined }));
  // The wire profile's body (section 2): the document shows none of save's body but a few member names, so the specs run save in the profile's view only.
  const editable = editableCodes(ctx.module);
  const timeRequired = shape.required.has('deliveryTime.from') || shape.required.has('deliveryTime.to');
  const interval = deliveryTime(timeRequired);
  const tariff = ctx.tariffs.length > 0 ? fc.option(fc.constantFrom(...ctx.tariffs), { nil: undefined }) : fc.constant(undefined);
  return fc
    .record({
      order: fc.integer({ min: 1, max: 999_999 }),
      site: fc.constantFrom(...ctx.sites),
      store: fc.constantFrom(...ctx.stores),
      customer: person('customer', shape.required),
      packages: orderPackages(shape),
      deliveryAddress: address(shape.required),
      withCod: shape.cod ? fc.boolean() : fc.constant(false),
      deliveryCod: money(50),
      cost: money(60),
      vatRate: fc.constantFrom('none', '0', '10', '20'),
      payerType: fc.constantFrom('sender', 'receiver'),
      tariff,
      ship: always('shipmentDate', futureDateTime(ctx)),
      deliver: always('deliveryDate', futureDateTime(ctx)),
      deliveryTime: timeRequired ? interval : fc.option(interval, { nil: undefined }),
      legalEntity: fc.option(shopName, { nil: undefined }),
      manager: always('manager', person('manager')),
      extraData: extraData(ctx, 'delivery').map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => editable.has(k)))),
      terminal: fc.nat(),
    })
    .map((g) => {
      const delivery: Json = {
        shipmentAddress: { ...(g.store.address ?? {}) },
        deliveryAddress: g.tariff?.type === 'selfDelivery' ? { ...g.deliveryAddress, terminal: g.tariff.terminals[g.terminal % g.tariff.terminals.length] } : g.deliveryAddress,
        // Cash on delivery (only with codAvailable): items per unit, the delivery's own, nothing when not used.
        ...(shape.cod ? { codPaymentType: { code: 'cash' }, withCod: g.withCod, cod: g.withCod ? g.deliveryCod : 0 } : {}),
        cost: g.cost,
        vatRate: g.vatRate,
        payerType: g.payerType,
        extraData: g.extraData,
      };
      const packages = g.withCod || !shape.cod ? g.packages : g.packages.map((p) => ({ ...p, items: (p.items as Json[]).map((i) => ({ ...i, cod: 0 })) }));
      if (g.tariff) delivery.tariff = g.tariff.code;
      if (g.ship) delivery.shipmentDate = g.ship.text;
      if (g.deliver) delivery.deliveryDate = g.ship && g.deliver.days < g.ship.days ? dateTimeAt(ctx.firstDay, g.ship.days + 1, 12, 0) : g.deliver.text;
      if (g.deliveryTime) delivery.deliveryTime = g.deliveryTime;
      return {
        order: String(g.order),
        orderNumber: `${g.order}A`,
        site: g.site.code,
        siteName: g.site.name,
        store: { code: g.store.code, name: g.store.name },
        ...(g.legalEntity !== undefined ? { legalEntity: g.legalEntity } : {}),
        customer: g.customer,
        ...(g.manager !== undefined ? { manager: g.manager } : {}),
        packages,
        delivery,
        currency: g.site.currency,
      } satisfies Json;
    });
}

/** The total cash on delivery of a save request (document): items' cod times quantity plus delivery.cod. */
export const saveCodTotal = (r: Json): number => codTotal((r.packages ?? []) as Json[], Number((r.delivery as Json | undefined)?.cod ?? 0));


/** A generated valid case of `save` (create). */
export function validSave(ctx: SaveContext): fc.Arbitrary<GeneratedCase> {
  return saveRequest(ctx).map((payload) => ({ callback: 'delivery.save' as const, payload, intent: { kind: 'valid' as const } }));
}

/** A generated wrong-input case of `save`: one breakage of a valid request (without data-field values), each citing its sentence (`breakages.ts`). */
export function wrongSave(ctx: SaveContext): fc.Arbitrary<GeneratedCase> {
  const kinds = deliveryBreakages(ctx, 'save', true).filter((b) => ctx.profile || !b.profileOnly);
  const plain = saveRequest(ctx).map((r) => ({ ...r, delivery: (({ extraData: _e, ...d }: Json) => d)((r.delivery ?? {}) as Json) }));
  return breakageCases('delivery.save', kinds, plain);
}

/** A deliveryId no module gave: for `get` of an unknown id. */
export function unknownDeliveryId(): fc.Arbitrary<GeneratedCase> {
  // Wrong by the profile's get row: "unknown id: error reply (404 seen)".
  return matching(/^[0-9a-f]{16}$/).map((hex) => ({
    callback: 'delivery.get' as const,
    payload: { deliveryId: `unknown-${hex}` },
    intent: { kind: 'wrong' as const, field: 'deliveryId', why: 'a deliveryId the module never gave', value: `unknown-${hex}`, source: 'wire profile section 2: get "unknown id: error reply (404 seen)"' },
  }));
}
