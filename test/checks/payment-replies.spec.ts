/** The payment reply rules on canned replies: create's payment link, refund's refund; what each passes, fails and leaves to another rule. */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { CaseIntent, CaseOutcome } from '../../src/checks/case.ts';
import { absoluteHttpUrl, ensureCreateReturnsPaymentLink, ensureRefundAnswersRefund, paymentIdOf } from '../../src/checks/payment/replies.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../../src/checks/delivery/wrong-input.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { CREATE_VALID, CREATE_WRONG, UNKNOWN_PAYMENT } from '../../src/checks/payment/applications.ts';

function outcome(callback: CallbackName, status: number | undefined, json: unknown, intent: CaseIntent = { kind: 'valid' }, profile = true): CaseOutcome {
  const reply: Reply = { exchange: { id: 'x1' } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), ...(status !== undefined ? { status, json } : { error: 'timeout' }) };
  return { case: { callback, payload: { paymentId: 'P1' }, intent }, reply, module: {}, profile };
}
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => ((await check.run(o)) as { outcome: string }).outcome;
const created = (result: unknown) => outcome('payment.create', 200, { success: true, result });

test('create: a payment link (absolute http or https URL) passes, with a paymentId of text or integer or none', async () => {
  expect(await run(ensureCreateReturnsPaymentLink, created({ paymentId: 'p-1', invoiceUrl: 'https://pay.example.com/i/1', cancellable: true }))).toBe('pass');
  expect(await run(ensureCreateReturnsPaymentLink, created({ paymentId: 42, invoiceUrl: 'http://localhost:8080/pay/42' }))).toBe('pass');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://pay.example.com/i/1' }))).toBe('pass');
  // Unknown extra members are never a failure.
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://pay.example.com/i/1', qr: 'data' }))).toBe('pass');
});

test('create: no link, a link that is not an absolute http(s) URL, a paymentId of another type, or no result fails', async () => {
  expect(await run(ensureCreateReturnsPaymentLink, created({ paymentId: 'p-1', cancellable: true }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ paymentId: 'p-1', invoiceUrl: null }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: '/pay/1' }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'pay.example.com/i/1' }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'ftp://pay.example.com/i/1' }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://' }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 17 }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://pay.example.com/i/1', paymentId: 1.5 }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://pay.example.com/i/1', paymentId: { id: 1 } }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created({ invoiceUrl: 'https://pay.example.com/i/1', cancellable: 'yes' }))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, created('https://pay.example.com/i/1'))).toBe('fail');
  expect(await run(ensureCreateReturnsPaymentLink, outcome('payment.create', 200, { success: true }))).toBe('fail');
});

test('create: an error answer, no answer, or another callback is not its to judge', async () => {
  expect(await run(ensureCreateReturnsPaymentLink, outcome('payment.create', 400, { success: false, errorMsg: 'amount must be greater than 0' }))).toBe('notApplicable');
  expect(await run(ensureCreateReturnsPaymentLink, outcome('payment.create', 200, { success: false, errorMsg: 'currency' }))).toBe('notApplicable');
  expect(await run(ensureCreateReturnsPaymentLink, outcome('payment.create', undefined, undefined))).toBe('notApplicable');
  expect(await run(ensureCreateReturnsPaymentLink, outcome('payment.refund', 200, { success: true, result: {} }))).toBe('notApplicable');
  expect(paymentIdOf({ success: true, result: { paymentId: 12 } })).toBe('12');
  expect(paymentIdOf({ success: true, result: { paymentId: '' } })).toBeUndefined();
  expect(absoluteHttpUrl('HTTPS://pay.example.com')?.hostname).toBe('pay.example.com');
});

test('refund: the refund with each present field of its type passes (none required one by one); a result with none of them is not applicable, never a pass', async () => {
  const refunded = (result: unknown) => outcome('payment.refund', 200, { success: true, result });
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 'rf_1', status: 'succeeded', amount: 20, comment: null }))).toBe('pass');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 7, status: 'pending', amount: 20.5, comment: 'partial' }))).toBe('pass');
  expect(await run(ensureRefundAnswersRefund, refunded({}))).toBe('notApplicable');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 'rf_1', extra: true }))).toBe('pass');
});

test('refund: no result object, or a field of the wrong type, fails; an error, no answer or another callback is not its to judge', async () => {
  const refunded = (result: unknown) => outcome('payment.refund', 200, { success: true, result });
  expect(await run(ensureRefundAnswersRefund, outcome('payment.refund', 200, { success: true }))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, refunded([{ id: 'rf_1' }]))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 1.5 }))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 'rf_1', status: 3 }))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 'rf_1', amount: '20.00' }))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, refunded({ id: 'rf_1', comment: { text: 'x' } }))).toBe('fail');
  expect(await run(ensureRefundAnswersRefund, outcome('payment.refund', 400, { success: false, errorMsg: 'invoice is pending' }))).toBe('notApplicable');
  expect(await run(ensureRefundAnswersRefund, outcome('payment.refund', undefined, undefined))).toBe('notApplicable');
  expect(await run(ensureRefundAnswersRefund, outcome('payment.create', 200, { success: true, result: { invoiceUrl: 'https://x.example.com' } }))).toBe('notApplicable');
});

test('unknown paymentId: refused naming paymentId passes; a success fails; a message that does not name it fails', async () => {
  const unknown: CaseIntent = { kind: 'wrong', field: 'paymentId', why: 'a paymentId the module never gave' };
  const o = (callback: CallbackName, status: number, json: unknown) => outcome(callback, status, json, unknown);
  expect(await run(ensureWrongInputIsRefused, o('payment.cancel', 404, { success: false, errorMsg: 'paymentId "unknown-1" is unknown' }))).toBe('pass');
  expect(await run(ensureErrorNamesTheIncorrectField, o('payment.cancel', 404, { success: false, errorMsg: 'paymentId "unknown-1" is unknown' }))).toBe('pass');
  expect(await run(ensureErrorNamesTheIncorrectField, o('payment.refund', 200, { success: false, errorMsg: 'payment_id not found' }))).toBe('pass');
  expect(await run(ensureWrongInputIsRefused, o('payment.approve', 200, { success: true }))).toBe('fail');
  expect(await run(ensureErrorNamesTheIncorrectField, o('payment.approve', 400, { success: false, errorMsg: 'not found' }))).toBe('fail');
});

test('the payment properties: their checks and ids; one method check over approve, cancel and refund', () => {
  const names = (p: string) => propertyChecks(p, true).map((c) => c.check.name);
  expect(names(CREATE_VALID)).toEqual(expect.arrayContaining(['ensureCreateReturnsPaymentLink', 'ensureActionServedAtItsMethod', 'ensureErrorBodyCarriesErrorMsg']));
  expect(propertyChecks(CREATE_VALID, true).find((c) => c.check.name === 'ensureCreateReturnsPaymentLink')!.app.requirements).toEqual(['PAY-CREATE-RETURNS-PAYMENT-LINK', 'WIRE-PAY-CREATE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']);
  expect(names(CREATE_WRONG)).toEqual(expect.arrayContaining(['ensureWrongInputIsRefused', 'ensureErrorNamesTheIncorrectField']));
  for (const p of [CREATE_VALID, CREATE_WRONG, UNKNOWN_PAYMENT]) expect(new Set(names(p)).size).toBe(names(p).length);
  const method = propertyChecks(UNKNOWN_PAYMENT, true).find((c) => c.check.name === 'ensureActionServedAtItsMethod')!;
  expect(method.app.requirements).toEqual(['PAY-CALLBACKS-POST']);
});

test('the method check of unknown ids judges approve, cancel and refund; a 405 fails', async () => {
  const method = propertyChecks(UNKNOWN_PAYMENT, true).find((c) => c.check.name === 'ensureActionServedAtItsMethod')!.check;
  const unknown: CaseIntent = { kind: 'wrong', field: 'paymentId', why: 'a paymentId the module never gave' };
  for (const cb of ['payment.approve', 'payment.cancel', 'payment.refund'] as const) {
    expect(await run(method, outcome(cb, 404, { success: false, errorMsg: 'paymentId unknown' }, unknown))).toBe('pass');
    expect(await run(method, outcome(cb, 405, { success: false, errorMsg: 'method POST is not allowed' }, unknown))).toBe('fail');
  }
  expect(await run(method, outcome('payment.create', 405, { success: false, errorMsg: 'x' }))).toBe('notApplicable');
});
