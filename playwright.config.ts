import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { SLOT_ENTRY, grepRegExp, readBatchFile, slotGrep } from './src/run/batch-row.ts';
import { internalOf } from './src/run/output-layout.ts';
import { ATTACHED_METADATA, ATTACHED_SPECS, parallelRun } from './src/run/attach.ts';

/**
 * Two projects:
 * - `selftest`: the suite's own tests (contract artifacts, units, the fault gauntlet), run by `npm test`.
 * - `conformance`: the conformance specs played against a module, run by `conformance run`,
 *   which sets CONFORMANCE_OUT (the output folder) and CONFORMANCE_RUN_CONFIG.
 * A batch of runs (CONFORMANCE_BATCH, src/cli/batch.ts) has a `conformance` project per run instead.
 */
const out = process.env.CONFORMANCE_OUT;
// `.ts` in the repository; `.js` in the installed package, which runs the code built at pack time
// (`dist/playwright.config.js` beside `dist/src/` and `dist/specs/`).
const ext = path.extname(fileURLToPath(import.meta.url));
// A batch (src/cli/batch.ts, CONFORMANCE_BATCH): only the conformance reporter (each row's results,
// written as the row ends). Its rows in slots: each slot a project `conformance` whose one worker
// plays its rows one after the other (specs/batch-slots.ts); else each row a project of its own.
const batchFile = readBatchFile();
const batch = batchFile?.rows;
// Areas at the same time (`conformance run --parallel 2`, src/run/attach.ts): the conformance specs
// in two projects of one worker each, both named `conformance`; the second attaches to the first's session.
const parallel = !batch && !!out && parallelRun();
const attached = ATTACHED_SPECS.map((s) => `${s}${ext}`);
/** The self-tests whose runs are rows of a shared batch (test/gauntlet/batch.ts). */
const BATCHED_SELFTESTS = ['gauntlet/faults.spec.ts', 'gauntlet/variations.spec.ts'];
/**
 * The self-tests that take longest (a minute or more of a worker's time each, their own runs or
 * modules): given out first, so that the short ones fill the workers at the end instead of a long
 * one started last keeping the run going alone (on a fresh clone, the package test, the
 * --parallel 2 runs and the bounded-state floods started in the last two minutes).
 */
const LONG_SELFTESTS = [
  'gauntlet/hostile.spec.ts', 'package/package.spec.ts', 'run/parallel-areas.spec.ts', 'reference-module/reference-module.spec.ts',
  'gauntlet/process-tree.spec.ts', 'gauntlet/modes.spec.ts', 'gauntlet/module-output.spec.ts', 'gauntlet/tls.spec.ts',
  'simulators/bounded-state.spec.ts', 'cli/remote-shard.spec.ts', 'cli/shard.spec.ts',
];

// The conformance project: our console (one line per check result) and the conformance reporter
// (results.json, conformance.html, and junit.xml made from the check results). No Playwright HTML
// report: a failing check does not fail its Playwright test, so it would show a failing run as
// passed. The console reporter comes first: it prints the session's own checks before the
// conformance reporter gathers them.
const reporter: ReporterDescription[] = batch
  ? [[`./src/report/conformance-reporter${ext}`]]
  : out
  ? [
      [`./src/report/console-reporter${ext}`],
      [`./src/report/conformance-reporter${ext}`],
    ]
  : [['list'], [`./src/report/summary-line-reporter${ext}`], ...(ext === '.ts' ? [['./test/gauntlet/batch-selection.ts'] as ReporterDescription] : [])];

export default defineConfig({
  timeout: 60_000,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Self-tests: four workers on two cores (the fault runs wait on their modules as much as they
  // compute: the whole self-test run took 15.7 min on 4 workers, 27.8 CPU-min, the cores 88% busy).
  workers: parallel ? 2 : out ? 1 : process.env.CONFORMANCE_WORKERS ? Number(process.env.CONFORMANCE_WORKERS) : 4,
  outputDir: out ? path.join(internalOf(out), 'test-results') : 'reports/test-results',
  reporter,
  projects: batchFile?.slots
    ? batchFile.slots.map((rows, i) => ({ name: 'conformance', testDir: 'specs', testMatch: `${SLOT_ENTRY}${ext}`, workers: 1, outputDir: path.join(path.dirname(process.env.CONFORMANCE_BATCH!), `slot-${i}`), metadata: { conformanceSlot: i }, grep: slotGrep(rows) }))
    : batch
    ? batch.map((row) => ({ name: 'conformance', testDir: 'specs', testMatch: `**/*.spec${ext}`, workers: 1, outputDir: path.join(row.out, 'test-results'), metadata: { conformanceRow: row }, ...(row.grep !== undefined ? { grep: grepRegExp(row.grep) } : {}) }))
    : parallel
    ? [
        { name: 'conformance', testDir: 'specs', testMatch: `**/*.spec${ext}`, testIgnore: attached, workers: 1 },
        { name: 'conformance', testDir: 'specs', testMatch: attached, workers: 1, metadata: { [ATTACHED_METADATA]: true } },
      ]
    : [
        // The long self-tests first; the gauntlet's fault and variation tests last: their rows play in shared batches started
        // as the run begins (test/gauntlet/batch-selection.ts) while the other tests run, so that by
        // the time these tests wait for their rows' outcomes most have ended.
        { name: 'selftest', testDir: 'test', testMatch: LONG_SELFTESTS },
        { name: 'selftest', testDir: 'test', testMatch: '**/*.spec.ts', testIgnore: [...BATCHED_SELFTESTS, ...LONG_SELFTESTS] },
        { name: 'selftest', testDir: 'test', testMatch: BATCHED_SELFTESTS },
        { name: 'conformance', testDir: 'specs', testMatch: `**/*.spec${ext}` },
      ],
});
