/**
 * The system simulator is as tolerant as the real system (wire profile sections 5, 8 and 9):
 * forms urlencoded or multipart, parameters in the query string, the calls official modules
 * make besides the contract, and any other path answered like the platform answers it.
 */
import { test, expect } from '@playwright/test';
import { FormData, request } from 'undici';
import type { EvidenceLog } from '../../src/evidence/exchange.ts';
import type { SystemSimulator } from '../../src/simulators/system.ts';
import { startSystem } from './system-harness.ts';

const API_KEY = 'system-test-key-0002';
let sim: SystemSimulator;
let log: EvidenceLog;

test.beforeEach(async () => {
  ({ sim, log } = await startSystem(API_KEY));
});
test.afterEach(() => sim.stop());

const module = (code: string, integrations: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ code, clientId: 'client-1', baseUrl: 'http://127.0.0.1:9', integrations, ...extra });

async function get(path: string, headers: Record<string, string> = { 'x-api-key': API_KEY }) {
  const res = await request(`${sim.url()}${path}`, { headers });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

async function send(path: string, body: string | FormData | Buffer, headers: Record<string, string> = {}) {
  const res = await request(`${sim.url()}${path}`, { method: 'POST', headers, body });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

test('a multipart/form-data registration is read like an urlencoded one', async () => {
  const form = new FormData();
  form.set('apiKey', API_KEY);
  form.set('integrationModule', module('mp', { payment: { actions: { create: '/create' } } }));
  const reply = await send('/api/v5/integration-modules/mp/edit', form);
  expect(reply).toEqual({ status: 200, body: { success: true } });
  expect(sim.registrations.map((r) => r.code)).toEqual(['mp']);
  expect(sim.calls[0]!.apiKeyVia).toEqual(['form']);
  expect(sim.calls[0]!.exchange.request.headers['content-type']).toMatch(/^multipart\/form-data/);
});

test('form parameters are also read from the query string of a POST', async () => {
  const query = new URLSearchParams({ apiKey: API_KEY, integrationModule: module('q', { telephony: { makeCallUrl: 'http://127.0.0.1:9/call' } }) });
  const reply = await send(`/api/v5/integration-modules/q/edit?${query}`, Buffer.alloc(0));
  expect(reply.status).toBe(201);
  expect(sim.calls[0]!.apiKeyVia).toEqual(['query']);
  expect(sim.registrations[0]!.kinds).toEqual(['telephony']);
});

test('a JSON body, malformed multipart or malformed JSON in the field are refused with the error body, never a crash', async () => {
  const json = await send('/api/v5/integration-modules/j/edit', JSON.stringify({ integrationModule: JSON.parse(module('j', { payment: {} })) }), { 'content-type': 'application/json', 'x-api-key': API_KEY });
  expect(json).toEqual({ status: 400, body: { success: false, errorMsg: expect.stringContaining('the body is JSON, not form parameters') } });
  const broken = await send('/api/v5/integration-modules/b/edit', Buffer.from('--x\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\nabc'), { 'content-type': 'multipart/form-data; boundary=x', 'x-api-key': API_KEY });
  expect(broken.status).toBe(400);
  expect(broken.body).toEqual({ success: false, errorMsg: expect.stringContaining('multipart') });
  const notJson = await send('/api/v5/integration-modules/n/edit', new URLSearchParams({ apiKey: API_KEY, integrationModule: '{"code":' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  expect(notJson.status).toBe(400);
  expect(sim.registrations).toEqual([]);
  expect(sim.calls.map((c) => c.decodeError !== undefined)).toEqual([true, true, true]);
  // The simulator still works.
  expect((await get('/api/api-versions')).status).toBe(200);
});

test('JSON null members are read as absent: a null kind is not declared, the held module has no nulls', async () => {
  const reply = await send(
    '/api/v5/integration-modules/nul/edit',
    new URLSearchParams({ apiKey: API_KEY, integrationModule: module('nul', { payment: { actions: { create: '/c' }, shops: null }, delivery: null }, { logo: null }) }).toString(),
    { 'content-type': 'application/x-www-form-urlencoded' },
  );
  expect(reply.status).toBe(200);
  expect(reply.body.info).toBeUndefined(); // no delivery type: delivery is null, so not declared
  expect(sim.registrations[0]!.kinds).toEqual(['payment']);
  expect(JSON.stringify(sim.registrations[0]!.module)).not.toContain('null');
});

test('GET /api/credentials answers the rights official modules look for; /api/api-versions lists 5.0', async () => {
  const credentials = await get('/api/credentials');
  expect(credentials.status).toBe(200);
  expect(credentials.body).toMatchObject({ success: true, siteAccess: 'access_full' });
  expect(credentials.body.scopes).toEqual(expect.arrayContaining(['integration_read', 'integration_write']));
  expect(credentials.body.credentials).toEqual(expect.arrayContaining(['/api/integration-modules/{code}', '/api/integration-modules/{code}/edit']));
  expect(credentials.body.sitesAvailable).toEqual(sim.account.sites.map((s) => s.code));
  expect((await get(`/api/credentials?apiKey=${API_KEY}`, {})).status).toBe(200);
  expect((await get('/api/credentials', { 'x-api-key': 'wrong-key-0000' })).status).toBe(403);
  expect((await get('/api/credentials', {})).status).toBe(401);
  const versions = await get('/api/api-versions');
  expect(versions.body).toEqual({ success: true, versions: expect.arrayContaining(['5.0']) });
});

test('a key with full rights lists every method path it may call in credentials, /api/store/products among them', async () => {
  const { body } = await get('/api/credentials');
  const credentials = body.credentials as string[];
  // What the official bot (retailcrm/mg-bot-helper worker.go) requires before it registers.
  expect(credentials).toEqual(expect.arrayContaining(['/api/integration-modules/{code}', '/api/integration-modules/{code}/edit', '/api/reference/payment-types', '/api/reference/delivery-types', '/api/store/products']));
  // A full-rights key: orders, customers, the store, every reference book served, users, telephony, delivery, payment.
  expect(credentials).toEqual(
    expect.arrayContaining([
      '/api/orders', '/api/orders/create', '/api/orders/{externalId}/edit', '/api/customers', '/api/customers/create',
      '/api/store/inventories', '/api/store/offers', '/api/users', '/api/reference/sites', '/api/reference/stores', '/api/reference/statuses',
      '/api/reference/status-groups', '/api/reference/order-methods', '/api/reference/order-types', '/api/reference/countries',
      '/api/telephony/calls/upload', '/api/telephony/call/event', '/api/telephony/manager', '/api/delivery/generic/{subcode}/tracking',
      '/api/payment/update-invoice', '/api/payment/check',
    ]),
  );
  // Method paths as the platform lists them: without the API version, each once.
  expect(credentials.filter((c) => !/^\/api\/[a-z]/.test(c) || /^\/api\/v\d/.test(c))).toEqual([]);
  expect(new Set(credentials).size).toBe(credentials.length);
});

test('GET /api/system-info answers {success, systemVersion, publicUrl, technicalUrl} under the API key rules', async () => {
  const info = await get('/api/system-info');
  expect(info).toEqual({ status: 200, body: { success: true, systemVersion: expect.stringMatching(/^\d+\.\d+/), publicUrl: sim.url(), technicalUrl: sim.url() } });
  expect((await get(`/api/system-info?apiKey=${API_KEY}`, {})).status).toBe(200);
  expect(await get('/api/system-info', { 'x-api-key': 'wrong-key-0000' })).toEqual({ status: 403, body: { success: false, errorMsg: expect.any(String) } });
  expect(await get('/api/system-info', {})).toEqual({ status: 401, body: { success: false, errorMsg: expect.any(String) } });
  // A call the suite simulates: recorded as such, never as an unsimulated path.
  expect(sim.unsimulated).toEqual([]);
  expect(log.all().map((x) => x.label)).toEqual(['system-info', 'system-info', 'system-info', 'system-info']);
});

test('the reference books are small, consistent and drawn from the account; the delivery type of a registration appears', async () => {
  const sites = await get('/api/v5/reference/sites');
  expect(Object.keys(sites.body.sites)).toEqual(sim.account.sites.map((s) => s.code));
  const stores = await get('/api/v5/reference/stores');
  expect(stores.body.stores.map((s: { code: string }) => s.code)).toEqual(sim.account.stores.map((s) => s.code));
  const payments = await get('/api/v5/reference/payment-types');
  expect(Object.values(payments.body.paymentTypes as Record<string, { code: string; active: boolean }>).every((p) => typeof p.active === 'boolean')).toBe(true);
  const statuses = await get('/api/v5/reference/statuses');
  expect(Object.values(statuses.body.statuses as Record<string, { group: string }>).every((s) => typeof s.group === 'string')).toBe(true);
  for (const book of ['status-groups', 'order-methods', 'order-types', 'countries']) expect((await get(`/api/v5/reference/${book}`)).body.success).toBe(true);
  expect((await get('/api/v5/users')).body.users).toHaveLength(sim.account.users.length);

  await send('/api/v5/integration-modules/carrier/edit', new URLSearchParams({ apiKey: API_KEY, integrationModule: module('carrier', { delivery: {} }, { name: 'Acme Carrier' }) }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  const types = await get('/api/v5/reference/delivery-types');
  expect(types.body.deliveryTypes['acme-carrier']).toMatchObject({ code: 'acme-carrier', name: 'Acme Carrier', active: false, integrationCode: 'carrier' });
  expect(Object.keys(types.body.deliveryTypes)).toEqual(expect.arrayContaining(['self-delivery', 'courier', 'acme-carrier']));
});

test('the module read holds the transport token and the bot token with isActive', async () => {
  const reg = await send(
    '/api/v5/integration-modules/chat/edit',
    new URLSearchParams({ apiKey: API_KEY, integrationModule: module('chat', { mgTransport: { webhookUrl: 'http://127.0.0.1:9/hook' }, mgBot: {} }, { active: true }) }).toString(),
    { 'content-type': 'application/x-www-form-urlencoded' },
  );
  const read = await get('/api/v5/integration-modules/chat');
  expect(read.body.integrationModule.integrations.mgTransport).toEqual({ webhookUrl: 'http://127.0.0.1:9/hook', token: reg.body.info.mgTransport.token });
  expect(read.body.integrationModule.integrations.mgBot).toEqual({ token: reg.body.info.mgBot.token, isActive: true });
});

test('any other endpoint answers HTTP 404 with the error body, is recorded and kept as unsimulated', async () => {
  const orders = await get('/api/v5/orders?limit=20');
  expect(orders).toEqual({ status: 404, body: { success: false, errorMsg: expect.any(String) } });
  const book = await get('/api/v5/reference/unknown-book');
  expect(book.status).toBe(404);
  expect(sim.unsimulated.map((x) => new URL(x.request.url!).pathname)).toEqual(['/api/v5/orders']);
  expect(log.all().map((x) => x.label)).toEqual(['unknown endpoint', 'reference']);
});

test('every store path /api/credentials lists that an official bot reads is served: GET /api/v5/store/products answers the account\'s products (issue 31, item 9)', async () => {
  const credentials = await get('/api/credentials');
  expect(credentials.body.credentials).toContain('/api/store/products');
  // retailcrm/api-client-go ProductsResponse: {success, pagination, products[]}; Product {id, name, active, offers[{id, name, price, ...}], ...}.
  const products = await get('/api/v5/store/products?limit=20&page=1');
  expect(products.status).toBe(200);
  expect(products.body).toEqual({
    success: true,
    pagination: { limit: 20, totalCount: expect.any(Number), currentPage: 1, totalPageCount: 1 },
    products: expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), name: expect.any(String), active: true, offers: [expect.objectContaining({ id: expect.any(Number), name: expect.any(String), price: expect.any(Number) })] })]),
  });
  expect(products.body.products.length).toBe(products.body.pagination.totalCount);
  expect(products.body.products.length).toBeGreaterThan(1);
  // A filter the simulator does not apply still answers the list, as for the other books; without the key, refused.
  expect((await get('/api/v5/store/products?filter[active]=1')).status).toBe(200);
  expect((await get('/api/v5/store/products', {})).body.success).toBe(false);
  expect(sim.calls.filter((c) => c.endpoint === ('store.products' as never)).length).toBe(3);
});
