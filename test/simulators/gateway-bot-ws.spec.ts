/**
 * The bot WebSocket's upgrade attempts and refusal mode (issue 25, item 5): every upgrade request
 * is kept with its time, path, token and answer; `refuseBotUpgrades(ms)` answers 503 with the
 * gateway's error body to every upgrade for that long, whatever the token, and then accepts again.
 */
import { test, expect } from '@playwright/test';
import WebSocket from 'ws';
import { BOT, startGateway, type Gateway } from './gateway-harness.ts';

const running: Gateway[] = [];
test.afterEach(async () => {
  for (const g of running.splice(0)) await g.stop();
});

function upgrade(base: string, token: string | undefined, path = '/api/bot/v1/ws?events=message_new'): Promise<{ status: number; body: string; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, token === undefined ? {} : { headers: { 'X-Bot-Token': token } });
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.on('error', () => undefined);
    ws.on('open', () => resolve({ status: 101, body: '', ws }));
  });
}

test('every upgrade request is kept as an attempt: time, token kind, status, exchange', async () => {
  const g = await startGateway();
  running.push(g);
  const t0 = performance.timeOrigin + performance.now();
  expect((await upgrade(g.base, undefined)).status).toBe(401);
  expect((await upgrade(g.base, 'not-a-token')).status).toBe(401);
  expect((await upgrade(g.base, BOT, '/api/bot/v1/websocket?events=a')).status).toBe(404);
  const ok = await upgrade(g.base, BOT);
  expect(ok.status).toBe(101);
  ok.ws!.close();
  const attempts = g.gw.botUpgradeAttempts();
  expect(attempts.map((a) => [a.token, a.status])).toEqual([
    ['missing', 401],
    ['unknown', 401],
    ['bot', 404],
    ['bot', 101],
  ]);
  expect(attempts.every((a) => a.at >= t0)).toBe(true);
  expect(attempts[3]!.botToken).toBe(BOT);
  expect(attempts[3]!.exchange.id).toBe(g.gw.botConnections()[0]!.exchange.id);
  expect(attempts[2]!.url).toBe('/api/bot/v1/websocket?events=a');
  expect(g.gw.botUpgradeAttempts(attempts[3]!.at)).toHaveLength(1);
});

test('refuseBotUpgrades: 503 with the error body for every upgrade while it lasts, then accepted again', async () => {
  const g = await startGateway();
  running.push(g);
  const until = g.gw.refuseBotUpgrades(400);
  expect(until).toBeGreaterThan(Date.now());
  const refused = await upgrade(g.base, BOT);
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.body)).toEqual({ errors: [expect.any(String)] });
  // Whatever the token; a wrong path is still 404.
  expect((await upgrade(g.base, undefined)).status).toBe(503);
  expect((await upgrade(g.base, BOT, '/api/bot/v1/nope?events=a')).status).toBe(404);
  expect(g.gw.botConnections()).toHaveLength(0);
  await expect.poll(async () => (await upgrade(g.base, BOT)).status, { timeout: 3000 }).toBe(101);
  expect(g.gw.botUpgradeAttempts().filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(2);
  // 0 ends a refusal at once.
  g.gw.refuseBotUpgrades(60_000);
  expect((await upgrade(g.base, BOT)).status).toBe(503);
  g.gw.refuseBotUpgrades(0);
  const again = await upgrade(g.base, BOT);
  expect(again.status).toBe(101);
  again.ws!.close();
});
