/** The traffic the run saw, beside the checks: results.json's evidence, and one line each in the HTML page. */
import { test, expect } from '@playwright/test';
import { buildResults, evidenceLines } from '../../src/report/results.ts';
import { renderHtml } from '../../src/report/html.ts';
import { contract } from '../../src/contract/schemas.ts';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import type { RunEvidence } from '../../src/run/conformance.ts';

test("the session's evidence goes into results.json (schema-valid) and the HTML page, one line per endpoint and token", async () => {
  const log = new EvidenceLog(undefined, 'r');
  for (let i = 0; i < 100; i++) {
    log.record({
      direction: 'module->gateway', label: 'transport.messages.send', startedAt: new Date(Date.parse('2026-11-22T00:00:00Z') + i), durationMs: 1,
      request: { method: 'POST', url: 'http://127.0.0.1:1/api/transport/v1/messages', headers: {}, body: '{}' },
      response: { status: i < 80 ? 200 : 429, headers: {}, body: '{"errors":["Too Many Requests"]}' },
    });
  }
  const evidence: RunEvidence = {
    endpoints: log.summary(),
    gateway: [{ token: '<redacted:transportToken>', clientId: 'c1', requests: 50, peakPerSecond: 50, tooManyRequests: 20, requestsAfterTooMany: 19, peakPerSecondAfterTooMany: 19, longestPauseAfterTooManyMs: 1, afterTooMany: 'backed off: next request after 1 ms at most, then at most 19/s' }],
  };
  const results = await buildResults({ records: [{ results: [], exchanges: [...log.all()], evidence }], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  expect(results.evidence).toEqual(evidence);
  expect(contract().validate('suite/results.json', JSON.parse(JSON.stringify(results))).errors).toEqual([]);
  const lines = evidenceLines(results.evidence);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('module->gateway transport.messages.send: 100 exchange(s), 60 kept whole, 40 summarised');
  expect(lines[0]).toContain('200×80, 429×20');
  expect(lines[1]).toContain('20 answered 429; backed off');
  const html = renderHtml(results);
  // Behind one fold.
  expect(html).toContain('<details id="traffic">');
  expect((html.match(/class="traffic"/g) ?? []).length).toBe(2);
});
