/**
 * The system simulator and the shops of payment modules (integration-interface.md, Payment
 * configuration): each newly passed shop gets a payment type (the reference book lists it), a
 * shop missing from a later registration is removed with its payment type, and the simulator
 * answers which shops are live (`shops`, `shopOf`), for the callbacks that name a shop.
 */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { Account, MAX_SHOPS } from '../../src/simulators/account.ts';
import type { SystemSimulator } from '../../src/simulators/system.ts';
import { startSystem } from './system-harness.ts';

const API_KEY = 'system-shops-key-0003';
let sim: SystemSimulator;

test.beforeEach(async () => {
  ({ sim } = await startSystem(API_KEY));
});
test.afterEach(() => sim.stop());

const MAIN = { code: 'main', name: 'Main shop', active: true };
const OUTLET = { code: 'outlet', name: 'Outlet', active: false };

/** Registers `code` as a payment module with these shops (`undefined`: no shops member). */
async function register(code: string, shops: unknown, options: { apiKey?: string; integrations?: Record<string, unknown> } = {}): Promise<number> {
  const payment = { actions: { create: '/create' }, ...(shops === undefined ? {} : { shops }) };
  const module = { code, clientId: 'client-1', baseUrl: 'http://127.0.0.1:9', integrations: options.integrations ?? { payment } };
  const res = await request(`${sim.url()}/api/v5/integration-modules/${code}/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey: options.apiKey ?? API_KEY, integrationModule: JSON.stringify(module) }).toString(),
  });
  await res.body.text();
  return res.statusCode;
}

async function book(): Promise<Record<string, Record<string, unknown>>> {
  const res = await request(`${sim.url()}/api/v5/reference/payment-types`, { headers: { 'x-api-key': API_KEY } });
  const body = (await res.body.json()) as { success: boolean; paymentTypes: Record<string, Record<string, unknown>> };
  expect(body.success).toBe(true);
  return body.paymentTypes;
}

test('each newly passed shop gets a payment type, active as the shop, tied to it; the reference book lists it', async () => {
  const before = Object.keys(await book());
  expect(await register('pay', [MAIN, OUTLET])).toBe(200);
  expect(sim.shops('pay')).toEqual([
    { moduleCode: 'pay', code: 'main', name: 'Main shop', active: true, paymentType: 'pay-main' },
    { moduleCode: 'pay', code: 'outlet', name: 'Outlet', active: false, paymentType: 'pay-outlet' },
  ]);
  expect(sim.paymentTypes().filter((t) => t.shop)).toEqual([
    expect.objectContaining({ code: 'pay-main', name: 'Main shop', active: true, shop: { moduleCode: 'pay', code: 'main' } }),
    expect.objectContaining({ code: 'pay-outlet', name: 'Outlet', active: false, shop: { moduleCode: 'pay', code: 'outlet' } }),
  ]);
  const listed = await book();
  expect(Object.keys(listed)).toEqual([...before, 'pay-main', 'pay-outlet']);
  // The tie is the system's own record, not a field of the book.
  expect(listed['pay-outlet']).toEqual({ code: 'pay-outlet', name: 'Outlet', active: false, defaultForCrm: false, deliveryTypes: [], paymentStatuses: ['not-paid', 'paid'] });
  expect(sim.shopOf('outlet')).toMatchObject({ moduleCode: 'pay', paymentType: 'pay-outlet', active: false });
});

test('a shop missing from a later registration is removed with its payment type; the others keep theirs; a new one gets one', async () => {
  await register('pay', [MAIN, OUTLET]);
  expect(await register('pay', [{ ...MAIN, name: 'Main shop (EU)', active: false }, { code: 'north', name: 'North', active: true }])).toBe(200);
  expect(sim.shops('pay').map((s) => [s.code, s.name, s.active, s.paymentType])).toEqual([
    ['main', 'Main shop (EU)', false, 'pay-main'],
    ['north', 'North', true, 'pay-north'],
  ]);
  expect(sim.shopOf('outlet')).toBeUndefined();
  expect(sim.shopOf('outlet', 'pay')).toBeUndefined();
  expect(sim.account.removedShops.map((s) => s.code)).toEqual(['outlet']);
  const listed = await book();
  expect(listed['pay-outlet']).toBeUndefined();
  expect(listed['pay-main']).toMatchObject({ name: 'Main shop (EU)', active: false });
  expect(listed['pay-north']).toMatchObject({ active: true });
  // A shop passed again after its removal is new again: it gets a payment type anew.
  await register('pay', [MAIN, OUTLET]);
  expect(sim.shopOf('outlet', 'pay')).toMatchObject({ paymentType: 'pay-outlet', active: false });
  expect(sim.shopOf('north')).toBeUndefined();
});

test('no shops member, a null one, an empty list, or a registration without the payment integration passes no shop: the module\'s shops are removed', async () => {
  for (const shops of [undefined, null, []]) {
    await register('pay', [MAIN]);
    expect(sim.shops('pay')).toHaveLength(1);
    await register('pay', shops);
    expect(sim.shops('pay'), JSON.stringify(shops)).toEqual([]);
  }
  await register('pay', [MAIN]);
  await register('pay', undefined, { integrations: { delivery: { actions: { calculate: '/calculate' } } } });
  expect(sim.shops()).toEqual([]);
  expect(sim.paymentTypes().filter((t) => t.shop)).toEqual([]);
});

test('the shops of one payment module are its own: another module\'s registration leaves them, and codes do not clash', async () => {
  await register('pay', [MAIN]);
  await register('other', [{ ...MAIN, name: 'Other main' }]);
  expect(sim.shops().map((s) => `${s.moduleCode}/${s.code} -> ${s.paymentType}`)).toEqual(['pay/main -> pay-main', 'other/main -> other-main']);
  expect(sim.shopOf('main', 'other')?.name).toBe('Other main');
  expect(sim.shopOf('main')?.moduleCode).toBe('pay');
  await register('other', []);
  expect(sim.shops().map((s) => s.paymentType)).toEqual(['pay-main']);
});

test('a refused registration changes no shop', async () => {
  await register('pay', [MAIN, OUTLET]);
  expect(await register('pay', [], { apiKey: 'wrong-key-0000' })).toBe(403);
  expect(sim.shops('pay').map((s) => s.code)).toEqual(['main', 'outlet']);
});

test('as tolerant as the platform: what names no shop is passed over, a numeric code is read as text, a repeated code counts once, a taken type code gets a suffix', async () => {
  expect(await register('bank', [{ code: 'card', name: 'Card' }, { name: 'no code', active: true }, { code: '', name: 'empty', active: true }, 'main', null, { code: 7, name: 7, active: 'yes' }, { code: 'card', name: 'Card again', active: true }])).toBe(200);
  expect(sim.shops('bank')).toEqual([
    // `active` not given: not said to be active, so inactive; a name that is no string: the code names it.
    { moduleCode: 'bank', code: 'card', name: 'Card', active: false, paymentType: 'bank-card-2' },
    { moduleCode: 'bank', code: '7', name: '7', active: false, paymentType: 'bank-7' },
  ]);
  // `bank-card` was the account's own payment type: it stays.
  expect(sim.paymentTypes().filter((t) => t.code === 'bank-card')).toEqual([expect.objectContaining({ name: 'Bank card' })]);
  expect(sim.paymentTypes().find((t) => t.code === 'bank-card')?.shop).toBeUndefined();
});

test('a registration given in the configuration (remote mode) is held with its shops', () => {
  sim.adopt({ code: 'remote', clientId: 'c', integrations: { payment: { actions: { create: '/c' }, shops: [MAIN] } } });
  expect(sim.shopOf('main', 'remote')).toMatchObject({ paymentType: 'remote-main', active: true });
});

test('a flood of shops is counted, not held: at most MAX_SHOPS in all', () => {
  const account = new Account();
  const shops = Array.from({ length: MAX_SHOPS + 5 }, (_, i) => ({ code: `s${i}`, name: `S${i}`, active: true }));
  const changes = account.syncShops('flood', shops);
  expect(changes.added).toHaveLength(MAX_SHOPS);
  expect(account.shopsOverLimit).toBe(5);
  expect(account.shops()).toHaveLength(MAX_SHOPS);
  // Passed again, the same list changes nothing; without it, every shop and its type is gone.
  expect(account.syncShops('flood', shops.slice(0, MAX_SHOPS))).toEqual({ added: [], changed: [], removed: [] });
  expect(account.syncShops('flood', []).removed).toHaveLength(MAX_SHOPS);
  expect(account.paymentTypes.map((t) => t.code)).toEqual(['cash', 'bank-card', 'cod']);
});
