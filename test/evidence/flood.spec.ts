/**
 * A flood keeps memory flat: every exchange is counted per endpoint, only the first, the last
 * and the refused ones (up to a cap) are kept whole.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { test, expect } from '@playwright/test';
import { EvidenceLog, KEEP_FIRST, KEEP_LAST, KEEP_REFUSED } from '../../src/evidence/exchange.ts';
import { BoundedList, RateMeter } from '../../src/evidence/bounded.ts';

const N = 50_000;

/** A full garbage collection, so that the heap measured is what is still referenced (other tests of the worker leave garbage). */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** Bound on the heap growth of recording N exchanges (all kept whole, they would take well over 200 MB). */
const HEAP_BOUND = 64 * 1024 * 1024;

test('50,000 exchanges on one endpoint: first, last and refused kept whole, the rest counted exactly, heap flat', () => {
  const log = new EvidenceLog(undefined, 'f');
  const body = 'x'.repeat(2048);
  const t0 = Date.parse('2026-11-22T00:00:00.000Z');
  gc();
  const before = process.memoryUsage().heapUsed;
  const ids: string[] = [];
  let refused = 0;
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    // Every 100th is refused: 500 in all, more than the cap.
    const status = i % 100 === 99 ? 429 : 200;
    if (status === 429) refused++;
    const x = log.record({
      direction: 'module->gateway',
      label: 'messages.send',
      // 5,000 a second.
      startedAt: new Date(t0 + Math.floor(i / 5)),
      durationMs: 1,
      request: { method: 'POST', url: 'http://127.0.0.1:1/api/transport/v1/messages', headers: { 'content-type': 'text/plain' }, body },
      response: { status, headers: { 'content-type': 'text/plain' }, body },
    });
    bytes += 2 * body.length;
    if (i < 3 || i >= N - 3 || i === 5000) ids.push(x.id);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  console.log(`heap grown by ${(grown / 1024 / 1024).toFixed(1)} MB for ${N} exchanges, ${log.all().length} kept`);
  expect(grown).toBeLessThan(HEAP_BOUND);

  const kept = log.all();
  expect(kept.length).toBe(KEEP_FIRST + KEEP_LAST + KEEP_REFUSED);
  expect(kept.filter((x) => x.response!.status === 429).length).toBeGreaterThanOrEqual(KEEP_REFUSED);
  // The first and the last are kept; one in the middle is summarised (get tolerates it).
  for (const id of [...ids.slice(0, 3), ...ids.slice(-3)]) expect(log.get(id)).toBeDefined();
  expect(log.get(ids[3]!)).toBeUndefined();

  const [s] = log.summary();
  expect(s).toEqual({
    endpoint: 'module->gateway messages.send',
    count: N,
    kept: KEEP_FIRST + KEEP_LAST + KEEP_REFUSED,
    dropped: N - (KEEP_FIRST + KEEP_LAST + KEEP_REFUSED),
    bytes,
    firstAt: '2026-11-22T00:00:00.000Z',
    lastAt: new Date(t0 + Math.floor((N - 1) / 5)).toISOString(),
    statuses: { '200': N - refused, '429': refused },
    peakPerSecond: 5000,
  });
});

test('endpoints are counted apart; a transport failure is kept whole like a refusal', () => {
  const log = new EvidenceLog(undefined, 'e');
  const rec = (label: string, status?: number) =>
    log.record({
      direction: 'module->system', label, startedAt: new Date(), durationMs: 1,
      request: { method: 'POST', url: 'http://127.0.0.1:1/x', headers: {} },
      ...(status ? { response: { status, headers: {} } } : { error: 'connection reset' }),
    });
  for (let i = 0; i < 100; i++) rec('edit', 200);
  for (let i = 0; i < 50; i++) rec('edit');
  for (let i = 0; i < 5; i++) rec('calls.upload', 200);
  const byEndpoint = Object.fromEntries(log.summary().map((s) => [s.endpoint, s]));
  expect(byEndpoint['module->system edit']!.statuses).toEqual({ '200': 100, error: 50 });
  expect(byEndpoint['module->system edit']!.kept).toBe(KEEP_FIRST + KEEP_LAST + 50);
  expect(byEndpoint['module->system calls.upload']).toMatchObject({ count: 5, kept: 5, dropped: 0 });
});

test('a bounded list keeps the first and the last per key, counts every item, and reads a flow by position', () => {
  const list = new BoundedList<{ n: number; key: string }>(10, 5);
  for (let i = 0; i < 1000; i++) list.push({ n: i, key: 'flood' }, 'flood');
  const since = list.count;
  for (let i = 0; i < 3; i++) list.push({ n: 1000 + i, key: 'flow' }, 'flow');
  list.push({ n: 2000, key: 'flood' }, 'flood');
  expect(list.count).toBe(1004);
  expect(list.items.length).toBeLessThanOrEqual(10 + 5 + 3 + 300);
  expect(list.kept().filter((x) => x.key === 'flood').map((x) => x.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 996, 997, 998, 999, 2000]);
  expect(list.since(since).map((x) => x.n)).toEqual([1000, 1001, 1002, 2000]);
});

test('the rate meter gives the peak over any one-second window', () => {
  const m = new RateMeter();
  for (let i = 0; i < 10; i++) m.add(i * 200);
  for (let i = 0; i < 40; i++) m.add(5000 + i * 10);
  expect(m.count).toBe(50);
  expect(m.peak).toBe(40);
});
