/**
 * Wrong input the delivery requests share (document, Errors 7: "For wrong input (for example a
 * past delivery date or zero weight) a module must return an error whose message names the
 * incorrect field."): a valid request with one thing broken, the field a correct module names in
 * its refusal, and the sentence of the document or the wire profile that makes it wrong, quoted
 * beside it (`source`). Where no sentence makes a request wrong (a past shipment date: the
 * document's example is a past *delivery* date; a negative weight), it is sent as a case whose
 * answer is open (`kind: 'open'`): a success or a well-formed refusal, never a 5xx.
 * `calculate` holds its address and dates at the top; `save` in `delivery`.
 */
import fc from 'fast-check';
import { dayAfter, requestShape, type DeliveryContext } from './common.ts';
import type { CallbackName } from '../../callbacks/table.ts';
import type { GeneratedCase } from '../../checks/case.ts';

type Json = Record<string, unknown>;

export interface Breakage {
  /** `wrong`: refused, naming `field`; `open`: no sentence makes it wrong: a success or a refusal. */
  kind: 'wrong' | 'open';
  field: string;
  why: string;
  /**
   * The sentences it rests on, quoted with their document and section: what makes it wrong and,
   * where the member sits in the request by the profile alone, the profile's.
   */
  source: string;
  /** True exactly when a sentence of `source` is the wire profile's: not sent in the document's view. */
  profileOnly: boolean;
  apply: (request: Json, n: number) => unknown;
  /** The wrong value sent (a message may quote it instead of naming the field). */
  value?: (n: number) => unknown;
}

/** The document's Errors 7, and the sentences that place a member in the body (the profile, section 2). */
export const ERRORS_7 = 'document, Errors 7: "For wrong input (for example a past delivery date or zero weight) a module must return an error whose message names the incorrect field"';
const ALWAYS_REQUIRED = 'document, Delivery configuration: "Always required for delivery work: `shipmentStore`, `weight`, `deliveryAddress.city`, `deliveryAddress.building`, `payments` (array)"';
const PROFILE_PACKAGE = 'wire profile section 2: "Package: `{packageId, weight, width, length, height, items[]}`" and "weights in grams"';
const PROFILE_DATES = 'wire profile section 2: "Dates in callback bodies are `Y-m-d H:i:s`" (calculate `{..., shipmentDate, deliveryDate, ...}`, save `delivery{..., shipmentDate, deliveryDate, ...}`)';
const PROFILE_ADDRESS = 'wire profile section 2: "Address: `{index, countryIso, region, regionId, city, ...}`" (calculate and save `deliveryAddress`)';
const PROFILE_JSON = 'wire profile section 1: "one field named after the action whose value is a JSON string"';
const DOCUMENT_PACKAGES = 'document, Resources: "`RequestCalculate` | `currency`; `packages[]` with `items[]` (`PackageItem`)" and "`RequestSave` | ... `packages[].items[].cod`"';

const firstPackage = (r: Json): Json => ((r.packages as Json[] | undefined) ?? [])[0] ?? {};
const withFirstPackage = (r: Json, change: (p: Json) => Json): Json => ({ ...r, packages: [change({ ...firstPackage(r) }), ...((r.packages as Json[]).slice(1))] });

/** A date `40 + n` days before the first day of generated dates (that day is the first of next month): in the past on the day of the run. */
const pastDate = (ctx: DeliveryContext, n: number, hour: string): string => `${dayAfter(ctx.firstDay, -40 - n)} ${hour}`;

/**
 * The breakages of a delivery request whose action field is `action` (`calculate`, `save`); with
 * `inDelivery`, the address and dates sit in the request's `delivery` object.
 */
export function deliveryBreakages(ctx: DeliveryContext, action: string, inDelivery: boolean): Breakage[] {
  const at = (r: Json, change: (d: Json) => Json): Json => (inDelivery ? { ...r, delivery: change({ ...((r.delivery ?? {}) as Json) }) } : change(r));
  const required = requestShape(ctx.module).required;
  return [
    {
      kind: 'wrong',
      field: 'weight',
      why: 'a package without any weight, neither its own nor its items\' (always required)',
      // "Always required for delivery work: ... `weight`".
      source: `${ALWAYS_REQUIRED}; ${PROFILE_PACKAGE}`,
      profileOnly: true,
      apply: (r) => withFirstPackage(r, ({ weight: _w, ...p }) => ({ ...p, items: ((p.items as Json[] | undefined) ?? []).map(({ weight: _iw, ...i }) => i) })),
    },
    // The document's own example: "zero weight".
    { kind: 'wrong', field: 'weight', why: 'a zero weight', source: `${ERRORS_7}; ${PROFILE_PACKAGE}`, profileOnly: true, apply: (r) => withFirstPackage(r, (p) => ({ ...p, weight: 0 })) },
    // No sentence says a weight is above zero (the profile: "weights in grams"; the document's example is zero): a refusal or a success.
    { kind: 'open', field: 'weight', why: 'a negative weight (no sentence makes it wrong input)', source: PROFILE_PACKAGE, profileOnly: true, apply: (r, n) => withFirstPackage(r, (p) => ({ ...p, weight: -n })) },
    // "weights in grams": a word is no count of grams.
    { kind: 'wrong', field: 'weight', why: 'a weight that is not a number (weights in grams)', source: PROFILE_PACKAGE, profileOnly: true, apply: (r) => withFirstPackage(r, (p) => ({ ...p, weight: 'heavy' })), value: () => 'heavy' },
    {
      kind: 'wrong',
      field: 'deliveryAddress.city',
      why: 'a delivery address without its city (always required)',
      // "Always required for delivery work: ... `deliveryAddress.city`".
      source: `${ALWAYS_REQUIRED}; ${PROFILE_ADDRESS}`,
      profileOnly: true,
      apply: (r) => at(r, (d) => ({ ...d, deliveryAddress: Object.fromEntries(Object.entries((d.deliveryAddress ?? {}) as Json).filter(([k]) => k !== 'city' && k !== 'text')) })),
    },
    {
      kind: 'wrong',
      field: 'deliveryDate',
      why: 'a delivery date in the past',
      // The document's own example: "a past delivery date". The shipment date is left out (unless the
      // registration requires it, then it stays ahead): nothing else about the dates is wrong.
      source: `${ERRORS_7}; ${PROFILE_DATES}`,
      profileOnly: true,
      apply: (r, n) => at(r, ({ shipmentDate, ...d }) => ({ ...d, ...(required.has('shipmentDate') && shipmentDate !== undefined ? { shipmentDate } : {}), deliveryDate: pastDate(ctx, n, '12:00:00') })),
      value: (n) => pastDate(ctx, n, '12:00:00'),
    },
    {
      kind: 'open',
      field: 'shipmentDate',
      why: 'a shipment date in the past (no sentence makes it wrong input: the document\'s example is a past delivery date)',
      // A shipment dated yesterday is one already handed over: a module may price and save it, or refuse it.
      source: PROFILE_DATES,
      profileOnly: true,
      apply: (r, n) => at(r, ({ deliveryDate: _d, ...d }) => ({ ...d, shipmentDate: pastDate(ctx, n, '10:00:00') })),
    },
    // The document lists `packages[]`: a list.
    { kind: 'wrong', field: 'packages', why: 'packages that are not a list', source: DOCUMENT_PACKAGES, profileOnly: false, apply: (r) => ({ ...r, packages: 'none' }), value: () => 'none' },
    // The action's field holds JSON by the profile alone (the document shows no body).
    { kind: 'wrong', field: action, why: `the ${action} field is not JSON`, source: PROFILE_JSON, profileOnly: true, apply: (r, n) => ({ raw: JSON.stringify(r).slice(0, -1 - (n % 5)) }) },
  ];
}

/** The case of one breakage of a valid request: wrong input (with the value sent and the sentence), or an open one. */
export function breakageCase(callback: CallbackName, b: Breakage, request: Json, n: number): GeneratedCase {
  const value = b.value?.(n);
  return {
    callback,
    payload: b.apply(request, n),
    intent: b.kind === 'open' ? { kind: 'open', why: b.why } : { kind: 'wrong', field: b.field, why: b.why, source: b.source, ...(value !== undefined ? { value } : {}) },
  };
}

/** Generated cases of the breakages `kinds` of valid requests `plain`. */
export function breakageCases(callback: CallbackName, kinds: readonly Breakage[], plain: fc.Arbitrary<Json>): fc.Arbitrary<GeneratedCase> {
  return fc
    .record({ request: plain, kind: fc.integer({ min: 0, max: kinds.length - 1 }), n: fc.integer({ min: 1, max: 1000 }) })
    .map(({ request, kind, n }) => breakageCase(callback, kinds[kind]!, request, n));
}
