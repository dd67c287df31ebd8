/** Runs `conformance run` as a vendor would, in a fresh output folder, and reads what it wrote. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { Results } from '../../src/report/results.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { samplePeakRss } from './process-tree.ts';

export interface SuiteRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  out: string;
  results?: Results;
  /** Wall time of the run. */
  durationMs: number;
  /** With `measure`: the highest summed resident memory of the suite's processes (the module's process group left out). */
  peakRssBytes?: number;
  /** The pid of `conformance run`. */
  pid?: number;
}

/**
 * `measure`: sample the suite's memory while it runs; `root`: the checkout whose
 * `bin/conformance.js` runs (default this one; the benchmark measures an older one too).
 */
export async function runSuite(args: string[], env: Record<string, string | undefined> = {}, options: { measure?: boolean; root?: string } = {}): Promise<SuiteRun> {
  const root = options.root ?? PACKAGE_ROOT;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'bin', 'conformance.js'), 'run', '--out', out, ...args], { cwd: root, env: childEnv(env) });
  const sampler = options.measure && child.pid !== undefined ? samplePeakRss(child.pid) : undefined;
  const exitCode = await new Promise<number>((resolve) => {
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (c) => resolve(c ?? -1));
  });
  const durationMs = performance.now() - started;
  const peakRssBytes = sampler?.stop();
  const file = path.join(out, 'results.json');
  const results = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Results) : undefined;
  return { exitCode, stdout, stderr, out, durationMs, ...(results ? { results } : {}), ...(peakRssBytes !== undefined ? { peakRssBytes } : {}), ...(child.pid !== undefined ? { pid: child.pid } : {}) };
}

/**
 * The clean full run of the reference module (no fault, every area, the default settings), run
 * once per self-test run and shared by the tests that only read it: the first test to ask runs it
 * (a lock folder under the temporary folder, named after the Playwright runner process that all
 * workers share), the others wait for its record.
 */
export async function cleanFullRun(): Promise<SuiteRun> {
  let started = '';
  try {
    started = fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(' ')[21] ?? '';
  } catch {
    // not Linux: the runner's pid alone
  }
  const dir = path.join(os.tmpdir(), `conformance-clean-run-${process.ppid}-${started}`);
  const record = path.join(dir, 'run.json');
  try {
    fs.mkdirSync(dir);
  } catch {
    const deadline = Date.now() + 600_000;
    while (!fs.existsSync(record)) {
      if (Date.now() > deadline) throw new Error(`cleanFullRun: no record in ${dir} after 10 minutes`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return JSON.parse(fs.readFileSync(record, 'utf8')) as SuiteRun;
  }
  const run = await runSuite([], { FAULTS: '' });
  fs.writeFileSync(`${record}.tmp`, JSON.stringify(run));
  fs.renameSync(`${record}.tmp`, record);
  return run;
}

export function failedChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'failed').map((r) => r.check))].sort();
}

export function warningChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'warning').map((r) => r.check))].sort();
}

/** `conformance replay` as a vendor types it, its evidence in a fresh folder. */
export async function runReplay(file: string, env: Record<string, string>): Promise<{ exitCode: number; stdout: string; stderr: string; out: string }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-replay-'));
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'replay', file, '--out', out], { cwd: PACKAGE_ROOT, env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exitCode = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  return { exitCode, stdout, stderr, out };
}
