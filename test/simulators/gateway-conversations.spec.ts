/**
 * What the gateway simulator keeps for webhooks to name (wire profile section 6, "What a
 * webhook's `data` names exists on the gateway"; issue 31, item 3): per channel the conversations
 * customers started through the transport's `POST /messages`, and those it starts itself; the ids
 * the transport knows in each (its messages' external ids, its `external_message_id` answers to
 * `message_sent`); and the files it holds, the module's uploads and its own, served at
 * `GET /files/{id}`, through real HTTP on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { putFile, heldFiles } from '../../src/simulators/gateway-files.ts';
import { activateChannel, call, customerMessage, OTHER_TRANSPORT, startGateway, TRANSPORT, type Gateway } from './gateway-harness.ts';

const P = '/api/transport/v1';
let g: Gateway;
test.beforeEach(async () => {
  g = await startGateway();
});
test.afterEach(() => g.stop());

test('customer messages the transport sends open and continue the conversations of their channel, with their chat, customer and message ids', async () => {
  const channel = await activateChannel(g.base);
  const other = await activateChannel(g.base);
  for (const [id, customer] of [['m-1', 'cust-1'], ['m-2', 'cust-1'], ['m-3', 'cust-2']] as const) {
    expect((await call(g.base, 'POST', `${P}/messages`, { transport: TRANSPORT, body: customerMessage(channel, id, 'Привет 👋', customer) })).status).toBe(200);
  }
  const conversations = g.gw.state.conversations.of(channel);
  expect(conversations.map((c) => ({ chat: c.external_chat_id, customer: c.customer.external_id, origin: c.origin, ids: c.transportMessages }))).toEqual([
    { chat: 'chat-cust-1', customer: 'cust-1', origin: 'transport', ids: ['m-1', 'm-2'] },
    { chat: 'chat-cust-2', customer: 'cust-2', origin: 'transport', ids: ['m-3'] },
  ]);
  expect(conversations[0]!.customer.fields).toMatchObject({ first_name: 'Ann', nickname: 'Ann' });
  // Another channel has none; a message to a channel the transport does not own opens none.
  expect(g.gw.state.conversations.of(other)).toEqual([]);
  expect((await call(g.base, 'POST', `${P}/messages`, { transport: OTHER_TRANSPORT, body: customerMessage(other, 'x-1') })).status).toBe(404);
  expect(g.gw.state.conversations.of(other)).toEqual([]);
  // A history message is the transport's too: its id is known in its chat.
  const history = { ...customerMessage(channel, 'h-1', 'old', 'cust-2'), channel_id: channel };
  delete (history as Record<string, unknown>).channel;
  expect((await call(g.base, 'POST', `${P}/messages/history`, { transport: TRANSPORT, body: history })).status).toBe(200);
  expect(g.gw.state.conversations.get(channel, 'chat-cust-2')!.transportMessages).toEqual(['m-3', 'h-1']);
});

test('the ids the transport answered message_sent with are known in their chat; a deleted message is quoted no more; a conversation the gateway starts is its own', async () => {
  let answer = 0;
  const module = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const type = (JSON.parse(body) as { type: string }).type;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(type === 'message_sent' ? { external_message_id: `tg-${++answer}` } : {}));
    });
  });
  await new Promise<void>((r) => module.listen(0, '127.0.0.1', r));
  try {
    g.gw.registerTransport({ token: TRANSPORT, clientId: 'client-transport', webhookUrl: `http://127.0.0.1:${(module.address() as AddressInfo).port}/webhook` });
    const channel = await activateChannel(g.base);
    await call(g.base, 'POST', `${P}/messages`, { transport: TRANSPORT, body: customerMessage(channel, 'm-1') });
    const data = { channel_id: channel, external_chat_id: 'chat-cust-1', external_user_id: 'cust-1', type: 'text', content: 'Здравствуйте' };
    await g.gw.sendWebhook('client-transport', 'message_sent', data);
    await g.gw.sendWebhook('client-transport', 'message_sent', data);
    const c = g.gw.state.conversations.get(channel, 'chat-cust-1')!;
    expect(g.gw.state.conversations.knownIds(c)).toEqual(['m-1', 'tg-1', 'tg-2']);
    // An answer in a chat no conversation has is not recorded (the gateway sends none there).
    await g.gw.sendWebhook('client-transport', 'message_sent', { ...data, external_chat_id: 'nowhere' });
    expect(g.gw.state.conversations.get(channel, 'nowhere')).toBeUndefined();
    await g.gw.sendWebhook('client-transport', 'message_deleted', { channel_id: channel, external_chat_id: 'chat-cust-1', external_message_id: 'tg-1' });
    expect(g.gw.state.conversations.knownIds(c)).toEqual(['m-1', 'tg-2']);
    const started = g.gw.state.conversations.start(channel, '9000000001', { external_id: '9000000001', fields: { first_name: 'Алёна' } });
    expect(started.origin).toBe('gateway');
    expect(g.gw.state.conversations.of(channel).map((x) => x.external_chat_id)).toEqual(['chat-cust-1', '9000000001']);
  } finally {
    await new Promise((r) => module.close(r));
  }
});

test('files: one the module uploaded and one the gateway put there are served at GET /files/{id} to their transport; an unknown id, or another transport\'s file, is 404', async () => {
  const uploaded = await call(g.base, 'POST', `${P}/files/upload`, { transport: TRANSPORT, raw: { type: 'image/png', data: Buffer.alloc(300, 1) } });
  expect(uploaded.status).toBe(200);
  const own = putFile(g.gw.state, TRANSPORT, 'image', 2048);
  expect(own).toMatchObject({ origin: 'gateway', mime_type: 'image/jpeg', size: 2048 });
  expect(heldFiles(g.gw.state, TRANSPORT).map((f) => [f.id, f.origin])).toEqual([
    [uploaded.json.id, 'module'],
    [own.id, 'gateway'],
  ]);
  for (const id of [uploaded.json.id as string, own.id]) {
    const got = await call(g.base, 'GET', `${P}/files/${id}`, { transport: TRANSPORT });
    expect(got.status).toBe(200);
    expect(got.json.id).toBe(id);
  }
  expect((await call(g.base, 'GET', `${P}/files/${own.id}`, { transport: OTHER_TRANSPORT })).status).toBe(404);
  const unknown = await call(g.base, 'GET', `${P}/files/00000000-0000-4000-8000-000000000000`, { transport: TRANSPORT });
  expect(unknown.status).toBe(404);
  expect(unknown.json).toEqual({ errors: [expect.stringContaining('not found')] });
});
