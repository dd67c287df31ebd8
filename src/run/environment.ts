/**
 * How `conformance run` hands its resolved configuration and output folder to the Playwright
 * process that runs the specs. Run directly (`npx playwright test --project=conformance`),
 * the specs use the embedded default: the reference module, output in `reports/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type ResolvedConfig } from '../module/config.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';
import type { BatchRow } from './batch-row.ts';
import { internalOf } from './output-layout.ts';

export const ENV_CONFIG = 'CONFORMANCE_RUN_CONFIG';
export const ENV_OUT = 'CONFORMANCE_OUT';

/** The working folder of `conformance run` (Playwright runs in the suite's own): what printed paths are relative to. */
export const ENV_CWD = 'CONFORMANCE_CWD';

/** The folder the vendor ran `conformance run` in: paths printed for pasting are relative to it. */
export function vendorCwd(): string {
  return process.env[ENV_CWD] ?? process.cwd();
}

/** The output folder of the run. */
export function outDir(): string {
  return path.resolve(process.env[ENV_OUT] ?? path.join(PACKAGE_ROOT, 'reports'));
}

/** The run's own files' folder in the output folder `dir` (src/run/output-layout.ts). */
export function internalDir(dir: string = outDir()): string {
  return internalOf(dir);
}

/** Written when the run could not start (the module never registered): the reason, for exit code 2. */
export function abortedFile(dir: string = outDir()): string {
  return path.join(internalDir(dir), 'aborted.json');
}

/** The run's configuration (`file`: a row's of a batch, read by the reporter). */
export function runConfig(file: string | undefined = process.env[ENV_CONFIG]): ResolvedConfig {
  if (file) return JSON.parse(fs.readFileSync(file, 'utf8')) as ResolvedConfig;
  return loadConfig(undefined);
}

export function readAborted(dir: string = outDir()): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(abortedFile(dir), 'utf8')) as { reason: string }).reason;
  } catch {
    return undefined;
  }
}

export function writeAborted(reason: string): void {
  fs.mkdirSync(internalDir(), { recursive: true });
  fs.writeFileSync(abortedFile(), JSON.stringify({ reason }));
}

/**
 * In a worker of a batch (src/run/batch-row.ts), before its session starts: the row's output
 * folder, run configuration and module environment become this process's, as `conformance run`
 * gives them to its Playwright. Returns what leaves the row (a slot plays several, one after the other).
 */
export function enterBatchRow(row: BatchRow): () => void {
  const names = [ENV_OUT, ENV_CONFIG, ...Object.keys(row.env)];
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  process.env[ENV_OUT] = row.out;
  process.env[ENV_CONFIG] = row.runConfig;
  for (const [name, value] of Object.entries(row.env)) process.env[name] = value;
  // Left (a slot's next row): the process's environment as it was, nothing of this row's kept.
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
