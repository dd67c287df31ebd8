/**
 * A batch (src/cli/batch.ts): many runs, each a row, played by one Playwright runner. The file
 * named by CONFORMANCE_BATCH lists the rows and their slots; the Playwright configuration makes
 * each slot a project (named `conformance`, as in a run, one worker) whose worker plays its rows
 * one after the other, each row's tests in one session, as `conformance run` runs them
 * (src/run/batch-slot.ts). Kept free of heavy imports: the Playwright configuration reads it in
 * every process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { internalOf } from './output-layout.ts';

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
  /** Played in a slot: the tests its run selects (`testKey`, in the order of a run); all when absent. */
  tests?: string[];
}

/**
 * A batch's file. Without `slots`, each row is a project of its own, for the batch's listing of
 * what each row selects (no test is played so). With `slots`, rows share workers: each slot is a project `conformance` whose one
 * worker plays its rows one after the other (`SLOT_ENTRY`: every row's selected tests, each
 * row in a describe block of its own, `rowTitle`), each row with its own session and module.
 */
export interface BatchFile {
  rows: BatchRow[];
  /** The rows of each slot (their indexes in `rows`), in the order played. */
  slots?: number[][];
  /** The conformance spec files, relative to the package root, in the order of a run. */
  files?: string[];
}

/** The file of the batch this process belongs to; undefined outside a batch. */
export function readBatchFile(): BatchFile | undefined {
  const file = process.env[ENV_BATCH];
  return file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BatchFile) : undefined;
}

/** The rows of the batch this process belongs to; undefined outside a batch. */
export function readBatch(): BatchRow[] | undefined {
  return readBatchFile()?.rows;
}

/** The spec file (in `specs/`, without its extension) that declares the rows of a batch's slots. */
export const SLOT_ENTRY = 'batch-slots';

/** The title of the describe block of a row in a slot (the `i`th row of the batch): what a slot's project selects by. */
export const rowTitle = (i: number): string => `\u27e6row ${i}\u27e7`;

/** The Playwright `grep` of a slot: its rows' blocks. */
export const slotGrep = (rows: readonly number[]): RegExp => new RegExp(` \u27e6row (?:${rows.join('|')})\u27e7 `);

/** A test as the listing names it, to choose a row's tests in a slot: its file (from the package root) and its title path in it. */
export const testKey = (file: string, titles: readonly string[]): string => [file, ...titles].join(' \u203a ');

/**
 * The row a title path (Playwright's, of a test or a test's info) belongs to in a slot, and the
 * title path as the row's own run would have it (without the slot's file, row and file blocks:
 * the spec file's title takes the row block's place). Outside a slot: the title path as it is.
 */
export function slotTitlePath(titlePath: readonly string[]): { row?: number; titlePath: string[] } {
  const at = titlePath.findIndex((t) => /^\u27e6row \d+\u27e7$/.test(t));
  if (at < 1) return { titlePath: [...titlePath] };
  return { row: Number(/\d+/.exec(titlePath[at]!)![0]), titlePath: [...titlePath.slice(0, at - 1), ...titlePath.slice(at + 1)] };
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
  return path.join(internalOf(dir), 'batch-row-ended.json');
}
