/**
 * 429 on demand (`GatewaySimulator.throttle`) and the per-second record of a token's requests
 * (`requestsPerSecond`), on a frozen clock: the next N requests of a token, or those until a
 * time, answered 429 with the gateway's error body and no Retry-After; other tokens untouched.
 */
import { test, expect } from '@playwright/test';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';
import { BOT, OTHER_TRANSPORT, TRANSPORT, activateChannel, call, customerMessage } from './gateway-harness.ts';

let stop: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function gatewayAt(clock: () => number): Promise<{ gw: GatewaySimulator; base: string }> {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0, clock });
  const base = await gw.start();
  gw.registerTransport({ token: TRANSPORT, clientId: 'client-transport' });
  gw.registerTransport({ token: OTHER_TRANSPORT, clientId: 'client-transport-other' });
  gw.registerBot({ token: BOT, clientId: 'client-bot' });
  stop = async () => {
    await gw.stop();
    await client.close();
  };
  return { gw, base };
}

const raw = async (base: string, path: string, token: string, body: unknown) => {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'X-Transport-Token': token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: (await res.json()) as unknown };
};

test('the next N requests of a token answer 429 with the error body and no Retry-After; then it is served again', async () => {
  let now = 5_000_000;
  const { gw, base } = await gatewayAt(() => now);
  const channel = await activateChannel(base);
  gw.throttle(TRANSPORT, { count: 2 });
  const first = await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'm1'));
  expect(first).toEqual({ status: 429, retryAfter: null, json: { errors: ['Too Many Requests'] } });
  // Another token is not throttled.
  expect((await call(base, 'GET', '/api/transport/v1/channels', { transport: OTHER_TRANSPORT })).status).toBe(200);
  expect((await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'm1'))).status).toBe(429);
  expect(gw.throttled(TRANSPORT)).toBe(2);
  expect((await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'm1'))).status).toBe(200);
  expect(gw.tooManyRequests(TRANSPORT)).toBe(2);
  // The refused calls are recorded as such.
  expect(gw.calls.filter((c) => c.route === 'transport.message.send').map((c) => c.status)).toEqual([429, 429, 200]);
  now += 1;
  expect(gw.requestsPerSecond(TRANSPORT)).toEqual([{ second: 5000, requests: 4, tooMany: 2, forced: 2, upgrades: 0 }]);
});

test('requests until a time answer 429, only on the routes named; the per-second record counts each second', async () => {
  let now = 7_000_000;
  const { gw, base } = await gatewayAt(() => now);
  const channel = await activateChannel(base);
  gw.throttle(TRANSPORT, { untilMs: now + 1500, routes: ['transport.message.send'] });
  expect((await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'a'))).status).toBe(429);
  // Another route of the same token passes.
  expect((await call(base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT })).status).toBe(200);
  now += 1000;
  expect((await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'a'))).status).toBe(429);
  now += 500;
  expect((await raw(base, '/api/transport/v1/messages', TRANSPORT, customerMessage(channel, 'a'))).status).toBe(200);
  expect(gw.requestsPerSecond(TRANSPORT)).toEqual([
    { second: 7000, requests: 3, tooMany: 1, forced: 1, upgrades: 0 },
    { second: 7001, requests: 2, tooMany: 1, forced: 1, upgrades: 0 },
  ]);
  expect(gw.requestsPerSecond(TRANSPORT, 7_001_200)).toEqual([{ second: 7001, requests: 2, tooMany: 1, forced: 1, upgrades: 0 }]);
  expect(gw.requestsPerSecond(OTHER_TRANSPORT)).toEqual([]);
});

test('past 30 requests in a second the per-second record shows the 429s of the limit (not forced)', async () => {
  let now = 9_000_000;
  const { gw, base } = await gatewayAt(() => now);
  for (let i = 0; i < 32; i++) await call(base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT });
  now += 999;
  expect(gw.requestsPerSecond(TRANSPORT)).toEqual([{ second: 9000, requests: 32, tooMany: 2, forced: 0, upgrades: 0 }]);
  expect(() => gw.throttle(TRANSPORT, {})).toThrow(/count or an untilMs/);
});
