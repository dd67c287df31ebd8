/**
 * What the delivery callbacks share, generated with the contract's semantics (wire profile
 * section 2): weights in grams and sizes in millimetres, above zero; package items with a
 * quantity and cash-on-delivery amounts per unit; addresses with a city; dates in the profile's
 * form (`Y-m-d H:i:s`), ahead of the run's day; the account's stores and currencies; the values
 * of the registration's data fields.
 */
import fc from 'fast-check';
import { comment, itemName, place } from '../people.ts';
import { matching } from '../matching.ts';

/** What a generated delivery request may use: the module's registration and the run's account. */
export interface DeliveryContext {
  /** The module as registered. */
  module: Record<string, unknown>;
  /** The account's stores (shipment warehouses). */
  stores: ReadonlyArray<{ code: string; name: string; address?: Record<string, unknown> }>;
  /** Currencies of the account's sites. */
  currencies: readonly string[];
  /**
   * The first day dates may fall on (`Y-m-d`): dates are this day plus a generated number of days,
   * so that one seed gives the same requests all the month long (see `dateBase`).
   */
  firstDay: string;
  /** True: the wire profile's view; false: the document alone (members only the profile names are not sent). */
  profile: boolean;
}

/** The first day of the next month, from a date: generated dates are ahead of the run, and the same within a month. */
export function dateBase(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return d.toISOString().slice(0, 10);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `Y-m-d` of `firstDay` plus `days`. */
export function dayAfter(firstDay: string, days: number): string {
  const d = new Date(`${firstDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A date-time of the profile's form (`Y-m-d H:i:s`), `days` after the first day. */
export const dateTimeAt = (firstDay: string, days: number, hour: number, minute: number): string => `${dayAfter(firstDay, days)} ${pad(hour)}:${pad(minute)}:00`;

/** A day 0 to 60 days after the first day, at a working hour. */
export function futureDateTime(ctx: DeliveryContext): fc.Arbitrary<{ days: number; text: string }> {
  return fc
    .record({ days: fc.integer({ min: 0, max: 60 }), hour: fc.integer({ min: 8, max: 19 }), minute: fc.constantFrom(0, 15, 30, 45) })
    .map(({ days, hour, minute }) => ({ days, text: dateTimeAt(ctx.firstDay, days, hour, minute) }));
}

/**
 * A delivery time interval (wire profile section 2: `deliveryTime{from, to, custom}`): hours
 * `from` and `to` (two to six hours apart, within 08:00 to 22:00), with a `custom` text a user
 * typed beside them or in their place (`fromTo`: only the two hours, for a form that requires
 * them, requiredFields `deliveryTime.from` and `deliveryTime.to`).
 */
export function deliveryTime(fromTo = false): fc.Arbitrary<Record<string, string>> {
  const hours = fc.integer({ min: 8, max: 16 }).chain((from) => fc.integer({ min: from + 2, max: Math.min(from + 6, 22) }).map((to) => ({ from: `${pad(from)}:00`, to: `${pad(to)}:00` })));
  if (fromTo) return hours;
  const custom = fc.constantFrom('after 18:00', 'до обеда', 'с 10 до 14, кроме пятницы', 'nach 17 Uhr', 'por la mañana');
  return fc.oneof(hours, fc.tuple(hours, custom).map(([h, c]) => ({ ...h, custom: c })), custom.map((c) => ({ custom: c })));
}

/** A money amount: cents, 0 to `max`. */
export const money = (max = 5000): fc.Arbitrary<number> => fc.integer({ min: 0, max: max * 100 }).map((c) => c / 100);

const VAT_RATES = ['none', '0', '10', '20'] as const;

/**
 * What the registration's delivery configuration makes of the requests the system sends
 * (document, Delivery configuration): several packages only with `allowPackages` ("Multiple
 * packages per order"), cash-on-delivery data only with `codAvailable` ("Enables
 * cash-on-delivery data"), and every field of `requiredFields` filled ("Fields the user must
 * fill for this delivery").
 */
export interface RequestShape {
  maxPackages: number;
  cod: boolean;
  required: ReadonlySet<string>;
}

export function requestShape(module: Record<string, unknown>): RequestShape {
  const d = ((module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>).delivery ?? {};
  const required = Array.isArray(d.requiredFields) ? d.requiredFields.filter((f): f is string => typeof f === 'string') : [];
  return { maxPackages: d.allowPackages === true ? 3 : 1, cod: d.codAvailable === true, required: new Set(required) };
}

/** The packages of an order as the shape allows: how many, sizes when a size is required, items' cod only with cash on delivery. */
export function orderPackages(shape: RequestShape): fc.Arbitrary<Array<Record<string, unknown>>> {
  const sizes = ['length', 'width', 'height'].some((f) => shape.required.has(f));
  return fc.array(deliveryPackage({ sizes, cod: shape.cod }), { minLength: 1, maxLength: shape.maxPackages });
}

/** A package item: a quantity, a declared value and a cash-on-delivery amount per unit (`cod`: only with cash on delivery), the shop's offer ids. */
export function packageItem(options: { cod?: boolean } = {}): fc.Arbitrary<Record<string, unknown>> {
  const cod = options.cod ?? true;
  return fc.record(
    {
      offerId: fc.integer({ min: 1, max: 99_999 }).map(String),
      externalId: matching(/^SKU-[0-9]{3,6}$/),
      xmlId: matching(/^[A-Z]{2}[0-9]{4}$/),
      name: itemName,
      declaredValue: money(2000),
      cod: cod ? money(2000) : fc.constant(undefined),
      vatRate: fc.constantFrom(...VAT_RATES),
      quantity: fc.integer({ min: 1, max: 5 }),
      cost: money(2000),
      weight: fc.integer({ min: 1, max: 20_000 }),
      unit: fc.constant({ code: 'pc', name: 'Piece', sym: 'pc.' }),
    },
    { requiredKeys: ['offerId', 'name', 'quantity', 'declaredValue', ...(cod ? ['cod' as const] : [])] },
  ).map((i) => (cod ? i : Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'cod'))));
}

/** A package: weight in grams and sizes in millimetres (always with `sizes`), all above zero, with its items. */
export function deliveryPackage(options: { sizes?: boolean; cod?: boolean } = {}): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      packageId: fc.integer({ min: 1, max: 999 }).map((n) => `P-${n}`),
      weight: fc.integer({ min: 1, max: 30_000 }),
      width: fc.integer({ min: 10, max: 1200 }),
      length: fc.integer({ min: 10, max: 1200 }),
      height: fc.integer({ min: 10, max: 1200 }),
      items: fc.array(packageItem({ cod: options.cod ?? true }), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ['weight', 'items', ...(options.sizes ? (['width', 'length', 'height'] as const) : [])] },
  );
}

/**
 * An address with a city and a building (always required for delivery work), and what else an
 * order may hold; the members `required` names (`deliveryAddress.street`, `.flat`, `.regionId`,
 * `.cityId`, `.streetId`; the index is always there) always present, the others present or
 * absent. The place is a real one written as its people write it: Latin, Cyrillic, Latin with
 * diacritics, or the two mixed (`people.ts`), its street one of that city's. The ids are those of
 * the module's geographic reference service, which the suite does not know: made up, so a module
 * may refuse them (an error answer is a right answer to a valid request).
 */
export function address(required: ReadonlySet<string> = new Set()): fc.Arbitrary<Record<string, unknown>> {
  const need = (f: string): boolean => required.has(`deliveryAddress.${f}`);
  const id = fc.integer({ min: 1, max: 999_999 }).map(String);
  return fc
    .record(
      {
        place,
        street: fc.nat(),
        building: fc.oneof(fc.integer({ min: 1, max: 200 }).map(String), fc.tuple(fc.integer({ min: 1, max: 99 }), fc.constantFrom('A', 'B', 'к1', 'стр. 2', 'bis')).map(([n, s]) => `${n}${/^[a-z]/.test(s) ? '' : ' '}${s}`)),
        flat: fc.integer({ min: 1, max: 90 }).map(String),
        house: fc.integer({ min: 1, max: 9 }).map(String),
        regionId: id,
        cityId: id,
        streetId: id,
      },
      { requiredKeys: ['place', 'building', ...(['street', 'flat'] as const).filter(need), ...(['regionId', 'cityId', 'streetId'] as const).filter(need)] },
    )
    .map(({ place: p, street: s, regionId, cityId, streetId, ...rest }) => {
      const street = s === undefined && !need('streetId') ? undefined : p.streets[(s ?? 0) % p.streets.length]!;
      return {
        countryIso: p.countryIso,
        city: p.city,
        region: p.region,
        index: p.index,
        ...(street !== undefined ? { street } : {}),
        ...rest,
        ...(need('regionId') ? { regionId } : {}),
        ...(need('cityId') ? { cityId } : {}),
        ...(need('streetId') ? { streetId } : {}),
        text: [street, rest.building, p.city].filter(Boolean).join(', '),
      };
    });
}

/** A data field of the registration (`deliveryDataFieldList`, `shipmentDataFieldList`). */
interface DataField {
  code: string;
  type?: string;
  multiple?: boolean;
  affectsCost?: boolean;
  choices?: Array<{ value: unknown }>;
}

function dataFields(module: Record<string, unknown>, list: 'deliveryDataFieldList' | 'shipmentDataFieldList'): DataField[] {
  const integrations = (module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const fields = integrations.delivery?.[list];
  return Array.isArray(fields) ? (fields.filter((f) => f && typeof f === 'object' && typeof (f as DataField).code === 'string') as DataField[]) : [];
}

/** A value of a data field, by its type (a choice among its choices). */
function fieldValue(f: DataField, ctx: DeliveryContext): fc.Arbitrary<unknown> {
  switch (f.type) {
    case 'integer':
      return fc.integer({ min: 1, max: 20 });
    case 'checkbox':
      return fc.boolean();
    case 'choice': {
      const values = (f.choices ?? []).map((c) => c.value);
      if (values.length === 0) return fc.constant(undefined);
      return f.multiple ? fc.subarray(values, { minLength: 1 }) : fc.constantFrom(...values);
    }
    case 'date':
      return fc.integer({ min: 0, max: 60 }).map((d) => dayAfter(ctx.firstDay, d));
    case 'text':
      // What a user types: a comment in any of the scripts, or a short code.
      return fc.oneof(comment, matching(/^[A-Za-z0-9 ]{1,20}$/));
    case 'autocomplete':
    default:
      return matching(/^[A-Za-z0-9 ]{1,20}$/);
  }
}

/**
 * `extraData`: values of the registration's data fields, by code. For `calculate` only the fields
 * with `affectsCost` true (document: "When true the value is sent with the cost calculation").
 */
export function extraData(ctx: DeliveryContext, which: 'calculate' | 'delivery' | 'shipment'): fc.Arbitrary<Record<string, unknown>> {
  const fields = dataFields(ctx.module, which === 'shipment' ? 'shipmentDataFieldList' : 'deliveryDataFieldList').filter((f) => which !== 'calculate' || f.affectsCost === true);
  const model = Object.fromEntries(fields.map((f) => [f.code, fieldValue(f, ctx)]));
  return fc.record(model, { requiredKeys: [] }).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
}

/** Total cash on delivery (document): sum over items of `cod` times quantity, plus `delivery.cod`. */
export function codTotal(packages: ReadonlyArray<Record<string, unknown>>, deliveryCod = 0): number {
  const items = packages.flatMap((p) => (Array.isArray(p.items) ? (p.items as Array<Record<string, unknown>>) : []));
  const cents = items.reduce((s, i) => s + Math.round(Number(i.cod ?? 0) * 100) * Number(i.quantity ?? 1), Math.round(deliveryCod * 100));
  return cents / 100;
}
