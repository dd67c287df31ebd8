/**
 * The calculate arbitraries: valid requests valid by the request schema in their view, with the
 * contract's semantics (weights above zero, cod sums, dates ahead, declared codes); wrong input
 * that breaks one named thing; the same seed, the same requests.
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { codTotal, dateBase, type DeliveryContext } from '../../src/generators/delivery/common.ts';
import { calculateBreakages, validCalculate, wrongCalculate } from '../../src/generators/delivery/calculate.ts';

type Json = Record<string, unknown>;

const ctx = (profile: boolean): DeliveryContext => ({
  module: {
    integrations: {
      delivery: {
        allowPackages: true,
        codAvailable: true,
        deliveryDataFieldList: [
          { code: 'insurance', type: 'checkbox', affectsCost: true },
          { code: 'places', type: 'integer', affectsCost: true },
          { code: 'window', type: 'choice', affectsCost: true, choices: [{ value: 'am' }, { value: 'pm' }] },
          { code: 'comment', type: 'text', affectsCost: false },
        ],
      },
    },
  },
  stores: [{ code: 'w1', name: 'W1', address: { city: 'Madrid', building: '1' } }, { code: 'w2', name: 'W2' }],
  currencies: ['EUR', 'USD'],
  firstDay: '2030-01-01',
  profile,
});

for (const profile of [true, false]) {
  test(`valid requests are valid by the request schema (${profile ? 'with the profile' : 'the document alone'})`, () => {
    const cases = fc.sample(validCalculate(ctx(profile)), { seed: 3, numRuns: 300 });
    for (const c of cases) {
      const out = contract({ profile }).validate('delivery/calculate.request.json', c.payload);
      expect(out.valid, formatErrors(out.errors)).toBe(true);
      expect(['EUR', 'USD']).toContain((c.payload as Json).currency);
      expect(((c.payload as Json).packages as Json[]).length).toBeGreaterThan(0);
    }
  });
}

test('with the profile: weights above zero, cod and declared value summed, dates ahead and in order, only affectsCost fields, declared stores', () => {
  for (const c of fc.sample(validCalculate(ctx(true)), { seed: 4, numRuns: 300 })) {
    const r = c.payload as Json;
    const packages = r.packages as Json[];
    for (const p of packages) expect(p.weight as number).toBeGreaterThan(0);
    // Sent or not (issue 31, item 8); when sent, the total of the items.
    if (r.cod !== undefined) expect(r.cod).toBe(codTotal(packages));
    expect(typeof (r.deliveryAddress as Json).city).toBe('string');
    expect(['w1', 'w2']).toContain((r.store as Json).code);
    expect(Object.keys((r.extraData ?? {}) as Json).every((k) => ['insurance', 'places', 'window'].includes(k))).toBe(true);
    if (r.shipmentDate) expect(r.shipmentDate as string >= '2030-01-01 00:00:00').toBe(true);
    if (r.shipmentDate && r.deliveryDate) expect(r.deliveryDate as string >= (r.shipmentDate as string).slice(0, 10)).toBe(true);
  }
});

test('the document alone sends no member that rests on the profile alone', () => {
  for (const c of fc.sample(validCalculate(ctx(false)), { seed: 5, numRuns: 100 })) {
    const r = c.payload as Json;
    expect(Object.keys(r).every((k) => ['currency', 'packages'].includes(k))).toBe(true);
    for (const p of r.packages as Json[]) expect(Object.keys(p)).toEqual(['items']);
  }
});

test('wrong input: each kind breaks one named field; every kind is drawn', () => {
  const cases = fc.sample(wrongCalculate(ctx(true)), { seed: 6, numRuns: 400 });
  const why = (c: (typeof cases)[number]): string => (c.intent.kind === 'wrong' || c.intent.kind === 'open' ? c.intent.why : '');
  expect(new Set(cases.map(why)).size).toBe(calculateBreakages(ctx(true)).length);
  for (const c of cases) {
    if (c.intent.kind !== 'wrong' && c.intent.kind !== 'open') throw new Error('neither wrong nor open');
    const r = c.payload as Json;
    if (why(c).includes('not JSON')) {
      expect(() => JSON.parse((r as { raw: string }).raw)).toThrow();
      continue;
    }
    const first = Array.isArray(r.packages) ? (r.packages as Json[])[0]! : undefined;
    if (why(c) === 'a zero weight') expect(first!.weight).toBe(0);
    if (why(c).startsWith('a negative weight')) expect(first!.weight as number).toBeLessThan(0);
    if (c.intent.kind === 'wrong' && c.intent.field === 'deliveryAddress.city') expect((r.deliveryAddress as Json).city).toBeUndefined();
    if (c.intent.kind === 'wrong' && c.intent.field === 'deliveryDate') expect((r.deliveryDate as string) < '2030-01-01').toBe(true);
    if (c.intent.kind === 'open' && why(c).startsWith('a shipment date')) expect((r.shipmentDate as string) < '2030-01-01').toBe(true);
    // Data-field values are left out of wrong input: a module could refuse them first.
    expect(r.extraData).toBeUndefined();
  }
  // The document alone: only what it names can be broken (the form field's JSON is the profile's).
  expect(calculateBreakages(ctx(false)).map((b) => b.field)).toEqual(['packages']);
});

test('the same seed gives the same requests, byte for byte; another seed others', () => {
  const a = JSON.stringify(fc.sample(validCalculate(ctx(true)), { seed: 9, numRuns: 50 }));
  const b = JSON.stringify(fc.sample(validCalculate(ctx(true)), { seed: 9, numRuns: 50 }));
  const c = JSON.stringify(fc.sample(validCalculate(ctx(true)), { seed: 10, numRuns: 50 }));
  expect(a).toBe(b);
  expect(a).not.toBe(c);
});

test('dates fall from the first day of the next month: the same all the month long', () => {
  expect(dateBase(new Date('2026-11-24T13:00:00Z'))).toBe('2026-12-01');
  expect(dateBase(new Date('2026-12-31T23:59:59Z'))).toBe('2027-01-01');
});

test('the registration shapes the requests: one package without allowPackages, no cash-on-delivery data without codAvailable, required sizes and address members present', async () => {
  const { requestShape } = await import('../../src/generators/delivery/common.ts');
  const { saveRequest } = await import('../../src/generators/delivery/save.ts');
  const strict = { integrations: { delivery: { allowPackages: false, codAvailable: false, requiredFields: ['email', 'length', 'width', 'height', 'shipmentDate', 'deliveryTime.from', 'deliveryAddress.flat', 'deliveryAddress.cityId', 'patronymic'] } } };
  expect(requestShape(strict)).toEqual({ maxPackages: 1, cod: false, required: new Set(strict.integrations.delivery.requiredFields) });
  expect(requestShape({ integrations: { delivery: { allowPackages: true, codAvailable: true } } })).toMatchObject({ maxPackages: 3, cod: true });
  // Not declared: the narrow reading (one package, no cash on delivery).
  expect(requestShape({})).toMatchObject({ maxPackages: 1, cod: false });
  const c = { ...ctx(true), module: strict };
  for (const v of fc.sample(validCalculate(c), { seed: 6, numRuns: 100 })) {
    const r = v.payload as Json;
    expect((r.packages as Json[]).length).toBe(1);
    expect(r.cod).toBeUndefined();
    for (const p of r.packages as Json[]) {
      for (const k of ['length', 'width', 'height']) expect(p[k]).toEqual(expect.any(Number));
      for (const i of p.items as Json[]) expect(i.cod).toBeUndefined();
    }
    expect((r.deliveryAddress as Json).flat).toEqual(expect.any(String));
    expect((r.deliveryAddress as Json).cityId).toEqual(expect.any(String));
  }
  const saveCtx = { ...c, sites: [{ code: 's1', name: 'S1', currency: 'EUR' }], tariffs: [] };
  for (const r of fc.sample(saveRequest(saveCtx), { seed: 7, numRuns: 100 })) {
    const d = r.delivery as Json;
    expect((r.packages as Json[]).length).toBe(1);
    expect([d.cod, d.withCod, d.codPaymentType]).toEqual([undefined, undefined, undefined]);
    expect(d.shipmentDate).toEqual(expect.any(String));
    expect((d.deliveryTime as Json).from).toEqual(expect.any(String));
    expect((r.customer as Json).email).toEqual(expect.any(String));
    expect((r.customer as Json).patronymic).toEqual(expect.any(String));
    const out = contract({ profile: true }).validate('delivery/save.request.json', r);
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
});

test('wrong input by the documents\' words (Errors 7: "a past delivery date or zero weight"): a past deliveryDate is sent as wrong input in calculate and save; a past shipmentDate never is', async () => {
  const { wrongSave } = await import('../../src/generators/delivery/save.ts');
  const saveCtx = { ...ctx(true), sites: [{ code: 's1', name: 'S1', currency: 'EUR' }], tariffs: [] };
  const calc = fc.sample(wrongCalculate(ctx(true)), { seed: 11, numRuns: 300 }).map((c) => ({ c, dates: c.payload as Json }));
  const save = fc.sample(wrongSave(saveCtx), { seed: 12, numRuns: 300 }).map((c) => ({ c, dates: ((c.payload as Json).delivery ?? {}) as Json }));
  for (const [name, cases] of [['calculate', calc], ['save', save]] as const) {
    const pastDelivery = cases.filter(({ c, dates }) => c.intent.kind === 'wrong' && c.intent.field === 'deliveryDate' && typeof dates.deliveryDate === 'string' && dates.deliveryDate < '2030-01-01');
    expect(pastDelivery.length, `${name}: wrong input with a past deliveryDate`).toBeGreaterThan(10);
    // The value sent is the intent's, for a message that quotes it.
    for (const { c, dates } of pastDelivery) expect(c.intent.kind === 'wrong' && c.intent.value).toBe(dates.deliveryDate);
    const pastShipmentAsWrong = cases.filter(({ c, dates }) => c.intent.kind === 'wrong' && typeof dates.shipmentDate === 'string' && dates.shipmentDate < '2030-01-01');
    expect(pastShipmentAsWrong.map(({ c }) => c.intent), `${name}: a past shipmentDate sent as wrong input`).toEqual([]);
    // A past shipment date is still sent, as a case whose answer is open (a success or a refusal).
    expect(cases.some(({ c, dates }) => c.intent.kind === 'open' && typeof dates.shipmentDate === 'string' && dates.shipmentDate < '2030-01-01'), `${name}: a past shipmentDate sent as open`).toBe(true);
  }
});

test('each kind of wrong input cites the sentence that makes it wrong; profileOnly exactly when a cited sentence is the profile\'s', async () => {
  const { deliveryBreakages } = await import('../../src/generators/delivery/breakages.ts');
  const { createBreakages } = await import('../../src/generators/payment/create.ts');
  for (const b of [...calculateBreakages(ctx(true)), ...deliveryBreakages(ctx(true), 'save', true)]) {
    expect(b.source, b.why).toMatch(/^(document|wire profile)[^:]*: ".+"/);
    expect(b.profileOnly, `${b.why}: ${b.source}`).toBe(/wire profile/.test(b.source));
  }
  // The wrong input of payment create, too: each with its sentence and the value it sends.
  for (const b of createBreakages({ declaredCurrencies: ['EUR'] } as unknown as Parameters<typeof createBreakages>[0])) {
    expect(b.source, b.why).toMatch(/^(document|wire profile)[^:]*: ".+"/);
    expect(b.apply({ amount: 10, currency: 'EUR' }, 7)[b.field]).toEqual(b.value(7));
  }
});
