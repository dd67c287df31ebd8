/**
 * The payment arbitraries: valid creates valid by the request schema (with the profile), of the
 * module's currencies and active shops, amounts of two decimals that the items sum to exactly;
 * wrong creates that break what they say and nothing else; unknown payment ids only for the
 * actions given; the same seed, the same requests.
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { createBreakages, itemsTotalCents, paymentContextOf, unknownPaymentAction, validCreate, wrongCreate } from '../../src/generators/payment/create.ts';

type Json = Record<string, unknown>;

const module = (payment: Json): Json => ({ code: 'm', integrations: { payment: { actions: { create: '/create' }, invoiceTypes: ['link'], ...payment } } });

const declared = paymentContextOf(
  module({
    currencies: ['EUR', 'RUB'],
    shops: [
      { code: 'main', name: 'Main', active: true },
      { code: 'old', name: 'Old', active: false },
      { code: 'second', name: 'Second', active: true },
    ],
  }),
);
const bare = paymentContextOf(module({}));

const cents = (n: number): number => Math.round(n * 100);

test('the context reads currencies, shops and invoice types; none declared: EUR and USD, no shop', () => {
  expect(declared.currencies).toEqual(['EUR', 'RUB']);
  expect(declared.declaredCurrencies).toEqual(['EUR', 'RUB']);
  expect(declared.shops.filter((s) => s.active).map((s) => s.code)).toEqual(['main', 'second']);
  expect(declared.invoiceTypes).toEqual(['link']);
  expect(bare.currencies).toEqual(['EUR', 'USD']);
  expect(bare.declaredCurrencies).toEqual([]);
  expect(bare.shops).toEqual([]);
  // A currency not of ISO 4217 form is not drawn while others are; a shop without `active` is not active.
  const odd = paymentContextOf(module({ currencies: ['EURO', 'USD'], shops: [{ code: 'x', name: 'X' }] }));
  expect(odd.currencies).toEqual(['USD']);
  expect(odd.shops).toEqual([{ code: 'x', name: 'X', active: false }]);
  expect(paymentContextOf({}).currencies).toEqual(['EUR', 'USD']);
});

for (const [label, ctx] of [['declared currencies and shops', declared], ['nothing declared', bare]] as const) {
  test(`valid creates are valid by the request schema, items sum to the amount exactly (${label})`, () => {
    const cases = fc.sample(validCreate(ctx), { seed: 7, numRuns: 400 });
    const uuids = new Set<string>();
    // What does not hold, per case (one assertion at the end: Playwright's expect is costly per call).
    const problems: string[] = [];
    const need = (ok: boolean, what: string, r: Json): void => {
      if (!ok) problems.push(`${what}: ${JSON.stringify(r)}`);
    };
    for (const c of cases) {
      const r = c.payload as Json;
      need(c.callback === 'payment.create' && c.intent.kind === 'valid', 'a valid create', r);
      const out = contract({ profile: true }).validate('payment/create.request.json', r);
      need(out.valid, `the request schema (${formatErrors(out.errors)})`, r);
      need(r.invoiceType === 'link', 'invoiceType link', r);
      const amount = r.amount as number;
      need(amount >= 1 && amount <= 99_999.99 && cents(amount) / 100 === amount, 'amount 1..99999.99, two decimals', r);
      const items = r.items as Json[];
      need(items.length > 0, 'items', r);
      for (const i of items) {
        need((i.price as number) > 0 && cents(i.price as number) / 100 === i.price, 'item price above zero, two decimals', r);
        need(Number.isInteger(i.quantity) && (i.quantity as number) > 0, 'item quantity a positive integer', r);
        need(['name', 'vat', 'paymentMethod', 'paymentObject'].every((k) => typeof i[k] === 'string'), 'item texts', r);
      }
      need(itemsTotalCents(items) === cents(amount), 'items sum to the amount', r);
      need(ctx.currencies.includes(r.currency as string), 'a currency of the context', r);
      need(ctx === bare ? !('shopId' in r) : ['main', 'second'].includes(r.shopId as string), 'an active declared shop, or none', r);
      need(Number.isInteger(r.orderId) && (r.orderId as number) > 0, 'orderId a positive integer', r);
      need(['siteUrl', 'returnUrl'].every((k) => new URL(r[k] as string).protocol === 'https:' && /example\.(com|org|net)$/.test(new URL(r[k] as string).hostname)), 'https URLs on example hosts', r);
      need(typeof r.customer === 'object' && r.customer !== null, 'a customer', r);
      uuids.add(r.invoiceUuid as string);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(uuids.size).toBe(cases.length);
  });
}

test('invoice uuids: version 4, and never the same across the scopes of one seed (properties of a run share its seed)', () => {
  const uuids = (scope: string, wrong = false) => {
    const ctx = paymentContextOf(module({ currencies: ['EUR'] }), scope);
    return fc.sample(wrong ? wrongCreate(ctx) : validCreate(ctx), { seed: 42, numRuns: 100 }).map((c) => (c.payload as Json).invoiceUuid as string);
  };
  const all = [...uuids(''), ...uuids('create-valid'), ...uuids('create-wrong', true)];
  expect(all.filter((u) => !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u))).toEqual([]);
  expect(new Set(all).size).toBe(300);
  expect(uuids('create-valid')).toEqual(uuids('create-valid'));
});

test('the same seed gives the same creates', () => {
  expect(fc.sample(validCreate(declared), { seed: 11, numRuns: 20 })).toEqual(fc.sample(validCreate(declared), { seed: 11, numRuns: 20 }));
});

test('wrong creates break what they say: an amount of zero or below, or (declared currencies only) an unlisted ISO 4217 currency', () => {
  expect(createBreakages(declared).map((b) => b.field)).toEqual(['amount', 'amount', 'currency']);
  expect(createBreakages(bare).map((b) => b.field)).toEqual(['amount', 'amount']);
  const seen = new Set<string>();
  for (const c of fc.sample(wrongCreate(declared), { seed: 5, numRuns: 300 })) {
    if (c.intent.kind !== 'wrong') throw new Error('not a wrong case');
    const r = c.payload as Json;
    seen.add(c.intent.why);
    // Still of the request's schema: only a value is wrong.
    const out = contract({ profile: true }).validate('payment/create.request.json', r);
    expect(out.valid, formatErrors(out.errors)).toBe(true);
    if (c.intent.field === 'amount') {
      expect(r.amount as number).toBeLessThanOrEqual(0);
      expect(declared.currencies).toContain(r.currency);
    } else {
      expect(c.intent.field).toBe('currency');
      expect(r.currency).toMatch(/^[A-Z]{3}$/);
      expect(declared.declaredCurrencies).not.toContain(r.currency);
      expect(r.amount as number).toBeGreaterThan(0);
    }
  }
  expect(seen.size).toBe(3);
  for (const c of fc.sample(wrongCreate(bare), { seed: 6, numRuns: 100 })) expect(c.intent.kind === 'wrong' && c.intent.field).toBe('amount');
});

test('unknown payment ids: only the actions given, a paymentId no module gave, wrong naming paymentId', () => {
  const cases = fc.sample(unknownPaymentAction(['payment.cancel', 'payment.refund']), { seed: 3, numRuns: 100 });
  expect(new Set(cases.map((c) => c.callback))).toEqual(new Set(['payment.cancel', 'payment.refund']));
  for (const c of cases) {
    expect((c.payload as Json).paymentId).toMatch(/^unknown-[0-9a-f]{16}$/);
    // The wrong value is the intent's too (a message may quote it), and the sentence that makes it wrong.
    expect(c.intent).toMatchObject({ kind: 'wrong', field: 'paymentId', why: 'a paymentId the module never gave', value: (c.payload as Json).paymentId, source: expect.stringMatching(/^document, /) });
    const schema = `payment/${c.callback.split('.')[1]}.request.json`;
    expect(contract({ profile: true }).validate(schema, c.payload).valid).toBe(true);
  }
  expect(new Set(fc.sample(unknownPaymentAction(), { seed: 4, numRuns: 100 }).map((c) => c.callback))).toEqual(new Set(['payment.approve', 'payment.cancel', 'payment.refund']));
  expect(() => unknownPaymentAction([])).toThrow();
});
