/**
 * The Transport API of the gateway simulator, method by method: the status and the reply fields
 * the official transport clients decode (`retailcrm/mg-transport-api-client-go` v1,
 * `retailcrm/transport-api-client-go`), through real HTTP on loopback.
 */
import { test, expect } from '@playwright/test';
import { TRANSPORT_ROUTES } from '../../src/simulators/gateway-transport-api.ts';
import { activateChannel, BOT, call, channelBody, customerMessage, OTHER_TRANSPORT, startGateway, time, TRANSPORT, UUID, type Gateway } from './gateway-harness.ts';

const P = '/api/transport/v1';
let g: Gateway;
test.beforeEach(async () => {
  g = await startGateway();
});
test.afterEach(() => g.stop());

/** A path of a route with its parameters filled in. */
const concrete = (path: string) => path.replace('{id}', '1').replace('{channel_id}', '1').replace('{code}', 'c');

test('every Transport API method refuses a missing, unknown or bot token with 401 and the errors body', async () => {
  for (const [label, def] of Object.entries(TRANSPORT_ROUTES)) {
    for (const token of [undefined, 'unknown-token', BOT]) {
      const res = await call(g.base, def.method, `${P}${concrete(def.path)}`, { ...(token === undefined ? {} : { transport: token }), ...(def.body === 'json' ? { body: {} } : {}) });
      expect(res.status, `${label} with ${token ?? 'no token'}`).toBe(401);
      expect(res.json).toEqual({ errors: [expect.any(String)] });
    }
  }
  expect(g.gw.calls.every((c) => c.status === 401 && c.tokenKind === undefined)).toBe(true);
  expect(new Set(g.gw.calls.map((c) => c.route)).size).toBe(Object.keys(TRANSPORT_ROUTES).length);
});

test('channels: list, activate 201 {id, external_id, activated_at}, update {id, updated_at}, deactivate {id, deactivated_at}', async () => {
  // Activation answers 201 (the official transport retailcrm/mg-transport-telegram takes anything else as a failure).
  const activated = await call(g.base, 'POST', `${P}/channels`, { transport: TRANSPORT, body: channelBody });
  expect(activated.status).toBe(201);
  expect(activated.type).toContain('json');
  expect(activated.json).toEqual({ id: expect.any(Number), external_id: 'ext-1', activated_at: time });
  const id = activated.json.id as number;

  const list = await call(g.base, 'GET', `${P}/channels?active=1&types=whatsapp`, { transport: TRANSPORT });
  expect(list.status).toBe(200);
  expect(list.json).toEqual([
    { id, type: 'whatsapp', name: 'Shop WhatsApp', external_id: 'ext-1', settings: channelBody.settings, created_at: time, updated_at: null, activated_at: time, deactivated_at: null, is_active: true },
  ]);
  expect((await call(g.base, 'GET', `${P}/channels?types=telegram`, { transport: TRANSPORT })).json).toEqual([]);

  const updated = await call(g.base, 'PUT', `${P}/channels/${id}`, { transport: TRANSPORT, body: { id, ...channelBody, name: 'Renamed' } });
  expect(updated).toMatchObject({ status: 200, json: { id, updated_at: time } });
  expect(g.gw.channels.get(id)?.name).toBe('Renamed');

  const deactivated = await call(g.base, 'DELETE', `${P}/channels/${id}`, { transport: TRANSPORT });
  expect(deactivated).toMatchObject({ status: 200, json: { id, deactivated_at: time } });
  expect((await call(g.base, 'GET', `${P}/channels?active=0`, { transport: TRANSPORT })).json).toEqual([expect.objectContaining({ id, is_active: false, deactivated_at: time })]);
  expect((await call(g.base, 'GET', `${P}/channels?active=1`, { transport: TRANSPORT })).json).toEqual([]);

  // Activating with the id of a deactivated channel of the transport activates it again.
  const again = await call(g.base, 'POST', `${P}/channels`, { transport: TRANSPORT, body: { id, ...channelBody } });
  expect(again).toMatchObject({ status: 201, json: { id, external_id: 'ext-1', activated_at: time } });
  expect(Object.keys(again.json).sort()).toEqual(['activated_at', 'external_id', 'id']);
  expect(g.gw.channels.get(id)).toMatchObject({ is_active: true });
  expect(g.gw.channels.get(id)?.deactivated_at).toBeUndefined();
  expect((await call(g.base, 'DELETE', `${P}/channels/${id}`, { transport: OTHER_TRANSPORT })).status).toBe(404);
});

test('a channel of the wrong shape or bad JSON is refused with 400 and the errors body, on activation and on update', async () => {
  const id = await activateChannel(g.base);
  const before = structuredClone(g.gw.channels.get(id));
  const count = g.gw.channels.size;
  const wrongShape = { type: 5, settings: 'nope' };
  const badJson = { type: 'application/json', data: '{"type": "telegram", ' };
  for (const [method, path] of [['POST', `${P}/channels`], ['PUT', `${P}/channels/${id}`]] as const) {
    const shape = await call(g.base, method, path, { transport: TRANSPORT, body: wrongShape });
    expect(shape, `${method} wrong shape`).toMatchObject({ status: 400, json: { errors: expect.arrayContaining([expect.stringContaining('type'), expect.stringContaining('settings')]) } });
    expect(Object.keys(shape.json)).toEqual(['errors']);
    const json = await call(g.base, method, path, { transport: TRANSPORT, raw: badJson });
    expect(json, `${method} bad JSON`).toMatchObject({ status: 400, json: { errors: [expect.any(String)] } });
    expect(Object.keys(json.json)).toEqual(['errors']);
    // Wrong types deeper in the channel, as the official clients type it (retailcrm/transport-api-client-go Channel).
    for (const body of [
      { type: 'telegram', external_id: 42 },
      { type: 'telegram', name: ['a'] },
      { type: 'telegram', avatar_url: false },
      { type: 'telegram', settings: { template: { creation: 'yes' } } },
      { type: 'telegram', settings: { sending_policy: 'template' } },
      { type: 'telegram', settings: { text: { creating: true } } },
      { type: 'telegram', settings: { text: { max_chars_count: 'many' } } },
      { type: 'telegram', settings: { reactions: { dictionary: 'x' } } },
      { type: 'telegram', settings: [] },
    ]) {
      const deep = await call(g.base, method, path, { transport: TRANSPORT, body });
      expect(deep.status, `${method} ${JSON.stringify(body)}`).toBe(400);
      expect(deep.json).toEqual({ errors: [expect.any(String)] });
    }
  }
  expect((await call(g.base, 'POST', `${P}/channels`, { transport: TRANSPORT, body: { id: 'seven', type: 'telegram' } })).status).toBe(400);
  // Nothing was activated or changed by a refused call; each was recorded with its status.
  expect(g.gw.channels.size).toBe(count);
  expect(g.gw.channels.get(id)).toEqual(before);
  const refused = g.gw.calls.filter((c) => c.status === 400);
  expect(refused.length).toBe(2 * 11 + 1);
  expect(new Set(refused.map((c) => c.route))).toEqual(new Set(['transport.channel.activate', 'transport.channel.update']));
  expect(refused.every((c) => !c.accepted)).toBe(true);
});

test('a channel is judged as tolerantly as the real gateway: unknown fields, absent optional fields and null are accepted', async () => {
  const extra = await call(g.base, 'POST', `${P}/channels`, {
    transport: TRANSPORT,
    body: { type: 'telegram', external_id: 'ext-2', avatar_url: 'https://example.com/a.png', future: { x: 1 }, settings: { future_feature: 'both', text: { creating: 'both', max_chars_count: 4096, future: 1 }, sending_policy: { new_customer: 'sometimes' }, template: { creation: true } } },
  });
  expect(extra).toMatchObject({ status: 201, json: { id: expect.any(Number), external_id: 'ext-2', activated_at: time } });
  // JSON null in an optional field means the field is absent (wire profile section 9).
  const nulls = await call(g.base, 'POST', `${P}/channels`, { transport: TRANSPORT, body: { type: 'custom', name: null, external_id: null, settings: { text: null, template: { creation: null } } } });
  expect(nulls.status).toBe(201);
  const minimal = await call(g.base, 'POST', `${P}/channels`, { transport: TRANSPORT, body: { type: 'custom' } });
  expect(minimal.status).toBe(201);
  expect(g.gw.channels.get(minimal.json.id)?.settings).toEqual({});
  const id = extra.json.id as number;
  expect(await call(g.base, 'PUT', `${P}/channels/${id}`, { transport: TRANSPORT, body: { name: 'Renamed', unknown: [1, 2] } })).toMatchObject({ status: 200, json: { id, updated_at: time } });
  expect(g.gw.channels.get(id)).toMatchObject({ name: 'Renamed', type: 'telegram', external_id: 'ext-2' });
  expect((await call(g.base, 'PUT', `${P}/channels/${id}`, { transport: TRANSPORT, body: {} })).status).toBe(200);
});

test('templates: create, update and delete answer 200 {}; the list is an array with id, code, channel_id and state', async () => {
  const channel = await activateChannel(g.base);
  const template = { code: 'tpl_1', name: 'Welcome', type: 'text', body: 'Hi {{1}}', lang: 'en', verification_status: 'pending' };
  expect(await call(g.base, 'POST', `${P}/channels/${channel}/templates`, { transport: TRANSPORT, body: template })).toMatchObject({ status: 200, json: {} });
  expect(await call(g.base, 'PUT', `${P}/channels/${channel}/templates/tpl_1`, { transport: TRANSPORT, body: { name: 'Welcome', body: 'Hi {{1}}', verification_status: 'approved' } })).toMatchObject({ status: 200, json: {} });
  const list = await call(g.base, 'GET', `${P}/templates`, { transport: TRANSPORT });
  expect(list.status).toBe(200);
  expect(list.json).toEqual([expect.objectContaining({ id: expect.any(Number), code: 'tpl_1', channel_id: channel, name: 'Welcome', type: 'text', enabled: true, verification_status: 'approved' })]);
  expect((await call(g.base, 'GET', `${P}/templates`, { transport: OTHER_TRANSPORT })).json).toEqual([]);
  expect(await call(g.base, 'DELETE', `${P}/channels/${channel}/templates/tpl_1`, { transport: TRANSPORT })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/templates`, { transport: TRANSPORT })).json).toEqual([]);
});

test('messages: send and history {message_id, time}; edit by external_id or id; delete answers both shapes; restore the message', async () => {
  const channel = await activateChannel(g.base);
  const sent = await call(g.base, 'POST', `${P}/messages`, { transport: TRANSPORT, body: customerMessage(channel, 'm1') });
  expect(sent).toMatchObject({ status: 200, json: { message_id: expect.any(Number), time } });
  const id = sent.json.message_id as number;

  const history = await call(g.base, 'POST', `${P}/messages/history`, {
    transport: TRANSPORT,
    body: { channel_id: channel, external_chat_id: 'chat-cust-1', customer: { external_id: 'cust-1', nickname: 'Ann' }, message: { external_id: 'h1', type: 'text', text: 'earlier', created_at: '2024-01-01T10:00:00Z' } },
  });
  expect(history).toMatchObject({ status: 200, json: { message_id: expect.any(Number), time } });
  expect(g.gw.messages.get(history.json.message_id)).toMatchObject({ history: true, chatId: g.gw.messages.get(id)?.chatId });

  const byExternal = await call(g.base, 'PUT', `${P}/messages`, { transport: TRANSPORT, body: { channel, message: { external_id: 'm1', text: 'edited' } } });
  expect(byExternal).toMatchObject({ status: 200, json: { message_id: id, time } });
  const byId = await call(g.base, 'PUT', `${P}/messages`, { transport: TRANSPORT, body: { channel, message: { id, text: 'edited twice' } } });
  expect(byId).toMatchObject({ status: 200, json: { message_id: id } });
  expect((g.gw.messages.get(id)?.body.message as { text: string }).text).toBe('edited twice');
  expect((await call(g.base, 'PUT', `${P}/messages`, { transport: TRANSPORT, body: { channel, message: { external_id: 'nope', text: 'x' } } })).status).toBe(404);

  const deleted = await call(g.base, 'DELETE', `${P}/messages`, { transport: TRANSPORT, body: { channel, message: { external_id: 'm1' } } });
  expect(deleted.status).toBe(200);
  // The older client decodes {message_id, time}, the newer one a message.
  expect(deleted.json).toMatchObject({ message_id: id, time, id, chat_id: expect.any(Number), type: 'text', scope: 'public', status: 'received', is_read: false, is_edit: true, content: 'edited twice' });
  expect(deleted.json.from).toMatchObject({ id: expect.any(Number), external_id: 'cust-1', type: 'customer', name: 'Ann' });
  expect(g.gw.messages.get(id)?.deletedAt).toEqual(time);

  const restored = await call(g.base, 'POST', `${P}/messages/restore`, { transport: TRANSPORT, body: { channel_id: channel, message: { external_id: 'm1' } } });
  expect(restored).toMatchObject({ status: 200, json: { id, time, type: 'text', chat_id: expect.any(Number) } });
  expect(g.gw.messages.get(id)?.deletedAt).toBeUndefined();
  expect((await call(g.base, 'POST', `${P}/messages/restore`, { transport: TRANSPORT, body: { channel_id: channel, message: { id: 99999 } } })).status).toBe(404);
  // A channel the transport does not own.
  expect((await call(g.base, 'POST', `${P}/messages`, { transport: OTHER_TRANSPORT, body: customerMessage(channel, 'm9') })).status).toBe(404);
});

test('ack, read and reactions answer 200 {}; read_until answers {ids} of what the customer was sent', async () => {
  const channel = await activateChannel(g.base);
  const sent = await call(g.base, 'POST', `${P}/messages`, { transport: TRANSPORT, body: customerMessage(channel, 'm1') });
  const chatId = g.gw.messages.get(sent.json.message_id)!.chatId!;
  const botReply = await call(g.base, 'POST', '/api/bot/v1/messages', { bot: BOT, body: { chat_id: chatId, scope: 'public', type: 'text', content: 'hi Ann' } });

  expect(await call(g.base, 'POST', `${P}/messages/ack`, { transport: TRANSPORT, body: { channel, external_message_id: 'prov-1', message: { id: botReply.json.message_id } } })).toMatchObject({ status: 200, json: {} });
  expect(await call(g.base, 'POST', `${P}/messages/read`, { transport: TRANSPORT, body: { channel_id: channel, message: { external_id: 'm1' } } })).toMatchObject({ status: 200, json: {} });
  expect(g.gw.messages.get(sent.json.message_id)?.readAt).toEqual(time);

  const readUntil = await call(g.base, 'POST', `${P}/messages/read_until`, { transport: TRANSPORT, body: { channel_id: channel, customer_external_id: 'cust-1', until: new Date(Date.now() + 1000).toISOString() } });
  expect(readUntil).toEqual({ status: 200, json: { ids: [botReply.json.message_id] }, type: expect.stringContaining('json') });
  expect((await call(g.base, 'POST', `${P}/messages/read_until`, { transport: TRANSPORT, body: { channel_id: channel, customer_external_id: 'cust-1', until: new Date().toISOString() } })).json).toEqual({ ids: [] });

  expect(await call(g.base, 'POST', `${P}/messages/reaction`, { transport: TRANSPORT, body: { channel, message: { external_id: 'm1' }, reaction: '👍' } })).toMatchObject({ status: 200, json: {} });
  expect(g.gw.messages.get(sent.json.message_id)?.reactions).toEqual(['👍']);
  expect(await call(g.base, 'DELETE', `${P}/messages/reaction`, { transport: TRANSPORT, body: { channel, message: { external_id: 'm1' }, reaction: '👍' } })).toMatchObject({ status: 200, json: {} });
  expect(g.gw.messages.get(sent.json.message_id)?.reactions).toEqual([]);
  expect((await call(g.base, 'POST', `${P}/messages/ack`, { transport: TRANSPORT, body: { channel: 4242, external_message_id: 'x' } })).status).toBe(404);
});

test('files: upload (raw or multipart) and upload_by_url answer the file with a UUID; get answers {id, type, size, url}', async () => {
  const raw = await call(g.base, 'POST', `${P}/files/upload`, { transport: TRANSPORT, raw: { type: 'application/pdf', data: Buffer.alloc(25) } });
  expect(raw.status).toBe(200);
  expect(raw.json).toEqual({ id: expect.stringMatching(UUID), hash: expect.any(String), type: 'file', meta: {}, mime_type: 'application/pdf', size: 25, source_url: null, created_at: time });

  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(7)], { type: 'image/png' }), 'pic.png');
  const multipart = await call(g.base, 'POST', `${P}/files/upload`, { transport: TRANSPORT, raw: { type: 'multipart/form-data', data: form } });
  expect(multipart).toMatchObject({ status: 200, json: { id: expect.stringMatching(UUID), type: 'image', size: 7, mime_type: 'image/png' } });

  const byUrl = await call(g.base, 'POST', `${P}/files/upload_by_url`, { transport: TRANSPORT, body: { url: 'https://example.com/a.jpg' } });
  expect(byUrl).toMatchObject({ status: 200, json: { id: expect.stringMatching(UUID), source_url: 'https://example.com/a.jpg', created_at: time } });
  expect((await call(g.base, 'POST', `${P}/files/upload_by_url`, { transport: TRANSPORT, body: {} })).status).toBe(400);

  const got = await call(g.base, 'GET', `${P}/files/${multipart.json.id}`, { transport: TRANSPORT });
  expect(got).toMatchObject({ status: 200, json: { id: multipart.json.id, type: 'image', size: 7, url: expect.stringContaining(multipart.json.id), mime_type: 'image/png' } });
  expect((await call(g.base, 'GET', `${P}/files/${multipart.json.id}`, { transport: OTHER_TRANSPORT })).status).toBe(404);
});

test('an unknown path answers 404 and a wrong method 405, both with the errors body, and both are recorded', async () => {
  const unknown = await call(g.base, 'POST', `${P}/messages/forward`, { transport: TRANSPORT, body: {} });
  expect(unknown).toMatchObject({ status: 404, json: { errors: [expect.stringContaining('no endpoint')] } });
  const wrongMethod = await call(g.base, 'PATCH', `${P}/messages`, { transport: TRANSPORT, body: {} });
  expect(wrongMethod).toMatchObject({ status: 405, json: { errors: [expect.stringContaining('not allowed')] } });
  const recorded = g.log.all().filter((x) => x.label === 'unknown endpoint');
  expect(recorded.map((x) => [x.request.method, x.response?.status])).toEqual([
    ['POST', 404],
    ['PATCH', 405],
  ]);
});
