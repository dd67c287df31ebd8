/**
 * The gauntlet's rows share one Playwright runner start: instead of a whole `conformance run`
 * each, a spec file's rows that this self-test run selected are played by one batch
 * (src/cli/batch.ts), started once per self-test run by the first of its tests to ask (a lock
 * folder named after the Playwright runner all workers share, as `cleanFullRun` does), in a
 * process of its own (batch-driver.ts) that outlives the worker that started it. Each test waits
 * for its own row's outcome, written as soon as that row ends, and reads it as it would read its
 * run's: the same results, the same exit code.
 *
 * A test runs its own `conformance run` instead when the run's list of selected tests is missing
 * (another `--reporter` than the configuration's: batch-selection.ts), on a retry or a repeat.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { TestInfo } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import type { Results } from '../../src/report/results.ts';
import type { RowOutcome } from '../../src/cli/batch.ts';
import { runSuite, type SuiteRun } from './run-suite.ts';

/**
 * A row: the test's title, the arguments of its run but `--out` (made when the batch starts: a
 * row may write its configuration file), the module's environment.
 */
export interface GauntletRow {
  name: string;
  title: string;
  args: () => string[];
  env: Record<string, string>;
}

/** A Playwright runner process, by its pid and start time (a pid alone may be reused). */
export function runnerKey(pid: number): string {
  let started = '';
  try {
    started = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[21] ?? '';
  } catch {
    // not Linux: the runner's pid alone
  }
  return `${pid}-${started}`;
}

/** The file of the tests a self-test run holds: its runner's, read by its workers (their parent). */
export function selectionFile(runnerPid: number): string {
  return path.join(os.tmpdir(), `conformance-selftest-${runnerKey(runnerPid)}.json`);
}

/**
 * Rows of a batch played at once. Two cores: a row is mostly a worker and a module waiting on
 * each other, and the self-test's own workers wait on the rows.
 */
export const BATCH_WORKERS = Number(process.env.CONFORMANCE_BATCH_WORKERS ?? 3);

/** The titles of the tests this self-test run holds; undefined without the list. */
function selectedTitles(): Set<string> | undefined {
  try {
    return new Set(JSON.parse(fs.readFileSync(selectionFile(process.ppid), 'utf8')) as string[]);
  } catch {
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last lines of the batch's log, for a failure's message. */
function logTail(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'driver.log'), 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/** The folder of the shared batch of `group` in the self-test run of this Playwright runner. */
function batchDir(group: string, runnerPid: number): string {
  return path.join(os.tmpdir(), `conformance-batch-${group}-${runnerKey(runnerPid)}`);
}

/**
 * Starts one batch for the rows of `groups` the self-test run selected, each group's outcomes in
 * its own folder (the folder is the group's lock: a group started already is left out): by the
 * batch selection reporter as the run begins (all groups in one batch: one runner, its workers
 * shared, the rows in the order given), or by a group's first test to ask. Returns the groups'
 * folders.
 */
export function startSharedBatches(groups: ReadonlyArray<readonly [string, GauntletRow[]]>, selected: Set<string>, runnerPid: number): string[] {
  const taken: Array<{ dir: string; rows: GauntletRow[] }> = [];
  for (const [group, rows] of groups) {
    const dir = batchDir(group, runnerPid);
    const chosen = rows.filter((r) => selected.has(r.title));
    if (chosen.length === 0) continue;
    try {
      fs.mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      continue;
    }
    taken.push({ dir, rows: chosen });
  }
  if (taken.length > 0) startBatch(taken, runnerPid);
  return taken.map((t) => t.dir);
}

/**
 * Starts the batch of the groups' rows (the caller holds each group's lock): its own files
 * (rows, log, listing) in the first group's folder; each row's output and outcome in its
 * group's folder; the driver's pid in every group's.
 */
function startBatch(groups: Array<{ dir: string; rows: GauntletRow[] }>, runnerPid: number): void {
  const home = groups[0]!.dir;
  const specs = groups.flatMap(({ dir, rows }) => rows.map((r) => ({ name: r.name, args: ['--out', path.join(dir, 'rows', r.name), ...r.args()], env: r.env, outcomes: path.join(dir, 'outcomes') })));
  fs.writeFileSync(path.join(home, 'rows.json'), JSON.stringify({ rows: specs, workers: BATCH_WORKERS, runnerPid, dirs: groups.map((g) => g.dir) }));
  const log = fs.openSync(path.join(home, 'driver.log'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PACKAGE_ROOT, 'test', 'gauntlet', 'batch-driver.ts'), home], { cwd: PACKAGE_ROOT, env: childEnv({}), stdio: ['ignore', log, log] });
  fs.closeSync(log);
  child.unref();
  for (const { dir } of groups) {
    if (dir !== home) fs.symlinkSync(path.join(home, 'driver.log'), path.join(dir, 'driver.log'));
    fs.writeFileSync(path.join(dir, 'driver.json'), JSON.stringify({ pid: child.pid }));
  }
}

/**
 * The run of `row`: its outcome from the shared batch of `group` (the rows of one spec file),
 * or its own `conformance run` when the batch does not hold it (`selected`: the titles of the
 * tests this self-test run holds). Waits no longer than the test's
 * time (less a margin, to say why), and fails at once with the batch's log when the batch
 * ended or died without the row.
 */
export async function batchedRun(group: string, rows: GauntletRow[], row: GauntletRow, testInfo: TestInfo, selected: Set<string> | undefined = selectedTitles()): Promise<SuiteRun> {
  if (!selected?.has(row.title) || testInfo.retry > 0 || testInfo.repeatEachIndex > 0) return runSuite(row.args(), row.env);
  const started = performance.now();
  startSharedBatches([[group, rows]], selected, process.ppid);
  const dir = batchDir(group, process.ppid);
  const outcomeFile = path.join(dir, 'outcomes', `${row.name}.json`);
  const waitMs = Math.max(10_000, (testInfo.timeout || 180_000) - 10_000);
  let outcome: RowOutcome | undefined;
  for (;;) {
    outcome = readJson<RowOutcome>(outcomeFile);
    if (outcome) break;
    const driver = readJson<{ pid: number }>(path.join(dir, 'driver.json'));
    const done = fs.existsSync(path.join(dir, 'done.json'));
    if (done || (driver && !alive(driver.pid))) {
      outcome = readJson<RowOutcome>(outcomeFile);
      if (outcome) break;
      throw new Error(`the shared batch ${group} (${dir}) ${done ? 'ended' : 'died'} without row ${row.name}; its log:\n${logTail(dir)}`);
    }
    const elapsed = performance.now() - started;
    if (elapsed > waitMs) {
      const ended = fs.existsSync(path.join(dir, 'outcomes')) ? fs.readdirSync(path.join(dir, 'outcomes')).length : 0;
      throw new Error(`the shared batch ${group} (${dir}) gave no outcome for row ${row.name} within ${Math.round(elapsed / 1000)} s (${ended} of its rows ended); its log:\n${logTail(dir)}`);
    }
    await sleep(200);
  }
  const results = outcome.out ? readJson<Results>(path.join(outcome.out, 'results.json')) : undefined;
  return { exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr, out: outcome.out ?? '', durationMs: performance.now() - started, ...(results ? { results } : {}) };
}
