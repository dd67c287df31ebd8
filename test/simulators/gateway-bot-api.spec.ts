/**
 * The Bot API of the gateway simulator, method by method: the status and the reply fields the
 * official bot clients decode (`retailcrm/mg-bot-api-client-go` v1, `retailcrm/bot-api-client-go`),
 * and that what the bot sees is what the transports and bots did. Real HTTP on loopback.
 */
import { test, expect } from '@playwright/test';
import { BOT_ROUTES } from '../../src/simulators/gateway-bot-api.ts';
import { activateChannel, BOT, call, channelBody, customerMessage, OTHER_BOT, startGateway, time, TRANSPORT, UUID, type Gateway } from './gateway-harness.ts';

const P = '/api/bot/v1';
let g: Gateway;
test.beforeEach(async () => {
  g = await startGateway();
});
test.afterEach(() => g.stop());

const concrete = (path: string) => path.replace(/\{[a-z_]+\}/g, '1');

/** A channel with a customer's message in it: the chat, its dialog and the message. */
async function customerChat(text = 'hello'): Promise<{ channel: number; chatId: number; dialogId: number; messageId: number }> {
  const channel = await activateChannel(g.base);
  const sent = await call(g.base, 'POST', '/api/transport/v1/messages', { transport: TRANSPORT, body: customerMessage(channel, 'm1', text) });
  const msg = g.gw.messages.get(sent.json.message_id)!;
  return { channel, chatId: msg.chatId!, dialogId: msg.dialogId!, messageId: msg.id };
}

test('every Bot API method refuses a missing, unknown or transport token with 401 and the errors body', async () => {
  for (const [label, def] of Object.entries(BOT_ROUTES)) {
    for (const token of [undefined, 'unknown-token', TRANSPORT]) {
      const res = await call(g.base, def.method, `${P}${concrete(def.path)}`, { ...(token === undefined ? {} : { bot: token }), ...(def.body === 'json' ? { body: {} } : {}) });
      expect(res.status, `${label} with ${token ?? 'no token'}`).toBe(401);
      expect(res.json).toEqual({ errors: [expect.any(String)] });
    }
  }
  expect(new Set(g.gw.calls.map((c) => c.route)).size).toBe(Object.keys(BOT_ROUTES).length);
});

test('on a fresh gateway every list answers 200 with an empty JSON array (bots list the registered bots)', async () => {
  for (const path of ['/channels', '/chats', '/customers', '/dialogs', '/members', '/messages', '/my/commands', '/users']) {
    const res = await call(g.base, 'GET', `${P}${path}`, { bot: BOT });
    expect(res, path).toMatchObject({ status: 200, json: [] });
    expect(res.type).toContain('application/json');
  }
  const bots = await call(g.base, 'GET', `${P}/bots`, { bot: BOT });
  expect(bots.json).toEqual([
    { id: expect.any(Number), name: expect.any(String), client_id: 'client-bot', roles: expect.any(Array), is_active: true, is_self: true, is_system: false, created_at: time, updated_at: null, deactivated_at: null },
    expect.objectContaining({ client_id: 'client-bot-other', is_self: false }),
  ]);
  expect((await call(g.base, 'GET', `${P}/bots?self=1`, { bot: BOT })).json).toEqual([expect.objectContaining({ client_id: 'client-bot', is_self: true })]);
});

test('PATCH /my/info answers {} and the bot list shows the new name, avatar and roles', async () => {
  expect(await call(g.base, 'PATCH', `${P}/my/info`, { bot: BOT, body: { name: 'Helper', avatar_url: 'https://example.com/a.png', roles: ['distributor'] } })).toMatchObject({ status: 200, json: {} });
  const [self] = (await call(g.base, 'GET', `${P}/bots?self=true`, { bot: BOT })).json;
  expect(self).toMatchObject({ name: 'Helper', avatar_url: 'https://example.com/a.png', roles: ['distributor'], updated_at: time });
});

test('a channel activated by a transport is in the bot channel list, with its settings and state', async () => {
  const channel = await activateChannel(g.base);
  const list = await call(g.base, 'GET', `${P}/channels`, { bot: BOT });
  expect(list).toMatchObject({ status: 200 });
  expect(list.json).toEqual([{ id: channel, type: 'whatsapp', name: 'Shop WhatsApp', external_id: 'ext-1', settings: channelBody.settings, created_at: time, updated_at: null, activated_at: time, deactivated_at: null, is_active: true }]);
  await call(g.base, 'DELETE', `/api/transport/v1/channels/${channel}`, { transport: TRANSPORT });
  expect((await call(g.base, 'GET', `${P}/channels?active=1`, { bot: BOT })).json).toEqual([]);
  expect((await call(g.base, 'GET', `${P}/channels?active=0&types=whatsapp`, { bot: BOT })).json).toEqual([expect.objectContaining({ id: channel, is_active: false })]);
});

test("a customer's message makes its customer, chat, dialog and message visible to the bot", async () => {
  const { channel, chatId, dialogId, messageId } = await customerChat();
  const customers = await call(g.base, 'GET', `${P}/customers?channel_id=${channel}`, { bot: BOT });
  expect(customers.json).toEqual([
    { id: expect.any(Number), channel_id: channel, external_id: 'cust-1', username: 'Ann', first_name: 'Ann', last_name: 'Lee', utm: { source: 'ads' }, is_blocked: false, created_at: time, updated_at: null, revoked_at: null },
  ]);
  const chats = await call(g.base, 'GET', `${P}/chats?channel_id=${channel}`, { bot: BOT });
  expect(chats.json).toEqual([
    expect.objectContaining({
      id: chatId,
      name: 'Ann',
      channel: expect.objectContaining({ id: channel, transport_id: expect.any(Number), type: 'whatsapp', is_active: true }),
      customer: expect.objectContaining({ id: customers.json[0].id, external_id: 'cust-1', type: 'customer', name: 'Ann' }),
      last_message: expect.objectContaining({ id: messageId, content: 'hello' }),
      last_user_message: { id: messageId },
      last_dialog: expect.objectContaining({ id: dialogId, begin_message_id: messageId, closed_at: null, created_at: time }),
      last_activity: time,
      created_at: time,
    }),
  ]);
  const dialogs = await call(g.base, 'GET', `${P}/dialogs?chat_id=${chatId}&active=1`, { bot: BOT });
  expect(dialogs.json).toEqual([{ id: dialogId, chat_id: chatId, begin_message_id: messageId, ending_message_id: null, bot_id: null, is_assigned: false, is_active: true, tags: [], created_at: time, updated_at: null, closed_at: null }]);
  const messages = await call(g.base, 'GET', `${P}/messages?chat_id=${chatId}`, { bot: BOT });
  expect(messages.json).toEqual([
    {
      id: messageId,
      chat_id: chatId,
      channel_id: channel,
      type: 'text',
      scope: 'public',
      status: 'received',
      content: 'hello',
      time,
      is_read: false,
      is_edit: false,
      actions: [],
      from: expect.objectContaining({ external_id: 'cust-1', type: 'customer' }),
      dialog: { id: dialogId },
      created_at: time,
      updated_at: null,
    },
  ]);
  expect((await call(g.base, 'GET', `${P}/chats?customer_external_id=nobody`, { bot: BOT })).json).toEqual([]);
});

test('messages: send {message_id, time}; edit and delete own messages answer {}; others are 404', async () => {
  const { chatId, dialogId } = await customerChat();
  const sent = await call(g.base, 'POST', `${P}/messages`, { bot: BOT, body: { chat_id: chatId, scope: 'public', type: 'text', content: 'How can I help?' } });
  expect(sent).toMatchObject({ status: 200, json: { message_id: expect.any(Number), time } });
  const id = sent.json.message_id as number;
  const listed = await call(g.base, 'GET', `${P}/messages?chat_id=${chatId}&type=text&scope=public`, { bot: BOT });
  expect(listed.json.at(-1)).toMatchObject({ id, chat_id: chatId, content: 'How can I help?', status: 'sent', dialog: { id: dialogId }, from: { type: 'bot', external_id: 'client-bot' } });

  expect(await call(g.base, 'PATCH', `${P}/messages/${id}`, { bot: BOT, body: { ID: id, content: 'How may I help?' } })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/messages?chat_id=${chatId}`, { bot: BOT })).json.at(-1)).toMatchObject({ id, content: 'How may I help?', is_edit: true, updated_at: time });
  expect((await call(g.base, 'PATCH', `${P}/messages/${id}`, { bot: OTHER_BOT, body: { content: 'x' } })).status).toBe(404);
  expect((await call(g.base, 'DELETE', `${P}/messages/${id}`, { bot: OTHER_BOT })).status).toBe(404);
  expect(await call(g.base, 'DELETE', `${P}/messages/${id}`, { bot: BOT })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/messages?chat_id=${chatId}`, { bot: BOT })).json.map((m: { id: number }) => m.id)).not.toContain(id);
  expect((await call(g.base, 'DELETE', `${P}/messages/${id}`, { bot: BOT })).status).toBe(404);
});

test('dialogs: assign, unassign, tags, close and create answer what the clients decode, and the lists follow', async () => {
  const { chatId, dialogId } = await customerChat();
  const me = (await call(g.base, 'GET', `${P}/bots?self=1`, { bot: BOT })).json[0];
  const user = g.gw.seedUser({ external_id: 'manager-1', first_name: 'Max', is_online: true });
  expect((await call(g.base, 'GET', `${P}/users`, { bot: BOT })).json).toEqual([
    { id: user.id, external_id: 'manager-1', first_name: 'Max', available: true, is_online: true, connected: true, is_active: true, is_technical_account: false, created_at: time, updated_at: null, revoked_at: null },
  ]);

  const toBot = await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/assign`, { bot: BOT, body: { dialog_id: dialogId, user_id: 0, bot_id: me.id } });
  expect(toBot).toMatchObject({ status: 200, json: { responsible: { id: me.id, type: 'bot', assigned_at: time }, previous_responsible: null, is_reassign: false } });
  expect((await call(g.base, 'GET', `${P}/dialogs?bot_id=${me.id}&assign=1`, { bot: BOT })).json).toEqual([expect.objectContaining({ id: dialogId, bot_id: me.id, is_assigned: true, responsible: { id: me.id, type: 'bot', assigned_at: time } })]);

  const toUser = await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/assign`, { bot: BOT, body: { user_id: user.id } });
  expect(toUser.json).toMatchObject({ responsible: { id: user.id, type: 'user' }, previous_responsible: { id: me.id, type: 'bot' }, is_reassign: true });
  expect((await call(g.base, 'GET', `${P}/members?chat_id=${chatId}`, { bot: BOT })).json).toEqual([{ id: expect.any(Number), chat_id: chatId, user_id: user.id, is_author: false, state: 'active', created_at: time, updated_at: null }]);
  expect((await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/assign`, { bot: BOT, body: {} })).status).toBe(400);

  expect(await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/unassign`, { bot: BOT })).toMatchObject({ status: 200, json: { previous_responsible: { id: user.id, type: 'user' } } });
  expect(await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/tags/add`, { bot: BOT, body: { tags: [{ name: 'vip', color_code: 'red' }, { name: 'new' }] } })).toMatchObject({ status: 200, json: {} });
  expect(await call(g.base, 'PATCH', `${P}/dialogs/${dialogId}/tags/delete`, { bot: BOT, body: { tags: [{ name: 'new' }] } })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/dialogs?id=${dialogId}`, { bot: BOT })).json).toEqual([expect.objectContaining({ is_assigned: false, tags: [{ name: 'vip', color_code: 'red' }] })]);

  expect(await call(g.base, 'DELETE', `${P}/dialogs/${dialogId}/close`, { bot: BOT })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/dialogs?chat_id=${chatId}`, { bot: BOT })).json).toEqual([expect.objectContaining({ id: dialogId, is_active: false, closed_at: time })]);
  const created = await call(g.base, 'POST', `${P}/chats/${chatId}/dialogs`, { bot: BOT, body: { bot_id: me.id } });
  expect(created).toMatchObject({ status: 200, json: { id: expect.any(Number), created_at: time } });
  expect(created.json.id).not.toBe(dialogId);
  expect((await call(g.base, 'GET', `${P}/dialogs?active=1`, { bot: BOT })).json.map((d: { id: number }) => d.id)).toEqual([created.json.id]);

  for (const [method, path] of [['PATCH', '/dialogs/999/assign'], ['PATCH', '/dialogs/999/unassign'], ['DELETE', '/dialogs/999/close'], ['POST', '/chats/999/dialogs']] as const) {
    expect((await call(g.base, method, `${P}${path}`, { bot: BOT, ...(method === 'PATCH' || method === 'POST' ? { body: { bot_id: me.id } } : {}) })).status, path).toBe(404);
  }
});

test('commands: PUT answers the command, GET lists it, DELETE removes it; each bot has its own', async () => {
  const set = await call(g.base, 'PUT', `${P}/my/commands/help`, { bot: BOT, body: { name: 'help', description: 'Show help' } });
  expect(set).toMatchObject({ status: 200, json: { id: expect.any(Number), name: 'help', description: 'Show help', created_at: time, updated_at: null } });
  expect((await call(g.base, 'GET', `${P}/my/commands`, { bot: BOT })).json).toEqual([{ id: set.json.id, name: 'help', description: 'Show help', created_at: time, updated_at: null }]);
  expect((await call(g.base, 'GET', `${P}/my/commands`, { bot: OTHER_BOT })).json).toEqual([]);

  const changed = await call(g.base, 'PUT', `${P}/my/commands/help`, { bot: BOT, body: { name: 'help', description: 'Help me' } });
  expect(changed.json).toMatchObject({ id: set.json.id, description: 'Help me', updated_at: time });
  expect(g.gw.commands.get(BOT)?.get('help')).toEqual({ name: 'help', description: 'Help me' });
  expect((await call(g.base, 'GET', `${P}/my/commands?name=help`, { bot: BOT })).json).toEqual([expect.objectContaining({ name: 'help', description: 'Help me' })]);

  expect(await call(g.base, 'DELETE', `${P}/my/commands/help`, { bot: BOT })).toMatchObject({ status: 200, json: {} });
  expect((await call(g.base, 'GET', `${P}/my/commands`, { bot: BOT })).json).toEqual([]);
  expect((await call(g.base, 'DELETE', `${P}/my/commands/help`, { bot: BOT })).status).toBe(404);
});

test('files: upload, upload_by_url, get and meta update', async () => {
  const form = new FormData();
  form.append('file', new Blob([Buffer.alloc(12)], { type: 'audio/ogg' }), 'voice.ogg');
  const up = await call(g.base, 'POST', `${P}/files/upload`, { bot: BOT, raw: { type: 'multipart/form-data', data: form } });
  expect(up).toMatchObject({ status: 200, json: { id: expect.stringMatching(UUID), type: 'audio', size: 12, mime_type: 'audio/ogg', created_at: time } });
  const byUrl = await call(g.base, 'POST', `${P}/files/upload_by_url`, { bot: BOT, body: { url: 'https://example.com/doc.pdf' } });
  expect(byUrl).toMatchObject({ status: 200, json: { id: expect.stringMatching(UUID), type: 'file', source_url: 'https://example.com/doc.pdf' } });

  const got = await call(g.base, 'GET', `${P}/files/${up.json.id}`, { bot: BOT });
  expect(got).toMatchObject({ status: 200, json: { id: up.json.id, type: 'audio', size: 12, url: expect.stringContaining(up.json.id) } });
  const meta = await call(g.base, 'PUT', `${P}/files/${up.json.id}/meta`, { bot: BOT, body: { transcription: 'hello there', transcription_status: 'ready' } });
  expect(meta).toMatchObject({ status: 200, json: { id: up.json.id, size: 12, type: 'audio', transcription: 'hello there', transcription_status: 'ready' } });
  expect((await call(g.base, 'GET', `${P}/files/00000000-0000-0000-0000-000000000000`, { bot: BOT })).status).toBe(404);
});

test('an unknown Bot API path answers 404, a wrong method 405, with the errors body; the new methods are recorded without schema errors', async () => {
  expect(await call(g.base, 'GET', `${P}/my/whoami`, { bot: BOT })).toMatchObject({ status: 404, json: { errors: [expect.any(String)] } });
  expect(await call(g.base, 'POST', `${P}/my/commands`, { bot: BOT, body: {} })).toMatchObject({ status: 405, json: { errors: [expect.any(String)] } });
  await call(g.base, 'GET', `${P}/chats?limit=5`, { bot: BOT });
  const listed = await g.gw.waitFor('bot.chats.list', 1000);
  expect(listed).toMatchObject({ api: 'bot', tokenKind: 'bot', clientId: 'client-bot', status: 200, accepted: true, payload: { limit: '5' }, schemaErrors: [] });
});
