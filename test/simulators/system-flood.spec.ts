/**
 * A module flooding the system: every call counted, the call lists bounded per endpoint, and a
 * flow's calls after the flood all kept (the module-calls spec reads them with `callsSince`).
 */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { LIST_KEEP_FIRST, LIST_KEEP_LAST } from '../../src/evidence/bounded.ts';
import { KEEP_FIRST, KEEP_LAST, KEEP_REFUSED } from '../../src/evidence/exchange.ts';
import { startSystem } from './system-harness.ts';

const API_KEY = 'flood-api-key-0123456789';
const BOUND = Math.ceil(((LIST_KEEP_FIRST + LIST_KEEP_LAST) * 4) / 3) + 1;

test('3,500 uploads then a flow of 300: all counted, lists bounded, the flow kept whole', async () => {
  test.setTimeout(90_000);
  const { sim, log } = await startSystem(API_KEY);
  try {
    const upload = async (path = '/api/v5/telephony/calls/upload') => {
      const r = await request(`${sim.url()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ apiKey: API_KEY, calls: JSON.stringify([{ recordUrl: 'http://127.0.0.1:9/r/1' }]) }).toString(),
      });
      await r.body.dump();
      return r.statusCode;
    };
    for (let sent = 0; sent < 3500; sent += 100) await Promise.all(Array.from({ length: 100 }, () => upload()));
    for (let sent = 0; sent < 3500; sent += 100) await Promise.all(Array.from({ length: 100 }, () => upload('/api/v5/nowhere')));
    const since = sim.callCount();
    for (let sent = 0; sent < 300; sent += 50) await Promise.all(Array.from({ length: 50 }, () => upload()));

    expect(sim.callCount()).toBe(3800);
    expect(sim.unsimulatedCount()).toBe(3500);
    expect(sim.calls.length).toBeLessThanOrEqual(BOUND);
    expect(sim.unsimulated.length).toBeLessThanOrEqual(BOUND);
    const flow = sim.callsSince(since);
    expect(flow.length).toBe(300);
    expect(flow.every((c) => c.endpoint === 'calls.upload' && c.accepted)).toBe(true);

    const byEndpoint = Object.fromEntries(log.summary().map((s) => [s.endpoint, s]));
    expect(byEndpoint['module->system calls.upload']).toMatchObject({ count: 3800, kept: KEEP_FIRST + KEEP_LAST, dropped: 3800 - KEEP_FIRST - KEEP_LAST, statuses: { '200': 3800 } });
    expect(byEndpoint['module->system unknown endpoint']).toMatchObject({ count: 3500, kept: KEEP_FIRST + KEEP_LAST + KEEP_REFUSED, statuses: { '404': 3500 } });
  } finally {
    await sim.stop();
  }
});
