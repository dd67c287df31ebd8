/**
 * The reference module is multi-account: besides the account of its environment, test hook
 * `registration.connect` connects another system (its URL and API key), as a user does on the
 * module's settings page. The new account registers with that system under a clientId of its
 * own, opens its gateway connections from that registration's answer, and every callback,
 * webhook and trigger is answered by the account of the clientId it carries: the module's own
 * calls for it go to its system only.
 */
import { test, expect } from '@playwright/test';
import { FakeGateway, FakeSystem, postCallback, postWebhook, startModule, until, type RunningModule } from './harness.ts';

test.describe('a second account, connected by registration.connect', () => {
  test.describe.configure({ mode: 'serial' });
  let m: RunningModule;
  let gateway: FakeGateway;
  let system: FakeSystem;
  let clientId = '';
  let registration: Record<string, unknown> = {};
  const hook = async (name: string, params: unknown, account?: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${m.url}/dev/triggers/${name}${account ? `?clientId=${account}` : ''}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const state = async (account?: string): Promise<Record<string, unknown>> => (await (await fetch(`${m.url}/dev/state${account ? `?clientId=${account}` : ''}`)).json()) as Record<string, unknown>;

  test.beforeAll(async () => {
    m = await startModule();
    await m.registration();
    gateway = await new FakeGateway().start();
    system = await new FakeSystem('second-account-key', () => gateway.url).start();
  });

  test.afterAll(async () => {
    if (m?.child.exitCode === null) await m.stop();
    await system?.stop();
    await gateway?.stop();
  });

  test('connecting registers with that system, under a clientId of its own, and opens that gateway', async () => {
    expect((await hook('registration.connect', { systemUrl: 'ftp://x', apiKey: 'k' })).status).toBe(400);
    expect((await hook('registration.connect', { systemUrl: system.url })).status).toBe(400);
    const connected = await hook('registration.connect', { systemUrl: system.url, apiKey: 'second-account-key' });
    expect(connected.body).toMatchObject({ success: true });
    expect(system.edits()).toHaveLength(1);
    expect(system.edits()[0]!.form.get('apiKey')).toBe('second-account-key');
    registration = JSON.parse(system.edits()[0]!.form.get('integrationModule')!) as Record<string, unknown>;
    clientId = String(registration.clientId);
    expect(clientId).not.toBe(m.clientId);
    expect(registration.baseUrl).toBe(m.url);
    await until('the second account\'s channel and bot socket', () => gateway.find('POST', '/api/transport/v1/channels').length === 1 && gateway.sockets.length === 1);
    // The first account's system saw nothing of it.
    expect(m.system.edits()).toHaveLength(1);
    // Connected again with the same system and key: registered again, not a third account.
    expect((await hook('registration.connect', { systemUrl: system.url, apiKey: 'second-account-key' })).body).toMatchObject({ success: true });
    expect(system.edits().map((e) => (JSON.parse(e.form.get('integrationModule')!) as { clientId: string }).clientId)).toEqual([clientId, clientId]);
  });

  test('each callback acts for the account of its clientId, and the module reports to that account\'s system only', async () => {
    const updates = (s: FakeSystem): string[] => s.find('POST', '/api/v5/payment/update-invoice').map((r) => (JSON.parse(r.form.get('updateInvoice')!) as { status: string }).status);
    const firstBefore = m.system.requests.length;
    const created = (await (await postCallback(`${m.url}/payment/create`, clientId, 'create', { invoiceUuid: 'inv-second', amount: 10, currency: 'EUR', invoiceType: 'link', shopId: 'main' })).json()) as { result: { paymentId: string } };
    const paymentId = created.result.paymentId;
    await until('the pending report to the second system', () => updates(system).includes('pending'));
    expect((await hook('payment.notify', { paymentId, event: 'paid' }, clientId)).body).toMatchObject({ success: true });
    expect(updates(system)).toEqual(['pending', 'succeeded']);
    expect(system.find('POST', '/api/v5/payment/update-invoice').every((r) => r.form.get('apiKey') === 'second-account-key')).toBe(true);
    // The first account knows nothing of it: its state, its system and its triggers.
    expect(m.system.requests.length).toBe(firstBefore);
    expect((await state(clientId)).invoices).toHaveLength(1);
    expect((await state()).invoices).toHaveLength(0);
    expect((await hook('payment.notify', { paymentId, event: 'paid' })).status).toBe(404);
    // The first account's own clientId still reaches the first account.
    const first = (await (await postCallback(`${m.url}/payment/create`, m.clientId, 'create', { invoiceUuid: 'inv-first', amount: 5, currency: 'EUR', invoiceType: 'link', shopId: 'main' })).json()) as { success: boolean };
    expect(first.success).toBe(true);
    await until('the first account\'s report to its own system', () => updates(m.system).includes('pending'));
    expect(updates(system)).toEqual(['pending', 'succeeded']);
    // An unknown clientId is refused, as by a module of one account.
    expect((await postCallback(`${m.url}/payment/create`, 'nobody', 'create', { invoiceUuid: 'inv-x', amount: 5, currency: 'EUR', invoiceType: 'link', shopId: 'main' })).status).toBe(403);
  });

  test('webhooks are answered by the account of their ClientId header', async () => {
    const own = await postWebhook(registration, 'message_sent', { external_user_id: 'u1', channel_id: 7, type: 'text', content: 'hello', external_chat_id: 'c1' }, clientId);
    expect(own.status).toBe(200);
    expect((await postWebhook(registration, 'message_sent', { external_user_id: 'u1', channel_id: 7, type: 'text', content: 'hello' }, 'nobody')).status).toBe(403);
    expect((await state(clientId)).sentMessages).toBe(1);
    expect((await state()).sentMessages).toBe(0);
  });
});
