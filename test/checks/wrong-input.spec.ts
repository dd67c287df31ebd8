/**
 * "Names the incorrect field" read as a person reads it (document, Errors 7): the key in any case
 * and separators, the last segment of its path, its words, or the wrong value quoted in the
 * message; a message that names none of these fails. Canned outcomes only.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseIntent, CaseOutcome } from '../../src/checks/case.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../../src/checks/delivery/wrong-input.ts';

function outcome(callback: CallbackName, status: number | undefined, json: unknown, intent: CaseIntent): CaseOutcome {
  const reply: Reply = { exchange: { id: 'x1' } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), ...(status !== undefined ? { status, json } : { error: 'timeout' }) };
  return { case: { callback, payload: {}, intent }, reply, module: {}, profile: true };
}

const run = async (o: CaseOutcome): Promise<string> => ((await ensureErrorNamesTheIncorrectField.run(o)) as { outcome: string }).outcome;
const named = (field: string, msg: string, value?: unknown, callback: CallbackName = 'delivery.calculate'): Promise<string> =>
  run(outcome(callback, 400, { success: false, errorMsg: msg }, { kind: 'wrong', field, why: 'test', ...(value !== undefined ? { value } : {}) }));

test('the key in any case and with any separators', async () => {
  expect(await named('shipmentDate', 'shipmentDate must not be in the past')).toBe('pass');
  expect(await named('shipmentDate', 'SHIPMENT_DATE is in the past')).toBe('pass');
  expect(await named('shipmentDate', 'Shipment date: in the past')).toBe('pass');
  expect(await named('deliveryDate', 'delivery-date is before today')).toBe('pass');
});

test('the last segment of its path', async () => {
  expect(await named('deliveryAddress.city', 'city is required')).toBe('pass');
  expect(await named('deliveryAddress.city', 'deliveryAddress.city is required')).toBe('pass');
  expect(await named('packages[0].weight', 'Weight must be above zero')).toBe('pass');
});

test('its words, with any separators between them', async () => {
  expect(await named('paymentId', 'payment id not found', undefined, 'payment.approve')).toBe('pass');
  expect(await named('deliveryDate', 'The delivery  date lies in the past')).toBe('pass');
  expect(await named('deliveryDate', 'Delivery / date: 2020-01-01 is gone')).toBe('pass');
});

test('the wrong value quoted in the message', async () => {
  expect(await named('paymentId', 'payment unknown-a000aa0a0a0aaa0a not found', 'unknown-a000aa0a0a0aaa0a', 'payment.approve')).toBe('pass');
  expect(await named('deliveryId', 'delivery "unknown-0123456789abcdef" not found', 'unknown-0123456789abcdef', 'delivery.print')).toBe('pass');
  expect(await named('amount', 'cannot capture -12.5', -12.5, 'payment.approve')).toBe('pass');
  expect(await named('deliveryDate', '2020-01-05 is before today', '2020-01-05 10:00:00')).toBe('pass');
  // A value is a whole token, and long enough to be read as one: -12.5 is not -12.55, 0 is too short.
  expect(await named('amount', 'cannot capture -12.55', -12.5, 'payment.approve')).toBe('fail');
  expect(await named('amount', 'error 0: refused', 0, 'payment.approve')).toBe('fail');
});

test('a message that names nothing of it fails, value or not', async () => {
  expect(await named('paymentId', 'not found', 'unknown-a000aa0a0a0aaa0a', 'payment.approve')).toBe('fail');
  expect(await named('deliveryDate', 'invalid request')).toBe('fail');
  expect(await named('deliveryAddress.city', 'address incomplete')).toBe('fail');
  expect(await named('paymentId', 'payment not found', 'unknown-a000aa0a0a0aaa0a', 'payment.approve')).toBe('fail');
});

test('not applicable: a success, no answer, no message text, an unreadable form field, an open case', async () => {
  const wrong: CaseIntent = { kind: 'wrong', field: 'weight', why: 'a zero weight' };
  expect(await run(outcome('delivery.calculate', 200, { success: true, result: [] }, wrong))).toBe('notApplicable');
  expect(await run(outcome('delivery.calculate', undefined, undefined, wrong))).toBe('notApplicable');
  expect(await run(outcome('delivery.calculate', 400, { success: false, errorMsg: { code: 1 } }, wrong))).toBe('notApplicable');
  expect(await run(outcome('delivery.calculate', 400, { success: false, errorMsg: 'bad' }, { kind: 'wrong', field: 'calculate', why: 'not JSON' }))).toBe('notApplicable');
  expect(await run(outcome('delivery.calculate', 400, { success: false, errorMsg: 'bad' }, { kind: 'open', why: 'a past shipment date' }))).toBe('notApplicable');
});

test('an open case (a past shipment date): a success and a refusal are both right; a 5xx is not the refusal rule\'s to judge', async () => {
  const open: CaseIntent = { kind: 'open', why: 'a shipment date in the past' };
  const refused = async (status: number, json: unknown): Promise<string> => ((await ensureWrongInputIsRefused.run(outcome('delivery.calculate', status, json, open))) as { outcome: string }).outcome;
  expect(await refused(200, { success: true, result: [] })).toBe('notApplicable');
  expect(await refused(400, { success: false, errorMsg: 'shipmentDate in the past' })).toBe('notApplicable');
});
