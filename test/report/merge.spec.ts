/**
 * `conformance merge` on canned shards (src/report/merge.ts): what each shard recorded of its
 * own (its session's judgements) is combined (a failure anywhere fails, a pass beats a not
 * applicable elsewhere, the same finding is kept once with the evidence of all), the tests'
 * results are taken as they are, and shards that are not one run's are refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { buildResults, type Results } from '../../src/report/results.ts';
import { combineShared, mergeProblems, mergeShards, type ShardRun } from '../../src/report/merge.ts';
import { catalogue } from '../../src/contract/catalogue.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import type { CheckResult, Status } from '../../src/checks/result.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { TestRecord } from '../../src/run/conformance.ts';
import type { Selection } from '../../src/module/config.ts';

const SESSION = 'session: calls the module made on its own';
// Testable delivery requirements of the catalogue (no id written here: they are the tables').
const [A, B, C, D] = catalogue()
  .entries.filter((e) => e.testable && e.id.startsWith('DLV-') && !e.kinds)
  .map((e) => e.id);

function result(check: string, status: Status, requirements: string[], spec: string, evidence: string[] = [], held = 'all 3 calls'): CheckResult {
  const line = status === 'notApplicable' ? 'Not applicable: no call to judge' : status === 'skipped' ? 'Skipped: not asked' : status === 'failed' ? 'Received: x\nExpected: y' : `Held: ${held}`;
  return { check, title: check, requirements, profile: false, severity: 'MUST', status, message: `Checked: ${check}.\n${line}\nRequirements: ${requirements.join(', ')} (MUST)`, evidence, spec };
}

function exchange(id: string): Exchange {
  return { id, direction: 'system->module', label: 'delivery.calculate', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1, request: { method: 'POST', url: '/calculate', headers: {}, bytes: 0 }, response: { status: 200, headers: {}, bytes: 0 } } as unknown as Exchange;
}

interface ShardSpec {
  shard: number;
  total?: number;
  tests: CheckResult[];
  session: CheckResult[];
  prefix: string;
  seed?: number;
  selection?: Selection;
}

/** A shard's results as the reporter writes them: its tests' records, then its session's. */
async function shard(s: ShardSpec): Promise<ShardRun> {
  const total = s.total ?? 3;
  const records: TestRecord[] = [
    { results: s.tests, exchanges: [exchange(`${s.prefix}-x1`)], module: { code: 'm', kinds: ['delivery'], mode: 'launch' } },
    { results: s.session, exchanges: [exchange(`${s.prefix}-x2`)], triggers: { declared: ['delivery.tracking', 'registration.repeat'], fired: s.shard === 1 ? ['delivery.tracking'] : [] } },
  ];
  const results = await buildResults({
    records,
    brokenSpecs: [],
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, s.shard)),
    durationMs: 1000,
    profile: true,
    mode: 'launch',
    generation: { seed: s.seed ?? 7, runs: 10, timeLimitMs: 1000, lanes: 1 },
    shard: { current: s.shard, total, config: 'same', contract: 'same' },
    selection: s.selection ?? { shard: `${s.shard}/${total}`, selected: 1, total, leftOutTests: [], leftOut: [] },
  });
  return { dir: `/shards/${s.shard}`, results };
}

const statusOf = (r: Results, id: string): string | undefined => r.requirements.find((q) => q.id === id)?.status;

test('a rule failed in any shard fails the run; the tests of each shard are kept as they ran, in shard order', async () => {
  const shards = await Promise.all([
    shard({ shard: 1, prefix: 's10', tests: [result('t1', 'passed', [A!], 'spec one')], session: [result('own', 'passed', [B!], SESSION, ['s10-x2'])] }),
    shard({ shard: 2, prefix: 's20', tests: [result('t2', 'passed', [C!], 'spec two')], session: [result('own', 'failed', [B!], SESSION, ['s20-x2'])] }),
    shard({ shard: 3, prefix: 's30', tests: [result('t3', 'notApplicable', [D!], 'spec three')], session: [result('own', 'passed', [B!], SESSION, ['s30-x2'])] }),
  ]);
  expect(mergeProblems(shards)).toEqual([]);
  const merged = await mergeShards([shards[2]!, shards[0]!, shards[1]!]);
  expect(merged.run.outcome).toBe('failed');
  expect(statusOf(merged, B!)).toBe('failed');
  expect(merged.coverage!.verdict).toBe('FAIL');
  expect(merged.coverage!.failedIds).toEqual([B]);
  expect(merged.results.filter((r) => r.spec !== SESSION && r.spec !== 'run').map((r) => r.check)).toEqual(['t1', 't2', 't3']);
  // The passes of shards 1 and 3 are one finding; the failure of shard 2 stays beside it.
  const own = merged.results.filter((r) => r.check === 'own');
  expect(own.map((r) => r.status)).toEqual(['passed', 'failed']);
  expect(own[0]!.evidence).toEqual(['s10-x2', 's30-x2']);
  expect(own[0]!.message).toContain('Recorded in shards 1/3, 3/3.');
  expect(own[1]!.message).toContain('Recorded in shard 2/3.');
  // The run-level rule is judged again over every shard's exchanges; the exchanges are all there.
  expect(merged.results.filter((r) => r.spec === 'run').map((r) => [r.check, r.status])).toEqual([['ensureModuleWasReached', 'passed']]);
  expect(merged.exchanges.map((x) => x.id).sort()).toEqual(['s10-x1', 's10-x2', 's20-x1', 's20-x2', 's30-x1', 's30-x2']);
  expect(merged.run.merged!.shards.map((s) => [s.shard, s.dir, s.outcome])).toEqual([
    ['1/3', '/shards/1', 'passed'],
    ['2/3', '/shards/2', 'failed'],
    ['3/3', '/shards/3', 'passed'],
  ]);
  expect(merged.run.shard).toBeUndefined();
  // An unnarrowed run's shards join into an unnarrowed run.
  expect(merged.run.selection).toBeUndefined();
  expect(merged.coverage!.narrowed).toBeUndefined();
  // A trigger one shard used is used.
  expect(merged.coverage!.unusedTriggers).toEqual(['registration.repeat']);
  expect(merged.run.startedAt).toBe('2026-01-01T00:00:01.000Z');
  expect(merged.run.durationMs).toBe(3000);
});

test('a pass in one shard and not applicable in another passes; the shard that judged nothing is named, its evidence kept', async () => {
  const shards = await Promise.all([
    shard({ shard: 1, total: 2, prefix: 's1', tests: [], session: [result('own', 'notApplicable', [B!], SESSION, ['s1-x9'])] }),
    shard({ shard: 2, total: 2, prefix: 's2', tests: [], session: [result('own', 'passed', [B!], SESSION, ['s2-x2'])] }),
  ]);
  const merged = await mergeShards(shards);
  expect(statusOf(merged, B!)).toBe('passed');
  const own = merged.results.filter((r) => r.check === 'own');
  expect(own).toHaveLength(1);
  expect(own[0]!.status).toBe('passed');
  expect(own[0]!.message).toContain('In shard 1/2: Not applicable: no call to judge');
  expect(own[0]!.evidence).toEqual(['s2-x2', 's1-x9']);
  expect(merged.coverage!.passed).toBe(1);
  expect(merged.run.outcome).toBe('passed');
});

test('results alike but for their numbers and plurals are one finding; the n-th of a shard joins the n-th of another', () => {
  const one = (shard: string, held: string, ev: string): { shard: string; result: CheckResult } => ({ shard, result: result('own', 'passed', [A!], SESSION, [ev], held) });
  const combined = combineShared([one('1/2', 'all 326 calls', 'a1'), one('1/2', 'all 2 calls', 'a2'), one('2/2', 'all 1 call', 'b1')]);
  expect(combined.map((r) => r.evidence)).toEqual([['a1', 'b1'], ['a2']]);
  // Info is information, never folded into a judgement.
  const info = combineShared([
    { shard: '1/2', result: { ...result('rate', 'passed', [], SESSION), severity: 'INFO' } },
    { shard: '2/2', result: { ...result('rate', 'info', [], SESSION), severity: 'INFO' } },
  ]);
  expect(info.map((r) => r.status)).toEqual(['passed', 'info']);
});

test('shards that are not one run\'s are refused: a missing shard, one twice, mixed seeds, a whole run, different numbers of shards', async () => {
  const s1 = await shard({ shard: 1, prefix: 'a', tests: [], session: [] });
  const s2 = await shard({ shard: 2, prefix: 'b', tests: [], session: [] });
  const s3 = await shard({ shard: 3, prefix: 'c', tests: [], session: [], seed: 8 });
  expect(mergeProblems([s1, s2])).toEqual(['shard 3/3 missing (given: 1, 2)']);
  expect(mergeProblems([s1, s2, { ...s2, dir: '/again' }])).toContain('shard 2/3 given twice (/shards/2 and /again)');
  expect(mergeProblems([s1, s2, s3])).toEqual(['mixed seeds: 7 (shards 1, 2), 8 (shard 3)']);
  const whole = await shard({ shard: 1, prefix: 'w', tests: [], session: [] });
  delete whole.results.run.shard;
  expect(mergeProblems([whole, s2])).toEqual(["/shards/1 holds a whole run's results, not a shard's (conformance run --shard I/N)"]);
  const ofTwo = await shard({ shard: 2, total: 2, prefix: 'd', tests: [], session: [] });
  expect(mergeProblems([s1, ofTwo])).toEqual(['mixed numbers of shards: 3 (shard 1), 2 (shard 2)']);
  const other = structuredClone(s2);
  other.results.run.shard!.config = 'another';
  expect(mergeProblems([s1, other, await shard({ shard: 3, prefix: 'c', tests: [], session: [] })])).toEqual(['mixed configurations: "same" (shards 1, 3), "another" (shard 2)']);
  expect(mergeProblems([])).toEqual(['no shard given']);
});

test('a shard that could not start makes the joined run one that could not start (exit 2), named', async () => {
  const ok = await shard({ shard: 1, total: 2, prefix: 'a', tests: [result('t1', 'passed', [A!], 'one')], session: [] });
  const aborted = await buildResults({ records: [], brokenSpecs: [], startedAt: new Date(), durationMs: 5, aborted: 'module never registered', profile: true, mode: 'launch', generation: { seed: 7, runs: 10, timeLimitMs: 1000, lanes: 1 }, shard: { current: 2, total: 2, config: 'same', contract: 'same' }, selection: { shard: '2/2', selected: 1, total: 2, leftOutTests: [], leftOut: [] } });
  const shards = [ok, { dir: '/shards/2', results: aborted }];
  expect(mergeProblems(shards)).toEqual([]);
  const merged = await mergeShards(shards);
  expect([merged.run.outcome, merged.run.aborted, merged.coverage]).toEqual(['aborted', 'shard 2/2: module never registered', undefined]);
});

test('a session prefix two shards share (the same pid on two machines) is renamed in the later one, in its exchanges and evidence', async () => {
  const shards = await Promise.all([
    shard({ shard: 1, total: 2, prefix: 's42', tests: [result('t1', 'passed', [A!], 'one', ['s42-x1'])], session: [] }),
    shard({ shard: 2, total: 2, prefix: 's42', tests: [result('t2', 'passed', [C!], 'two', ['s42-x1'])], session: [] }),
  ]);
  const merged = await mergeShards(shards);
  expect(merged.exchanges.map((x) => x.id).sort()).toEqual(['s42-x1', 's42-x2', 's42.2-x1', 's42.2-x2']);
  expect(merged.results.find((r) => r.check === 't2')!.evidence).toEqual(['s42.2-x1']);
  expect(merged.results.find((r) => r.check === 't1')!.evidence).toEqual(['s42-x1']);
});

test('the shards of a narrowed run join into that narrowed run: the tests and requirements every shard left out', async () => {
  const sel = (i: number, selected: number, leftOutTests: string[], leftOut: string[]): Selection => ({ areas: ['registration', 'delivery'], shard: `${i}/2`, selected, total: 5, leftOutTests, leftOut });
  const shards = await Promise.all([
    shard({ shard: 1, total: 2, prefix: 'p', tests: [], session: [], selection: sel(1, 2, ['t3', 't4', 't5'], [C!, D!]) }),
    shard({ shard: 2, total: 2, prefix: 'q', tests: [], session: [], selection: sel(2, 1, ['t1', 't2', 't5'], [A!, D!]) }),
  ]);
  const merged = await mergeShards(shards);
  expect(merged.run.selection).toEqual({ areas: ['registration', 'delivery'], selected: 3, total: 5, leftOutTests: ['t5'], leftOut: [D] });
  expect(merged.coverage!.narrowed).toEqual({ areas: ['registration', 'delivery'], selected: 3, total: 5 });
});

test('conformance merge writes the joined reports and exits as run does; folders that cannot be joined exit 2 with the reason', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'merge-spec-'));
  const write = (name: string, s: ShardRun): string => {
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, 'failures'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(s.results));
    fs.writeFileSync(path.join(dir, 'failures', `${name}.json`), '{}');
    return dir;
  };
  const cli = (...args: string[]) => spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'merge', ...args], { cwd: root, env: childEnv(), encoding: 'utf8' });
  try {
    const d1 = write('one', await shard({ shard: 1, total: 2, prefix: 'a', tests: [result('t1', 'passed', [A!], 'one')], session: [] }));
    const d2 = write('two', await shard({ shard: 2, total: 2, prefix: 'b', tests: [result('t2', 'failed', [C!], 'two')], session: [] }));
    const out = path.join(root, 'joined');
    const r = cli(d1, d2, '--out', out);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('conformance merge: 2 shards (1/2 one, 2/2 two)\n');
    expect(r.stdout).toMatch(/\nconformance: FAIL \(1 requirement failed\) — 2 of \d+ applicable requirements tested, 1 passed, 1 failed; .*\(joined\/conformance\.html\)\n$/);
    const joined = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
    expect(joined.run.merged!.shards).toHaveLength(2);
    expect(fs.readFileSync(path.join(out, 'conformance.html'), 'utf8')).toContain('Joined by conformance merge from 2 shards');
    expect(fs.readFileSync(path.join(out, 'junit.xml'), 'utf8')).toContain('t2 [');
    expect(fs.readdirSync(path.join(out, 'failures')).sort()).toEqual(['one.json', 'two.json']);

    const missing = cli(d1, '--out', out);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('conformance merge: cannot join these shards: shard 2/2 missing (given: 1)\n');
    const none = cli(d1, path.join(root, 'nowhere'));
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(`${path.join(root, 'nowhere')}: no results.json to read (ENOENT)`);
    expect(cli(d1, d2, '--out', d2).stderr).toContain("is a shard's folder");
    expect(cli().stderr).toBe('conformance merge: no shard folder given; see conformance merge --help\n');
    expect(cli('--help').stdout).toContain('usage: conformance merge DIR... [--out DIR]');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
