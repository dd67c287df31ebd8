/**
 * junit.xml from the conformance results: one suite per spec, one case per check result,
 * counts that add up, the check's own message on a failure, and everything escaped.
 */
import { test, expect } from '@playwright/test';
import { junitXml, xmlAttr, xmlText } from '../../src/report/junit.ts';
import type { Results } from '../../src/report/results.ts';
import type { CheckResult, Status } from '../../src/checks/result.ts';

function result(status: Status, spec: string, over: Partial<CheckResult> = {}): CheckResult {
  const line = status === 'skipped' ? 'Skipped: needs trigger delivery.tracking' : status === 'notApplicable' ? 'Not applicable: no tracking sent' : 'Received: HTTP 500\nExpected: HTTP 200';
  return {
    check: 'ensureActivityAcknowledged',
    title: 'the module acknowledges activity',
    requirements: ['WIRE-REG-ACTIVITY-REPLY-SUCCESS'],
    profile: true,
    severity: status === 'warning' ? 'SHOULD' : status === 'info' ? 'INFO' : 'MUST',
    status,
    message: `Checked: the module acknowledges activity.\n${line}\nRequirements: WIRE-REG-ACTIVITY-REPLY-SUCCESS (MUST)\nReproduce with: curl -X POST 'http://127.0.0.1:1/activity'`,
    evidence: [],
    spec,
    ...over,
  };
}

function results(rs: CheckResult[], run: Partial<Results['run']> = {}): Results {
  return {
    suite: { name: 'module-conformance', version: '0.1.0' },
    run: { startedAt: '2026-11-22T00:00:00.000Z', durationMs: 1500, outcome: 'failed', profile: true, ...run },
    module: { code: 'm', kinds: ['delivery'], mode: 'launch' },
    summary: { passed: 0, failed: 0, warnings: 0, skipped: 0, notApplicable: 0, info: 0 },
    results: rs,
    requirements: [],
    exchanges: [],
  };
}

/** A small well-formedness check: balanced tags, quoted attributes, only known entities, no raw `<` or `&` in text. */
function wellFormed(xml: string): string[] {
  const problems: string[] = [];
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([a-z-]+)((?:\s+[a-z]+="[^"<]*")*)\s*(\/?)>/gy;
  let at = 0;
  while (at < body.length) {
    const next = body.indexOf('<', at);
    const text = body.slice(at, next === -1 ? body.length : next);
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) problems.push(`a bare & in ${JSON.stringify(text.slice(0, 40))}`);
    if (next === -1) break;
    tag.lastIndex = next;
    const m = tag.exec(body);
    if (!m) {
      problems.push(`not a tag at ${next}: ${JSON.stringify(body.slice(next, next + 40))}`);
      break;
    }
    for (const [, value] of m[3]!.matchAll(/="([^"]*)"/g)) if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(value!)) problems.push(`a bare & in attribute ${value}`);
    if (m[1]) {
      if (stack.pop() !== m[2]) problems.push(`unbalanced </${m[2]}>`);
    } else if (!m[4]) stack.push(m[2]!);
    at = tag.lastIndex;
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join(', ')}`);
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(xml)) problems.push('a character XML does not allow');
  return problems;
}

test('one suite per spec, one case per check result; counts right on each suite and on testsuites', () => {
  const xml = junitXml(
    results([
      result('passed', 'registration > the registration call'),
      result('failed', 'registration > the registration call'),
      result('skipped', 'registration > the registration call'),
      result('notApplicable', 'activity callback > acknowledges'),
      result('warning', 'activity callback > acknowledges'),
      result('info', 'activity callback > acknowledges'),
      result('failed', 'run', { check: 'ensureModuleWasReached', requirements: [] }),
    ]),
  );
  expect(wellFormed(xml)).toEqual([]);
  expect(xml).toMatch(/<testsuites name="module-conformance: m" tests="7" failures="2" errors="0" skipped="2" time="1\.500"/);
  expect(xml).toContain('<testsuite name="registration &gt; the registration call" tests="3" failures="1" errors="0" skipped="1">');
  expect(xml).toContain('<testsuite name="activity callback &gt; acknowledges" tests="3" failures="0" errors="0" skipped="1">');
  expect(xml).toContain('<testsuite name="run" tests="1" failures="1" errors="0" skipped="0">');
  expect(xml.match(/<testsuite /g)).toHaveLength(3);
  expect(xml.match(/<testcase /g)).toHaveLength(7);
  // Name: the check and its requirement ids; classname: the spec.
  expect(xml).toContain('<testcase name="ensureActivityAcknowledged [WIRE-REG-ACTIVITY-REPLY-SUCCESS]" classname="registration &gt; the registration call"/>');
  expect(xml).toContain('<testcase name="ensureModuleWasReached [suite rule]" classname="run">');
});

test('a failure carries what was received and expected; skipped and not applicable say why; a warning passes with its message', () => {
  const xml = junitXml(results([result('failed', 's'), result('skipped', 's'), result('notApplicable', 's'), result('warning', 's')]));
  expect(xml).toContain("<failure message=\"Received: HTTP 500&#10;Expected: HTTP 200\" type=\"MUST\">Checked: the module acknowledges activity.\nReceived: HTTP 500\nExpected: HTTP 200\nRequirements: WIRE-REG-ACTIVITY-REPLY-SUCCESS (MUST)\nReproduce with: curl -X POST 'http://127.0.0.1:1/activity'</failure>");
  expect(xml).toContain('<skipped message="Skipped: needs trigger delivery.tracking"/>');
  expect(xml).toContain('<skipped message="Not applicable: no tracking sent"/>');
  expect(xml).toMatch(/<testcase [^>]*>\n\s*<system-out>WARNING \(SHOULD\): Checked: the module acknowledges activity\.\nReceived: HTTP 500/);
  expect(xml).not.toMatch(/<system-out>WARNING[^<]*<\/system-out>\s*<failure/);
});

test('whatever the module sent is escaped: markup, quotes, control characters, lone surrogates', () => {
  const hostile = `"/><script>alert(1)</script>]]>&amp; \u0000\u001b[2J\ud800 'x'`;
  const xml = junitXml(
    results([
      result('failed', `spec ${hostile}`, { message: `Checked: x.\nReceived: ${hostile}\nExpected: y`, requirements: [] }),
      result('skipped', 's', { message: `Skipped: ${hostile}` }),
      result('warning', 's', { message: hostile }),
    ]),
  );
  expect(wellFormed(xml)).toEqual([]);
  // The checker itself tells bad XML apart.
  for (const bad of ['<a><b></a>', '<a x="1">&</a>', '<a>x < y</a>', '<a x="<">y</a>', '<a>\u0001</a>']) expect(wellFormed(bad), bad).not.toEqual([]);
  expect(xml).not.toContain('<script>');
  expect(xml).not.toContain('\u001b');
  expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;]]&gt;&amp;amp;');
  expect(xmlAttr(`a"b'c\nd<e&`)).toBe('a&quot;b&apos;c&#10;d&lt;e&amp;');
  expect(xmlText('a\u0001b\uD800c😀')).toBe('a\uFFFDb\uFFFDc😀');
});

test('an aborted run is one error: the run could not start', () => {
  const xml = junitXml(results([], { outcome: 'aborted', aborted: 'module never registered within 1500 ms <x>' }));
  expect(wellFormed(xml)).toEqual([]);
  expect(xml).toMatch(/<testsuites [^>]*tests="1" failures="0" errors="1" skipped="0"/);
  expect(xml).toContain('<error message="module never registered within 1500 ms &lt;x&gt;"/>');
});

test('a run with no results is an empty, well-formed document', () => {
  const xml = junitXml(results([], { outcome: 'passed' }));
  expect(wellFormed(xml)).toEqual([]);
  expect(xml).toMatch(/<testsuites [^>]*tests="0" failures="0" errors="0" skipped="0"[^>]*>\n<\/testsuites>\n$/);
});

test('a property result says its cases and seed; a failing one its shrunk counterexample and the line that replays it', () => {
  const property = { property: 'delivery.calculate: valid requests', seed: 11, runs: 100, cases: 100, passed: 19, failed: 81, notApplicable: 0, timeLimitMs: 40_000, budgetEnded: false };
  const counterexample = { path: '0:0:1', request: { weight: 10001, note: '</failure><x>' }, exchange: 's1-x7', shrinks: 34, file: 'failures/ensureX.delivery.calculate-valid-requests.json' };
  const xml = junitXml(
    results(
      [
        result('failed', 's', { property: { ...property, counterexample } }),
        result('passed', 's', { property: { ...property, passed: 100, failed: 0 } }),
        result('notApplicable', 's', { property: { ...property, passed: 0, failed: 0, notApplicable: 37, cases: 37, budgetEnded: true } }),
      ],
      { config: '/x/conformance.config.json' },
    ),
  );
  expect(wellFormed(xml)).toEqual([]);
  expect(xml).toContain('&#10;(100 of 100 generated case(s): 19 passed, 81 failed, 0 not applicable; seed 11)" type="MUST">');
  expect(xml).toContain('Counterexample (seed 11, path 0:0:1, shrunk in 34 step(s), exchange s1-x7): {"weight":10001,"note":"&lt;/failure&gt;&lt;x&gt;"}');
  expect(xml).toContain('Replay with: conformance replay failures/ensureX.delivery.calculate-valid-requests.json --config /x/conformance.config.json</failure>');
  // A pass and a result not applicable say their cases in system-out.
  expect(xml).toContain('<system-out>Property delivery.calculate: valid requests: 100 of 100 generated case(s): 100 passed, 0 failed, 0 not applicable; seed 11.</system-out>');
  expect(xml).toContain('<skipped message="Not applicable: no tracking sent"/>\n      <system-out>Property delivery.calculate: valid requests: 37 of 100 generated case(s): 0 passed, 0 failed, 37 not applicable; seed 11; the time budget (40000 ms) ended it.</system-out>');
  expect(xml.match(/<testcase /g)).toHaveLength(3);
});

test('a spec with many results: one case each, in order, counted once', () => {
  const many = Array.from({ length: 5_000 }, (_, i) => result(i % 2 ? 'passed' : 'failed', 'one spec', { check: `ensureRule${i}` }));
  const xml = junitXml(results(many));
  expect(xml).toContain('<testsuite name="one spec" tests="5000" failures="2500" errors="0" skipped="0">');
  const names = [...xml.matchAll(/<testcase name="(ensureRule\d+) /g)].map((m) => m[1]);
  expect(names).toEqual(many.map((r) => r.check));
});

test("each suite's properties carry the suite's name and version and the contract's SHA-256 (results.json run.suite), an aborted run's too", () => {
  const suite = { name: 'module-conformance', version: '9.8.7', contractSha256: 'ab'.repeat(32) };
  const expected = `    <properties>\n      <property name="suite.name" value="module-conformance"/>\n      <property name="suite.version" value="9.8.7"/>\n      <property name="contract.sha256" value="${'ab'.repeat(32)}"/>\n    </properties>\n`;
  for (const xml of [junitXml(results([result('passed', 'one spec'), result('failed', 'two')], { suite })), junitXml(results([], { suite, outcome: 'aborted', aborted: 'no' }))]) {
    expect(wellFormed(xml)).toEqual([]);
    const suites = xml.match(/<testsuite .*>\n/g) ?? [];
    expect(suites.length).toBeGreaterThan(0);
    expect(xml.split(expected).length - 1, 'the properties open every testsuite').toBe(suites.length);
    for (const open of suites) expect(xml).toContain(`${open}${expected}`);
  }
  // Results written before run.suite was recorded: the version they name, the contract unknown.
  expect(junitXml(results([result('passed', 'one spec')]))).toContain('<property name="suite.version" value="0.1.0"/>\n      <property name="contract.sha256" value="unknown"/>');
});
