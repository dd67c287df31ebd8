import { test, expect } from '@playwright/test';
import { apply } from '../../src/checks/apply.ts';
import { defineCheck, fail, pass } from '../../src/checks/check.ts';
import { ensureModuleWasReached } from '../../src/checks/run/module-reached.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';

const failing = defineCheck<number>({ name: 'ensureTestSubjectIsZero', checks: 'the subject is zero', run: (n) => (n === 0 ? pass() : fail(String(n), '0')) });
const ctx = { profile: true, exchange: () => undefined };

test('a MUST rule that does not hold fails; a SHOULD rule warns; a passing rule passes', async () => {
  expect((await apply(failing, 1, { requirements: ['DLV-ACTIONS-UNIQUE-PATH'], severity: 'MUST' }, ctx)).status).toBe('failed');
  expect((await apply(failing, 1, { requirements: ['WIRE-GEN-UNKNOWN-CLIENTID-401-403'], severity: 'SHOULD' }, ctx)).status).toBe('warning');
  expect((await apply(failing, 0, { requirements: ['DLV-ACTIONS-UNIQUE-PATH'], severity: 'MUST' }, ctx)).status).toBe('passed');
});

test('the message says what was checked, received, expected, the ids and how to reproduce', async () => {
  const r = await apply(failing, 7, { requirements: ['DLV-ACTIONS-UNIQUE-PATH'], severity: 'MUST', reproduce: 'curl x' }, ctx);
  expect(r.message).toBe('Checked: the subject is zero.\nReceived: 7\nExpected: 0\nRequirements: DLV-ACTIONS-UNIQUE-PATH (MUST)\nReproduce with: curl x');
});

test('an id the catalogue lacks is a defect of the suite', async () => {
  await expect(apply(failing, 0, { requirements: ['DLV-NO-SUCH-RULE'], severity: 'MUST' }, ctx)).rejects.toThrow(/not in the catalogue/);
});

test('profile checks are skipped when the run uses the document alone', async () => {
  const r = await apply(failing, 1, { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: 'MUST' }, { ...ctx, profile: false });
  expect(r.status).toBe('skipped');
  expect(r.profile).toBe(true);
});

test('a second check with a taken name is refused', () => {
  expect(() => defineCheck({ name: 'ensureTestSubjectIsZero', checks: 'x', run: () => pass() })).toThrow(/already registered/);
});

const x = (over: Partial<Exchange>): Exchange => ({
  id: 'x', direction: 'system->module', label: 'activity', startedAt: '', durationMs: 1, request: { headers: {}, bytes: 0 }, ...over,
});

test('no silent passes: nothing sent, nothing answered, or everything refused fails the run', async () => {
  const ok = { status: 200, headers: {}, bytes: 0 };
  const refused = { status: 403, headers: {}, bytes: 0 };
  const reached = async (exchanges: Exchange[], narrowed?: string) => (await ensureModuleWasReached.run({ exchanges, ...(narrowed ? { narrowed } : {}) })).outcome;
  expect(await reached([])).toBe('fail');
  expect(await reached([x({ error: 'ECONNREFUSED' })])).toBe('fail');
  expect(await reached([x({ response: refused })])).toBe('fail');
  // Probes and triggers do not count as reaching the module.
  expect(await reached([x({ response: ok, probe: true }), x({ label: 'trigger delivery.tracking', response: ok })])).toBe('fail');
  expect(await reached([x({ response: refused }), x({ response: ok })])).toBe('pass');
  // A run narrowed to specs that send no callback is not failed for it; one whose callbacks were all refused still is.
  expect(await reached([], '--grep "tracking"')).toBe('notApplicable');
  expect(await reached([x({ response: refused })], '--grep "activity"')).toBe('fail');
});
