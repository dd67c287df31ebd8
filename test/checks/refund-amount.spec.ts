/**
 * The refund amount rules on canned steps (wire profile section 3: `refund={paymentId, amount?}`,
 * no amount: full): a refund of an amount refunds that amount (answer and report), a refund
 * without one the whole amount paid, which after an approve of an amount is what it captured.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome, InvoiceView } from '../../src/checks/case.ts';
import type { InvoiceReport } from '../../src/simulators/invoices.ts';
import { ensureRefundReturnsAskedAmount, ensureRefundWithoutAmountIsFull } from '../../src/checks/payment/invoice-reports.ts';

let n = 0;
const reply = (status: number, json?: unknown): Reply => ({ exchange: { id: `x${++n}` } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), status, json });
const report = (refundAmount?: number): InvoiceReport => ({ seq: ++n, uuid: 'inv', status: 'refundSucceeded', from: 'succeeded', accepted: true, exchange: `r${n}`, ...(refundAmount !== undefined ? { refundAmount } : {}) });
/** A refund step: the amount asked (none: the whole), what the answer and the report said, the invoice's amount and what was paid. */
function refund(asked: number | undefined, answered: number | undefined, reported: number | undefined, view: Partial<InvoiceView> = {}, r?: Reply): CaseOutcome {
  return {
    case: { callback: 'payment.refund', payload: { paymentId: 'p1', ...(asked !== undefined ? { amount: asked } : {}) }, intent: { kind: 'valid' } },
    reply: r ?? reply(200, { success: true, result: { id: 'r1', status: 'succeeded', ...(answered !== undefined ? { amount: answered } : {}), comment: null } }),
    module: {},
    profile: true,
    invoice: { uuid: 'inv', before: 'succeeded', amount: 40, allowed: ['refundSucceeded'], reports: reported === undefined ? [] : [report(reported)], checks: [], waitedMs: 5, ...view },
  };
}
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome): Promise<string> => ((await check.run(o)) as { outcome: string }).outcome;

test('a refund of a part returns that part: answer and report of the amount asked pass; the whole paid in either fails', async () => {
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, 12.34, 12.34))).toBe('pass');
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, 40, 40))).toBe('fail');
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, 12.34, 40))).toBe('fail');
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, 40, undefined))).toBe('fail');
  // The whole amount named is asked too: it must be what is returned.
  expect(await run(ensureRefundReturnsAskedAmount, refund(40, 40, 40))).toBe('pass');
});

test('the asked-amount rule applies only to an acknowledged refund of an amount that says what it refunded', async () => {
  expect(await run(ensureRefundReturnsAskedAmount, refund(undefined, 40, 40))).toBe('notApplicable');
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, undefined, undefined))).toBe('notApplicable');
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, undefined, undefined, {}, reply(200, { success: false, errorMsg: 'amount too small' })))).toBe('notApplicable');
  const wrong = refund(0, 40, 40);
  expect(await run(ensureRefundReturnsAskedAmount, { ...wrong, case: { ...wrong.case, intent: { kind: 'wrong', field: 'amount', why: 'zero' } } })).toBe('notApplicable');
  // Neither the answer nor the report: only the report gives it.
  expect(await run(ensureRefundReturnsAskedAmount, refund(12.34, undefined, 12.34))).toBe('pass');
});

test('a refund without an amount returns the whole paid: after an approve of a part, what the approve captured', async () => {
  expect(await run(ensureRefundWithoutAmountIsFull, refund(undefined, 25, 25, { paid: 25 }))).toBe('pass');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(undefined, 40, 40, { paid: 25 }))).toBe('fail');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(undefined, 40, 40))).toBe('pass');
  expect(await run(ensureRefundWithoutAmountIsFull, refund(12.34, 12.34, 12.34))).toBe('notApplicable');
});
