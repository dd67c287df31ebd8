/**
 * A batch (src/cli/batch.ts): many runs, each a row, played by one Playwright runner. The file
 * named by CONFORMANCE_BATCH lists the rows; the Playwright configuration makes each row a
 * project of its own (named `conformance`, as in a run, its row in the project's metadata, one
 * worker), so that a row's tests run in one worker, one session, as `conformance run` runs them.
 * Kept free of heavy imports: the Playwright configuration reads it in every process.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ENV_BATCH = 'CONFORMANCE_BATCH';

/** The line a batch's runner prints when a row's results are written (src/cli/batch.ts reads it), then `{"name","out"}`. */
export const BATCH_ROW_LINE = '@@conformance-batch-row ';

/** One row: its output folder, its run configuration file, its `--grep` as Playwright is given it, the module's environment. */
export interface BatchRow {
  name: string;
  out: string;
  runConfig: string;
  grep?: string;
  env: Record<string, string>;
}

/** The rows of the batch this process belongs to; undefined outside a batch. */
export function readBatch(): BatchRow[] | undefined {
  const file = process.env[ENV_BATCH];
  return file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: BatchRow[] }).rows : undefined;
}

/** The row of a project of a batch (its metadata), if it is one. */
export function batchRowOf(project: { metadata?: unknown }): BatchRow | undefined {
  return (project.metadata as { conformanceRow?: BatchRow } | undefined)?.conformanceRow;
}

/**
 * A `--grep` as Playwright's command line reads it (`/source/flags`, or a case-insensitive
 * expression): the row's project is given the same expression.
 */
export function grepRegExp(grep: string): RegExp {
  const literal = /^\/(.*)\/([gi]*)$/.exec(grep);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(grep, 'gi');
}

/**
 * Written by a row's worker when it has ended (its session judged and stopped, its records
 * written), with the time: the reporter then writes the row's results. A worker Playwright
 * restarted after a spec broke writes it too, before the row's last test; only one written after
 * that test ended counts.
 */
export function batchRowEndedFile(dir: string): string {
  return path.join(dir, 'batch-row-ended.json');
}
