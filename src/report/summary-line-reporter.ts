import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Attachment of a fault-gauntlet test: one row of the detection table, `fault|expected|failed|caught`. */
export const DETECTION_ROW = 'detection-row';

/**
 * Ends a Playwright run with the one line that CI reads: `N passed, N failed, N skipped`.
 * A test counts once, by its final outcome (flaky counts as passed; timed out and
 * interrupted count as failed).
 */
export default class SummaryLineReporter implements Reporter {
  private readonly outcomes = new Map<string, 'passed' | 'failed' | 'skipped'>();
  private readonly rows: string[][] = [];
  /** Failed tests by id: their title path and the head of their first error. */
  private readonly failures = new Map<string, string>();

  onTestEnd(test: TestCase, result: TestResult): void {
    for (const a of result.attachments) if (a.name === DETECTION_ROW && a.body) this.rows.push(a.body.toString('utf8').split('|'));
    const outcome = test.outcome();
    this.outcomes.set(
      test.id,
      outcome === 'skipped' ? 'skipped' : outcome === 'expected' || outcome === 'flaky' ? 'passed' : 'failed',
    );
    if (outcome === 'unexpected') this.failures.set(test.id, failureLine(test, result));
    else this.failures.delete(test.id);
  }

  onEnd(result: FullResult): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const o of this.outcomes.values()) counts[o] += 1;
    // A run that broke before or between tests (a global error) counts as one failure.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    if (this.rows.length > 0) process.stdout.write(`\n${detectionTable(this.rows)}`);
    // The failed tests again, last before the summary: CI keeps only the tail of the log.
    if (this.failures.size > 0) process.stdout.write(`\nFailed tests\n${[...this.failures.values()].join('\n')}\n`);
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}

/** One failed test as `file:line › title (status): head of its first error`, on one line. */
function failureLine(test: TestCase, result: TestResult): string {
  const where = `${test.location.file.replace(/^.*?\/(test|specs)\//, '$1/')}:${test.location.line}`;
  const error = (result.errors[0]?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '').replace(/\s+/g, ' ').trim();
  return `  ${where} › ${test.titlePath().slice(3).join(' › ')} (${result.status}): ${error.slice(0, 400)}`;
}

/** The detection table of the fault gauntlet, as aligned text. */
function detectionTable(rows: string[][]): string {
  const all = [['fault variant', 'expected failing checks', 'failed checks', 'caught'], ...rows.sort((a, b) => a[0]!.localeCompare(b[0]!))];
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const caught = rows.filter((r) => r[3] === 'yes').length;
  return `Detection table (fault gauntlet)\n${line(all[0]!)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${all.slice(1).map(line).join('\n')}\n${caught} of ${rows.length} rows as expected\n`;
}
