/**
 * Wrong input the delivery requests share (document, Errors 7: "for example a past delivery date
 * or zero weight"): a valid request with one thing broken, and the field a correct module names
 * in its refusal. `calculate` holds its address and dates at the top; `save` in `delivery`.
 */
import { dayAfter, type DeliveryContext } from './common.ts';

type Json = Record<string, unknown>;

export interface Breakage {
  field: string;
  why: string;
  /** Only in the profile's view (the field is named by the profile alone). */
  profileOnly: boolean;
  apply: (request: Json, n: number) => unknown;
}

const firstPackage = (r: Json): Json => ((r.packages as Json[] | undefined) ?? [])[0] ?? {};
const withFirstPackage = (r: Json, change: (p: Json) => Json): Json => ({ ...r, packages: [change({ ...firstPackage(r) }), ...((r.packages as Json[]).slice(1))] });

/**
 * The breakages of a delivery request whose action field is `action` (`calculate`, `save`); with
 * `inDelivery`, the address and dates sit in the request's `delivery` object.
 */
export function deliveryBreakages(ctx: DeliveryContext, action: string, inDelivery: boolean): Breakage[] {
  const at = (r: Json, change: (d: Json) => Json): Json => (inDelivery ? { ...r, delivery: change({ ...((r.delivery ?? {}) as Json) }) } : change(r));
  return [
    {
      field: 'weight',
      why: 'a package without any weight, neither its own nor its items\' (always required)',
      profileOnly: true,
      apply: (r) => withFirstPackage(r, ({ weight: _w, ...p }) => ({ ...p, items: ((p.items as Json[] | undefined) ?? []).map(({ weight: _iw, ...i }) => i) })),
    },
    { field: 'weight', why: 'a zero weight', profileOnly: true, apply: (r) => withFirstPackage(r, (p) => ({ ...p, weight: 0 })) },
    { field: 'weight', why: 'a negative weight', profileOnly: true, apply: (r, n) => withFirstPackage(r, (p) => ({ ...p, weight: -n })) },
    { field: 'weight', why: 'a weight that is not a number', profileOnly: true, apply: (r) => withFirstPackage(r, (p) => ({ ...p, weight: 'heavy' })) },
    {
      field: 'city',
      why: 'a delivery address without its city (always required)',
      profileOnly: true,
      apply: (r) => at(r, (d) => ({ ...d, deliveryAddress: Object.fromEntries(Object.entries((d.deliveryAddress ?? {}) as Json).filter(([k]) => k !== 'city' && k !== 'text')) })),
    },
    // The delivery date is left out with a past shipment date: a module may name either first.
    { field: 'shipmentDate', why: 'a shipment date in the past', profileOnly: true, apply: (r, n) => at(r, ({ deliveryDate: _d, ...d }) => ({ ...d, shipmentDate: `${dayAfter(ctx.firstDay, -40 - n)} 10:00:00` })) },
    { field: 'packages', why: 'packages that are not a list', profileOnly: false, apply: (r) => ({ ...r, packages: 'none' }) },
    { field: action, why: `the ${action} field is not JSON`, profileOnly: false, apply: (r, n) => ({ raw: JSON.stringify(r).slice(0, -1 - (n % 5)) }) },
  ];
}
