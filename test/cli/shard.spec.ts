/**
 * `conformance run --shard I/N` and `conformance merge`: three shards of a narrowed run of the
 * reference module, run at the same time on this machine with a fixed seed, joined, give the
 * verdict, coverage, requirement statuses, tally and test results of the same run unsharded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { parseRunArgs, RUN_USAGE } from '../../src/cli/run.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { configFingerprint, shardOption } from '../../src/cli/shard.ts';
import { loadConfig } from '../../src/module/config.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { Results } from '../../src/report/results.ts';
import { runSuite } from '../gauntlet/run-suite.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';

const SESSION = 'session: calls the module made on its own';
const cli = (...args: string[]) => spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { cwd: PACKAGE_ROOT, env: childEnv({ FAULTS: '' }), encoding: 'utf8' });

test('--shard takes I/N with 1 ≤ I ≤ N; anything else, or a shard without a fixed seed, is a configuration error (exit 2)', () => {
  expect(parseRunArgs(['--shard', '2/3']).shard).toEqual({ current: 2, total: 3 });
  expect(parseRunArgs(['--shard=1/1']).shard).toEqual({ current: 1, total: 1 });
  for (const bad of ['0/3', '4/3', '3', '1/0', 'a/b', '-1/2', '1/2/3']) expect(() => shardOption(bad), bad).toThrow(`--shard takes I/N, a part I of N parts with 1 ≤ I ≤ N (--shard 2/3), not ${JSON.stringify(bad)}`);
  expect(RUN_USAGE).toContain('--shard I/N              run the I-th of N parts of the run');
  const bad = cli('run', '--out', path.join(PACKAGE_ROOT, 'reports', 'shard-never'), '--shard', '5/4', '--seed', '1');
  expect([bad.status, bad.stderr]).toEqual([2, 'conformance run: --shard takes I/N, a part I of N parts with 1 ≤ I ≤ N (--shard 2/3), not "5/4"\n']);
  const unseeded = cli('run', '--out', path.join(PACKAGE_ROOT, 'reports', 'shard-never'), '--shard', '1/2');
  expect([unseeded.status, unseeded.stderr]).toEqual([2, 'conformance run: --shard 1/2 needs a fixed seed (--seed N, or generation.seed in the configuration): every shard must send the requests of the same run\n']);
  const remote = cli('run', '--out', path.join(PACKAGE_ROOT, 'reports', 'shard-never'), '--shard', '1/2', '--seed', '1', '--module-url', 'http://127.0.0.1:9');
  expect(remote.status).toBe(2);
  expect(remote.stderr).toContain('--shard in remote mode needs the module\'s registration given');
  const empty = cli('run', '--out', path.join(PACKAGE_ROOT, 'reports', 'shard-never'), '--grep', 'registration › the registration call', '--shard', '2/2', '--seed', '1');
  expect([empty.status, empty.stderr]).toEqual([2, "conformance run: shard 2/2 has no test: the run's selection has 1 conformance test(s), fewer than its 2 shards\n"]);
  expect(fs.existsSync(path.join(PACKAGE_ROOT, 'reports', 'shard-never'))).toBe(false);
  expect(cli('help', 'merge').stdout).toContain('usage: conformance merge DIR... [--out DIR]');
});

test('what every shard must have alike ignores what differs between machines: the drawn API key, the simulators\' addresses, paths, the deadline, the lanes', () => {
  const base = loadConfig(undefined, { seed: 5 });
  const same = { ...base, apiKey: 'another', file: '/elsewhere/c.json', system: { bind: '0.0.0.0', port: 7100 }, runTimeoutMs: 5, generation: { ...base.generation, lanes: 9 }, launch: { ...base.launch!, cwd: '/elsewhere' } };
  expect(configFingerprint(same)).toBe(configFingerprint(base));
  expect(configFingerprint(loadConfig(undefined, { seed: 6 }))).not.toBe(configFingerprint(base));
  expect(configFingerprint(loadConfig(undefined, { seed: 5, runs: 7 }))).not.toBe(configFingerprint(base));
  expect(configFingerprint(loadConfig(undefined, { seed: 5, profile: false }))).not.toBe(configFingerprint(base));
});

test('three shards of a run, joined by conformance merge, give the verdict, coverage and requirements of the run unsharded', async () => {
  test.setTimeout(300_000);
  const args = ['--seed', '4242', '--area', 'payment', '--runs', '5'];
  // The three shards and the whole run at the same time.
  const [s1, s2, s3, whole] = await Promise.all([
    runSuite([...args, '--shard', '1/3'], { FAULTS: '' }),
    runSuite([...args, '--shard', '2/3'], { FAULTS: '' }),
    runSuite([...args, '--shard', '3/3'], { FAULTS: '' }),
    runSuite(args, { FAULTS: '' }),
  ]);
  const shards = [s1!, s2!, s3!];
  expect(whole!.exitCode, whole!.stderr).toBe(0);
  const unsharded = whole!.results!;
  for (const [i, s] of shards.entries()) {
    expect(s.exitCode, s.stderr).toBe(0);
    expect(s.results!.run.shard).toMatchObject({ current: i + 1, total: 3 });
    // A shard is a run narrowed to its tests, never the run's verdict.
    expect(s.results!.coverage!.narrowed).toMatchObject({ areas: ['registration', 'payment'], shard: `${i + 1}/3` });
    expect(s.stdout).toContain(`in a run narrowed by --area registration,payment --shard ${i + 1}/3 (`);
    // What a vendor publishes at the top of the folder; no Playwright report, which would show a failing run as passed.
    expect(fs.existsSync(path.join(s.out, 'blob-report')) || fs.existsSync(path.join(s.out, 'playwright-report'))).toBe(false);
    const valid = contract().validate('suite/results.json', s.results);
    expect(valid.valid, formatErrors(valid.errors)).toBe(true);
  }
  // Split by test, not by file: every shard has tests, each test is in one shard.
  const testsOf = (r: Results): string[] => [...new Set(r.results.map((x) => x.spec ?? '').filter((spec) => spec !== 'run' && spec !== SESSION))];
  const perShard = shards.map((s) => testsOf(s.results!));
  for (const t of perShard) expect(t.length).toBeGreaterThan(0);
  expect(perShard.flat()).toEqual(testsOf(unsharded));

  const out = path.join(path.dirname(s1!.out), `${path.basename(s1!.out)}-merged`);
  const merge = cli('merge', ...shards.map((s) => s.out), '--out', out);
  try {
    expect(merge.status, merge.stderr).toBe(whole!.exitCode);
    const merged = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
    const verdictLine = (stdout: string): string => stdout.trim().split('\n').at(-1)!.replace(/ \([^()]*conformance\.html\)$/, '');
    expect(verdictLine(merge.stdout)).toBe(verdictLine(whole!.stdout));
    expect(merged.coverage).toEqual(unsharded.coverage);
    expect(merged.run.outcome).toBe(unsharded.run.outcome);
    expect(merged.run.selection).toEqual(unsharded.run.selection);
    expect(merged.requirements.map((q) => [q.id, q.status, [...q.checks].sort()])).toEqual(unsharded.requirements.map((q) => [q.id, q.status, [...q.checks].sort()]));
    expect(merged.summary).toEqual(unsharded.summary);
    // The tests' results, in order; the sessions' own judgements, as a set.
    const tests = (r: Results): string[][] => r.results.filter((x) => x.spec !== SESSION).map((x) => [x.spec ?? '', x.check, x.status, x.requirements.join(',')]);
    expect(tests(merged)).toEqual(tests(unsharded));
    const own = (r: Results): string[] => r.results.filter((x) => x.spec === SESSION).map((x) => `${x.check} ${x.status} ${x.requirements.join(',')}`).sort();
    expect(own(merged)).toEqual(own(unsharded));
    expect(merged.run.merged!.shards.map((s) => s.shard)).toEqual(['1/3', '2/3', '3/3']);
    const valid = contract().validate('suite/results.json', merged);
    expect(valid.valid, formatErrors(valid.errors)).toBe(true);
    expect(fs.existsSync(path.join(out, 'conformance.html')) && fs.existsSync(path.join(out, 'junit.xml'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'playwright-report'))).toBe(false);
  } finally {
    for (const dir of [out, ...shards.map((s) => s.out), whole!.out]) fs.rmSync(dir, { recursive: true, force: true });
  }
});
