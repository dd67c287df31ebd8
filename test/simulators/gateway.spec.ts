import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { WebSocket } from 'ws';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { GatewaySimulator, type GatewaySimulatorOptions } from '../../src/simulators/gateway.ts';

const TRANSPORT = 'transport-token-0123456789';
const OTHER_TRANSPORT = 'transport-token-other-999';
const BOT = 'bot-token-0123456789';
const CLIENT_ID = 'client-id-transport-42';

interface Ctx {
  gw: GatewaySimulator;
  log: EvidenceLog;
  client: CallbackClient;
  base: string;
}

/** Gateways started by the running test, stopped after it. */
const running: Ctx[] = [];

async function startGateway(extra: Partial<GatewaySimulatorOptions> = {}): Promise<Ctx> {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0, ...extra });
  const base = await gw.start();
  gw.registerTransport({ token: TRANSPORT, clientId: CLIENT_ID });
  gw.registerTransport({ token: OTHER_TRANSPORT, clientId: 'client-id-other' });
  gw.registerBot({ token: BOT, clientId: 'client-id-bot-7' });
  const ctx = { gw, log, client, base };
  running.push(ctx);
  return ctx;
}

async function stopGateway(ctx: Ctx): Promise<void> {
  await ctx.gw.stop();
  await ctx.client.close();
}

async function call(
  base: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { transport?: string; bot?: string; body?: unknown; raw?: string } = {},
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {};
  if (opts.transport !== undefined) headers['X-Transport-Token'] = opts.transport;
  if (opts.bot !== undefined) headers['X-Bot-Token'] = opts.bot;
  let body: string | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = opts.raw ?? JSON.stringify(opts.body);
  }
  const res = await request(`${base}${path}`, { method, headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

const channelBody = {
  type: 'whatsapp',
  name: 'Shop WhatsApp',
  external_id: 'ext-1',
  settings: { sending_policy: { new_customer: 'template', after_reply_timeout: 'template' }, template: { creation: true } },
};

const templateBody = {
  code: 'order_ready_en',
  name: 'Order ready',
  type: 'text',
  body: 'Hello {{1}}, your order is ready.',
  verification_status: 'pending',
  lang: 'en',
};

async function activateChannel(base: string, token = TRANSPORT): Promise<number> {
  const res = await call(base, 'POST', '/api/transport/v1/channels', { transport: token, body: channelBody });
  expect(res.status).toBe(201);
  return (res.json as { id: number }).id;
}

function connectBot(base: string, token: string | undefined, events = 'message_new'): WebSocket {
  const url = `${base.replace(/^http/, 'ws')}/api/bot/v1/ws?events=${events}`;
  return new WebSocket(url, token === undefined ? {} : { headers: { 'X-Bot-Token': token } });
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
}

function closeCode(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

/** The status with which the gateway refuses a WebSocket upgrade. */
function refusedWith(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    ws.on('error', () => {});
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
  });
}

test.describe('gateway simulator', () => {
  let ctx: Ctx;
  test.afterEach(async () => {
    for (const c of running.splice(0)) await stopGateway(c);
  });

  test('the Transport and Bot APIs require a registered token of their kind (401)', async () => {
    ctx = await startGateway();
    const none = await call(ctx.base, 'GET', '/api/transport/v1/channels');
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ errors: [expect.any(String)] });
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: 'unknown-token' })).status).toBe(401);
    // A bot token is not a transport token, and the other way round.
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { bot: BOT })).status).toBe(401);
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: BOT })).status).toBe(401);
    expect((await call(ctx.base, 'PUT', '/api/bot/v1/my/commands/help', { transport: TRANSPORT, body: { name: 'help', description: 'Help' } })).status).toBe(401);
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT })).status).toBe(200);
    expect((await call(ctx.base, 'PUT', '/api/bot/v1/my/commands/help', { bot: BOT, body: { name: 'help', description: 'Help' } })).status).toBe(200);

    const refused = ctx.gw.calls.filter((c) => !c.accepted);
    expect(refused).toHaveLength(5);
    expect(refused.every((c) => c.status === 401 && c.tokenKind === undefined && c.exchange.response?.status === 401)).toBe(true);
    const ok = ctx.gw.calls.filter((c) => c.accepted);
    expect(ok.map((c) => [c.route, c.tokenKind, c.clientId])).toEqual([
      ['transport.channels.list', 'transport', CLIENT_ID],
      ['bot.command.set', 'bot', 'client-id-bot-7'],
    ]);
    expect(ctx.gw.commands.get(BOT)?.get('help')).toEqual({ name: 'help', description: 'Help' });
  });

  test('channels are kept with their settings and belong to their transport', async () => {
    ctx = await startGateway();
    const id = await activateChannel(ctx.base);
    expect(ctx.gw.channels.get(id)?.settings).toEqual(channelBody.settings);
    const list = await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT });
    expect(list.json).toEqual([expect.objectContaining({ id, type: 'whatsapp', is_active: true, settings: channelBody.settings })]);
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: OTHER_TRANSPORT })).json).toEqual([]);

    const newSettings = { sending_policy: { new_customer: 'no', after_reply_timeout: 'no' }, template: { creation: false } };
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}`, { transport: TRANSPORT, body: { ...channelBody, settings: newSettings } })).status).toBe(200);
    expect(ctx.gw.channels.get(id)?.settings).toEqual(newSettings);
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}`, { transport: OTHER_TRANSPORT, body: channelBody })).status).toBe(404);

    const bad = await call(ctx.base, 'POST', '/api/transport/v1/channels', { transport: TRANSPORT, body: { name: 'no type', settings: { sending_policy: { new_customer: 'sometimes' } } } });
    expect(bad.status).toBe(201);
    const badCall = ctx.gw.calls.at(-1)!;
    expect(badCall.route).toBe('transport.channel.activate');
    // Neither source makes a member of the activation body mandatory: only the closed value is wrong.
    expect(badCall.schemaErrors.map((e) => e.keyword).sort()).toEqual(['enum']);

    expect((await call(ctx.base, 'DELETE', `/api/transport/v1/channels/${id}`, { transport: TRANSPORT })).status).toBe(200);
    expect(ctx.gw.channels.get(id)?.is_active).toBe(false);
    expect((await call(ctx.base, 'POST', `/api/transport/v1/channels/${id}/templates`, { transport: TRANSPORT, body: templateBody })).status).toBe(404);
  });

  test('templates are created and updated with their verification history, and validated', async () => {
    ctx = await startGateway();
    const id = await activateChannel(ctx.base);
    const created = await call(ctx.base, 'POST', `/api/transport/v1/channels/${id}/templates`, { transport: TRANSPORT, body: templateBody });
    expect(created.status).toBe(200);
    const createCall = await ctx.gw.waitFor('transport.template.create', 1000);
    expect(createCall?.schemaErrors).toEqual([]);
    expect(createCall?.params).toEqual({ channel_id: String(id) });

    const dup = await call(ctx.base, 'POST', `/api/transport/v1/channels/${id}/templates`, { transport: TRANSPORT, body: templateBody });
    expect(dup.status).toBe(400);
    expect(dup.json).toEqual({ errors: [expect.stringContaining('already exists')] });

    const update = { name: 'Order ready', body: 'Hello {{1}}, your order is ready.', verification_status: 'rejected', rejection_reason: 'incorrect_category' };
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, body: update })).status).toBe(200);
    // The table: a rejected template is approved only after the user resubmits it (template_update); before, the verdict is refused.
    const approve = { ...update, verification_status: 'approved', rejection_reason: undefined };
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, body: approve })).status).toBe(400);
    ctx.gw.state.applyStatus(ctx.gw.template(id, 'order_ready_en')!, { verification_status: 'pending' }, 'webhook template_update');
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, body: approve })).status).toBe(200);
    const tpl = ctx.gw.template(id, 'order_ready_en');
    expect(tpl?.verification_status).toBe('approved');
    expect(tpl?.rejection_reason).toBeUndefined();
    expect(tpl?.history.map((h) => [h.status, h.rejection_reason, h.via])).toEqual([
      ['pending', undefined, 'transport.template.create'],
      ['rejected', 'incorrect_category', 'transport.template.update'],
      ['pending', undefined, 'webhook template_update'],
      ['approved', undefined, 'transport.template.update'],
    ]);

    // An invalid body is recorded with its schema errors.
    await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, body: { name: 'Order ready', verification_status: 'new' } });
    const invalid = ctx.gw.calls.at(-1)!;
    expect(invalid.route).toBe('transport.template.update');
    expect(invalid.schemaErrors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([' required', '/verification_status enum']);
    await call(ctx.base, 'POST', `/api/transport/v1/channels/${id}/templates`, { transport: TRANSPORT, body: { ...templateBody, code: 'other', header: { content: { type: 'text', body: 'Hi' } }, attachments: { type: 'image' } } });
    expect(ctx.gw.calls.at(-1)!.schemaErrors.some((e) => e.keyword === 'not')).toBe(true);

    // Not JSON: 400 with the errors body; unknown template or channel: 404.
    const notJson = await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, raw: '{"name": ' });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toEqual({ errors: [expect.stringContaining('not JSON')] });
    expect(ctx.gw.calls.at(-1)!.decodeError).toContain('not JSON');
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/missing`, { transport: TRANSPORT, body: update })).status).toBe(404);
    expect((await call(ctx.base, 'POST', '/api/transport/v1/channels/9999/templates', { transport: TRANSPORT, body: templateBody })).status).toBe(404);
    // A channel of another transport is unknown to this one.
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: OTHER_TRANSPORT, body: update })).status).toBe(404);

    expect((await call(ctx.base, 'DELETE', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT })).status).toBe(200);
    expect(ctx.gw.template(id, 'order_ready_en')).toBeUndefined();
  });

  test('template paths work with and without the /api/transport/v1 prefix', async () => {
    ctx = await startGateway();
    const id = await activateChannel(ctx.base);
    expect((await call(ctx.base, 'POST', `/channels/${id}/templates`, { transport: TRANSPORT, body: templateBody })).status).toBe(200);
    expect((await call(ctx.base, 'POST', `/api/transport/v1/channels/${id}/templates`, { transport: TRANSPORT, body: { ...templateBody, code: 'second' } })).status).toBe(200);
    expect((await call(ctx.base, 'PUT', `/channels/${id}/templates/second`, { transport: TRANSPORT, body: { name: 'n', body: 'b', verification_status: 'approved' } })).status).toBe(200);
    expect((await call(ctx.base, 'PUT', `/api/transport/v1/channels/${id}/templates/order_ready_en`, { transport: TRANSPORT, body: { name: 'n', body: 'b', verification_status: 'approved' } })).status).toBe(200);
    for (const path of ['/templates', '/api/transport/v1/templates']) {
      const list = await call(ctx.base, 'GET', path, { transport: TRANSPORT });
      expect(list.status).toBe(200);
      expect((list.json as Array<{ code: string; verification_status: string }>).map((t) => [t.code, t.verification_status]).sort()).toEqual([
        ['order_ready_en', 'approved'],
        ['second', 'approved'],
      ]);
    }
    // The bare form still needs the token.
    expect((await call(ctx.base, 'POST', `/channels/${id}/templates`, { body: templateBody })).status).toBe(401);
    const creates = ctx.gw.calls.filter((c) => c.route === 'transport.template.create');
    expect(creates.map((c) => c.unprefixed)).toEqual([true, false, true]);
  });

  test('30 requests a second per token pass, the 31st gets 429, counted per token', async () => {
    let now = 1_000_000;
    ctx = await startGateway({ clock: () => now });
    for (let i = 0; i < 30; i++) expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT })).status).toBe(200);
    const over = await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT });
    expect(over.status).toBe(429);
    expect(over.json).toEqual({ errors: ['Too Many Requests'] });
    expect(ctx.gw.calls.at(-1)!.status).toBe(429);
    // Other tokens have their own budget, on both APIs.
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: OTHER_TRANSPORT })).status).toBe(200);
    expect((await call(ctx.base, 'POST', '/api/bot/v1/messages', { bot: BOT, body: { chat_id: 1, scope: 'public', type: 'text', content: 'hi' } })).status).toBe(200);
    expect(ctx.gw.tooManyRequests(TRANSPORT)).toBe(1);
    expect(ctx.gw.tooManyRequests(OTHER_TRANSPORT)).toBe(0);
    // The window slides: a second later the token may call again.
    now += 1000;
    expect((await call(ctx.base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT })).status).toBe(200);
    expect(ctx.gw.tooManyRequests(TRANSPORT)).toBe(1);

    // The Bot API is limited the same way (its one earlier request has left the window).
    for (let i = 0; i < 30; i++) expect((await call(ctx.base, 'PUT', `/api/bot/v1/my/commands/c${i}`, { bot: BOT, body: { name: `c${i}`, description: 'd' } })).status).toBe(200);
    expect((await call(ctx.base, 'PUT', '/api/bot/v1/my/commands/last', { bot: BOT, body: { name: 'last', description: 'd' } })).status).toBe(429);
    expect(ctx.gw.tooManyRequestsByToken().get(BOT)).toBe(1);
  });

  test('bot WebSocket: connects with a bot token, refuses others, records the connection', async () => {
    ctx = await startGateway();
    const refusedNone = connectBot(ctx.base, undefined);
    expect(await refusedWith(refusedNone)).toBe(401);
    const refusedUnknown = connectBot(ctx.base, 'not-a-bot-token');
    expect(await refusedWith(refusedUnknown)).toBe(401);
    const refusedTransport = connectBot(ctx.base, TRANSPORT);
    expect(await refusedWith(refusedTransport)).toBe(401);
    expect(ctx.gw.botConnections()).toHaveLength(0);

    const ws = connectBot(ctx.base, BOT, 'message_new,dialog_opened');
    await opened(ws);
    const conn = await ctx.gw.waitForBotConnection(2000);
    expect(conn).toMatchObject({ token: BOT, events: ['message_new', 'dialog_opened'], clientId: 'client-id-bot-7' });
    expect(conn?.closedAt).toBeUndefined();
    const upgrades = ctx.log.all().filter((x) => x.label === 'bot websocket connect');
    expect(upgrades.map((x) => x.response?.status)).toEqual([401, 401, 401, 101]);
    expect(conn?.exchange.response?.status).toBe(101);
    expect(conn?.exchange.request.headers['x-bot-token']).not.toBe(BOT);

    // Frames go to subscribed bots, in the {type, meta: {timestamp}, data} shape.
    const frame = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    expect(ctx.gw.sendToBots({ type: 'chat_created', data: {} })).toBe(0);
    expect(ctx.gw.sendToBots({ type: 'message_new', data: { message: { id: 1, type: 'command', content: '/help' } } })).toBe(1);
    const received = (await frame) as { type: string; meta: { timestamp: number }; data: unknown };
    expect(received.type).toBe('message_new');
    expect(Number.isInteger(received.meta.timestamp)).toBe(true);
    expect(received.data).toEqual({ message: { id: 1, type: 'command', content: '/help' } });
    ws.close();
    await closeCode(ws);
  });

  test("closeBots('normal') closes with 1000, 'abnormal' drops the socket (1006)", async () => {
    ctx = await startGateway();
    const first = connectBot(ctx.base, BOT);
    await opened(first);
    const firstClose = closeCode(first);
    await ctx.gw.closeBots('normal');
    expect(await firstClose).toBe(1000);
    expect(ctx.gw.botConnections()[0]).toMatchObject({ closedBy: 'gateway', closeCode: 1000 });

    const second = connectBot(ctx.base, BOT);
    await opened(second);
    const secondClose = closeCode(second);
    await ctx.gw.closeBots('abnormal');
    expect(await secondClose).toBe(1006);
    expect(ctx.gw.botConnections()[1]).toMatchObject({ closedBy: 'gateway', closeCode: 1006 });

    // A bot that closes by itself is recorded as such.
    const third = connectBot(ctx.base, BOT);
    await opened(third);
    const closedByBot = new Promise((resolve) => ctx.gw.once('botClose', resolve));
    third.close(1000);
    await closedByBot;
    expect(ctx.gw.botConnections()[2]).toMatchObject({ closedBy: 'bot', closeCode: 1000 });
  });

  test('waitForBotConnection sees a bot come back after the gateway drops it', async () => {
    ctx = await startGateway();
    const sockets: WebSocket[] = [];
    let stopped = false;
    // A bot that reconnects after a timeout whenever its socket closes.
    const run = (): void => {
      const ws = connectBot(ctx.base, BOT);
      sockets.push(ws);
      ws.on('error', () => {});
      ws.on('close', () => {
        if (!stopped) setTimeout(run, 50);
      });
    };
    run();
    const first = await ctx.gw.waitForBotConnection(5000);
    expect(first).toBeDefined();
    for (const mode of ['abnormal', 'normal'] as const) {
      const closedAt = await ctx.gw.closeBots(mode);
      const back = await ctx.gw.waitForBotConnection(5000, closedAt);
      expect(back).toBeDefined();
      expect(back!.connectedAt).toBeGreaterThanOrEqual(closedAt);
      expect(back!.closedAt).toBeUndefined();
    }
    const conns = ctx.gw.botConnections();
    expect(conns).toHaveLength(3);
    expect(new Set(conns.map((c) => c.id)).size).toBe(3);
    expect(conns[0]!.closedAt).toBeLessThanOrEqual(conns[1]!.connectedAt);
    // Nothing newer than now has connected yet.
    expect(await ctx.gw.waitForBotConnection(100, performance.timeOrigin + performance.now())).toBeUndefined();
    stopped = true;
    for (const ws of sockets) ws.close();
  });

  test('webhooks are POSTed as JSON with the ClientId header; template webhooks update the templates', async () => {
    ctx = await startGateway();
    const received: Array<{ headers: http.IncomingHttpHeaders; body: unknown; url?: string }> = [];
    const module = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
        received.push({ headers: req.headers, body, ...(req.url ? { url: req.url } : {}) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body.type === 'template_create' ? { code: 'tpl_from_module' } : {}));
      });
    });
    await new Promise<void>((resolve) => module.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (module.address() as AddressInfo).port;
      ctx.gw.registerTransport({ token: TRANSPORT, clientId: CLIENT_ID, webhookUrl: `http://127.0.0.1:${port}/webhook` });
      const channel = await activateChannel(ctx.base);

      const reply = await ctx.gw.sendWebhook(CLIENT_ID, 'template_create', { channel_id: channel, name: 'Welcome', body: 'Hi {{1}}', lang: 'en' });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ code: 'tpl_from_module' });
      expect(reply.exchange).toMatchObject({ label: 'webhook template_create', direction: 'gateway->module' });
      expect(received).toHaveLength(1);
      expect(received[0]!.url).toBe('/webhook');
      expect(received[0]!.headers.clientid).toBe(CLIENT_ID);
      expect(received[0]!.headers['content-type']).toContain('application/json');
      const body = received[0]!.body as { type: string; meta: { timestamp: number }; data: unknown };
      expect(body.type).toBe('template_create');
      expect(Number.isInteger(body.meta.timestamp)).toBe(true);
      expect(body.data).toEqual({ channel_id: channel, name: 'Welcome', body: 'Hi {{1}}', lang: 'en' });

      // The template the module coded exists, verifying; the module can now report its verification.
      expect(ctx.gw.template(channel, 'tpl_from_module')?.verification_status).toBe('pending');
      expect((await call(ctx.base, 'PUT', `/channels/${channel}/templates/tpl_from_module`, { transport: TRANSPORT, body: { name: 'Welcome', body: 'Hi {{1}}', verification_status: 'rejected', rejection_reason: 'scam' } })).status).toBe(200);
      // Resubmitted after a rejection: verifying again.
      await ctx.gw.sendWebhook(TRANSPORT, 'template_update', { channel_id: channel, code: 'tpl_from_module', name: 'Welcome', body: 'Hello {{1}}' });
      expect(ctx.gw.template(channel, 'tpl_from_module')?.history.map((h) => h.status)).toEqual(['pending', 'rejected', 'pending']);
      await ctx.gw.sendWebhook(CLIENT_ID, 'template_delete', { channel_id: channel, code: 'tpl_from_module', lang: 'en' });
      expect(ctx.gw.template(channel, 'tpl_from_module')).toBeUndefined();
      expect(received.map((r) => (r.body as { type: string }).type)).toEqual(['template_create', 'template_update', 'template_delete']);
      expect(received.every((r) => r.headers.clientid === CLIENT_ID)).toBe(true);
      await expect(ctx.gw.sendWebhook('nobody', 'message_sent', {})).rejects.toThrow(/no transport/);
    } finally {
      await new Promise<void>((resolve) => module.close(() => resolve()));
    }
  });

  test('bot commands are validated and stored; messages get ids', async () => {
    ctx = await startGateway();
    await call(ctx.base, 'PUT', '/api/bot/v1/my/commands/help', { bot: BOT, body: { name: 'help', description: 'x'.repeat(65) } });
    const cmd = await ctx.gw.waitFor('bot.command.set', 1000);
    expect(cmd?.schemaErrors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/description maxLength']);
    expect(cmd?.params).toEqual({ name: 'help' });
    const id = await activateChannel(ctx.base);
    const sent = await call(ctx.base, 'POST', '/api/transport/v1/messages', {
      transport: TRANSPORT,
      body: { message: { external_id: 'm1', type: 'text', text: 'hi' }, user: { external_id: 'u1', nickname: 'u' }, channel: id, external_chat_id: 'c1' },
    });
    expect(sent.status).toBe(200);
    const messageId = (sent.json as { message_id: number }).message_id;
    expect(ctx.gw.messages.get(messageId)?.from).toBe('transport');
    expect((await call(ctx.base, 'POST', '/api/transport/v1/messages', { transport: TRANSPORT, body: { message: { external_id: 'm2' }, channel: 424242 } })).status).toBe(404);
    const file = await request(`${ctx.base}/api/transport/v1/files/upload`, { method: 'POST', headers: { 'X-Transport-Token': TRANSPORT, 'content-type': 'image/png' }, body: Buffer.alloc(10) });
    const uploaded = (await file.body.json()) as { id: string; size: number };
    expect(uploaded.size).toBe(10);
    const got = await call(ctx.base, 'GET', `/api/transport/v1/files/${uploaded.id}`, { transport: TRANSPORT });
    expect(got.json).toMatchObject({ id: uploaded.id, size: 10, type: 'image' });
  });
});

test('an unknown gateway path is refused with the gateway error body', async () => {
  const { GatewaySimulator } = await import('../../src/simulators/gateway.ts');
  const { EvidenceLog } = await import('../../src/evidence/exchange.ts');
  const { CallbackClient } = await import('../../src/client/callback-client.ts');
  const log = new EvidenceLog();
  const client = new CallbackClient({ log });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0 });
  await gw.start();
  try {
    const res = await fetch(`${gw.url()}/api/transport/v1/no-such-method`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errors: [expect.stringContaining('no endpoint')] });
  } finally {
    await gw.stop();
    await client.close();
  }
});
