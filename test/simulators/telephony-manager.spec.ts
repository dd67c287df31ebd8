/**
 * The manager lookup the system simulator answers (`GET /api/v5/telephony/manager?phone=`): the
 * free responsible manager of the customer found by the number, when one exists (free: authorised,
 * status free, an extension code in the integration settings: `additionalCodes`), with the wire
 * profile's shape; otherwise `{success: true}` without `manager`.
 */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import type { SystemSimulator } from '../../src/simulators/system.ts';
import { Account } from '../../src/simulators/account.ts';
import { customerByPhone, extensionCodes, freeManager } from '../../src/simulators/telephony-manager.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { startSystem } from './system-harness.ts';

const API_KEY = 'system-test-key-0001';
let sim: SystemSimulator;

test.beforeEach(async () => {
  ({ sim } = await startSystem(API_KEY));
});
test.afterEach(() => sim.stop());

const FREE_CUSTOMER = '+34911000101'; // Marta Lopez, managed by Ana Garcia (user 1, free)
const BUSY_CUSTOMER = '+34911000102'; // Jorge Ruiz, managed by Luis Martin (user 2, busy)

async function register(telephony: Record<string, unknown>, code = 'tel'): Promise<void> {
  const res = await request(`${sim.url()}/api/v5/integration-modules/${code}/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey: API_KEY, integrationModule: JSON.stringify({ code, clientId: 'client-1', baseUrl: 'http://127.0.0.1:9', integrations: { telephony } }) }).toString(),
  });
  expect(res.statusCode).toBe(201);
  await res.body.text();
}

async function lookup(query: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  const res = await request(`${sim.url()}/api/v5/telephony/manager?${new URLSearchParams({ apiKey: API_KEY, ...query })}`);
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

function expectReplyShape(body: unknown): void {
  const v = contract().validate('telephony/manager.reply.json', body);
  expect(v.valid, formatErrors(v.errors)).toBe(true);
}

test('a customer whose manager is free with an extension code in the settings: the manager, the customer and links', async () => {
  await register({ additionalCodes: [{ userId: 1, code: '101' }, { userId: 2, code: '102' }] });
  const r = await lookup({ phone: FREE_CUSTOMER });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    success: true,
    manager: { id: 1, firstName: 'Ana', lastName: 'Garcia', email: 'ana@shop.example.com', code: '101' },
    customer: { id: 1, phones: [{ number: FREE_CUSTOMER }] },
    links: { customerLink: expect.stringContaining('/customers/1') },
  });
  expectReplyShape(r.body);
  // The number is found in any written form.
  expect((await lookup({ phone: '0034 91 100 01 01' })).body.manager).toBeUndefined();
  expect((await lookup({ phone: '+34 911-000-101' })).body.manager).toMatchObject({ id: 1 });
  const call = sim.calls.at(-1)!;
  expect(call.endpoint).toBe('manager');
  expect(call.payload).toEqual({ phone: '+34 911-000-101' });
  expect(call.schemaErrors).toEqual([]);
});

test('no free manager: a busy manager, an unknown number, or no extension code in the settings answer {success: true} without manager', async () => {
  await register({ additionalCodes: [{ userId: 2, code: '102' }] });
  // Ana is free but has no extension code in the settings; Luis has one but is busy.
  for (const phone of [FREE_CUSTOMER, BUSY_CUSTOMER, '+34600000000']) {
    const r = await lookup({ phone });
    expect(r).toEqual({ status: 200, body: { success: true } });
    expectReplyShape(r.body);
  }
  // Once Luis is free, his customer's lookup finds him.
  sim.account.users.find((u) => u.id === 2)!.status = 'free';
  expect((await lookup({ phone: BUSY_CUSTOMER })).body.manager).toMatchObject({ id: 2, code: '102' });
  // Not authorised (offline): not free.
  sim.account.users.find((u) => u.id === 2)!.online = false;
  expect((await lookup({ phone: BUSY_CUSTOMER })).body).toEqual({ success: true });
});

test('the settings are read as the platform reads them: null is absent, a code given as a number is its text, the last registration counts', async () => {
  await register({ additionalCodes: null, externalPhones: null });
  expect((await lookup({ phone: FREE_CUSTOMER })).body).toEqual({ success: true });
  await register({ additionalCodes: [{ userId: '1', code: 101 }, null, { userId: 2 }] });
  expect((await lookup({ phone: FREE_CUSTOMER })).body.manager).toMatchObject({ id: 1, code: '101' });
  await register({ additionalCodes: { 1: '101' } });
  expect((await lookup({ phone: FREE_CUSTOMER })).body).toEqual({ success: true });
});

test('without phone the lookup is refused with the error body; another method is 405', async () => {
  await register({ additionalCodes: [{ userId: 1, code: '101' }] });
  expect(await lookup({ number: FREE_CUSTOMER })).toEqual({ status: 400, body: { success: false, errorMsg: 'Parameter "phone" is missing' } });
  expect(sim.calls.at(-1)!.schemaErrors.map((e) => e.keyword)).toEqual(['required']);
  const post = await request(`${sim.url()}/api/v5/telephony/manager`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=${API_KEY}&phone=${encodeURIComponent(FREE_CUSTOMER)}` });
  expect(post.statusCode).toBe(405);
  await post.body.text();
  expect(sim.unsimulated.at(-1)!.request.method).toBe('POST');
});

test('the lookup rules on their own: customers by digits, extension codes of every held module, free managers only', () => {
  const account = new Account();
  expect(customerByPhone(account, '34911000101')?.id).toBe(1);
  expect(customerByPhone(account, '')).toBeUndefined();
  const modules = [{ module: { integrations: { telephony: { additionalCodes: [{ userId: 1, code: ' 101 ' }] } } } }, { module: { integrations: { delivery: {} } } }];
  expect([...extensionCodes(modules)]).toEqual([['1', '101']]);
  expect(freeManager(account, modules, FREE_CUSTOMER)?.code).toBe('101');
  expect(freeManager(account, modules, BUSY_CUSTOMER)).toBeUndefined();
  account.users[0]!.active = false;
  expect(freeManager(account, modules, FREE_CUSTOMER)).toBeUndefined();
});
