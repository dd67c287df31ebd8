/** The chat template verification table as one model: what it allows, and how a module's template call is judged. */
import { test, expect } from '@playwright/test';
import { REJECTION_REASONS, TEMPLATE_TABLE, VERIFICATION_STATUSES, afterUpdateWebhook, judgeContent, judgeReport, judgeUpdate, verdictsFrom } from '../../src/contract/template-machine.ts';

const update = (status: unknown, extra: Record<string, unknown> = {}) => ({ name: 'order_ready', body: 'Hi {{1}}', verification_status: status, ...extra });
const rules = (b: Array<{ rule: string }>) => b.map((x) => x.rule);

test("the table's rows: a new template is verifying; a verdict leads verifying to approved or rejected; resubmission leads rejected back; an approved one stays approved when edited", () => {
  expect(VERIFICATION_STATUSES).toEqual(['approved', 'pending', 'rejected']);
  expect(REJECTION_REASONS).toEqual(['abusive_content', 'incorrect_category', 'invalid_format', 'scam']);
  expect(TEMPLATE_TABLE.find((r) => r.from === 'new')?.to).toBe('pending');
  expect(verdictsFrom('pending')).toEqual(['approved', 'rejected']);
  expect(verdictsFrom('rejected')).toEqual([]);
  expect(afterUpdateWebhook('rejected')).toBe('pending');
  expect(afterUpdateWebhook('approved')).toBe('approved');
  expect(afterUpdateWebhook('pending')).toBe('pending');
  expect(afterUpdateWebhook(undefined)).toBeUndefined();
  for (const row of TEMPLATE_TABLE) expect(row.ids.length).toBeGreaterThan(0);
});

test('a verdict: verifying to approved or rejected is legal, a repeat is no transition, approved to anything is accepted (not shown), rejected leaves only by resubmission', () => {
  expect(judgeUpdate('pending', update('approved'))).toEqual({ breaches: [], to: 'approved' });
  expect(judgeUpdate('pending', update('rejected', { rejection_reason: 'scam' }))).toEqual({ breaches: [], to: 'rejected' });
  // The reason is optional.
  expect(judgeUpdate('pending', update('rejected')).breaches).toEqual([]);
  expect(judgeUpdate('rejected', update('rejected')).breaches).toEqual([]);
  expect(judgeUpdate('pending', update('pending')).breaches).toEqual([]);
  // Transition from approved to other states: not shown - never failed.
  for (const s of VERIFICATION_STATUSES) expect(judgeUpdate('approved', update(s)).breaches).toEqual([]);
  const back = judgeUpdate('rejected', update('approved'));
  expect(rules(back.breaches)).toEqual(['table']);
  expect(back.breaches[0]!.refuse).toBe(true);
  expect(rules(judgeUpdate('rejected', update('pending')).breaches)).toEqual(['table']);
});

test('values outside the contract are refused; quality (profile alone) is recorded, not refused; a missing verdict is refused, a missing name only recorded', () => {
  const declined = judgeUpdate('pending', update('declined'));
  expect(declined.to).toBeUndefined();
  expect(declined.breaches.map((b) => [b.rule, b.refuse])).toEqual([['verification-status', true]]);
  expect(judgeUpdate('pending', update('rejected', { rejection_reason: 'spam' })).breaches.map((b) => [b.rule, b.refuse])).toEqual([['rejection-reason', true]]);
  // An empty or null reason reads as none given.
  expect(judgeUpdate('pending', update('approved', { rejection_reason: '' })).breaches).toEqual([]);
  expect(judgeUpdate('pending', update('approved', { rejection_reason: null })).breaches).toEqual([]);
  expect(judgeUpdate('pending', update('approved', { quality: 'excellent' })).breaches.map((b) => [b.rule, b.refuse])).toEqual([['quality', false]]);
  expect(judgeUpdate('pending', update('approved', { quality: 'high' })).breaches).toEqual([]);
  expect(judgeUpdate('pending', { name: 'n', body: 'b' }).breaches.map((b) => [b.rule, b.refuse])).toEqual([['fields', true]]);
  expect(judgeUpdate('pending', { body: 'b', verification_status: 'approved' }).breaches.map((b) => [b.rule, b.refuse])).toEqual([['fields', false]]);
});

test('content limits: at most 10 quick replies, button types, url buttons with their url, header attachment types and known files of the wrong type or size', () => {
  const plain = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'plain', label: `r${i}` }));
  expect(judgeContent({ buttons: { items: plain(10) } })).toEqual([]);
  expect(rules(judgeContent({ buttons: { items: [...plain(11), { type: 'url', label: 'u', url: 'https://x/{{1}}' }] } }))).toEqual(['quick-replies']);
  expect(rules(judgeContent({ buttons: { items: [{ type: 'link', label: 'l' }] } }))).toEqual(['button-type']);
  expect(rules(judgeContent({ buttons: { items: [{ type: 'url', label: 'l' }] } }))).toEqual(['url-button']);
  expect(judgeContent({ buttons: { items: [{ type: 'phone', label: 'call', phone: '+4930123456' }] } })).toEqual([]);
  expect(rules(judgeContent({ attachments: { type: 'audio' } }))).toEqual(['attachment-type']);
  const files = (id: string) => (id === 'big' ? { size: 6 * 1024 * 1024, mime: 'image/png' } : id === 'gif' ? { size: 10, mime: 'image/gif' } : id === 'pdf' ? { size: 50 * 1024 * 1024, mime: 'application/pdf' } : undefined);
  expect(rules(judgeContent({ attachments: { type: 'image', id: 'big' } }, files))).toEqual(['attachment-type']);
  expect(rules(judgeContent({ attachments: { type: 'image' }, examples: { attachments: [{ id: 'gif', caption: '' }] } }, files))).toEqual(['attachment-type']);
  expect(judgeContent({ attachments: { type: 'document', id: 'pdf' } }, files)).toEqual([]);
  // A file the gateway does not know is not judged.
  expect(judgeContent({ attachments: { type: 'video', id: 'unknown' } }, files)).toEqual([]);
});

test('a report: a new template in any of the three states, its code required', () => {
  for (const s of VERIFICATION_STATUSES) expect(judgeReport({ code: 'c', name: 'n', type: 'text', body: 'b', verification_status: s })).toEqual({ breaches: [], to: s });
  const noCode = judgeReport({ name: 'n', body: 'b', verification_status: 'approved' });
  expect(noCode.breaches.map((b) => [b.rule, b.refuse])).toEqual([['fields', true]]);
});
