/**
 * One cause is one failure: a refusal that breaks one error-answer rule of wire profile
 * section 1 is credited as failed to the ids whose statement it breaks, and to no other. The
 * rest are passed when the answer exercised them, not applicable when it did not (an errorMsg
 * in a body that is not JSON).
 */
import { test, expect } from '@playwright/test';
import { runSuite } from './run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

const IDS = ['WIRE-GEN-ERROR-REPLY-SHAPE', 'WIRE-GEN-ERROR-STATUS-200-OR-4XX', 'WIRE-GEN-ERROR-5XX-FAILURE', 'WIRE-GEN-ERROR-NON-JSON-FAILURE', 'WIRE-GEN-ERROR-MISSING-ERRORMSG'] as const;
type Id = (typeof IDS)[number];

const CASES: Array<{ fault: string; answer: string; statuses: Record<Id, string> }> = [
  {
    fault: 'refusal-without-errormsg',
    answer: '403 {"success": false}',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed',
    },
  },
  {
    fault: 'refusal-status-500',
    answer: '500 with the error body',
    statuses: {
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'failed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'failed',
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
  {
    fault: 'refusal-body-not-json',
    answer: '401/403 text/plain "Forbidden"',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'notApplicable',
    },
  },
  {
    fault: 'refusal-errormsg-not-text',
    answer: '401/403 {"success": false, "errorMsg": {...}}',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
  {
    fault: 'refusal-missing-clientid-400',
    answer: '400 with the error body (4xx: accepted with the profile)',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'passed', 'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed',
      'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
];

for (const c of CASES) {
  test(`a refusal answered ${c.answer} (${c.fault}) fails only the ids whose statement it breaks`, async () => {
    const run = await runSuite(['--area', 'registration'], { FAULTS: c.fault });
    expect(run.results, run.stderr).toBeDefined();
    const got = Object.fromEntries(IDS.map((id) => [id, run.results!.requirements.find((r) => r.id === id)?.status]));
    expect(got).toEqual(c.statuses);
  });
}
