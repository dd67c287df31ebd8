/**
 * A reporter of the self-tests (playwright.config.ts): at the start of the run it writes the
 * titles of the tests the run holds, so that the gauntlet's shared batch (batch.ts) plays the
 * fault and variation rows this run selected, no more. Run with another `--reporter`, no list
 * is written and each row runs its own `conformance run`, as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';

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

export default class BatchSelection implements Reporter {
  private file = '';

  onBegin(_config: FullConfig, suite: Suite): void {
    this.file = selectionFile(process.pid);
    const titles = [...new Set(suite.allTests().map((t) => t.title))];
    fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(titles));
    fs.renameSync(`${this.file}.tmp`, this.file);
  }

  onEnd(): void {
    fs.rmSync(this.file, { force: true });
  }

  printsToStdio(): boolean {
    return false;
  }
}
