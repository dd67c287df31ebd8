/**
 * The breadth the platform sends (issue 31, item 8): over many generated valid requests, texts
 * come in Latin, Cyrillic, Latin with diacritics and the two mixed; phones of every length a real
 * number has (E.164: 8 to 15 digits) in the forms users type them; each optional member the
 * document or the wire profile lists is sent and left out; refunds and approves of a part of the
 * amount, of the whole named, and of no amount. Every request stays valid by its schema.
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import type { DeliveryContext } from '../../src/generators/delivery/common.ts';
import { validCalculate } from '../../src/generators/delivery/calculate.ts';
import { saveRequest } from '../../src/generators/delivery/save.ts';
import { shipmentFields } from '../../src/generators/delivery/shipment.ts';
import { shipmentPointListQuery } from '../../src/generators/delivery/lists.ts';
import { createRequest, paymentContextOf } from '../../src/generators/payment/create.ts';
import { telephonyContextOf } from '../../src/generators/telephony/context.ts';
import { validMakeCall } from '../../src/generators/telephony/requests.ts';

type Json = Record<string, unknown>;

const CYRILLIC = /[\u0400-\u04ff]/;
const DIACRITIC = /[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]/;
const LATIN = /[A-Za-z]/;
/** The script classes a set of texts shows: Latin only, Cyrillic only, Latin with diacritics, mixed. */
function classes(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    const cyr = CYRILLIC.test(t);
    const lat = LATIN.test(t) || DIACRITIC.test(t);
    out.add(cyr && lat ? 'mixed' : cyr ? 'cyrillic' : DIACRITIC.test(t) ? 'diacritics' : 'latin');
  }
  return out;
}
const ALL_CLASSES = ['cyrillic', 'diacritics', 'latin', 'mixed'];
const digitCount = (phone: string): number => phone.replace(/\D/g, '').length;
const LENGTHS = [8, 9, 10, 11, 12, 13, 14, 15];

const delivery = (module: Json = {}): DeliveryContext & { sites: Array<{ code: string; name: string; currency: string }>; tariffs: [] } => ({
  module: { integrations: { delivery: { allowPackages: true, codAvailable: true, deliveryDataFieldList: [{ code: 'comment', type: 'text', affectsCost: true, editable: true }, { code: 'places', type: 'integer', affectsCost: true, editable: true }], ...module } } },
  stores: [{ code: 'w1', name: 'W1', address: { city: 'Madrid', building: '1' } }],
  currencies: ['EUR'],
  firstDay: '2030-01-01',
  profile: true,
  sites: [{ code: 's1', name: 'S1', currency: 'EUR' }],
  tariffs: [],
});

test('calculate: cities, regions and streets in Latin, Cyrillic, diacritics and mixed; item names too; every request valid by its schema', () => {
  const requests = fc.sample(validCalculate(delivery()), { seed: 11, numRuns: 400 }).map((c) => c.payload as Json);
  for (const r of requests) {
    const out = contract({ profile: true }).validate('delivery/calculate.request.json', r);
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  const addresses = requests.map((r) => r.deliveryAddress as Json);
  expect([...classes(addresses.map((a) => String(a.city)))].sort()).toEqual(ALL_CLASSES);
  expect(classes(addresses.map((a) => String(a.region))).has('cyrillic')).toBe(true);
  expect([...classes(addresses.flatMap((a) => (typeof a.street === 'string' ? [a.street] : [])))].sort()).toEqual(ALL_CLASSES);
  // Real places: Łódź, São Paulo and the like.
  expect(addresses.some((a) => a.city === 'Łódź' || a.city === 'São Paulo' || a.city === 'München')).toBe(true);
  const items = requests.flatMap((r) => (r.packages as Json[]).flatMap((p) => (p.items as Json[]).map((i) => String(i.name))));
  expect([...classes(items)].sort()).toEqual(ALL_CLASSES);
});

test('calculate: deliveryTime, extraData, declaredValue and cod each sent and left out; deliveryTime with from/to, with custom, or custom alone', () => {
  const requests = fc.sample(validCalculate(delivery()), { seed: 12, numRuns: 400 }).map((c) => c.payload as Json);
  for (const member of ['deliveryTime', 'extraData', 'declaredValue', 'cod', 'shipmentDate', 'deliveryDate']) {
    expect(requests.some((r) => r[member] !== undefined), `${member} present`).toBe(true);
    expect(requests.some((r) => r[member] === undefined), `${member} absent`).toBe(true);
  }
  const times = requests.flatMap((r) => (r.deliveryTime ? [r.deliveryTime as Json] : []));
  expect(times.some((t) => t.from !== undefined && t.custom === undefined)).toBe(true);
  expect(times.some((t) => t.from !== undefined && t.custom !== undefined)).toBe(true);
  expect(times.some((t) => t.from === undefined && typeof t.custom === 'string')).toBe(true);
  // A text data field's value in the scripts users type.
  const comments = requests.flatMap((r) => (typeof (r.extraData as Json | undefined)?.comment === 'string' ? [(r.extraData as Json).comment as string] : []));
  expect(classes(comments).has('cyrillic')).toBe(true);
});

test('save: customers and managers named in every script, patronymics; phones of 8 to 15 digits, with + and without, typed with spaces, dashes, parentheses; optional members sent and left out', () => {
  const requests = fc.sample(saveRequest(delivery()), { seed: 13, numRuns: 400 });
  for (const r of requests) {
    const out = contract({ profile: true }).validate('delivery/save.request.json', r);
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  const customers = requests.map((r) => r.customer as Json);
  expect([...classes(customers.map((c) => String(c.firstName)))].sort()).toEqual(ALL_CLASSES);
  expect([...classes(customers.flatMap((c) => (typeof c.lastName === 'string' ? [c.lastName] : [])))].sort()).toEqual(ALL_CLASSES);
  expect(classes(customers.flatMap((c) => (typeof c.patronymic === 'string' ? [c.patronymic] : []))).has('cyrillic')).toBe(true);
  expect(classes(requests.flatMap((r) => (r.manager ? [String((r.manager as Json).lastName)] : []))).has('diacritics')).toBe(true);
  const phones = customers.flatMap((c) => ((c.phones as Json[] | undefined) ?? []).map((p) => String(p.number)));
  expect([...new Set(phones.map(digitCount))].sort((a, b) => a - b)).toEqual(LENGTHS);
  expect(phones.some((p) => p.startsWith('+'))).toBe(true);
  expect(phones.some((p) => /^\d+$/.test(p))).toBe(true);
  expect(phones.some((p) => /\(\d+\)/.test(p))).toBe(true);
  expect(phones.some((p) => /\d-\d/.test(p))).toBe(true);
  expect(phones.some((p) => /\d \d/.test(p))).toBe(true);
  // E.164: a country code never starts with 0, and no number exceeds 15 digits.
  for (const p of phones) expect(p.replace(/\D/g, '')).toMatch(/^[1-9]\d{7,14}$/);
  for (const [what, has] of [
    ['customer.lastName', (r: Json) => (r.customer as Json).lastName !== undefined],
    ['customer.patronymic', (r: Json) => (r.customer as Json).patronymic !== undefined],
    ['customer.email', (r: Json) => (r.customer as Json).email !== undefined],
    ['customer.phones', (r: Json) => (r.customer as Json).phones !== undefined],
    ['manager', (r: Json) => r.manager !== undefined],
    ['legalEntity', (r: Json) => r.legalEntity !== undefined],
    ['delivery.deliveryTime', (r: Json) => (r.delivery as Json).deliveryTime !== undefined],
    ['delivery.shipmentDate', (r: Json) => (r.delivery as Json).shipmentDate !== undefined],
    ['deliveryAddress.street', (r: Json) => ((r.delivery as Json).deliveryAddress as Json).street !== undefined],
    ['deliveryAddress.flat', (r: Json) => ((r.delivery as Json).deliveryAddress as Json).flat !== undefined],
  ] as const) {
    expect(requests.some(has), `${what} present`).toBe(true);
    expect(requests.some((r) => !has(r)), `${what} absent`).toBe(true);
  }
});

test('save: what the registration requires is always there (lastName, patronymic, email, phone, manager, deliveryTime from/to)', () => {
  const requests = fc.sample(saveRequest(delivery({ requiredFields: ['lastName', 'patronymic', 'email', 'phone', 'manager', 'deliveryTime.from', 'deliveryTime.to'] })), { seed: 14, numRuns: 200 });
  for (const r of requests) {
    const c = r.customer as Json;
    expect([typeof c.lastName, typeof c.patronymic, typeof c.email, Array.isArray(c.phones)]).toEqual(['string', 'string', 'string', true]);
    expect(r.manager).toBeDefined();
    const t = (r.delivery as Json).deliveryTime as Json;
    expect([typeof t.from, typeof t.to]).toEqual(['string', 'string']);
  }
});

test('shipmentSave comments and shipmentPointList cities come in every script', () => {
  const ctx = delivery();
  const comments = fc.sample(shipmentFields(ctx), { seed: 15, numRuns: 300 }).flatMap((f) => (typeof f.comment === 'string' ? [f.comment] : []));
  expect([...classes(comments)].sort()).toEqual(ALL_CLASSES);
  const cities = fc.sample(shipmentPointListQuery(ctx), { seed: 16, numRuns: 300 }).flatMap((c) => (typeof (c.payload as Json).city === 'string' ? [(c.payload as Json).city as string] : []));
  expect([...classes(cities)].sort()).toEqual(ALL_CLASSES);
});

test('payment create: customers in every script, phones of 8 to 15 digits, item names in every script; valid by the schema, items summing to the amount', () => {
  const ctx = paymentContextOf({ integrations: { payment: { actions: { create: '/c' }, currencies: ['EUR'], invoiceTypes: ['link'] } } });
  const requests = fc.sample(createRequest(ctx), { seed: 17, numRuns: 400 });
  for (const r of requests) {
    const out = contract({ profile: true }).validate('payment/create.request.json', r);
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  const customers = requests.map((r) => r.customer as Json);
  expect([...classes(customers.map((c) => String(c.firstName)))].sort()).toEqual(ALL_CLASSES);
  const phones = customers.flatMap((c) => (typeof c.phone === 'string' ? [c.phone] : []));
  expect([...new Set(phones.map(digitCount))].sort((a, b) => a - b)).toEqual(LENGTHS);
  expect(customers.some((c) => c.phone === undefined)).toBe(true);
  expect([...classes(requests.flatMap((r) => (r.items as Json[]).map((i) => String(i.name))))].sort()).toEqual(ALL_CLASSES);
});

test('makeCallUrl: phones of 8 to 15 digits of many countries, with + and without, typed forms; externalPhone sent and left out where numbers are configured', () => {
  const ctx = telephonyContextOf({ integrations: { telephony: { additionalCodes: [{ userId: 1, code: '101' }], externalPhones: [{ siteCode: 'main', externalPhone: '+4930123456' }] } } });
  const cases = fc.sample(validMakeCall(ctx), { seed: 18, numRuns: 400 }).map((c) => c.payload as Record<string, string>);
  for (const q of cases) {
    const out = contract({ profile: true }).validate('telephony/make-call.query.json', { clientId: 'c-1', ...q });
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  const phones = cases.map((q) => q.phone!);
  expect([...new Set(phones.map(digitCount))].sort((a, b) => a - b)).toEqual(LENGTHS);
  expect(phones.some((p) => p.startsWith('+'))).toBe(true);
  expect(phones.some((p) => /^\d+$/.test(p))).toBe(true);
  // Many country codes: +7, +49, +380, +500 among them.
  for (const code of ['7', '49', '380', '500']) expect(phones.some((p) => p.replace(/\D/g, '').startsWith(code) && (p.startsWith(`+${code}`) || p.startsWith(code))), `+${code}`).toBe(true);
  expect(cases.some((q) => q.externalPhone === '+4930123456')).toBe(true);
  expect(cases.some((q) => q.externalPhone === undefined)).toBe(true);
});

test('call events and manager lookups: the incoming call\'s number is long (13 to 15 digits), the outgoing call\'s shorter (8 to 12); over seeds every length 8 to 15 appears; none is a customer\'s', async () => {
  const { callEventPhone, unknownPhone } = await import('../../specs/system-api/telephony-flows.ts');
  const lengths = new Set<number>();
  for (let seed = 1; seed <= 200; seed++) {
    const inPhone = callEventPhone(seed, 'in', () => false);
    const out = callEventPhone(seed, 'out', () => false);
    expect(digitCount(inPhone)).toBeGreaterThanOrEqual(13);
    expect(digitCount(out)).toBeLessThanOrEqual(12);
    expect(callEventPhone(seed, 'hangup', () => false)).toBe(inPhone);
    lengths.add(digitCount(inPhone)).add(digitCount(out)).add(digitCount(unknownPhone(seed, 'lookup', () => false)));
  }
  expect([...lengths].sort((a, b) => a - b)).toEqual(LENGTHS);
  // A number the account knows is never drawn.
  const first = unknownPhone(5, 'lookup', () => false);
  expect(unknownPhone(5, 'lookup', (p) => p === first)).not.toBe(first);
});

test('refunds and approves: of a part (below the amount), of the whole named, and of no amount (the whole)', async () => {
  const { amountOf, amountShare } = await import('../../src/properties/payment-steps.ts');
  const shares = fc.sample(amountShare, { seed: 19, numRuns: 400 });
  expect(shares.some((s) => s === undefined)).toBe(true);
  expect(shares.some((s) => s === 10_000)).toBe(true);
  const parts = shares.filter((s): s is number => s !== undefined && s < 10_000);
  expect(parts.length).toBeGreaterThan(100);
  for (const whole of [1, 0.02, 40, 99_999.99]) {
    for (const s of parts) {
      const a = amountOf(whole, s)!;
      expect(a).toBeGreaterThan(0);
      expect(a).toBeLessThan(whole);
      expect(String(a)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    expect(amountOf(whole, 10_000)).toBe(whole);
    expect(amountOf(whole, undefined)).toBeUndefined();
  }
  // A cent has no part: no amount.
  expect(amountOf(0.01, 5000)).toBeUndefined();
});

test('free text from the schemas (members no area generator shapes) holds Cyrillic and diacritic letters as well as ASCII', async () => {
  const { schemaArbitrary } = await import('../../src/generators/from-schema.ts');
  const addresses = fc.sample(schemaArbitrary('delivery/address.json', { profile: true }), { seed: 20, numRuns: 300 }) as Json[];
  const texts = addresses.flatMap((a) => ['city', 'street', 'region', 'text'].flatMap((k) => (typeof a[k] === 'string' && a[k] !== '' ? [a[k] as string] : [])));
  expect(texts.some((t) => CYRILLIC.test(t))).toBe(true);
  expect(texts.some((t) => DIACRITIC.test(t))).toBe(true);
  expect(texts.some((t) => /^[\x20-\x7e]+$/.test(t))).toBe(true);
});
