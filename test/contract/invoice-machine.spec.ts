/** The invoice table as one model: what it allows, and how a reported status is judged. */
import { test, expect } from '@playwright/test';
import { INVOICE_STATUSES, INVOICE_TABLE, afterCallback, afterEvent, allows, judgeReport } from '../../src/contract/invoice-machine.ts';

test('the table: approve only from waitingForCapture, cancel only from pending or waitingForCapture, refund only from succeeded', () => {
  const from = (action: 'approve' | 'cancel' | 'refund'): string[] => INVOICE_STATUSES.filter((s) => allows(s, action));
  expect(from('approve')).toEqual(['waitingForCapture']);
  expect(from('cancel')).toEqual(['pending', 'waitingForCapture']);
  expect(from('refund')).toEqual(['succeeded']);
  expect(afterCallback('waitingForCapture', 'approve')).toBe('succeeded');
  expect(afterCallback('succeeded', 'refund')).toBe('refundSucceeded');
  expect(INVOICE_TABLE).toHaveLength(7);
  for (const row of INVOICE_TABLE) expect(row.ids.length).toBeGreaterThan(0);
});

test('payment events: held leads to waitingForCapture (with a passed check) or succeeded; paid to succeeded; failed to nothing', () => {
  expect(afterEvent('pending', 'held', true)).toEqual(['waitingForCapture', 'succeeded']);
  expect(afterEvent('pending', 'held', false)).toEqual(['succeeded']);
  expect(afterEvent('pending', 'paid', true)).toEqual(['succeeded']);
  expect(afterEvent('pending', 'failed', true)).toEqual([]);
  expect(afterEvent('canceled', 'paid', true)).toEqual([]);
});

test('judging a report: the same state, a due report, a payment after a passed check are legal; the rest names its rule', () => {
  expect(judgeReport({ state: 'pending' }, 'pending')).toEqual({ legal: true, to: 'pending' });
  expect(judgeReport({ state: 'waitingForCapture', awaiting: 'approve' }, 'succeeded')).toEqual({ legal: true, to: 'succeeded' });
  expect(judgeReport({ state: 'pending', event: 'held', check: 'passed' }, 'waitingForCapture')).toEqual({ legal: true, to: 'waitingForCapture' });
  expect(judgeReport({ state: 'pending', event: 'held', check: 'refused' }, 'waitingForCapture').breach?.rule).toBe('hold-without-check');
  expect(judgeReport({ state: 'pending', event: 'held', check: 'none' }, 'waitingForCapture').legal).toBe(false);
  // Legal by the table; the typical flows (a SHOULD) ask for the check first.
  const unchecked = judgeReport({ state: 'pending', event: 'paid', check: 'none' }, 'succeeded');
  expect(unchecked.legal).toBe(true);
  expect(unchecked.breach?.rule).toBe('success-without-check');
  expect(judgeReport({ state: 'canceled', event: 'paid', check: 'passed' }, 'succeeded').breach?.rule).toBe('canceled-paid');
  expect(judgeReport({ state: 'pending', awaiting: 'cancel', event: 'paid', check: 'passed' }, 'succeeded').breach?.rule).toBe('canceled-paid');
  expect(judgeReport({ state: 'pending' }, 'refundSucceeded').breach?.rule).toBe('table');
  expect(judgeReport({ state: 'waitingForCapture' }, 'succeeded').breach?.why).toMatch(/after an acknowledged approve, none sent/);
  expect(judgeReport({ state: 'pending' }, 'paid').breach?.rule).toBe('status');
});
