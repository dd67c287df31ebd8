/**
 * A property's results in the reports: results.json (valid against its schema) carries the run's
 * seed and generation settings, each property result its cases and shrunk counterexample, each
 * exchange its case; the page shows the seed, the cases, the budget note and the counterexample
 * (escaped, linked to its exchange and its saved file, with the replay line); the reporter's work
 * grows with the results, not with their square (grouping by requirement keeps every result).
 */
import { test, expect } from '@playwright/test';
import { buildResults, groupByRequirement, propertyCasesText, replayCommand, requirementTable } from '../../src/report/results.ts';
import { renderHtml } from '../../src/report/html.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { catalogue } from '../../src/contract/catalogue.ts';
import type { CheckResult, PropertyStats } from '../../src/checks/result.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { TestRecord } from '../../src/run/conformance.ts';

const HOSTILE = '</pre><script>alert(1)</script>';
const FILE = 'failures/ensureTariffCostIsNumberOrAbsent.delivery.calculate-valid-requests.json';

const stats = (over: Partial<PropertyStats> = {}): PropertyStats => ({
  property: 'delivery.calculate: valid requests',
  seed: 11,
  runs: 100,
  cases: 100,
  passed: 19,
  failed: 81,
  notApplicable: 0,
  timeLimitMs: 40_000,
  budgetEnded: false,
  ...over,
});

function propertyResult(status: CheckResult['status'], property: PropertyStats, over: Partial<CheckResult> = {}): CheckResult {
  return {
    check: 'ensureTariffCostIsNumberOrAbsent',
    title: 'the cost of a tariff is a number or absent',
    requirements: ['DLV-CALCULATE-TARIFF-FIELDS'],
    profile: false,
    severity: 'MUST',
    status,
    message: 'Checked: the cost of a tariff is a number or absent.\nReceived: 81 of 100 generated case(s) broke it; the first, shrunk in 34 step(s) (seed 11, path 0:0:1): tariff "standard" has cost "16.45"\nExpected: a number\nRequirements: DLV-CALCULATE-TARIFF-FIELDS (MUST)',
    evidence: ['s1-x7'],
    spec: 'delivery calculate > calculate: generated valid requests, the tariffs answered',
    property,
    ...over,
  };
}

const exchange = (id: string, at: number, c?: string): Exchange => ({
  id,
  direction: 'system->module',
  label: c ? `delivery.calculate (${c})` : 'delivery.calculate',
  startedAt: new Date(Date.parse('2026-11-22T00:00:00Z') + at).toISOString(),
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1:1/delivery/calculate', headers: {}, body: 'clientId=x', bytes: 10 },
  response: { status: 200, headers: {}, body: '{"success":true,"result":[]}', bytes: 28 },
  ...(c ? { case: c } : {}),
});

const failing = propertyResult('failed', stats({ counterexample: { path: '0:0:1', request: { packages: [{ weight: 10001, name: HOSTILE }] }, exchange: 's1-x7', shrinks: 34, file: FILE } }));
const ended = propertyResult('passed', stats({ cases: 37, passed: 37, failed: 0, budgetEnded: true }), { check: 'ensureTariffTypeIsKnown', requirements: ['WIRE-DLV-CALCULATE-TARIFF-TYPE'], profile: true, message: 'Checked: x.\nHeld: held on 37 of 37\nRequirements: WIRE-DLV-CALCULATE-TARIFF-TYPE (MUST)', evidence: [] });

const record: TestRecord = {
  results: [failing, ended],
  exchanges: [exchange('s1-x7', 2, 'calculate-valid#0.s33'), exchange('s1-x2', 1, 'calculate-valid#0')],
  module: { code: 'm', kinds: ['delivery'], mode: 'launch' },
};

const build = () =>
  buildResults({ records: [record], brokenSpecs: [], startedAt: new Date('2026-11-22T00:00:00Z'), durationMs: 1, profile: true, mode: 'launch', config: '/x/my config.json', generation: { seed: 11, runs: 100, timeLimitMs: 40_000, lanes: 4 } });

test("results.json: the run's seed and generation, each property result's cases and counterexample, each exchange's case; valid against its schema", async () => {
  const results = await build();
  expect(results.run.seed).toBe(11);
  expect(results.run.generation).toEqual({ seed: 11, runs: 100, timeLimitMs: 40_000, lanes: 4 });
  expect(results.results.find((r) => r.check === 'ensureTariffCostIsNumberOrAbsent')!.property).toEqual(failing.property);
  expect(results.results.find((r) => r.check === 'ensureTariffTypeIsKnown')!.property!.budgetEnded).toBe(true);
  // Exchanges in time order, each with its case.
  expect(results.exchanges.map((x) => [x.id, x.case])).toEqual([
    ['s1-x2', 'calculate-valid#0'],
    ['s1-x7', 'calculate-valid#0.s33'],
  ]);
  const valid = contract().validate('suite/results.json', JSON.parse(JSON.stringify(results)));
  expect(valid.valid, formatErrors(valid.errors)).toBe(true);
  // A run without generation settings says nothing of a seed.
  const plain = await buildResults({ records: [record], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  expect(plain.run.seed).toBeUndefined();
  expect(plain.run.generation).toBeUndefined();
});

test('the page: the seed in the header; per property result its cases, the budget note, and the counterexample escaped with its path, shrinks, exchange, file and replay line', async () => {
  const html = renderHtml(await build());
  expect(html).toContain('<p id="seed">Generated requests: seed <code>11</code>, 100 case(s) per property');
  expect(html).toContain('<code>conformance run --seed 11 --runs 100</code>');
  expect(html).toContain('Property <b>delivery.calculate: valid requests</b>: 100 of 100 generated case(s): 19 passed, 81 failed, 0 not applicable; seed 11.');
  expect(html).toContain('37 of 100 generated case(s): 37 passed, 0 failed, 0 not applicable; seed 11; the time budget (40000 ms) ended it.');
  expect(html).toContain('Counterexample, shrunk in 34 step(s): seed <code>11</code>, path <code>0:0:1</code>');
  // The request as sent, escaped: what the module or the generator put in it never becomes markup.
  expect(html).not.toContain('<script>');
  expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).toContain('&quot;weight&quot;: 10001');
  expect(html).toContain('Sent in exchange <a href="#s1-x7">s1-x7</a>');
  expect(html).toContain('<details class="exchange" id="s1-x7" open>');
  expect(html).toContain(`Saved as <a href="${FILE}"><code>${FILE}</code></a>`);
  expect(html).toContain(`<pre class="replay">conformance replay ${FILE} --config &#39;/x/my config.json&#39;</pre>`);
  // Only a failure has a counterexample.
  expect(html.match(/class="counterexample"/g)).toHaveLength(1);
});

test('a counterexample file that is not under failures/ is shown, not linked', async () => {
  const odd = propertyResult('failed', stats({ counterexample: { path: '3', request: {}, shrinks: 0, file: 'javascript:alert(1)' } }));
  const results = await buildResults({ records: [{ ...record, results: [odd] }], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  const html = renderHtml(results);
  expect(html).not.toContain('href="javascript:');
  expect(html).toContain('Counterexample, not shrunk further');
  expect(html).toContain("<pre class=\"replay\">conformance replay &#39;javascript:alert(1)&#39;</pre>");
});

test('replay and cases texts', () => {
  expect(replayCommand('failures/a.json', {})).toBe('conformance replay failures/a.json');
  expect(replayCommand('failures/a b.json', { config: "/it's.json" })).toBe(`conformance replay 'failures/a b.json' --config '/it'\\''s.json'`);
  expect(propertyCasesText(stats())).toBe('100 of 100 generated case(s): 19 passed, 81 failed, 0 not applicable; seed 11');
});

test('many results on one requirement: each is kept once, in order, and decides its status', () => {
  const id = catalogue().entries[0]!.id;
  const n = 20_000;
  const results: CheckResult[] = Array.from({ length: n }, (_, i) => ({ ...failing, requirements: [id], status: i === n - 1 ? 'failed' : 'passed', check: `ensureRule${i % 3 === 0 ? 'A' : 'B'}` }));
  const byId = groupByRequirement(results);
  expect(byId.get(id)).toHaveLength(n);
  expect(byId.get(id)![n - 1]).toBe(results[n - 1]);
  const row = requirementTable(results).find((q) => q.id === id)!;
  expect(row.status).toBe('failed');
  expect(row.checks).toEqual(['ensureRuleA', 'ensureRuleB']);
});

test('the run-level rule finds its exchanges among many, by id', async () => {
  const exchanges = Array.from({ length: 50_000 }, (_, i) => ({ ...exchange(`s1-x${i}`, i), response: { status: 401, headers: {}, bytes: 0 } }));
  const results = await buildResults({ records: [{ results: [], exchanges, module: { code: 'm', kinds: ['delivery'], mode: 'launch' } }], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  expect(results.exchanges).toHaveLength(50_000);
  const reached = results.results.find((r) => r.check === 'ensureModuleWasReached')!;
  // Every callback refused: the rule fails, its evidence the first three.
  expect(reached.status).toBe('failed');
  expect(reached.evidence).toEqual(['s1-x0', 's1-x1', 's1-x2']);
});
