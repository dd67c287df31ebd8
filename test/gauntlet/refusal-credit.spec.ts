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

/**
 * A refusal counts only when acceptance was shown (issue 31, item 4): a transport that refuses
 * every webhook, with its ClientId or without one (`transport-refuses-every-webhook`), answers
 * the probes with the refusal they ask for, and proves nothing by it. The probes' checks are not
 * applicable and say why; what needs an accepted webhook fails (its row in faults.ts).
 */
test('a transport that refuses every webhook: the ClientId probes are not applicable (no webhook was accepted), not passed', async () => {
  const run = await runSuite(['--area', 'chat', '--grep', 'transport webhooks', '--runs', '20'], { FAULTS: 'transport-refuses-every-webhook' });
  expect(run.results, run.stderr).toBeDefined();
  for (const check of ['ensureWebhookWithoutClientIdRefused', 'ensureRefusedWebhookLeftNoEffect']) {
    const results = run.results!.results.filter((r) => r.check === check);
    expect(results.length, check).toBeGreaterThan(0);
    expect(results.map((r) => r.status), check).toEqual(results.map(() => 'notApplicable'));
  }
  const probe = run.results!.results.find((r) => r.check === 'ensureWebhookWithoutClientIdRefused')!;
  expect(probe.message).toMatch(/webhook with the right clientId was accepted in the run: a refusal proves nothing/);
});
