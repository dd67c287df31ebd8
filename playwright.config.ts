import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';

/**
 * Two projects:
 * - `selftest`: the suite's own tests (contract artifacts, units, the fault gauntlet), run by `npm test`.
 * - `conformance`: the conformance specs played against a module, run by `conformance run`,
 *   which sets CONFORMANCE_OUT (the output folder) and CONFORMANCE_RUN_CONFIG.
 */
const out = process.env.CONFORMANCE_OUT;

const reporter: ReporterDescription[] = out
  ? [
      ['list'],
      ['html', { outputFolder: path.join(out, 'playwright-report'), open: 'never' }],
      ['junit', { outputFile: path.join(out, 'junit.xml') }],
      ['./src/report/conformance-reporter.ts'],
    ]
  : [['list'], ['./src/report/summary-line-reporter.ts']];

export default defineConfig({
  timeout: 60_000,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: out ? 1 : process.env.CONFORMANCE_WORKERS ? Number(process.env.CONFORMANCE_WORKERS) : 2,
  outputDir: out ? path.join(out, 'test-results') : 'reports/test-results',
  reporter,
  projects: [
    { name: 'selftest', testDir: 'test', testMatch: '**/*.spec.ts' },
    { name: 'conformance', testDir: 'specs', testMatch: '**/*.spec.ts' },
  ],
});
