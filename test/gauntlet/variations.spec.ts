/**
 * Legitimate variations: ways of talking to the platform that official modules use and the real
 * platform accepts (wire profile sections 5, 8 and 9). The reference module with each one is
 * certified exactly as without it: exit 0, no failure, no warning. Each test also shows, in the
 * recorded exchanges, that the variation really happened.
 */
import { test, expect } from '@playwright/test';
import { failedChecks, warningChecks } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { CASES, READS_ORDERS, VARIATION_ROWS as ROWS, pathOf } from './variation-rows.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

for (const [i, c] of CASES.entries()) {
  const row = ROWS[i]!;
  test(row.title, async ({}, testInfo) => {
    const run = await batchedRun('variations', ROWS, row, testInfo);
    expect(run.results, run.stderr).toBeDefined();
    expect(failedChecks(run.results)).toEqual([]);
    expect(warningChecks(run.results)).toEqual(c.expectWarnings ?? []);
    expect(run.results!.summary.passed).toBeGreaterThan(c.passed ?? 40);
    expect(run.exitCode).toBe(0);
    c.witness(run.results!.exchanges);
  });
}

test(READS_ORDERS.title, async ({}, testInfo) => {
  const run = await batchedRun('variations', ROWS, READS_ORDERS, testInfo);
  expect(run.exitCode).toBe(0);
  const infos = run.results!.results.filter((r) => r.status === 'info');
  expect(infos.map((r) => r.check)).toEqual(['checkModuleCallsSimulatedEndpoints']);
  expect(infos[0]!.message).toContain('the module called GET /api/v5/orders, which the suite does not simulate');
  const call = run.results!.exchanges.find((e) => e.direction === 'module->system' && pathOf(e) === '/api/v5/orders')!;
  expect(call.response?.status).toBe(404);
  expect(JSON.parse(call.response!.body!)).toEqual({ success: false, errorMsg: expect.any(String) });
});
