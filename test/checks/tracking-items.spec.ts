/**
 * Tracking given the deliveries the run created: each deliveryId asked for must arrive under
 * that id (a re-sent one is no fault); items for other deliveries pushed during the flow (a sync
 * job) are named, not counted against the asked ones. And the trigger passes `deliveryIds` on
 * only when it can. The rules on canned calls.
 */
import { test, expect } from '@playwright/test';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { InboundCall } from '../../src/simulators/system-endpoints.ts';
import { ensureRequestedItemsArrive, type RequestedItems } from '../../src/checks/system-api/counts.ts';
import { Triggers } from '../../src/module/triggers.ts';
import type { CallbackClient } from '../../src/client/callback-client.ts';

let n = 0;
function push(deliveryIds: Array<string | number>): InboundCall {
  const exchange: Exchange = {
    id: `t${++n}`,
    direction: 'module->system',
    label: 'tracking',
    startedAt: '',
    durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:9/api/v5/delivery/generic/m/tracking', headers: {}, bytes: 10 },
    response: { status: 200, headers: {}, body: '{"success":true}', bytes: 16 },
  };
  const payload = deliveryIds.map((deliveryId) => ({ deliveryId, trackNumber: `TN-${deliveryId}`, history: [{ code: 'accepted', updatedAt: '2030-01-01T10:00:00Z' }] }));
  return { endpoint: 'tracking', exchange, params: { subcode: 'm' }, apiKeyVia: ['form'], payload, schemaErrors: [], accepted: true, version: 'v5', apiKeyValid: true };
}

const ids = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
const ASKED = ids('RM', 0, 120);
const subject = (calls: InboundCall[], requested: RequestedItems['requested'] = ASKED): RequestedItems => ({
  requested,
  limit: 100,
  noun: 'orders',
  calls,
  key: (i) => String((i as { deliveryId: unknown }).deliveryId),
});
const judge = (calls: InboundCall[], requested?: RequestedItems['requested']) => ensureRequestedItemsArrive.run(subject(calls, requested));

test('every asked deliveryId arriving, over two requests, passes', async () => {
  const v = await judge([push(ASKED.slice(0, 100)), push(ASKED.slice(100))]);
  expect(v.outcome).toBe('pass');
  expect(v.detail).toBe('the 120 orders asked for in 2 requests (100 + 20)');
});

test('statuses of other deliveries pushed during the flow (a sync job) are named, not counted, and no fault', async () => {
  const v = await judge([push(ASKED.slice(0, 100)), push(ids('DESK', 0, 100)), push([...ASKED.slice(100), 'DESK100'])]);
  expect(v.outcome).toBe('pass');
  expect(v.detail).toContain('the 120 orders asked for in 2 requests (100 + 100 + 21)');
  expect(v.detail).toContain('101 orders not asked for (DESK0, DESK1, DESK2, ...)');
});

test('a re-sent asked item is named as a retry, and a sync that repeats an asked one is no fault either', async () => {
  const v = await judge([push(ASKED.slice(0, 100)), push([...ASKED.slice(99), 'RM5'])]);
  expect(v.outcome).toBe('pass');
  expect(v.detail).toContain('2 sent again (RM5, RM99): a retry, not a fault');
});

test('one asked delivery missing fails, even when another delivery fills its place in the count', async () => {
  const v = await judge([push([...ASKED.slice(1, 100), 'DESK0']), push(ASKED.slice(100))]);
  expect(v.outcome).toBe('fail');
  expect(v.received).toContain('1 of the 120 orders asked for did not arrive (missing: RM0)');
  expect(v.received).toContain('1 orders not asked for (DESK0)');
  // The same calls judged by count (a trigger without deliveryIds) pass: 120 distinct orders.
  expect((await judge([push([...ASKED.slice(1, 100), 'DESK0']), push(ASKED.slice(100))], 120)).outcome).toBe('pass');
});

test('the asked deliveries under ids the module never gave (their track numbers) fail: an item is asked for only by its deliveryId', async () => {
  const v = await judge([push(ASKED.slice(0, 100).map((id) => `TN-${id}`)), push(ASKED.slice(100).map((id) => `TN-${id}`))]);
  expect(v.outcome).toBe('fail');
  expect(v.received).toMatch(/^none of the 120 orders asked for arrived \(missing: RM0, RM1, RM2, \.\.\.\)/);
});

test('a numeric deliveryId is the same id as its text', async () => {
  const v = await judge([push([7, 8])], ['7', '8']);
  expect(v.outcome).toBe('pass');
});

test('no readable request: not applicable (the payload rules judge it)', async () => {
  const call = { ...push([]), payload: { not: 'an array' } };
  expect((await judge([call])).outcome).toBe('notApplicable');
});

test.describe('whether the trigger passes deliveryIds on', () => {
  const client = {} as CallbackClient;
  const takes = (spec: Record<string, unknown>): boolean => new Triggers({ 'delivery.tracking': spec as never }, client, () => ({})).takes('delivery.tracking', 'deliveryIds');
  test('a POST without a body of its own sends every parameter', () => expect(takes({ url: 'http://127.0.0.1/t' })).toBe(true));
  test('a body that names {deliveryIds}', () => expect(takes({ url: 'http://127.0.0.1/t', body: { ids: '{deliveryIds}' } })).toBe(true));
  test('a body with {count} only does not', () => expect(takes({ url: 'http://127.0.0.1/t', body: { count: '{count}' } })).toBe(false));
  test('a GET takes what its url names', () => {
    expect(takes({ method: 'GET', url: 'http://127.0.0.1/t?n={count}' })).toBe(false);
    expect(takes({ method: 'GET', url: 'http://127.0.0.1/t?ids={deliveryIds}' })).toBe(true);
  });
  test('an undeclared trigger takes nothing', () => expect(new Triggers({}, client, () => ({})).takes('delivery.tracking', 'deliveryIds')).toBe(false));
});
