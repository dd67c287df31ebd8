/**
 * One verdict, one story: a run narrowed by --grep judges what it selected, names what its
 * selection left out and the declared triggers it never used, and is never CONFORMANT; the
 * console, the page and results.json count the same things the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { cleanFullRun, failedChecks, runSuite } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { NARROWED_ROWS, ROW_TEST_TIMEOUT_MS } from './run-rows.ts';
import { summaryText } from '../../src/report/results.ts';
import { verdictText } from '../../src/report/coverage.ts';
import { escapeHtml } from '../../src/report/page-text.ts';
import { listConformanceTests } from '../../src/cli/listing.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test(NARROWED_ROWS[0]!.title, async ({}, testInfo) => {
  test.setTimeout(ROW_TEST_TIMEOUT_MS);
  const run = await batchedRun('narrowed', NARROWED_ROWS, NARROWED_ROWS[0]!, testInfo);
  expect(run.results, run.stderr).toBeDefined();
  expect(failedChecks(run.results)).toEqual([]);
  expect(run.exitCode).toBe(0);
  const r = run.results!;
  const c = r.coverage!;
  expect(c.verdict).toBe('PASS');
  expect(c.narrowed).toEqual({ grep: 'tracking', selected: 1, total: expect.any(Number) });
  expect(r.run.selection!.leftOutTests).toContain('activity callback › the module acknowledges activity');
  // The requirements only the tests left out cover are counted apart, not as "not yet covered".
  expect(c.groups.leftOut.ids).toEqual(expect.arrayContaining(['WIRE-REG-ACTIVITY-REPLY-SUCCESS', 'TEL-UPLOAD-MAX-50', 'REG-REGISTER-VIA-EDIT']));
  expect(c.groups.notCovered.ids).not.toContain('TEL-UPLOAD-MAX-50');
  expect(c.groups.leftOut.ids).not.toContain('DLV-TRACKING-MAX-100');
  expect(c.tested).toBeGreaterThan(0);
  // The selected test reached the module (tracking first saves its deliveries through the module's save):
  // the rule holds. A selection that sends no callback leaves it not applicable (test/checks/apply.spec.ts).
  expect(r.results.find((x) => x.check === 'ensureModuleWasReached')!.status).toBe('passed');
  // The declared triggers the selection never fired are named.
  expect(c.unusedTriggers).toEqual(expect.arrayContaining(['telephony.callsUpload', 'payment.notify']));
  expect(c.unusedTriggers).not.toContain('delivery.tracking');
  expect(run.stdout).toContain('conformance: PASS (no MUST failure) in a run narrowed by --grep "tracking"');
  expect(run.stdout).toMatch(/left out by the selection/);
  expect(run.stdout).toMatch(/declared triggers never used by the selected tests: [^(]*payment\.notify/);
  expect(run.stdout).not.toContain('CONFORMANT');
  // The console's tally is results.json's.
  expect(run.stdout).toContain(summaryText(r.summary));
});

test('a run whose run-level rule fails: the console names the rule and counts it as results.json and the page do', async () => {
  // The registration area: its only callbacks are activity's, which the fault takes away.
  const run = await runSuite(['--area', 'registration'], { FAULTS: 'activity-action-missing' });
  expect(run.exitCode).toBe(1);
  const r = run.results!;
  expect(run.stdout).toMatch(/\nrun\n {2}FAIL ensureModuleWasReached \[suite rule\]/);
  expect(run.stdout).toContain(summaryText(r.summary));
  expect(r.summary.failed).toBe(r.coverage!.failedChecks);
  // The verdict counts requirements, and the suite rules that failed beside them (ensureModuleWasReached among them).
  const c = r.coverage!;
  expect(c.failedRules).toBeGreaterThanOrEqual(1);
  const failedParts = [...(c.failed > 0 ? [`${c.failed} requirement${c.failed === 1 ? '' : 's'}`] : []), `${c.failedRules} suite rule${c.failedRules === 1 ? '' : 's'}`];
  expect(run.stdout).toContain(`FAIL (${failedParts.join(' and ')} failed)`);
  // The page's matrix counts what the coverage counts; its verdict is the coverage's line.
  const page = fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8');
  const total = /<tr id="matrix-total">.*<\/tr>/.exec(page)?.[0] ?? '';
  const cellOf = (col: string): string | undefined => new RegExp(`data-col="${col}">(?:<button[^>]*>)?(\\d+)<`).exec(total)?.[1];
  expect([cellOf('applicable'), cellOf('tested'), cellOf('notTested')]).toEqual([c.applicable, c.tested, c.notTested].map(String));
  expect(page).toContain(`id="verdict-text">${escapeHtml(verdictText(c))}<`);
  expect(page).toContain(summaryText(r.summary));
});

test('a full run of the bundled configuration uses every trigger it declares', async () => {
  const run = await cleanFullRun();
  expect(run.exitCode).toBe(0);
  // Naming the unused ones is proven on canned data (test/report/coverage.spec.ts); the bundled configuration declares none.
  expect(run.results!.coverage!.unusedTriggers).toEqual([]);
  expect(run.stdout).not.toContain('never used');
  // Its page is well under 1 MB: passing cases counted, the traffic per endpoint, no exchange of a pass.
  expect(fs.statSync(path.join(run.out, 'conformance.html')).size).toBeLessThan(1024 * 1024);
  // Every id a test credits is among those it declares it covers (what a narrowed run leaves out rests on them).
  const listed = await listConformanceTests(undefined, run.out);
  const declared = new Map(listed!.map((t) => [t.title.replaceAll(' › ', ' > '), new Set(t.covers)]));
  expect(declared.size).toBeGreaterThan(20);
  const undeclared = run.results!.results.filter((x) => declared.has(x.spec ?? '')).flatMap((x) => x.requirements.filter((id) => !declared.get(x.spec!)!.has(id)).map((id) => `${x.spec}: ${id}`));
  expect([...new Set(undeclared)]).toEqual([]);
});
