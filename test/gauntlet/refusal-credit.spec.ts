/**
 * One cause is one failure: a refusal that breaks one error-answer rule of wire profile
 * section 1 is credited as failed to the ids whose statement it breaks, and to no other. The
 * rest are passed when the answer exercised them, not applicable when it did not (an errorMsg
 * in a body that is not JSON).
 */
import { test, expect } from '@playwright/test';
import { batchedRun } from './batch.ts';
import { CASES, EVERY_WEBHOOK_REFUSED, IDS, REFUSAL_ROWS } from './refusal-rows.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

for (const [i, c] of CASES.entries()) {
  const row = REFUSAL_ROWS[i]!;
  test(row.title, async ({}, testInfo) => {
    const run = await batchedRun('refusal-credit', REFUSAL_ROWS, row, testInfo);
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
test(EVERY_WEBHOOK_REFUSED.title, async ({}, testInfo) => {
  const run = await batchedRun('refusal-credit', REFUSAL_ROWS, EVERY_WEBHOOK_REFUSED, testInfo);
  expect(run.results, run.stderr).toBeDefined();
  for (const check of ['ensureWebhookWithoutClientIdRefused', 'ensureRefusedWebhookLeftNoEffect']) {
    const results = run.results!.results.filter((r) => r.check === check);
    expect(results.length, check).toBeGreaterThan(0);
    expect(results.map((r) => r.status), check).toEqual(results.map(() => 'notApplicable'));
  }
  const probe = run.results!.results.find((r) => r.check === 'ensureWebhookWithoutClientIdRefused')!;
  expect(probe.message).toMatch(/webhook with the right clientId was accepted in the run: a refusal proves nothing/);
});
