/**
 * A reporter of the self-tests (playwright.config.ts): at the start of the run it writes the
 * titles of the tests the run holds, and starts the shared batch (batch.ts) of the rows of
 * batched-groups.ts this run selected, no more, so that they play while the other tests
 * run (their tests come last: playwright.config.ts). Run with another `--reporter`, no list
 * is written and each row runs its own `conformance run`, as before.
 */
import fs from 'node:fs';
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { selectionFile, startSharedBatches } from './batch.ts';
import { BATCHED_GROUPS } from './batched-groups.ts';

export default class BatchSelection implements Reporter {
  private file = '';

  onBegin(_config: FullConfig, suite: Suite): void {
    this.file = selectionFile(process.pid);
    const titles = [...new Set(suite.allTests().map((t) => t.title))];
    fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(titles));
    fs.renameSync(`${this.file}.tmp`, this.file);
    // The shared batches start now, beside the other tests, instead of when their first test asks
    // (not for a listing: `--list` runs no test).
    if (process.argv.includes('--list')) return;
    const selected = new Set(titles);
    // One batch, its groups in the order of batched-groups.ts.
    try {
      startSharedBatches(BATCHED_GROUPS, selected, process.pid);
    } catch (e) {
      // each test of a group then starts its group's batch itself, or says why it cannot
      process.stderr.write(`the shared batch did not start: ${(e as Error).message}\n`);
    }
  }

  onEnd(): void {
    fs.rmSync(this.file, { force: true });
  }

  printsToStdio(): boolean {
    return false;
  }
}
