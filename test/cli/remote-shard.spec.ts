/**
 * Remote mode in shards: one staging module shared, each shard's state kept apart. The staging
 * module is multi-account (the reference module, launched here as a vendor runs it, on
 * 127.0.0.1); each shard is one account of it: its own system and gateway simulators (free
 * ports), its own drawn API key, connected by the trigger registration.connect, so the module
 * registers with that shard's system, gets that shard's gateway tokens and clientId, and makes
 * its own calls for that account to that shard's simulators. Three shards, joined by
 * `conformance merge`, give the verdict, coverage and requirement statuses of one unsharded
 * remote run of the same seed against the same module.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { childEnv } from '../../src/cli/child-env.ts';
import { configFingerprint, shardInfo } from '../../src/cli/shard.ts';
import { loadConfig } from '../../src/module/config.ts';
import { freePort } from '../../src/module/launcher.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { Results } from '../../src/report/results.ts';
import type { CheckResult } from '../../src/checks/result.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { runSuite, type SuiteRun } from '../gauntlet/run-suite.ts';

const SESSION = 'session: calls the module made on its own';
const BUNDLED = path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json');

/**
 * The remote configuration of a multi-account staging module at `moduleUrl`: the bundled
 * configuration's triggers, each naming the account it is for (`?clientId={clientId}`), and the
 * trigger that connects the run's system and key. No apiKey, no ports: each run draws its own.
 */
function remoteConfig(moduleUrl: string): string {
  const bundled = JSON.parse(fs.readFileSync(BUNDLED, 'utf8')) as { triggers: Record<string, { method: string; url: string }>; readiness: unknown; flowTimeoutMs: number };
  const triggers: Record<string, unknown> = Object.fromEntries(Object.entries(bundled.triggers).map(([name, t]) => [name, { ...t, url: `${t.url}?clientId={clientId}` }]));
  triggers['registration.connect'] = { method: 'POST', url: '{moduleUrl}/dev/triggers/registration.connect' };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'remote-shard-config-')), 'conformance.config.json');
  fs.writeFileSync(file, JSON.stringify({ mode: 'remote', remote: { moduleUrl, registrationTimeoutMs: 20_000 }, triggers, readiness: bundled.readiness, flowTimeoutMs: bundled.flowTimeoutMs }, null, 2));
  return file;
}

test('a remote shard needs the registration given or the trigger registration.connect; what differs between accounts stays out of the fingerprint', () => {
  const file = remoteConfig('http://127.0.0.1:9');
  const config = loadConfig(file, { seed: 3 });
  expect(shardInfo(config, { current: 1, total: 3 }, true).config).toBe(configFingerprint(config));
  const { 'registration.connect': _connect, ...others } = config.triggers!;
  expect(() => shardInfo({ ...config, triggers: others }, { current: 1, total: 3 }, true)).toThrow(/needs the module's registration given \(remote.registration or --registration FILE\), or the trigger registration.connect/);
  // Each shard its own key and simulators; the trigger (how the module is connected) alike in all.
  expect(configFingerprint({ ...config, apiKey: 'another-key', system: { port: 7100, publicUrl: 'https://shard-2.example.com' }, gateway: { port: 7200 } })).toBe(configFingerprint(config));
  expect(configFingerprint({ ...config, triggers: others })).not.toBe(configFingerprint(config));
  // {clientId} and {code} come from the registration the trigger asks for: not known when it is fired.
  const bad = JSON.parse(fs.readFileSync(file, 'utf8')) as { triggers: Record<string, { url: string }> };
  bad.triggers['registration.connect']!.url = '{moduleUrl}/connect?clientId={clientId}';
  fs.writeFileSync(file, JSON.stringify(bad));
  expect(() => loadConfig(file)).toThrow('placeholder {clientId} at /triggers/registration.connect/url is not known when registration.connect is fired');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test('a registration.connect trigger that fails, and no registration after it: the run cannot start (exit 2), and says why', async () => {
  // The module's address answers (a remote run first connects to it), its hook does not (nothing listens at port 9).
  const listening = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => listening.listen(0, '127.0.0.1', r));
  const file = remoteConfig(`http://127.0.0.1:${(listening.address() as net.AddressInfo).port}`);
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { remote: Record<string, unknown>; triggers: Record<string, { url: string }> };
  config.remote.registrationTimeoutMs = 500;
  config.triggers['registration.connect']!.url = 'http://127.0.0.1:9/dev/triggers/registration.connect';
  fs.writeFileSync(file, JSON.stringify(config));
  const run = await runSuite(['--config', file, '--area', 'registration']).finally(() => listening.close());
  try {
    expect(run.exitCode, run.stdout).toBe(2);
    expect(run.stderr).toMatch(/^conformance run: the run could not start: module never registered within 500 ms .*; the trigger registration.connect failed: no answer \(ECONNREFUSED/);
  } finally {
    for (const dir of [run.out, path.dirname(file)]) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('three remote shards against one multi-account staging module, joined, give the verdict, coverage and requirements of the run unsharded', async () => {
  test.setTimeout(240_000);
  const port = await freePort();
  const moduleUrl = `http://127.0.0.1:${port}`;
  // The staging module's own account is connected to no system the run knows (nothing listens
  // at port 9): each run connects an account of its own.
  const module = spawn(process.execPath, ['examples/reference-module/start.js'], {
    cwd: PACKAGE_ROOT,
    env: childEnv({ SYSTEM_URL: 'http://127.0.0.1:9', API_KEY: 'staging-own-account', PORT: String(port), REGISTER_ATTEMPTS: '1', BOT_RECONNECT_MS: '500', FAULTS: '' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  module.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const file = remoteConfig(moduleUrl);
  const runs: SuiteRun[] = [];
  const out = path.join(os.tmpdir(), `remote-shard-merged-${process.pid}`);
  try {
    await expect.poll(() => /listening on/.test(log), { timeout: 20_000 }).toBe(true);
    const args = ['--config', file, '--seed', '4242', '--area', 'payment,telephony,chat', '--runs', '5'];
    // The three shards and the whole run at the same time, against the one module.
    runs.push(
      ...(await Promise.all([
        runSuite([...args, '--shard', '1/3'], { FAULTS: '' }),
        runSuite([...args, '--shard', '2/3'], { FAULTS: '' }),
        runSuite([...args, '--shard', '3/3'], { FAULTS: '' }),
        runSuite(args, { FAULTS: '' }),
      ])),
    );
    const [s1, s2, s3, whole] = runs as [SuiteRun, SuiteRun, SuiteRun, SuiteRun];
    const shards = [s1, s2, s3];
    expect(whole.exitCode, whole.stderr).toBe(0);
    const unsharded = whole.results!;
    expect(unsharded.run.mode).toBe('remote');
    for (const [i, s] of shards.entries()) {
      expect(s.exitCode, s.stderr).toBe(0);
      expect(s.results!.run.shard).toMatchObject({ current: i + 1, total: 3 });
      expect(s.results!.coverage!.narrowed).toMatchObject({ shard: `${i + 1}/3` });
    }

    // Each run an account of its own: four accounts connected, each registered under its own clientId.
    expect(log.match(/account connected/g)).toHaveLength(4);
    expect(new Set([...log.matchAll(/registered \{"code":"[^"]+","clientId":"(\w+)"\}/g)].map((m) => m[1])).size).toBe(4);

    // Each shard's system received the module's registration (the connect trigger fired once),
    // and the module's own calls reached the shard that asked for them: summed over the shards,
    // what the module sent of its own is what it sent the unsharded run.
    const endpoints = (r: Results): Map<string, number> => new Map((r.evidence?.endpoints ?? []).map((e) => [e.endpoint, e.count]));
    const own = (e: string): boolean => /^module->(system|gateway) /.test(e) && !/ (edit|transport\.channel\.activate|bot\.command\.set|bot websocket connect)$/.test(e);
    const summed = new Map<string, number>();
    for (const s of shards) {
      const e = endpoints(s.results!);
      expect(e.get('module->system edit'), s.out).toBe(1);
      expect(e.get('system->module trigger registration.connect'), s.out).toBe(1);
      for (const [name, n] of e) if (own(name)) summed.set(name, (summed.get(name) ?? 0) + n);
    }
    const wholeOwn = [...endpoints(unsharded)].filter(([name]) => own(name));
    // The unsharded run's own calls: payment reports and checks, call uploads, events, manager lookups, the chat gateway calls.
    expect(wholeOwn.map(([name]) => name)).toEqual(expect.arrayContaining(['module->system update-invoice', 'module->system calls.upload', 'module->system call.event', 'module->system manager']));
    // The system calls exactly (the seed's); the gateway's, by endpoint (a send the gateway's rate
    // limit refused is sent again, as many times as the timing of each run makes it).
    const systemOnly = (entries: Iterable<[string, number]>): Record<string, number> => Object.fromEntries([...entries].filter(([name]) => name.startsWith('module->system ')).sort());
    expect(systemOnly(summed)).toEqual(systemOnly(wholeOwn));
    expect([...summed.keys()].sort()).toEqual(wholeOwn.map(([name]) => name).sort());
    // More than one shard received calls of the module's own (else the test would not tell accounts apart).
    expect(shards.filter((s) => [...endpoints(s.results!)].some(([name]) => own(name))).length).toBeGreaterThan(1);

    const merge = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'merge', ...shards.map((s) => s.out), '--out', out], { cwd: PACKAGE_ROOT, env: childEnv({}), encoding: 'utf8' });
    expect(merge.status, merge.stderr).toBe(whole.exitCode);
    const merged = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
    const verdictLine = (stdout: string): string => stdout.trim().split('\n').at(-1)!.replace(/ \([^()]*conformance\.html\)$/, '');
    expect(verdictLine(merge.stdout)).toBe(verdictLine(whole.stdout));
    expect(merged.coverage).toEqual(unsharded.coverage);
    expect(merged.run.outcome).toBe(unsharded.run.outcome);
    expect(merged.run.selection).toEqual(unsharded.run.selection);
    expect(merged.requirements.map((q) => [q.id, q.status, [...q.checks].sort()])).toEqual(unsharded.requirements.map((q) => [q.id, q.status, [...q.checks].sort()]));
    // The tests' results, in order; the sessions' own judgements, but for what the README allows
    // a sharded run: a rule of information judged where its tests ran (the gateway's rate: info
    // there, passed in the shards without them), so the tally differs by that rule alone.
    const tests = (r: Results): string[][] => r.results.filter((x) => x.spec !== SESSION).map((x) => [x.spec ?? '', x.check, x.status, x.requirements.join(',')]);
    expect(tests(merged)).toEqual(tests(unsharded));
    const RATE = 'checkGatewayRateLimitIsKept';
    const ownJudged = (r: Results): string[] => r.results.filter((x) => x.spec === SESSION && x.check !== RATE).map((x) => `${x.check} ${x.status} ${x.requirements.join(',')}`).sort();
    expect(ownJudged(merged)).toEqual(ownJudged(unsharded));
    const rate = (r: Results): CheckResult[] => r.results.filter((x) => x.spec === SESSION && x.check === RATE);
    expect(rate(unsharded).map((x) => x.status)).toContain('info');
    expect(rate(merged).map((x) => x.status)).toContain('info');
    expect(rate(merged).every((x) => x.status === 'info' || x.status === 'passed')).toBe(true);
    const tally = (r: Results): Record<string, number> => {
      const t = { ...r.summary } as Record<string, number>;
      for (const x of rate(r)) t[x.status === 'info' ? 'info' : 'passed']! -= 1;
      return t;
    };
    expect(tally(merged)).toEqual(tally(unsharded));
    const valid = contract().validate('suite/results.json', merged);
    expect(valid.valid, formatErrors(valid.errors)).toBe(true);
  } finally {
    module.kill('SIGTERM');
    for (const dir of [out, path.dirname(file), ...runs.map((r) => r.out)]) fs.rmSync(dir, { recursive: true, force: true });
  }
});
