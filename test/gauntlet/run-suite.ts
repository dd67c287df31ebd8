/** Runs `conformance run` as a vendor would, in a fresh output folder, and reads what it wrote. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { Results } from '../../src/report/results.ts';
import { childEnv } from '../../src/cli/run.ts';

export interface SuiteRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  out: string;
  results?: Results;
}

export async function runSuite(args: string[], env: Record<string, string | undefined> = {}): Promise<SuiteRun> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  let stdout = '';
  let stderr = '';
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'run', '--out', out, ...args], { cwd: PACKAGE_ROOT, env: childEnv(env) });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (c) => resolve(c ?? -1));
  });
  const file = path.join(out, 'results.json');
  const results = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Results) : undefined;
  return { exitCode, stdout, stderr, out, ...(results ? { results } : {}) };
}

export function failedChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'failed').map((r) => r.check))].sort();
}

export function warningChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'warning').map((r) => r.check))].sort();
}
