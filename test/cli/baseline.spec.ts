/**
 * The gate's baseline (src/cli/baseline.ts): a run with --baseline fails only on failures the
 * baseline does not name and on baselined requirements that no longer fail (stale); a bad
 * baseline ends the run before it starts (exit 2); `conformance baseline` writes one from a
 * run's results. Judged on canned results, through the run's own ending (finishRun), which
 * also lists the failures again before the verdict.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { applyBaseline, baselineOf, readBaseline, type Baseline } from '../../src/cli/baseline.ts';
import { finishRun } from '../../src/cli/run.ts';
import { catalogue } from '../../src/contract/catalogue.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { CheckResult } from '../../src/checks/result.ts';
import type { Results } from '../../src/report/results.ts';

const [A, B, C] = catalogue().entries.filter((e) => e.testable !== false).map((e) => e.id);

const result = (check: string, status: CheckResult['status'], requirements: string[]): CheckResult => ({
  check,
  spec: `spec of ${check}`,
  title: check,
  requirements,
  profile: false,
  severity: 'MUST',
  status,
  message: `Checked: ${check}\n${status === 'failed' ? 'Received: something else' : 'Held'}\nRequirements: ${requirements.join(', ')}`,
  evidence: [],
});

/** Results of a run: A and B failed (one check each), C passed. */
function results(extra: CheckResult[] = []): Results {
  const rows = [result('checkA', 'failed', [A!]), result('checkB', 'failed', [B!]), result('checkC', 'passed', [C!]), ...extra];
  const failed = rows.filter((r) => r.status === 'failed').length;
  return {
    run: { startedAt: new Date(0).toISOString(), durationMs: 1, outcome: failed > 0 ? 'failed' : 'passed', profile: true },
    module: null,
    summary: { passed: rows.length - failed, failed, warnings: 0, skipped: 0, notApplicable: 0, info: 0 },
    results: rows,
    exchanges: [],
  } as unknown as Results;
}

function fileOf(data: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-')), 'baseline.json');
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
}

const baselineOfIds = (...ids: string[]): Baseline => readBaseline(fileOf({ baseline: 1, expected: ids.map((requirement) => ({ requirement, reason: `known: ${requirement}` })) }));

test('a baseline is checked before the run: ids of the catalogue, each with a reason, once', () => {
  expect(() => readBaseline(path.join(os.tmpdir(), 'no-such-baseline.json'))).toThrow(/no such file/);
  expect(() => readBaseline(fileOf({ expected: [] }))).toThrow(/"baseline" must be 1/);
  expect(() => readBaseline(fileOf({ baseline: 1, expected: [{ requirement: 'DLV-NOT-A-REQUIREMENT', reason: 'x' }] }))).toThrow(/expected\/0: "DLV-NOT-A-REQUIREMENT" is not a requirement id of the catalogue/);
  expect(() => readBaseline(fileOf({ baseline: 1, expected: [{ requirement: A, reason: ' ' }] }))).toThrow(new RegExp(`${A} needs a reason`));
  expect(() => readBaseline(fileOf({ baseline: 1, expected: [{ requirement: A, reason: 'x' }, { requirement: A, reason: 'y' }] }))).toThrow(/is named twice/);
  expect(readBaseline(fileOf({ baseline: 1, expected: [{ requirement: A, reason: 'x' }] })).expected).toEqual([{ requirement: A, reason: 'x' }]);
});

test('every failure baselined: the gate passes; one not baselined, or a suite rule, fails it', () => {
  const all = applyBaseline(results(), baselineOfIds(A!, B!));
  expect(all).toMatchObject({ exitCode: 0, unexpected: [], stale: [], notJudged: [] });
  expect(all.known.map((k) => k.check)).toEqual(['checkA', 'checkB']);
  const partial = applyBaseline(results(), baselineOfIds(A!));
  expect(partial.exitCode).toBe(1);
  expect(partial.unexpected).toEqual([{ check: 'checkB', requirements: [B!] }]);
  // A failed result without requirement ids (a suite rule) cannot be baselined.
  const rule = applyBaseline(results([result('ensureModuleWasReached', 'failed', [])]), baselineOfIds(A!, B!));
  expect(rule.unexpected.map((u) => u.check)).toEqual(['ensureModuleWasReached']);
  expect(rule.exitCode).toBe(1);
});

test('a baselined requirement that passed is stale and fails the gate; one the run did not judge is only said', () => {
  const stale = applyBaseline(results(), baselineOfIds(A!, B!, C!));
  expect(stale.stale.map((s) => s.requirement)).toEqual([C!]);
  expect(stale.exitCode).toBe(1);
  const other = catalogue().entries.find((e) => ![A, B, C].includes(e.id))!.id;
  const unjudged = applyBaseline(results(), baselineOfIds(A!, B!, other));
  expect(unjudged.notJudged.map((n) => n.requirement)).toEqual([other]);
  expect(unjudged.exitCode).toBe(0);
});

test('the run ends with the gate: its lines after the verdict, gate.json, and the exit code', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-run-'));
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify(results()));
  const said = (baseline?: Baseline): { code: number; stdout: string } => {
    let stdout = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } };
    return { code: finishRun(out, 0, io, baseline), stdout };
  };
  const plain = said();
  expect(plain.code).toBe(1);
  // The failures again before the tally and the verdict: check, ids, why, where.
  expect(plain.stdout).toMatch(new RegExp(`\\nfailures \\(2\\)\\n  FAIL checkA \\[${A}\\]  Received: something else\\n {6}in .*\\n  FAIL checkB \\[${B}\\][^\\n]*\\n(?:.*\\n)*checks: `));
  const known = said(baselineOfIds(A!, B!));
  expect(known.code).toBe(0);
  expect(known.stdout).toContain('conformance gate: PASS with the baseline (2 known failure(s))');
  expect(known.stdout).toContain(`KNOWN checkA (${A}): known: ${A}`);
  expect(JSON.parse(fs.readFileSync(path.join(out, 'gate.json'), 'utf8'))).toMatchObject({ passed: true, exitCode: 0 });
  const stale = said(baselineOfIds(A!, B!, C!));
  expect(stale.code).toBe(1);
  expect(stale.stdout).toContain(`STALE ${C}: no longer fails; remove it from the baseline`);
  expect(stale.stdout).toContain('conformance gate: FAIL (1 stale baseline entry)');
  expect(JSON.parse(fs.readFileSync(path.join(out, 'gate.json'), 'utf8'))).toMatchObject({ passed: false, stale: [{ requirement: C }] });
});

test('conformance baseline writes one from a run\'s results, and a run refuses a bad baseline before it starts', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-cli-'));
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results()));
  const target = path.join(dir, 'known.json');
  const cli = (args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { cwd: dir, encoding: 'utf8' });
  const written = cli(['baseline', dir, '--out', target]);
  expect(written.stderr).toBe('');
  expect(written.status).toBe(0);
  expect(written.stdout).toBe(`conformance baseline: 2 expected failure(s) written to ${target}\n`);
  const baseline = JSON.parse(fs.readFileSync(target, 'utf8')) as ReturnType<typeof baselineOf>;
  expect(baseline).toEqual(baselineOf(results()));
  expect(baseline.expected.map((e) => e.requirement)).toEqual([A, B].sort());
  expect(baseline.expected[0]!.reason).toMatch(/^check[AB]: Received: something else$/);
  // Kept unless --force; and the file it wrote is one a run accepts.
  expect(cli(['baseline', dir, '--out', target]).status).toBe(2);
  expect(readBaseline(target).expected).toHaveLength(2);
  const bad = cli(['run', '--baseline', path.join(dir, 'missing.json'), '--out', path.join(dir, 'out')]);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe(`conformance run: --baseline ${path.join(dir, 'missing.json')}: no such file\n`);
});
