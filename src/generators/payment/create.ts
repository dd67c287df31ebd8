/**
 * Requests of the payment `create` callback (wire profile section 3: the document shows none of
 * the body), valid for the module's registration (document, Payment configuration: its
 * `currencies`, its `shops`, invoice type `link`): an invoice of a unique uuid, an amount of two
 * decimals that the items' prices times quantities sum to exactly (worked in cents), addresses
 * on example hosts (never fetched); wrong input the module must refuse naming the field
 * (document, Errors 7); and approve, cancel and refund of a paymentId the module never gave.
 */
import fc from 'fast-check';
import type { CallbackName } from '../../callbacks/table.ts';
import type { GeneratedCase } from '../../checks/case.ts';
import { firstName, itemName, lastName, typedPhone } from '../people.ts';
import { matching } from '../matching.ts';

type Json = Record<string, unknown>;

/** A shop of the client in the payment system, as the registration declares it. */
export interface PaymentShop {
  code: string;
  name: string;
  active: boolean;
}

/** What payment requests draw on: the module's payment registration. */
export interface PaymentContext {
  module: Json;
  /** The currencies the module declares (registration `currencies`), as given; empty when it declares none. */
  declaredCurrencies: readonly string[];
  /** The currencies a valid invoice is drawn in: the declared ones of ISO 4217 form (all declared if none is), else EUR and USD. */
  currencies: readonly string[];
  /** The shops it declares (registration `shops`, those with a code); empty when none. */
  shops: readonly PaymentShop[];
  /** Its invoice types (registration `invoiceTypes`). */
  invoiceTypes: readonly string[];
  /**
   * What the invoices are for (a property's id): mixed into each invoiceUuid, so that properties
   * run from one seed (which draw the same uuids) never issue one invoice twice. Empty: as drawn.
   */
  scope: string;
}

/** ISO 4217 form: three capital letters. */
export const ISO_4217_FORM = /^[A-Z]{3}$/;

/** Currencies when the module declares none (the document gives no default). */
const FALLBACK_CURRENCIES = ['EUR', 'USD'] as const;

/** Current ISO 4217 codes a wrong invoice is drawn in, when the module does not list them. */
const OTHER_CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'CAD', 'AUD', 'NZD', 'MXN', 'BRL', 'INR', 'KRW', 'SGD', 'ZAR', 'TRY', 'KZT'] as const;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payment context of a module's registration (`integrations.payment`); `scope`: see PaymentContext. */
export function paymentContextOf(module: Json, scope = ''): PaymentContext {
  const payment = isObj(module.integrations) && isObj(module.integrations.payment) ? module.integrations.payment : {};
  const declaredCurrencies = Array.isArray(payment.currencies) ? [...new Set(payment.currencies.filter((c): c is string => typeof c === 'string' && c !== ''))] : [];
  const iso = declaredCurrencies.filter((c) => ISO_4217_FORM.test(c));
  const shops = (Array.isArray(payment.shops) ? payment.shops : [])
    .filter((s): s is Json => isObj(s) && typeof s.code === 'string' && s.code !== '')
    .map((s) => ({ code: s.code as string, name: typeof s.name === 'string' ? s.name : (s.code as string), active: s.active === true }));
  return {
    module,
    declaredCurrencies,
    currencies: iso.length > 0 ? iso : declaredCurrencies.length > 0 ? declaredCurrencies : [...FALLBACK_CURRENCIES],
    shops,
    invoiceTypes: Array.isArray(payment.invoiceTypes) ? payment.invoiceTypes.filter((t): t is string => typeof t === 'string') : [],
    scope,
  };
}

/** A 32-bit hash of a text (FNV-1a). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A drawn uuid with its first group mixed with the scope (still a version 4 uuid); as drawn without a scope. */
export function scopedUuid(uuid: string, scope: string): string {
  if (scope === '') return uuid;
  const first = ((parseInt(uuid.slice(0, 8), 16) ^ hash(scope)) >>> 0).toString(16).padStart(8, '0');
  return first + uuid.slice(8);
}

/** Cents as a money amount of two decimals. */
const ofCents = (cents: number): number => Math.round(cents) / 100;

/**
 * Items whose unit prices times quantities sum to `total` cents exactly: every item but the last
 * takes a share of the total at a unit price of at least one cent; the last, quantity 1, the rest
 * (at least a cent: the shares leave at least a k-th of the total).
 */
function itemsSummingTo(total: number): fc.Arbitrary<Json[]> {
  const line = fc.record({
    name: fc.oneof(itemName, fc.constantFrom('Delivery', 'Доставка', 'Assembly', 'Сборка')),
    quantity: fc.integer({ min: 1, max: 5 }),
    share: fc.integer({ min: 1, max: 999 }),
    vat: fc.constantFrom('none', 'vat0', 'vat10', 'vat20'),
    paymentMethod: fc.constantFrom('full_prepayment', 'full_payment'),
    paymentObject: fc.constantFrom('commodity', 'service'),
  });
  return fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => {
    const k = lines.length;
    const items: Json[] = [];
    let left = total;
    lines.slice(0, -1).forEach((l) => {
      const budget = Math.floor((total * l.share) / 1000 / k);
      const unit = Math.floor(budget / l.quantity);
      if (unit < 1) return;
      left -= unit * l.quantity;
      items.push({ name: l.name, price: ofCents(unit), quantity: l.quantity, vat: l.vat, paymentMethod: l.paymentMethod, paymentObject: l.paymentObject });
    });
    const last = lines.at(-1)!;
    items.push({ name: last.name, price: ofCents(left), quantity: 1, vat: last.vat, paymentMethod: last.paymentMethod, paymentObject: last.paymentObject });
    return items;
  });
}

/** The items' total in cents (unit price in cents times quantity). */
export const itemsTotalCents = (items: readonly Json[]): number => items.reduce((s, i) => s + Math.round(Number(i.price) * 100) * Number(i.quantity), 0);

/**
 * The customer (wire profile section 3: `customer{...}`), named in any of the scripts
 * (`people.ts`), a last name and a phone each sent or not, the phone typed as users type it (8
 * to 15 digits, with `+` or without, spaces, dashes, parentheses).
 */
const customer = fc
  .record(
    {
      firstName,
      lastName,
      id: fc.integer({ min: 1, max: 99_999 }),
      phone: typedPhone,
    },
    { requiredKeys: ['firstName', 'id'] },
  )
  .map((c) => ({ ...c, email: `customer.${c.id}@shop.example.com` }));

/** A valid `create` request (wire profile section 3) for this module's registration. */
export function createRequest(ctx: PaymentContext): fc.Arbitrary<Json> {
  const active = ctx.shops.filter((s) => s.active);
  return fc
    .record({
      // Unbiased: real-looking version 4 uuids (a biased draw repeats its few edge values across the properties of a run).
      invoiceUuid: fc.noBias(fc.uuid({ version: 4 })).map((u) => scopedUuid(u, ctx.scope)),
      cents: fc.integer({ min: 100, max: 9_999_999 }),
      currency: fc.constantFrom(...ctx.currencies),
      shop: active.length > 0 ? fc.constantFrom(...active).map((s) => s.code) : fc.constant(undefined),
      orderId: fc.integer({ min: 1, max: 9_999_999 }),
      host: fc.constantFrom('shop.example.com', 'store.example.org', 'www.example.net'),
      customer,
    })
    .chain((g) =>
      itemsSummingTo(g.cents).map((items) => ({
        ...(g.shop !== undefined ? { shopId: g.shop } : {}),
        invoiceUuid: g.invoiceUuid,
        invoiceType: 'link',
        amount: ofCents(g.cents),
        currency: g.currency,
        orderNumber: `${g.orderId}A`,
        orderId: g.orderId,
        siteUrl: `https://${g.host}`,
        returnUrl: `https://${g.host}/orders/${g.orderId}A/paid`,
        items,
        customer: g.customer,
      })),
    );
}

/** One thing broken in a valid create request, the field a correct module names in its refusal, and the sentence that makes it wrong. */
export interface CreateBreakage {
  field: string;
  why: string;
  /** The sentences it rests on, quoted with their document and section. */
  source: string;
  apply: (request: Json, n: number) => Json;
  /** The wrong value sent (a message may quote it instead of naming the field). */
  value: (n: number) => unknown;
}

/**
 * Amounts of zero and below: the document's wrong input is "for example ... zero weight" (a zero
 * quantity where the action needs one); the invoice's amount is the money the link collects
 * (profile section 3: `create={..., amount, currency, ...}`), and the issue that settled the
 * classes (31, item 8) sends "only amounts of zero or below ... as wrong input".
 */
export const AMOUNT_SOURCE = 'document, Errors 7: "For wrong input (for example a past delivery date or zero weight) a module must return an error whose message names the incorrect field"; wire profile section 3: "`create={shopId, invoiceUuid, invoiceType: \"link\", amount, currency, ...}`", "`approve={paymentId, amount?}`", "`refund={paymentId, amount?}`"';

/** The breakages of a create request for this module: amounts of zero and below; with declared currencies, one it does not list. */
export function createBreakages(ctx: PaymentContext): CreateBreakage[] {
  const unlisted = OTHER_CURRENCIES.filter((c) => !ctx.declaredCurrencies.includes(c));
  return [
    { field: 'amount', why: 'an amount of zero', source: AMOUNT_SOURCE, apply: (r) => ({ ...r, amount: 0 }), value: () => 0 },
    { field: 'amount', why: 'a negative amount', source: AMOUNT_SOURCE, apply: (r, n) => ({ ...r, amount: -ofCents(n) }), value: (n) => -ofCents(n) },
    // The currencies the module declares are the ones it takes payments in (document, Payment configuration).
    ...(ctx.declaredCurrencies.length > 0 && unlisted.length > 0
      ? [
          {
            field: 'currency',
            why: 'a currency of ISO 4217 form that the module does not list in its currencies',
            source: 'document, Payment configuration: "`currencies` | array of strings | ISO 4217 codes"',
            apply: (r: Json, n: number) => ({ ...r, currency: unlisted[n % unlisted.length]! }),
            value: (n: number) => unlisted[n % unlisted.length]!,
          },
        ]
      : []),
  ];
}

/** A generated valid case of `create`. */
export function validCreate(ctx: PaymentContext): fc.Arbitrary<GeneratedCase> {
  return createRequest(ctx).map((payload) => ({ callback: 'payment.create' as const, payload, intent: { kind: 'valid' as const } }));
}

/** A generated wrong-input case of `create`: one breakage of a valid request. */
export function wrongCreate(ctx: PaymentContext): fc.Arbitrary<GeneratedCase> {
  const kinds = createBreakages(ctx);
  return fc
    .record({ request: createRequest(ctx), kind: fc.integer({ min: 0, max: kinds.length - 1 }), n: fc.integer({ min: 1, max: 100_000 }) })
    .map(({ request, kind, n }) => {
      const b = kinds[kind]!;
      return { callback: 'payment.create' as const, payload: b.apply(request, n), intent: { kind: 'wrong' as const, field: b.field, why: b.why, source: b.source, value: b.value(n) } };
    });
}

/** The payment actions that act on a paymentId. */
export type PaymentIdAction = Extract<CallbackName, 'payment.approve' | 'payment.cancel' | 'payment.refund'>;

export const PAYMENT_ID_ACTIONS: readonly PaymentIdAction[] = ['payment.approve', 'payment.cancel', 'payment.refund'];

/** approve, cancel or refund (of those given: the ones the module declares) of a paymentId no module gave. */
export function unknownPaymentAction(actions: readonly PaymentIdAction[] = PAYMENT_ID_ACTIONS): fc.Arbitrary<GeneratedCase> {
  if (actions.length === 0) throw new Error('unknownPaymentAction: no action to call');
  // The module's duty is over the payment it made (document: approve "Capture the held funds", cancel "Stop accepting payments or release funds", refund "Refund"): of a payment it never made there is none.
  return fc.record({ callback: fc.constantFrom(...actions), hex: matching(/^[0-9a-f]{16}$/) }).map(({ callback, hex }) => ({
    callback,
    payload: { paymentId: `unknown-${hex}` },
    intent: {
      kind: 'wrong' as const,
      field: 'paymentId',
      why: 'a paymentId the module never gave',
      value: `unknown-${hex}`,
      source: 'document, Calls from the system to a payment module: approve "Capture the held funds", cancel "Stop accepting payments or release funds", refund "Refund"; wire profile section 3: "`create` ... `{paymentId, invoiceUrl, cancellable}`" (the paymentId is the module\'s answer)',
    },
  }));
}
