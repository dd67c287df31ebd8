/**
 * A module flooding the simulators does not grow their state without bound: the system's
 * accepted registrations (the first 10 and the last 100), uploaded calls and call events, and the
 * gateway's messages, files, customers, chats and dialogs, are held up to `MAX_HELD` each, the oldest evicted first and counted, the newest kept;
 * a flow after the flood reads them as before.
 */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';
import { BoundedMap, MAX_HELD, pushBounded } from '../../src/evidence/bounded.ts';
import { startSystem } from './system-harness.ts';
import { BOT, TRANSPORT, call, channelBody, customerMessage } from './gateway-harness.ts';

const API_KEY = 'bounded-api-key-0123456789';
const FLOOD = 12_000;

test('a BoundedMap evicts its oldest keys past its bound and counts them; replacing a value evicts nothing', () => {
  const m = new BoundedMap<number, string>(3);
  for (let i = 1; i <= 5; i++) m.set(i, `v${i}`);
  expect([...m.keys()]).toEqual([3, 4, 5]);
  expect(m.evicted).toBe(2);
  m.set(3, 'again');
  expect([...m.entries()]).toEqual([[3, 'again'], [4, 'v4'], [5, 'v5']]);
  expect(m.evicted).toBe(2);
  m.delete(4);
  m.set(6, 'v6');
  expect([...m.keys()]).toEqual([3, 5, 6]);
  expect(m.evicted).toBe(2);

  const list = [1, 2];
  expect(pushBounded(list, [3, 4, 5], 3)).toBe(2);
  expect(list).toEqual([3, 4, 5]);
  expect(pushBounded(list, [], 3)).toBe(0);
});

test(`the system: ${FLOOD.toLocaleString('en')} uploaded calls and call events are held up to the bound, the newest kept, the evicted counted`, async () => {
  test.setTimeout(120_000);
  const { sim } = await startSystem(API_KEY);
  try {
    const post = async (path: string, form: Record<string, string>): Promise<number> => {
      const r = await request(`${sim.url()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ apiKey: API_KEY, ...form }).toString(),
      });
      await r.body.dump();
      return r.statusCode;
    };
    // 50 calls a request (the contract's limit).
    for (let sent = 0; sent < FLOOD; sent += 50 * 20) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, r) =>
          post('/api/v5/telephony/calls/upload', { calls: JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ externalId: `call-${sent + r * 50 + i}` }))) }),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    for (let sent = 0; sent < FLOOD; sent += 100) {
      const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => post('/api/v5/telephony/call/event', { event: JSON.stringify({ phone: '+100', type: 'in', externalId: `event-${sent + i}` }) })));
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
    expect(sim.uploadedCalls.length).toBe(MAX_HELD);
    expect(sim.callEvents.length).toBe(MAX_HELD);
    expect(sim.evicted()).toEqual({ uploadedCalls: FLOOD - MAX_HELD, callEvents: FLOOD - MAX_HELD });
    // The newest kept: the uploads came in order, and the events of the last batch are all there.
    expect(sim.uploadedCalls.at(-1)).toEqual({ externalId: `call-${FLOOD - 1}` });
    expect(sim.uploadedCalls[0]).toEqual({ externalId: `call-${FLOOD - MAX_HELD}` });
    const events = new Set(sim.callEvents.map((e) => (e as { externalId: string }).externalId));
    expect(Array.from({ length: 100 }, (_, i) => `event-${FLOOD - 100 + i}`).every((id) => events.has(id))).toBe(true);
    expect(events.has('event-0')).toBe(false);
    expect(sim.callCount()).toBe(FLOOD / 50 + FLOOD);
  } finally {
    await sim.stop();
  }
});

test('the system: a registration loop is counted, not kept: the first 10 and the last 100 accepted registrations are held, the first always', async () => {
  test.setTimeout(60_000);
  const { sim } = await startSystem(API_KEY);
  try {
    const integrationModule = JSON.stringify({ code: 'loop', clientId: 'client-loop', baseUrl: 'http://127.0.0.1:9', integrations: { telephony: { makeCallUrl: 'http://127.0.0.1:9/call' } } });
    const body = new URLSearchParams({ apiKey: API_KEY, integrationModule }).toString();
    for (let sent = 0; sent < 500; sent += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const r = await request(`${sim.url()}/api/v5/integration-modules/loop/edit`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
          await r.body.dump();
          return r.statusCode;
        }),
      );
      expect(statuses.every((s) => s < 300)).toBe(true);
    }
    expect(sim.registrationCount()).toBe(500);
    expect(sim.registrations).toHaveLength(110);
    expect(sim.registrations[0]!.code).toBe('loop');
    expect(sim.registrations[0]!.kinds).toEqual(['telephony']);
    expect(await sim.waitForRegistration(1_000, 499)).toBe(sim.registrations.at(-1));
  } finally {
    await sim.stop();
  }
});

test(`the gateway: ${FLOOD.toLocaleString('en')} customer messages and uploads are held up to the bound, the newest kept, the evicted counted; a flow after the flood works`, async () => {
  test.setTimeout(120_000);
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  // No rate limit: the flood is the point here (429s are gateway-flood.spec.ts's).
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0, ratePerSecond: 1_000_000 });
  const base = await gw.start();
  try {
    gw.registerTransport({ token: TRANSPORT, clientId: 'client-transport' });
    gw.registerBot({ token: BOT, clientId: 'client-bot' });
    const channel = gw.seedChannel(TRANSPORT, channelBody);
    // Messages through the state's own method (the Transport API's send calls it): each from a
    // new customer, so each also makes a customer, a chat and a dialog.
    for (let i = 0; i < FLOOD; i++) gw.state.addTransportMessage(TRANSPORT, customerMessage(channel.id, `m-${i}`, `hello ${i}`, `cust-${i}`), channel);
    for (const map of [gw.messages, gw.state.customers, gw.state.chats, gw.state.dialogs]) expect(map.size).toBe(MAX_HELD);
    const over = FLOOD - MAX_HELD;
    expect(gw.evicted()).toEqual({ messages: over, files: 0, customers: over, chats: over, dialogs: over });
    const ids = [...gw.messages.keys()];
    expect(ids[0]).toBe(over + 1);
    expect(ids.at(-1)).toBe(FLOOD);
    expect([...gw.state.customers.values()].at(-1)?.external_id).toBe(`cust-${FLOOD - 1}`);

    // Uploads through HTTP (checked once at the end: an expect a request would slow the flood down).
    const upload = async (i: number): Promise<string | undefined> => {
      const r = await request(`${base}/api/transport/v1/files/upload`, { method: 'POST', headers: { 'x-transport-token': TRANSPORT, 'content-type': 'image/png' }, body: Buffer.alloc(1 + (i % 7)) });
      const reply = (await r.body.json()) as { id?: string };
      return r.statusCode === 200 ? reply.id : undefined;
    };
    const fileIds: Array<string | undefined> = [];
    for (let sent = 0; sent < FLOOD; sent += 100) fileIds.push(...(await Promise.all(Array.from({ length: 100 }, (_, i) => upload(sent + i)))));
    expect(fileIds.filter((id) => id === undefined)).toEqual([]);
    expect(gw.files.size).toBe(MAX_HELD);
    expect(gw.evicted().files).toBe(over);
    // Requests are concurrent within a batch of 100: the first batches are evicted, the last kept.
    expect(fileIds.slice(-100).every((id) => gw.files.has(id!))).toBe(true);
    expect(fileIds.slice(0, 100).some((id) => gw.files.has(id!))).toBe(false);
    expect((await call(base, 'GET', `/api/transport/v1/files/${fileIds.at(-1)}`, { transport: TRANSPORT })).status).toBe(200);
    expect((await call(base, 'GET', `/api/transport/v1/files/${fileIds[0]}`, { transport: TRANSPORT })).status).toBe(404);

    // A flow after the flood: a customer message through the Transport API, seen by the bot.
    const sent = await call(base, 'POST', '/api/transport/v1/messages', { transport: TRANSPORT, body: customerMessage(channel.id, 'after-flood', 'after the flood', 'cust-after') });
    expect(sent.status).toBe(200);
    const msg = gw.messages.get(sent.json.message_id)!;
    expect(msg).toMatchObject({ chatId: expect.any(Number), dialogId: expect.any(Number), customerId: expect.any(Number) });
    expect(gw.messages.size).toBe(MAX_HELD);
    const listed = await call(base, 'GET', `/api/bot/v1/messages?chat_id=${msg.chatId}`, { bot: BOT });
    expect(listed.status).toBe(200);
    expect(listed.json.map((m: { id: number }) => m.id)).toEqual([msg.id]);
    const chats = await call(base, 'GET', `/api/bot/v1/chats?customer_external_id=cust-after`, { bot: BOT });
    expect(chats.json).toHaveLength(1);
    expect(chats.json[0]).toMatchObject({ id: msg.chatId, last_message: { id: msg.id } });
  } finally {
    await gw.stop();
    await client.close();
  }
});
