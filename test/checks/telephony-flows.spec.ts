/**
 * The telephony flow rules on canned calls: a call event against what its trigger asked (kind,
 * customer's number), with the wire profile and with the document alone; the module coping with
 * the system's answer to its manager lookup, with a manager or without; and the calls upload
 * asked for by the calls' ids.
 */
import { test, expect } from '@playwright/test';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { InboundCall } from '../../src/simulators/system-endpoints.ts';
import { ensureCallEventPhoneIsAsked, ensureCallEventReportsAskedKind, samePhone, type AskedCallEvent, type CallEventKind } from '../../src/checks/system-api/call-event.ts';
import { ensureManagerLookupCopesWithAnswer } from '../../src/checks/system-api/manager.ts';
import { ensureRequestedItemsArrive } from '../../src/checks/system-api/counts.ts';
import { Triggers } from '../../src/module/triggers.ts';
import type { CallbackClient } from '../../src/client/callback-client.ts';

let n = 0;
function exchange(method: string, path: string, status: number | undefined, body = '{"success":true}'): Exchange {
  return {
    id: `x${++n}`,
    direction: 'module->system',
    label: path,
    startedAt: '',
    durationMs: 1,
    request: { method, url: `http://127.0.0.1:9${path}`, headers: {}, bytes: 10 },
    ...(status === undefined ? {} : { response: { status, headers: {}, body, bytes: body.length } }),
  };
}

function eventCall(event: unknown): InboundCall {
  return { endpoint: 'call.event', exchange: exchange('POST', '/api/v5/telephony/call/event', 200), params: {}, apiKeyVia: ['form'], payload: event, schemaErrors: [], accepted: true, version: 'v5', apiKeyValid: true };
}

const asked = (type: CallEventKind, calls: InboundCall[], profile = true): AskedCallEvent => ({ type, phone: '+34611000001', calls, profile });
const kind = (type: CallEventKind, events: unknown[], profile = true) => ensureCallEventReportsAskedKind.run(asked(type, events.map(eventCall), profile));
const phone = (events: unknown[]) => ensureCallEventPhoneIsAsked.run(asked('in', events.map(eventCall)));

test('each kind reported as asked passes; a module that reports more than asked passes too', async () => {
  for (const type of ['in', 'out', 'hangup'] as const) expect((await kind(type, [{ type, phone: '+34611000001' }])).outcome).toBe('pass');
  expect((await kind('hangup', [{ type: 'in' }, { type: 'hangup' }])).outcome).toBe('pass');
});

test('with the profile an event of another kind fails, naming both kinds; a value outside in, out, hangup is left to the schema check', async () => {
  const swapped = await kind('out', [{ type: 'in' }]);
  expect(swapped.outcome).toBe('fail');
  expect(swapped.received).toBe('an outgoing call (type "out") reported as an incoming call (type "in")');
  expect(swapped.expected).toBe('type "out": an outgoing call');
  expect((await kind('in', [{ type: 'out' }])).outcome).toBe('fail');
  expect((await kind('hangup', [{ type: 'out' }])).outcome).toBe('fail');
  const unknown = await kind('in', [{ type: 'ringing' }]);
  expect(unknown.outcome).toBe('notApplicable');
  expect(unknown.detail).toContain('schema check');
  expect((await kind('in', [{ phone: '+34611000001' }])).outcome).toBe('notApplicable');
});

test('the document alone gives `in` only: an outgoing call or a call end reported as `in` fails, any other value is not judged', async () => {
  expect((await kind('in', [{ type: 'in' }], false)).outcome).toBe('pass');
  const asIn = await kind('out', [{ type: 'in' }], false);
  expect(asIn.outcome).toBe('fail');
  expect(asIn.received).toContain('the document\'s value for an incoming call');
  expect((await kind('hangup', [{ type: 'in' }], false)).outcome).toBe('fail');
  expect((await kind('in', [{ type: 'ringing' }], false)).outcome).toBe('notApplicable');
  expect((await kind('in', [{ type: 'out' }], false)).outcome).toBe('notApplicable');
  expect((await kind('out', [{ type: 'outgoing' }], false)).outcome).toBe('notApplicable');
});

test('nothing readable: not applicable (the payload checks judge the call)', async () => {
  expect((await ensureCallEventReportsAskedKind.run(asked('in', []))).outcome).toBe('notApplicable');
  const undecoded = { ...eventCall(undefined), decodeError: 'form field "event" is missing' };
  expect((await ensureCallEventReportsAskedKind.run(asked('in', [undecoded]))).outcome).toBe('notApplicable');
  expect((await ensureCallEventPhoneIsAsked.run(asked('in', [undecoded]))).outcome).toBe('notApplicable');
});

test("the customer's number in any written form passes; another number fails; a phone that is not text is the schema's", async () => {
  expect((await phone([{ phone: '+34611000001' }])).outcome).toBe('pass');
  expect((await phone([{ phone: '34 611 000 001' }])).outcome).toBe('pass');
  expect((await phone([{ phone: '611000001' }])).outcome).toBe('pass');
  const other = await phone([{ phone: '+4930123456', externalPhone: '+4930123456' }]);
  expect(other.outcome).toBe('fail');
  expect(other.received).toBe('phone "+4930123456"');
  expect(other.expected).toContain('"+34611000001"');
  expect((await phone([{ phone: 34611000001 }])).outcome).toBe('notApplicable');
  expect((await phone([{ type: 'in' }])).outcome).toBe('notApplicable');
});

test('samePhone: the same digits, or a national form of at least 7 digits ending the international one', () => {
  expect(samePhone('+34 611-000-001', '0034611000001')).toBe(true);
  expect(samePhone('611000001', '+34611000001')).toBe(true);
  expect(samePhone('000001', '+34611000001')).toBe(false);
  expect(samePhone('', '')).toBe(false);
  expect(samePhone('+34611000002', '+34611000001')).toBe(false);
});

function managerCall(status: number, body: unknown, accepted = status < 300, method = 'GET'): InboundCall {
  return { endpoint: 'manager', exchange: exchange(method, '/api/v5/telephony/manager', status, JSON.stringify(body)), params: {}, apiKeyVia: ['query'], payload: { phone: '+34911000101' }, schemaErrors: [], accepted, version: 'v5', apiKeyValid: true };
}
const triggerReply = (status: number | undefined, body = '{"success":true}') => ({ status, exchange: exchange('POST', '/dev/triggers/telephony.managerLookup', status, body), ...(status === undefined ? { error: 'timeout' } : {}) });
const copes = (calls: InboundCall[], trigger: ReturnType<typeof triggerReply> | undefined) => ensureManagerLookupCopesWithAnswer.run({ calls, trigger });

const WITH_MANAGER = { success: true, manager: { id: 1, firstName: 'Ana', lastName: 'Garcia', email: 'ana@shop.example.com', code: '101' } };

test('the module copes with both answers: its trigger answers without a server error', async () => {
  const found = await copes([managerCall(200, WITH_MANAGER)], triggerReply(200));
  expect(found.outcome).toBe('pass');
  expect(found.detail).toBe('the system answered a free manager (id 1, code "101"); the trigger answered HTTP 200');
  const none = await copes([managerCall(200, { success: true })], triggerReply(200));
  expect(none.detail).toContain('no manager');
  // What the trigger says otherwise is the vendor's own: `{success: false}` saying none is free, a 404.
  expect((await copes([managerCall(200, { success: true })], triggerReply(200, '{"success":false,"errorMsg":"no free manager"}'))).outcome).toBe('pass');
  expect((await copes([managerCall(200, { success: true })], triggerReply(404))).outcome).toBe('pass');
});

test('a trigger that breaks on the answer (5xx, or no answer at all) fails, naming what the system answered', async () => {
  const crashed = await copes([managerCall(200, { success: true })], triggerReply(502, '{"success":false,"errorMsg":"TypeError"}'));
  expect(crashed.outcome).toBe('fail');
  expect(crashed.received).toContain('the system answered no manager');
  expect(crashed.received).toContain('HTTP 502');
  expect(crashed.evidence).toHaveLength(2);
  const silent = await copes([managerCall(200, WITH_MANAGER)], triggerReply(undefined));
  expect(silent.outcome).toBe('fail');
  expect(silent.received).toContain('no answer (timeout)');
});

test('a lookup the system refused (or none at all) is not the coping rule\'s: the method and payload checks judge it', async () => {
  expect((await copes([], triggerReply(502))).outcome).toBe('notApplicable');
  expect((await copes([managerCall(400, { success: false, errorMsg: 'Parameter "phone" is missing' })], triggerReply(200, '{"success":false}'))).outcome).toBe('notApplicable');
});

test('calls asked for by id: each must arrive under its id, a re-sent one is no fault, a call in its place does not count', async () => {
  const ids = Array.from({ length: 60 }, (_, i) => `call-t-${i}`);
  const upload = (externalIds: string[]): InboundCall => ({
    endpoint: 'calls.upload',
    exchange: exchange('POST', '/api/v5/telephony/calls/upload', 200),
    params: {},
    apiKeyVia: ['form'],
    payload: externalIds.map((externalId) => ({ externalId, recordUrl: `https://m.example/${externalId}.wav` })),
    schemaErrors: [],
    accepted: true,
    version: 'v5',
    apiKeyValid: true,
  });
  const judge = (calls: InboundCall[]) => ensureRequestedItemsArrive.run({ requested: ids, limit: 50, noun: 'calls', calls, key: (c) => String((c as { externalId: unknown }).externalId) });
  expect((await judge([upload(ids.slice(0, 50)), upload(ids.slice(49))])).detail).toContain('1 sent again (call-t-49): a retry, not a fault');
  const dropped = await judge([upload([...ids.slice(1, 50), 'rec_x']), upload(ids.slice(50))]);
  expect(dropped.outcome).toBe('fail');
  expect(dropped.received).toContain('missing: call-t-0');
  expect(dropped.expected).toBe('each of the 60 calls asked for, under the id it was asked by, at most 50 a request');
});

test('the calls upload trigger passes externalIds on only when it sends every parameter or names {externalIds}', () => {
  const client = {} as CallbackClient;
  const t = (spec: Record<string, unknown>) => new Triggers({ 'telephony.callsUpload': spec as never }, client, () => ({}));
  expect(t({ url: 'http://m/t' }).takes('telephony.callsUpload', 'externalIds')).toBe(true);
  expect(t({ url: 'http://m/t', body: { count: '{count}' } }).takes('telephony.callsUpload', 'externalIds')).toBe(false);
  expect(t({ url: 'http://m/t?ids={externalIds}', method: 'GET' }).takes('telephony.callsUpload', 'externalIds')).toBe(true);
});
