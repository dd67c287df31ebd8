/**
 * A module that registers again to change itself, or sends an item again (a retry), is not at
 * fault; a module that sends the same registration again and again after success answers, or
 * loses items, is. The rules on canned calls.
 */
import { test, expect } from '@playwright/test';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { InboundCall } from '../../src/simulators/system-endpoints.ts';
import { ensureAcceptedRegistrationIsNotRepeated } from '../../src/checks/registration/edit-call.ts';
import { ensureRequestedItemsArrive } from '../../src/checks/system-api/counts.ts';

let n = 0;
function call(endpoint: InboundCall['endpoint'], payload: unknown, params: Record<string, string> = {}): InboundCall {
  const exchange: Exchange = {
    id: `x${++n}`,
    direction: 'module->system',
    label: endpoint,
    startedAt: '',
    durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:9/api/v5/x', headers: {}, bytes: 10 },
    response: { status: 201, headers: {}, body: '{"success":true}', bytes: 16 },
  };
  return { endpoint, exchange, params, apiKeyVia: ['form'], payload, schemaErrors: [], accepted: true, version: 'v5', apiKeyValid: true };
}

const module = (shops: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  code: 'm',
  name: 'M',
  integrations: { payment: { shops: Array.from({ length: shops }, (_, i) => ({ code: `s${i}`, name: `S${i}`, active: true })) } },
  ...extra,
});
const edit = (payload: unknown): InboundCall => call('edit', payload, { code: 'm' });

test('updates that change the module pass: a shop added, then a name changed', async () => {
  const v = await ensureAcceptedRegistrationIsNotRepeated.run({ accepted: [edit(module(2)), edit(module(3)), edit(module(3, { name: 'M2' }))], prompted: 0 });
  expect(v.outcome).toBe('pass');
  expect(v.detail).toContain('2 update(s)');
});

test('one identical repeat is tolerated; nulls read as absent, key order ignored', async () => {
  const v = await ensureAcceptedRegistrationIsNotRepeated.run({ accepted: [edit(module(2)), edit({ logo: null, ...module(2) })], prompted: 0 });
  expect(v.outcome).toBe('pass');
  expect(v.detail).toContain('1 identical repeat(s)');
});

test('the same registration sent again and again after success answers fails', async () => {
  const v = await ensureAcceptedRegistrationIsNotRepeated.run({ accepted: Array.from({ length: 10 }, () => edit(module(2))), prompted: 0 });
  expect(v.outcome).toBe('fail');
  expect(v.received).toContain('sent 9 more time(s)');
});

test('repeats the registration.repeat trigger asked for are not counted', async () => {
  const v = await ensureAcceptedRegistrationIsNotRepeated.run({ accepted: [edit(module(2)), edit(module(2)), edit(module(2))], prompted: 2 });
  expect(v.outcome).toBe('pass');
});

const items = (ids: string[]): InboundCall => call('calls.upload', ids.map((externalId) => ({ externalId })));
const asked = (calls: InboundCall[], requested = 60) => ({ requested, limit: 50, noun: 'calls', calls, key: (i: unknown) => String((i as { externalId: string }).externalId) });
const ids = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `c${from + i}`);

test('an item sent again (a retry) is named, not failed', async () => {
  const v = await ensureRequestedItemsArrive.run(asked([items(ids(0, 50)), items(['c49', ...ids(50, 60)])]));
  expect(v.outcome).toBe('pass');
  expect(v.detail).toContain('1 sent again (c49)');
});

test('an item missing fails, and so do too few requests', async () => {
  expect((await ensureRequestedItemsArrive.run(asked([items(ids(0, 50)), items(ids(50, 59))]))).outcome).toBe('fail');
  expect((await ensureRequestedItemsArrive.run(asked([items(ids(0, 60))]))).received).toContain('need at least 2');
});
