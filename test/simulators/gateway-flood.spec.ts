/**
 * A module flooding the gateway: answered 429 past 30 requests a second per token, its peak
 * rate and what it did after its 429s recorded, the call list and the evidence bounded.
 */
import { test, expect } from '@playwright/test';
import { KEEP_FIRST, KEEP_LAST, KEEP_REFUSED } from '../../src/evidence/exchange.ts';
import { LIST_KEEP_FIRST, LIST_KEEP_LAST } from '../../src/evidence/bounded.ts';
import { call, startGateway, TRANSPORT, type Gateway } from './gateway-harness.ts';

let ctx: Gateway | undefined;
test.afterEach(async () => {
  await ctx?.stop();
  ctx = undefined;
});

const channels = (base: string) => call(base, 'GET', '/api/transport/v1/channels', { transport: TRANSPORT });

test('300 requests in about a second with one token: 429s answered, the peak rate recorded, the module kept sending', async () => {
  ctx = await startGateway();
  const statuses: number[] = [];
  // 30 bursts of 10, one every 33 ms.
  for (let b = 0; b < 30; b++) {
    const started = Date.now();
    statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => channels(ctx!.base)))).map((r) => r.status));
    await new Promise((r) => setTimeout(r, Math.max(0, 33 - (Date.now() - started))));
  }
  expect(statuses.length).toBe(300);
  const refused = statuses.filter((s) => s === 429).length;
  expect(refused).toBeGreaterThan(0);
  expect(ctx.gw.tooManyRequests(TRANSPORT)).toBe(refused);

  const [rate] = ctx.gw.tokenRates();
  expect(rate).toMatchObject({ token: '<redacted:transportToken>', clientId: 'client-transport', requests: 300, tooManyRequests: refused });
  expect(rate!.peakPerSecond).toBeGreaterThan(30);
  expect(rate!.afterTooMany).toMatch(/^kept sending at \d+\/s after its 429s/);

  const [s] = ctx.log.summary();
  expect(s).toMatchObject({ endpoint: 'module->gateway transport.channels.list', count: 300 });
  expect(s!.statuses['429']).toBe(refused);
  expect(s!.peakPerSecond).toBeGreaterThan(30);
  expect(ctx.gw.callCount()).toBe(300);
});

test('a module that waits after its 429 is said to have backed off', async () => {
  ctx = await startGateway();
  await Promise.all(Array.from({ length: 35 }, () => channels(ctx!.base)));
  await new Promise((r) => setTimeout(r, 1100));
  expect((await channels(ctx.base)).status).toBe(200);
  const [rate] = ctx.gw.tokenRates();
  expect(rate!.tooManyRequests).toBe(5);
  expect(rate!.afterTooMany).toMatch(/^backed off: next request after \d+ ms/);
  expect(rate!.longestPauseAfterTooManyMs).toBeGreaterThanOrEqual(1000);
});

test('a flood of 4,000 requests: the gateway counts every call, keeps a bounded list, and the log keeps first, last and refused', async () => {
  test.setTimeout(60_000);
  ctx = await startGateway();
  const total = 4000;
  for (let sent = 0; sent < total; sent += 100) await Promise.all(Array.from({ length: 100 }, () => channels(ctx!.base)));
  expect(ctx.gw.callCount()).toBe(total);
  // The first 2,000 and the last 1,000 kept (dropped ones compacted away by the quarter).
  expect(ctx.gw.calls.length).toBeLessThanOrEqual(Math.ceil((LIST_KEEP_FIRST + LIST_KEEP_LAST) * 4 / 3) + 1);
  const latest = ctx.gw.callsSince(total - 10);
  expect(latest.length).toBe(10);
  const [s] = ctx.log.summary();
  expect(s!.count).toBe(total);
  expect(s!.kept).toBe(KEEP_FIRST + KEEP_LAST + KEEP_REFUSED);
  expect(ctx.log.all().length).toBe(KEEP_FIRST + KEEP_LAST + KEEP_REFUSED);
  expect(s!.kept + s!.dropped).toBe(total);
});
