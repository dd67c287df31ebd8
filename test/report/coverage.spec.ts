/**
 * The coverage of a run: given check results and the module's kinds, which testable
 * requirements apply, which were tested and passed, and why the others were not tested.
 */
import { test, expect } from '@playwright/test';
import { AREA_KIND, appliesTo, computeCoverage, verdictText, type CoverageInput } from '../../src/report/coverage.ts';
import { buildResults } from '../../src/report/results.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import type { Requirement } from '../../src/contract/catalogue.ts';
import type { CheckResult, Status } from '../../src/checks/result.ts';

const req = (id: string, testable = true): Requirement => ({ id, section: '1', quote: 'q', actor: 'module', level: 'MUST', testable });

function result(status: Status, requirements: string[], why = ''): CheckResult {
  const line = status === 'skipped' ? `Skipped: ${why}` : status === 'notApplicable' ? `Not applicable: ${why}` : status === 'failed' || status === 'warning' ? 'Received: x\nExpected: y' : '';
  return {
    check: 'ensureSomething',
    title: 'something',
    requirements,
    profile: requirements.length > 0 && requirements.every((r) => r.startsWith('WIRE-')),
    severity: status === 'warning' ? 'SHOULD' : 'MUST',
    status,
    message: `Checked: something.\n${line}\nRequirements: ${requirements.join(', ')} (MUST)`,
    evidence: [],
  };
}

const NEEDS_TRACKING = `needs trigger delivery.tracking (declare it in the configuration's "triggers")`;

const entries: Requirement[] = [
  req('REG-A'),
  req('GEN-B'),
  req('DLV-C'),
  req('DLV-D'),
  req('DLV-E'),
  req('WIRE-DLV-F'),
  req('DLV-G'),
  req('TEL-H'),
  req('BOT-I'),
  req('REG-NOT-TESTABLE', false),
];

function input(results: CheckResult[], over: Partial<CoverageInput> = {}): CoverageInput {
  return { results, kinds: ['delivery'], profile: true, failedChecks: results.filter((r) => r.status === 'failed').length, entries, ...over };
}

test('areas map onto kinds: REG and GEN apply to every module, WIRE-X as X', () => {
  expect(AREA_KIND).toEqual({ REG: null, GEN: null, TEL: 'telephony', DLV: 'delivery', PAY: 'payment', TRN: 'mgTransport', BOT: 'mgBot' });
  expect(appliesTo('REG-A', [])).toBe(true);
  expect(appliesTo('WIRE-GEN-X', [])).toBe(true);
  expect(appliesTo('WIRE-TRN-X', ['mgTransport'])).toBe(true);
  expect(appliesTo('TRN-X', ['mgBot'])).toBe(false);
  expect(appliesTo('BOT-X', ['mgBot'])).toBe(true);
  expect(appliesTo('PAY-X', ['payment', 'telephony'])).toBe(true);
  expect(appliesTo('TEL-X', ['payment'])).toBe(false);
});

test('a GEN statement that names its kinds applies to those only: a chat-only module is not held to the payment and telephony methods', () => {
  for (const id of ['GEN-METHOD-UPDATE-INVOICE-POST', 'GEN-METHOD-PAYMENT-CHECK-POST', 'GEN-METHOD-MANAGER-GET', 'GEN-METHOD-TRACKING-POST']) expect(appliesTo(id, ['mgTransport', 'mgBot'])).toBe(false);
  expect(appliesTo('GEN-METHOD-UPDATE-INVOICE-POST', ['payment'])).toBe(true);
  expect(appliesTo('GEN-METHOD-MANAGER-GET', ['telephony', 'mgBot'])).toBe(true);
  expect(appliesTo('GEN-VERSION-SYSTEM-V5', ['mgBot'])).toBe(true);
  const c = computeCoverage(input([], { kinds: ['mgTransport'], entries: [req('GEN-B'), { ...req('GEN-METHOD-X'), kinds: ['payment'] }] }));
  expect(c.applicable).toBe(1);
  expect(c.catalogue.otherKinds).toBe(1);
});

test('applicable: testable requirements of REG, GEN and the declared kinds; the rest of the catalogue is out of scope', () => {
  const c = computeCoverage(input([]));
  expect(c.applicable).toBe(7); // REG-A, GEN-B, DLV-C, DLV-D, DLV-E, WIRE-DLV-F, DLV-G
  expect(c.catalogue).toEqual({ total: 10, notTestable: 1, otherKinds: 2 });
  expect(c.tested).toBe(0);
  expect(c.groups.notCovered.ids).toEqual(['REG-A', 'GEN-B', 'DLV-C', 'DLV-D', 'DLV-E', 'WIRE-DLV-F', 'DLV-G']);
  expect(computeCoverage(input([], { kinds: ['delivery', 'telephony', 'mgBot'] })).applicable).toBe(9);
});

test('tested: credited passed, failed or warning; each untested requirement in the group of its reason', () => {
  const c = computeCoverage(
    input([
      result('passed', ['REG-A']),
      result('skipped', ['REG-A'], NEEDS_TRACKING), // tested anyway: a pass credits it
      result('failed', ['GEN-B']),
      result('passed', ['GEN-B']),
      result('warning', ['DLV-C']),
      result('skipped', ['DLV-D'], NEEDS_TRACKING),
      result('notApplicable', ['DLV-D'], 'the module sent no tracking'),
      result('notApplicable', ['DLV-E'], 'the module did not send the field'),
      result('skipped', ['WIRE-DLV-F'], 'the trigger failed: HTTP 500'),
      result('info', ['DLV-G']),
      result('passed', ['TEL-H']), // not applicable to a delivery module: not counted
    ]),
  );
  expect(c).toMatchObject({ applicable: 7, tested: 3, passed: 1, failed: 1, warned: 1, notTested: 4, failedIds: ['GEN-B'], warnedIds: ['DLV-C'] });
  expect(c.groups.needsTrigger).toEqual({ count: 1, ids: ['DLV-D'], triggers: ['delivery.tracking'] });
  expect(c.groups.notApplicable).toEqual({ count: 1, ids: ['DLV-E'] });
  expect(c.groups.skipped).toEqual({ count: 1, ids: ['WIRE-DLV-F'] });
  // An information only tests nothing.
  expect(c.groups.notCovered).toEqual({ count: 1, ids: ['DLV-G'] });
  const g = c.groups;
  expect(g.needsTrigger.count + g.skipped.count + g.notApplicable.count + g.notCovered.count).toBe(c.notTested);
});

test('needs a trigger only when every skip was for a trigger; the triggers are named once each', () => {
  const c = computeCoverage(
    input([
      result('skipped', ['DLV-C'], NEEDS_TRACKING),
      result('skipped', ['DLV-C'], 'needs trigger telephony.callEvent'),
      result('skipped', ['DLV-D'], NEEDS_TRACKING),
      result('skipped', ['DLV-E'], NEEDS_TRACKING),
      result('skipped', ['DLV-E'], 'the flow did not happen'),
    ]),
  );
  expect(c.groups.needsTrigger).toEqual({ count: 2, ids: ['DLV-C', 'DLV-D'], triggers: ['delivery.tracking', 'telephony.callEvent'] });
  expect(c.groups.skipped.ids).toEqual(['DLV-E']);
});

test('on the document alone, WIRE- requirements are not applicable to the run: counted apart as profile off', () => {
  const c = computeCoverage(input([result('skipped', ['WIRE-DLV-F'], 'profile checks are off (the run uses the document alone)')], { profile: false }));
  expect(c.applicable).toBe(6);
  expect(c.profileOff).toEqual({ count: 1, ids: ['WIRE-DLV-F'] });
  expect(c.groups.skipped.count).toBe(0);
  expect(computeCoverage(input([])).profileOff).toEqual({ count: 0, ids: [] });
});

test('CONFORMANT only when every applicable requirement was tested and passed, and no MUST check failed', () => {
  const all = ['REG-A', 'GEN-B', 'DLV-C', 'DLV-D', 'DLV-E', 'WIRE-DLV-F', 'DLV-G'].map((id) => result('passed', [id]));
  const conformant = computeCoverage(input(all));
  expect(conformant.verdict).toBe('CONFORMANT');
  expect(verdictText(conformant)).toBe('CONFORMANT — all 7 applicable requirements tested and passed');

  const oneUntested = computeCoverage(input(all.slice(1)));
  expect(oneUntested.verdict).toBe('PASS');
  expect(verdictText(oneUntested)).not.toContain('CONFORMANT');

  const warned = computeCoverage(input([...all, result('warning', ['DLV-C'])]));
  expect(warned.verdict).toBe('PASS');

  // A suite rule (no requirement id) that failed fails the run, whatever the coverage.
  const suiteRule = computeCoverage(input(all, { failedChecks: 1 }));
  expect(suiteRule.verdict).toBe('FAIL');
  expect(suiteRule.failedRules).toBe(1);
  expect(verdictText(suiteRule)).toMatch(/^FAIL \(1 suite rule failed\) — 7 of 7 applicable requirements tested, 7 passed$/);

  expect(computeCoverage(input([], { entries: [] })).verdict).toBe('PASS');
});

test('the verdict line says what was tested and why the rest was not', () => {
  const c = computeCoverage(
    input([
      result('passed', ['REG-A']),
      result('passed', ['GEN-B']),
      result('skipped', ['DLV-D'], NEEDS_TRACKING),
      result('notApplicable', ['DLV-E'], 'not sent'),
    ]),
  );
  expect(verdictText(c)).toBe(
    'PASS (no MUST failure) — 2 of 7 applicable requirements tested, 2 passed; 5 not tested: 1 needs a trigger (delivery.tracking), 3 not yet covered by the suite, 1 not applicable',
  );
  const failed = computeCoverage(input([result('failed', ['REG-A']), result('failed', ['REG-A']), result('warning', ['GEN-B']), result('skipped', ['DLV-C'], 'other')]));
  // Both halves count requirements: two failed checks of REG-A are one failed requirement.
  expect(verdictText(failed)).toBe(
    'FAIL (1 requirement failed) — 2 of 7 applicable requirements tested, 0 passed, 1 failed, 1 warned (SHOULD); 5 not tested: 1 skipped, 4 not yet covered by the suite',
  );
  // A suite rule that failed beside them is named apart.
  const both = computeCoverage(input([result('failed', ['REG-A']), result('failed', ['GEN-B']), result('failed', [])], { failedChecks: 3 }));
  expect(both.failedRules).toBe(1);
  expect(verdictText(both)).toMatch(/^FAIL \(2 requirements and 1 suite rule failed\) — 2 of 7 applicable requirements tested, 0 passed, 2 failed;/);
  const documentAlone = computeCoverage(input([], { profile: false }));
  expect(verdictText(documentAlone)).toMatch(/; 1 profile requirement not applicable to a run on the document alone \(--no-profile\)$/);
});

test('results.json carries the coverage of the module kinds (valid against its schema); an aborted run has none', async () => {
  const record = {
    results: [result('passed', ['REG-CLIENTID-PRESENT']), result('skipped', ['DLV-PAYERTYPE-VALUES'], NEEDS_TRACKING)],
    exchanges: [],
    module: { code: 'm', kinds: ['delivery'], mode: 'launch' },
  };
  const results = await buildResults({ records: [record], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  expect(results.coverage?.kinds).toEqual(['delivery']);
  expect(results.coverage?.groups.needsTrigger.ids).toEqual(['DLV-PAYERTYPE-VALUES']);
  expect(results.coverage?.tested).toBe(1);
  // Nothing reached the module (no exchange): the run-level rule fails it.
  expect(results.coverage?.verdict).toBe('FAIL');
  // A telephony requirement does not apply to a delivery module: the table says so.
  const tel = results.requirements.find((q) => q.id.startsWith('TEL-') && q.status === 'untested' && !q.reason?.startsWith('not testable'));
  expect(tel?.reason).toBe('does not apply: the module does not declare telephony');
  const valid = contract().validate('suite/results.json', results);
  expect(valid.valid, formatErrors(valid.errors)).toBe(true);

  const aborted = await buildResults({ records: [], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true, aborted: 'module never registered' });
  expect(aborted.coverage).toBeUndefined();
  expect(contract().validate('suite/results.json', aborted).valid).toBe(true);
});

test('a narrowed run is never CONFORMANT; what only the tests it left out cover is its own group; unused triggers are named', () => {
  const all = ['REG-A', 'GEN-B', 'DLV-C', 'DLV-D', 'DLV-E', 'WIRE-DLV-F', 'DLV-G'].map((id) => result('passed', [id]));
  const narrowed = computeCoverage(input(all, { selection: { grep: 'tracking', selected: 1, total: 29, leftOut: [] } }));
  expect(narrowed.verdict).toBe('PASS');
  expect(verdictText(narrowed)).toMatch(/^PASS \(no MUST failure\) in a run narrowed by --grep "tracking" \(1 of 29 conformance tests\)/);

  const some = computeCoverage(input(all.slice(0, 3), { selection: { grep: 'x', selected: 2, total: 29, leftOut: ['DLV-D', 'DLV-E', 'TEL-H'] }, unusedTriggers: ['payment.notify', 'delivery.tracking'] }));
  expect(some.groups.leftOut).toEqual({ count: 2, ids: ['DLV-D', 'DLV-E'] });
  expect(some.groups.notCovered.ids).toEqual(['WIRE-DLV-F', 'DLV-G']);
  expect(some.unusedTriggers).toEqual(['delivery.tracking', 'payment.notify']);
  expect(verdictText(some)).toContain('4 not tested: 2 left out by the selection, 2 not yet covered by the suite; declared triggers never used by the selected tests: delivery.tracking, payment.notify');

  const full = computeCoverage(input(all, { unusedTriggers: ['registration.repeat'] }));
  expect(full.verdict).toBe('CONFORMANT');
  expect(verdictText(full)).toBe('CONFORMANT — all 7 applicable requirements tested and passed; declared trigger never used: registration.repeat');
});
