/**
 * Not a spec of a run: the tests of a batch's slots (src/run/batch-row.ts, src/run/batch-slot.ts).
 * Played only when the batch's file gives slots (playwright.config.ts). Each row of the batch is
 * a describe block of its own (`rowTitle`), holding the tests its run selects, spec file by spec
 * file in the order of a run, each in a block named as the file; a slot's project selects its
 * rows' blocks, and its one worker plays them in order, a session for each row.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from './fixtures.ts';
import { CODE_ROOT } from '../src/contract/paths.ts';
import { readBatchFile, rowTitle } from '../src/run/batch-row.ts';
import { declareFile, recordFile, selectsIn, type Declared } from '../src/run/batch-slot.ts';

const batch = readBatchFile();
/** The spec files (from the folder of the Playwright configuration, as the listing names them), loaded once, their declarations recorded. */
const recorded: Array<[string, readonly Declared[]]> = [];
for (const file of batch?.files ?? []) recorded.push([file, await recordFile(() => import(pathToFileURL(path.resolve(CODE_ROOT, file)).href))]);

for (const [i, row] of (batch?.rows ?? []).entries()) {
  const keys = row.tests ? new Set(row.tests) : undefined;
  test.describe(rowTitle(i), () => {
    for (const [file, declared] of recorded) {
      // Named as Playwright names the file in a run (its path in the specs folder).
      if (selectsIn(file, keys)) test.describe(file.replace(/^specs\//, ''), () => declareFile(test, file, declared, keys));
    }
  });
}
