/**
 * The session: one module per run, however many checks fail; callbacks start once the module is
 * ready (a readiness signal, or the settle period and, while the module refuses the activity
 * callback, the settle period again); every callback of a spec is sent once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type TestInfo } from '@playwright/test';
import { referenceConfigFile } from './compiled-module.ts';
import { failedChecks, runSuite, type SuiteRun } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { READINESS_SIGNALS, ROW_TEST_TIMEOUT_MS, SESSION_ROWS, TEN_FAULTS, rowNamed } from './run-rows.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/** The reference module's configuration with some settings changed, written to a temporary file. */
const configWith = (extra: Record<string, unknown>): string => referenceConfigFile(extra);

/** The outcome of a row of run-rows.ts (a row of the shared batch, or the test's own run). */
function rowRun(name: string, testInfo: TestInfo): Promise<SuiteRun> {
  test.setTimeout(ROW_TEST_TIMEOUT_MS);
  return batchedRun('session', SESSION_ROWS, rowNamed(SESSION_ROWS, name), testInfo);
}

test(rowNamed(SESSION_ROWS, 'session-ten-faults').title, async ({}, testInfo) => {
  const run = await rowRun('session-ten-faults', testInfo);
  expect(run.exitCode).toBe(1);
  expect(fs.readFileSync(path.join(run.out, 'internal', 'launches.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  expect(failedChecks(run.results).length).toBe(TEN_FAULTS.length);
});

test(rowNamed(SESSION_ROWS, 'session-ready-late').title, async ({}, testInfo) => {
  const run = await rowRun('session-ready-late', testInfo);
  expect(failedChecks(run.results)).toEqual([]);
  expect(run.exitCode).toBe(0);
  // Readiness: after the settle period the activity callback is refused (403), after one more it is accepted.
  const readiness = run.results!.exchanges.filter((x) => x.label === 'readiness: activity');
  expect(readiness.map((x) => x.response?.status)).toEqual([403, 200]);
  // Probes: the readiness check never counts as the module being reached.
  expect(readiness.every((x) => x.probe === true)).toBe(true);
  const callbacks = run.results!.exchanges.filter((x) => x.direction === 'system->module' && !x.probe && !x.label.startsWith('trigger'));
  expect(callbacks.length).toBeGreaterThan(0);
  expect(callbacks.filter((x) => x.response?.status === 403 || x.response?.status === 401)).toEqual([]);
  // Each callback is sent once: none is sent again.
  expect(callbacks.filter((x) => /again after/.test(x.label))).toEqual([]);
});

for (const [i] of READINESS_SIGNALS.entries()) {
  const name = `session-readiness-${i}`;
  test(rowNamed(SESSION_ROWS, name).title, async ({}, testInfo) => {
    const run = await rowRun(name, testInfo);
    expect(failedChecks(run.results)).toEqual([]);
    expect(run.exitCode).toBe(0);
    const refused = run.results!.exchanges.filter((x) => x.direction === 'system->module' && !x.probe && !x.label.startsWith('trigger') && x.response?.status === 403);
    expect(refused).toEqual([]);
  });
}

for (const parallel of [1, 2]) {
  test(`the run deadline (runTimeoutMs) stops what still runs, marks it, stops the module and writes the report${parallel > 1 ? ' (--parallel 2: the host waits no longer for the attached tests)' : ''}`, async () => {
    const run = await runSuite(['--config', configWith({ runTimeoutMs: 4000 }), '--parallel', String(parallel)], { FAULTS: '' });
    expect([0, 1]).toContain(run.exitCode);
    expect(run.stdout).toMatch(/stopped at the run deadline \(runTimeoutMs 4000\); \d+ conformance test\(s\) did not run to their end/);
    const deadline = (run.results!.run as { deadline?: { reached: boolean; stopped: number } }).deadline;
    expect(deadline?.reached).toBe(true);
    const stopped = run.results!.results.filter((r) => r.status === 'skipped' && r.message.includes('stopped at the run deadline (runTimeoutMs 4000)'));
    expect(stopped.length).toBe(deadline!.stopped);
    expect(stopped.length).toBeGreaterThan(0);
    // (How the module was stopped is recorded when the worker's teardown ends before the report is
    // written; at a deadline Playwright may write the report first, so it is not asserted here:
    // test/gauntlet/process-tree.spec.ts proves no process of a run survives.)
    // Never launched twice. On a loaded machine the deadline may come before the worker launched
    // the module at all (no launches.log): the run is stopped and reported all the same.
    const launches = fs.existsSync(path.join(run.out, 'internal', 'launches.log')) ? fs.readFileSync(path.join(run.out, 'internal', 'launches.log'), 'utf8').trim().split('\n') : [];
    expect(launches.length).toBeLessThanOrEqual(1);
  });
}
