/**
 * The summary line of `npm test` and the failed tests named just before it (CI keeps only the
 * tail of the log): fed canned test results, the reporter's output is read back.
 */
import { test, expect } from '@playwright/test';
import type { FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import SummaryLineReporter from '../../src/report/summary-line-reporter.ts';

function fakeCase(id: string, title: string, outcome: ReturnType<TestCase['outcome']>): TestCase {
  return {
    id,
    location: { file: '/checkout/test/gauntlet/faults.spec.ts', line: 42, column: 3 },
    titlePath: () => ['', 'selftest', 'gauntlet/faults.spec.ts', title],
    outcome: () => outcome,
  } as unknown as TestCase;
}

function fakeResult(status: TestResult['status'], message?: string): TestResult {
  return { status, attachments: [], errors: message ? [{ message }] : [] } as unknown as TestResult;
}

/** What the reporter prints at the end, given tests ended in this order. */
function printed(ended: Array<[TestCase, TestResult]>, status: FullResult['status']): string {
  const reporter = new SummaryLineReporter();
  for (const [c, r] of ended) reporter.onTestEnd(c, r);
  let out = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    reporter.onEnd({ status } as FullResult);
  } finally {
    process.stdout.write = write;
  }
  return out;
}

test('a failed test is named, with the head of its error, just before the summary line', () => {
  const failing = fakeCase('a', 'fault x is caught by ensureX', 'unexpected');
  const out = printed(
    [
      [failing, fakeResult('failed', '\u001b[2mexpect(received)\u001b[22m.toEqual(expected)\n\n- Expected\n+ Received')],
      [fakeCase('b', 'a passing test', 'expected'), fakeResult('passed')],
    ],
    'failed',
  );
  const lines = out.split('\n').filter((l) => l !== '');
  expect(lines.at(-1)).toBe('1 passed, 1 failed, 0 skipped');
  expect(lines.at(-3)).toBe('Failed tests');
  expect(lines.at(-2)).toBe('  test/gauntlet/faults.spec.ts:42 › fault x is caught by ensureX (failed): expect(received).toEqual(expected) - Expected + Received');
});

test('a test that failed and then passed on retry is not named; a run without failures names none', () => {
  // Its first try ends as unexpected; after the retry the test is flaky.
  const out = printed(
    [
      [fakeCase('a', 'a flaky test', 'unexpected'), fakeResult('failed', 'first try')],
      [fakeCase('a', 'a flaky test', 'flaky'), fakeResult('passed')],
    ],
    'passed',
  );
  expect(out).not.toContain('Failed tests');
  expect(out.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped');
});
