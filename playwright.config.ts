import { defineConfig } from '@playwright/test';

/**
 * Two projects:
 * - `selftest`: the suite's own tests (contract artifacts, units, the fault gauntlet), run by `npm test`.
 * - `conformance`: the conformance specs played against a module, run by `conformance run`.
 */
export default defineConfig({
  timeout: 60_000,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CONFORMANCE_WORKERS ? Number(process.env.CONFORMANCE_WORKERS) : 2,
  outputDir: 'reports/test-results',
  reporter: [
    ['list'],
    ['./src/report/summary-line-reporter.ts'],
  ],
  projects: [
    { name: 'selftest', testDir: 'test', testMatch: '**/*.spec.ts' },
    { name: 'conformance', testDir: 'specs', testMatch: '**/*.spec.ts' },
  ],
});
