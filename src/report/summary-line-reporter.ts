import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Ends a Playwright run with the one line that CI reads: `N passed, N failed, N skipped`.
 * A test counts once, by its final outcome (flaky counts as passed; timed out and
 * interrupted count as failed).
 */
export default class SummaryLineReporter implements Reporter {
  private readonly outcomes = new Map<string, 'passed' | 'failed' | 'skipped'>();

  onTestEnd(test: TestCase, _result: TestResult): void {
    const outcome = test.outcome();
    this.outcomes.set(
      test.id,
      outcome === 'skipped' ? 'skipped' : outcome === 'expected' || outcome === 'flaky' ? 'passed' : 'failed',
    );
  }

  onEnd(result: FullResult): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const o of this.outcomes.values()) counts[o] += 1;
    // A run that broke before or between tests (a global error) counts as one failure.
    if (result.status !== 'passed' && counts.failed === 0) counts.failed = 1;
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
