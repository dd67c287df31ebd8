/**
 * How `conformance run` hands its resolved configuration and output folder to the Playwright
 * process that runs the specs. Run directly (`npx playwright test --project=conformance`),
 * the specs use the embedded default: the reference module, output in `reports/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type ResolvedConfig } from '../module/config.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';

export const ENV_CONFIG = 'CONFORMANCE_RUN_CONFIG';
export const ENV_OUT = 'CONFORMANCE_OUT';

/** The output folder of the run. */
export function outDir(): string {
  return path.resolve(process.env[ENV_OUT] ?? path.join(PACKAGE_ROOT, 'reports'));
}

/** Written when the run could not start (the module never registered): the reason, for exit code 2. */
export function abortedFile(): string {
  return path.join(outDir(), 'aborted.json');
}

export function runConfig(): ResolvedConfig {
  const file = process.env[ENV_CONFIG];
  if (file) return JSON.parse(fs.readFileSync(file, 'utf8')) as ResolvedConfig;
  return loadConfig(undefined);
}

export function readAborted(): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(abortedFile(), 'utf8')) as { reason: string }).reason;
  } catch {
    return undefined;
  }
}

export function writeAborted(reason: string): void {
  fs.mkdirSync(outDir(), { recursive: true });
  fs.writeFileSync(abortedFile(), JSON.stringify({ reason }));
}
