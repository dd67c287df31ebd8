/** The system simulator, through real HTTP on loopback. */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import type { EvidenceLog } from '../../src/evidence/exchange.ts';
import type { SystemSimulator } from '../../src/simulators/system.ts';
import { startSystem } from './system-harness.ts';

const API_KEY = 'system-test-key-0001';
let sim: SystemSimulator;
let log: EvidenceLog;

test.beforeEach(async () => {
  ({ sim, log } = await startSystem(API_KEY));
});
test.afterEach(() => sim.stop());

async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}, query = '') {
  const res = await request(`${sim.url()}${path}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
}

const module = (integrations: Record<string, unknown>, code = 'm1') => JSON.stringify({ code, clientId: 'client-1', baseUrl: 'http://127.0.0.1:9', integrations });
const edit = (code: string, integrations: Record<string, unknown>, key: Record<string, string> = { apiKey: API_KEY }) =>
  post(`/api/v5/integration-modules/${code}/edit`, { ...key, integrationModule: module(integrations, code) });

test('the API key is accepted as form field, query parameter or X-API-KEY header; a missing or wrong key is refused', async () => {
  expect((await edit('a', { telephony: {} })).status).toBe(201);
  expect((await post('/api/v5/integration-modules/b/edit', { integrationModule: module({ payment: {} }, 'b') }, {}, `?apiKey=${API_KEY}`)).status).toBe(200);
  expect((await post('/api/v5/integration-modules/c/edit', { integrationModule: module({ payment: {} }, 'c') }, { 'X-API-KEY': API_KEY })).status).toBe(200);
  const missing = await edit('d', { payment: {} }, {});
  expect(missing).toEqual({ status: 401, body: { success: false, errorMsg: expect.stringContaining('apiKey') } });
  expect((await edit('e', { payment: {} }, { apiKey: 'wrong-key-000' })).status).toBe(403);
  expect(sim.calls.map((c) => c.apiKeyVia)).toEqual([['form'], ['query'], ['header'], [], ['form']]);
  expect(sim.registrations.map((r) => r.code)).toEqual(['a', 'b', 'c']);
  // The key never appears in the evidence.
  expect(JSON.stringify(log.all())).not.toContain(API_KEY);
});

test('replies per kind: telephony 201, delivery deliveryType on creation only, transport and bot endpointUrl and token', async () => {
  const tel = await edit('tel', { telephony: {} });
  expect(tel).toEqual({ status: 201, body: { success: true } });
  const first = await edit('dlv', { delivery: {} });
  expect(first.status).toBe(200);
  expect(first.body.info.deliveryType).toEqual({ id: expect.any(Number), code: expect.any(String) });
  const again = await edit('dlv', { delivery: {} });
  expect(again.body).toEqual({ success: true });
  const chat = await edit('chat', { mgTransport: { webhookUrl: 'http://127.0.0.1:9/hook' }, mgBot: {} });
  expect(chat.body.info.mgTransport).toEqual({ endpointUrl: 'http://127.0.0.1:9/gateway', token: expect.stringMatching(/^[0-9a-f]{48}$/) });
  expect(chat.body.info.mgBot.token).not.toBe(chat.body.info.mgTransport.token);
  // Read back: the bot's token and isActive, and the fields the system adds.
  const read = await request(`${sim.url()}/api/v5/integration-modules/chat?apiKey=${API_KEY}`);
  const held = (await read.body.json()) as Record<string, any>;
  expect(held.integrationModule.integrations.mgBot).toEqual({ token: chat.body.info.mgBot.token, isActive: true });
  expect(held.integrationModule).toMatchObject({ freeze: false, native: false, availableCountries: [] });
});

test('limits: 50 calls per upload and 100 orders per tracking request, refused with an error past them', async () => {
  await edit('dlv', { delivery: {} });
  const calls = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ recordUrl: `http://127.0.0.1:9/r/${i}` })));
  expect((await post('/api/v5/telephony/calls/upload', { apiKey: API_KEY, calls: calls(50) })).body).toMatchObject({ success: true, processedCallsCount: 50 });
  expect(await post('/api/v5/telephony/calls/upload', { apiKey: API_KEY, calls: calls(51) })).toEqual({ status: 400, body: { success: false, errorMsg: expect.stringContaining('50') } });
  const orders = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ deliveryId: `D${i}` })));
  expect((await post('/api/v5/delivery/generic/dlv/tracking', { apiKey: API_KEY, statusUpdate: orders(100) })).status).toBe(200);
  expect(sim.deliveries.size).toBe(100);
  expect(await post('/api/v5/delivery/generic/dlv/tracking', { apiKey: API_KEY, statusUpdate: orders(101) })).toEqual({ status: 400, body: { success: false, errorMsg: expect.stringContaining('100') } });
  expect((await post('/api/v5/delivery/generic/unknown/tracking', { apiKey: API_KEY, statusUpdate: orders(1) })).status).toBe(404);
});

test('every inbound call is decoded and validated against its schema, and kept as evidence', async () => {
  await post('/api/v5/telephony/call/event', { apiKey: API_KEY, event: JSON.stringify({ phone: '+15550100', type: 'in', codes: [101] }) });
  await post('/api/v5/telephony/call/event', { apiKey: API_KEY, event: '{not json' });
  const [ok, broken] = sim.calls;
  expect(ok!.endpoint).toBe('call.event');
  expect(ok!.schemaErrors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/codes/0 type']);
  expect(broken!.decodeError).toMatch(/event is not JSON/);
  expect(broken!.accepted).toBe(false);
  expect(log.get(ok!.exchange.id)!.response!.status).toBe(200);
});

test('payment: update-invoice follows the invoice table; check answers honestly', async () => {
  const report = (body: Record<string, unknown>) => post('/api/v5/payment/update-invoice', { apiKey: API_KEY, updateInvoice: JSON.stringify(body) });
  sim.issueInvoice({ invoiceUuid: 'inv-1', amount: 10, currency: 'EUR' });
  sim.invoices.created('inv-1', true, 'pay-1');
  expect((await report({ invoiceUuid: 'inv-1', status: 'pending' })).status).toBe(200);
  // Funds held need a passed check first (the table's condition).
  sim.invoices.notified('pay-1', 'held');
  const early = await report({ invoiceUuid: 'inv-1', status: 'waitingForCapture' });
  expect(early.status).toBe(400);
  expect(early.body.errorMsg).toMatch(/without a payment\/check/);
  const same = await post('/api/v5/payment/check', { apiKey: API_KEY, check: JSON.stringify({ invoiceUuid: 'inv-1', amount: 10, currency: 'EUR' }) });
  expect(same.body).toEqual({ success: true, result: { success: true } });
  expect((await report({ paymentId: 'pay-1', status: 'waitingForCapture' })).status).toBe(200);
  // refundSucceeded only after an acknowledged refund of a succeeded invoice.
  expect((await report({ invoiceUuid: 'inv-1', status: 'refundSucceeded' })).status).toBe(400);
  sim.invoices.sending('pay-1', 'approve')(true);
  expect((await report({ invoiceUuid: 'inv-1', status: 'succeeded' })).status).toBe(200);
  expect(sim.invoices.get('inv-1')!.state).toBe('succeeded');
  expect(sim.invoices.get('inv-1')!.reports.map((r) => [r.status, r.accepted])).toEqual([['pending', true], ['waitingForCapture', false], ['waitingForCapture', true], ['refundSucceeded', false], ['succeeded', true]]);
  const other = await post('/api/v5/payment/check', { apiKey: API_KEY, check: JSON.stringify({ invoiceUuid: 'inv-1', amount: 11, currency: 'EUR' }) });
  expect(other.body.result.success).toBe(false);
  const unknown = await post('/api/v5/payment/check', { apiKey: API_KEY, check: JSON.stringify({ invoiceUuid: 'inv-404', amount: 10, currency: 'EUR' }) });
  expect(unknown.body.result).toEqual({ success: false, errorMsg: 'invoice "inv-404" not found' });
  expect((await report({ invoiceUuid: 'inv-404', status: 'pending' })).status).toBe(404);
});

test('an unknown endpoint is refused and recorded as such', async () => {
  const res = await post('/api/v5/integration-modules/x/publish', { apiKey: API_KEY });
  expect(res.status).toBe(404);
  expect(log.all().at(-1)!.label).toBe('unknown endpoint');
});

test('a known endpoint under another API version: the legacy v4 is served (and recorded as v4), an unknown version answers 404', async () => {
  const v4 = await post('/api/v4/integration-modules/x/edit', { apiKey: API_KEY, integrationModule: JSON.stringify({ code: 'x', clientId: 'c', integrations: { payment: {} } }) });
  expect(v4).toEqual({ status: 200, body: { success: true, code: 'x' } });
  expect(sim.registrations.map((r) => r.code)).toEqual(['x']);
  const v9 = await post('/api/v9/integration-modules/y/edit', { apiKey: API_KEY, integrationModule: JSON.stringify({ code: 'y', integrations: { payment: {} } }) });
  expect(v9.status).toBe(404);
  expect(sim.calls.map((c) => [c.endpoint, c.version, c.accepted])).toEqual([['edit', 'v4', true], ['edit', 'v9', false]]);
  expect(sim.calls[0]!.apiKeyValid).toBe(true);
});
