/**
 * The invoice-report rules of payment steps on canned steps (what the model allowed and
 * required, and what the system made of each update-invoice), and the refusal probe's
 * `reported` observation: each breach owned by exactly one check.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { CaseIntent, CaseOutcome, InvoiceView, Observation } from '../../src/checks/case.ts';
import type { InvoiceReport } from '../../src/simulators/invoices.ts';
import { ensureActionIsReported, ensureCanceledInvoiceTakesNoPayment, ensureHoldFollowsPassedCheck, ensureInvoiceReportsFollowTable, ensureSuccessFollowsPassedCheck } from '../../src/checks/payment/invoice-reports.ts';
import { ensureRefusalLeftNoEffect } from '../../src/checks/callbacks/refusal-effect.ts';

let n = 0;
function reply(status: number, json?: unknown): Reply {
  return { exchange: { id: `x${++n}` } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), status, json };
}
const report = (status: string, from: InvoiceReport['from'], accepted = true, breach?: InvoiceReport['breach']): InvoiceReport => ({ seq: ++n, uuid: 'inv', status, from, accepted, exchange: `r${n}`, ...(breach ? { breach } : {}) });
function step(callback: CallbackName, r: Reply, v: Partial<InvoiceView>, extra: Partial<CaseOutcome> = {}, intent: CaseIntent = { kind: 'valid' }): CaseOutcome {
  return { case: { callback, payload: { paymentId: 'p1' }, intent }, reply: r, module: {}, profile: true, invoice: { uuid: 'inv', before: 'pending', allowed: [], reports: [], checks: [], waitedMs: 10, ...v }, ...extra };
}
const ok = reply(200, { success: true });
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => ((await check.run(o)) as { outcome: string }).outcome;
const ALL = [ensureInvoiceReportsFollowTable, ensureHoldFollowsPassedCheck, ensureSuccessFollowsPassedCheck, ensureCanceledInvoiceTakesNoPayment, ensureActionIsReported];
const failing = async (o: CaseOutcome): Promise<string[]> => {
  const out: string[] = [];
  for (const c of ALL) if ((await run(c, o)) === 'fail') out.push(c.name);
  return out;
};

test('an approve of a held invoice acknowledged and reported succeeded passes; not reported, or answered with an error, fails ensureActionIsReported alone', async () => {
  const need = { statuses: ['succeeded' as const], because: 'approve' as const };
  expect(await run(ensureActionIsReported, step('payment.approve', ok, { before: 'waitingForCapture', allowed: ['succeeded'], required: need, reports: [report('succeeded', 'waitingForCapture')] }))).toBe('pass');
  expect(await failing(step('payment.approve', ok, { before: 'waitingForCapture', allowed: ['succeeded'], required: need }))).toEqual(['ensureActionIsReported']);
  expect(await failing(step('payment.approve', reply(400, { success: false, errorMsg: 'no' }), { before: 'waitingForCapture', allowed: ['succeeded'], required: need }))).toEqual(['ensureActionIsReported']);
});

test('a report outside the table fails ensureInvoiceReportsFollowTable alone (the due report is then not judged)', async () => {
  const need = { statuses: ['succeeded' as const], because: 'approve' as const };
  const o = step('payment.approve', ok, { before: 'waitingForCapture', allowed: ['succeeded'], required: need, reports: [report('canceled', 'waitingForCapture', false, { rule: 'table', why: 'waitingForCapture -> canceled' })] });
  expect(await failing(o)).toEqual(['ensureInvoiceReportsFollowTable']);
  expect(await run(ensureActionIsReported, o)).toBe('notApplicable');
  // Accepted by the system, but not what a forbidden approve may lead to.
  expect(await failing(step('payment.approve', ok, { before: 'pending', allowed: [], reports: [report('succeeded', 'pending', true, { rule: 'success-without-check', why: 'x' })] }, {}, { kind: 'open', why: 'forbidden' }))).toEqual(['ensureInvoiceReportsFollowTable']);
});

test('a hold without a passed check fails ensureHoldFollowsPassedCheck alone; a success without one fails ensureSuccessFollowsPassedCheck alone', async () => {
  const trig = { trigger: 'payment.notify (held)' };
  const held = step('payment.create', ok, { event: 'held', allowed: ['waitingForCapture', 'succeeded'], required: { statuses: ['waitingForCapture', 'succeeded'], because: 'held' }, reports: [report('waitingForCapture', 'pending', false, { rule: 'hold-without-check', why: 'waitingForCapture reported without a payment/check' })] }, trig);
  expect(await failing(held)).toEqual(['ensureHoldFollowsPassedCheck']);
  const paid = step('payment.create', ok, { event: 'paid', allowed: ['succeeded'], required: { statuses: ['succeeded'], because: 'paid' }, reports: [report('succeeded', 'pending', true, { rule: 'success-without-check', why: 'without a payment/check' })] }, { trigger: 'payment.notify (paid)' });
  expect(await failing(paid)).toEqual(['ensureSuccessFollowsPassedCheck']);
  const good = step('payment.create', ok, { event: 'paid', allowed: ['succeeded'], required: { statuses: ['succeeded'], because: 'paid' }, reports: [report('succeeded', 'pending')] }, { trigger: 'payment.notify (paid)' });
  expect(await failing(good)).toEqual([]);
  expect(await run(ensureSuccessFollowsPassedCheck, good)).toBe('pass');
  // A trigger that failed: the report it would have led to is not required.
  expect(await run(ensureActionIsReported, step('payment.create', reply(500, { success: false }), { event: 'paid', allowed: ['succeeded'], required: { statuses: ['succeeded'], because: 'paid' } }, { trigger: 'payment.notify (paid)' }))).toBe('notApplicable');
});

test('a payment of a canceled invoice reported fails ensureCanceledInvoiceTakesNoPayment alone; not reported, it passes', async () => {
  const trig = { trigger: 'payment.notify (paid)' };
  expect(await failing(step('payment.create', ok, { before: 'canceled', event: 'paid', reports: [report('succeeded', 'canceled', false, { rule: 'canceled-paid', why: 'succeeded reported for a canceled invoice' })] }, trig))).toEqual(['ensureCanceledInvoiceTakesNoPayment']);
  expect(await run(ensureCanceledInvoiceTakesNoPayment, step('payment.create', reply(400, { success: false, errorMsg: 'canceled' }), { before: 'canceled', event: 'paid' }, trig))).toBe('pass');
});

test('a refused step: its reports belong to the refusal probe; the follow-up decides', async () => {
  const refused: CaseIntent = { kind: 'refused', clientId: 'unknown' };
  const obs = (o: Partial<Extract<Observation, { kind: 'reported' }>>): Observation => ({ kind: 'reported', what: 'a payment of the invoice told after it', expected: 'succeeded', during: [], trigger: ok, reportedAfter: [], waitedMs: 5, acknowledged: true, ...o });
  const base = (observation: Observation, r = reply(401, { success: false, errorMsg: 'unknown clientId' })) => step('payment.cancel', r, { reports: observation.kind === 'reported' ? observation.during : [] }, { observation, accepted: 'x0' }, refused); // an authorised cancel was accepted in the run (a refusal's credit rests on it)
  expect(await run(ensureRefusalLeftNoEffect, base(obs({ reportedAfter: [report('succeeded', 'pending')] })))).toBe('pass');
  expect(await run(ensureRefusalLeftNoEffect, base(obs({ during: [report('canceled', 'pending', false, { rule: 'table', why: 'x' })] })))).toBe('fail');
  expect(await run(ensureRefusalLeftNoEffect, base(obs({ acknowledged: false, trigger: reply(400, { success: false, errorMsg: 'invoice canceled' }) })))).toBe('fail');
  expect(await run(ensureRefusalLeftNoEffect, base(obs({})))).toBe('notApplicable');
  // None of the report rules judges a refused step.
  expect(await failing(base(obs({ during: [report('canceled', 'pending', false, { rule: 'table', why: 'x' })] })))).toEqual([]);
});

test('a refund without an amount refunds the whole invoice: in its answer and in its report', async () => {
  const { ensureRefundWithoutAmountIsFull } = await import('../../src/checks/payment/invoice-reports.ts');
  const refund = (amount: number, reported?: number, payload: Record<string, unknown> = { paymentId: 'p1' }): CaseOutcome => ({
    ...step('payment.refund', reply(200, { success: true, result: { id: 'r1', status: 'succeeded', amount, comment: null } }), { before: 'succeeded', amount: 40, allowed: ['refundSucceeded'], reports: reported === undefined ? [] : [{ ...report('refundSucceeded', 'succeeded'), refundAmount: reported }] }),
    case: { callback: 'payment.refund', payload, intent: { kind: 'valid' } },
  });
  expect(await run(ensureRefundWithoutAmountIsFull, refund(40, 40))).toBe('pass');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(20))).toBe('fail');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(40, 20))).toBe('fail');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(20, 20, { paymentId: 'p1', amount: 20 }))).toBe('notApplicable');
});
