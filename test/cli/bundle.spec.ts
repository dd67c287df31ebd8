/**
 * `conformance bundle` and `conformance verify`, on a run folder made of canned files (results
 * built by the reporter's own code from canned records; no conformance run): the bundle holds the
 * reports, the configuration with its secrets redacted (placeholders kept) and bundle.json with
 * the suite, the contract SHA-256, the verdict and a manifest; verify says intact and exits as
 * the run did; a byte changed in any file, bundle.json included, a file added or taken out, or
 * what is no bundle at all, exits 2 naming what is wrong. results.json and junit.xml of every run
 * record the suite and the contract (run.suite).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { suiteIdentity } from '../../src/contract/suite.ts';
import { buildResults, type Results } from '../../src/report/results.ts';
import { junitXml } from '../../src/report/junit.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { readTgz, writeTgz } from '../../src/cli/tar.ts';
import { bundleCommand, type BundleInfo } from '../../src/cli/bundle.ts';
import { verifyCommand } from '../../src/cli/verify.ts';
import { looksSecret, redactConfig } from '../../src/module/config-redact.ts';
import type { CheckResult } from '../../src/checks/result.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';

const API_KEY = 'sk-live-7Hq2xPz9Lm4Rt8Vw';
const SHORT_TOKEN = 'q7z';
const ENV_SECRET = 'Zx81kQ0pLr5TnWvY3bC6';
const HEADER_TOKEN = 'trig-9f8e7d6c5b4a';
const ARG_SECRET = 'argsecret-5566778899';
const URL_PASSWORD = 'p4ssw0rd-url';
const SESSION_SECRET = 'abc';
const SECRETS = [API_KEY, ENV_SECRET, HEADER_TOKEN, ARG_SECRET, URL_PASSWORD];

/** A configuration as a vendor writes it: comments, placeholders, and secrets written out. */
const CONFIG = `{
  // the module under test
  "mode": "launch",
  "apiKey": "${API_KEY}",
  "launch": {
    "command": "node",
    "args": ["main.js", "--api-key", "${ARG_SECRET}", "--port={port}", "--max-old-space-size=4096", "--session-secret=${SESSION_SECRET}", "--shop=${ENV_SECRET}"],
    "env": {
      "SYSTEM_URL": "{systemUrl}",
      "MODULE_TOKEN": "{env:MODULE_TOKEN}",
      "SHORT_TOKEN": "${SHORT_TOKEN}",
      "SIGNING": "${ENV_SECRET}",
      "DEFAULTED_KEY": "{env:MODULE_KEY:-}",
      "DB_URL": "postgres://shop:${URL_PASSWORD}@127.0.0.1:5432/shop",
      "PORT": "{port}"
    }
  },
  "triggers": {
    "payment.notify": {
      "url": "{moduleUrl}/dev/notify?token=${HEADER_TOKEN}&event={event}",
      "headers": { "Authorization": "Bearer {env:HOOK_TOKEN}", "X-Hook-Token": "${HEADER_TOKEN}", "X-Shop": "shop-1" },
      "body": { "paymentId": "{paymentId}", "apiKey": "{apiKey}" }
    }
  }
}
`;

const exchange: Exchange = {
  id: 's1-x1',
  direction: 'system->module',
  label: 'delivery.calculate',
  startedAt: '2026-11-22T00:00:01.000Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1:1/delivery/calculate', headers: {}, body: 'clientId=x', bytes: 10 },
  response: { status: 200, headers: {}, body: '{"success":true,"result":[]}', bytes: 28 },
};

const result = (status: 'passed' | 'failed'): CheckResult => ({
  check: 'ensureCalculateAnswers',
  title: 'the module answers delivery.calculate',
  requirements: ['DLV-CALCULATE-TARIFF-FIELDS'],
  profile: false,
  severity: 'MUST',
  status,
  message: `Checked: the module answers.\n${status === 'failed' ? 'Received: HTTP 500\nExpected: HTTP 200' : 'Held: it answered'}\nRequirements: DLV-CALCULATE-TARIFF-FIELDS (MUST)`,
  evidence: ['s1-x1'],
  spec: 'delivery calculate',
});

/** A run's output folder as `conformance run --out` leaves it, its files canned. */
async function runFolder(outcome: 'passed' | 'failed' | 'aborted'): Promise<{ dir: string; results: Results }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-'));
  const config = path.join(dir, 'my module.config.json');
  fs.writeFileSync(config, CONFIG);
  const results = await buildResults({
    records: outcome === 'aborted' ? [] : [{ results: [result(outcome)], exchanges: [exchange], module: { code: 'shop-delivery', kinds: ['delivery'], mode: 'launch' } }],
    brokenSpecs: [],
    startedAt: new Date('2026-11-22T00:00:00Z'),
    durationMs: 4200,
    profile: true,
    mode: 'launch',
    config,
    ...(outcome === 'aborted' ? { aborted: 'the module exited before it registered' } : {}),
  });
  expect(results.run.outcome).toBe(outcome);
  const reports = path.join(dir, 'reports');
  fs.mkdirSync(reports);
  fs.writeFileSync(path.join(reports, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(reports, 'conformance.html'), `<!doctype html><title>conformance</title><p>${outcome}</p>\n`);
  fs.writeFileSync(path.join(reports, 'junit.xml'), junitXml(results));
  return { dir, results };
}

interface Said {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command of the CLI in this process, its output captured. */
async function capture(command: (args: string[]) => Promise<number>, ...args: string[]): Promise<Said> {
  const out = { stdout: '', stderr: '' };
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((s: string) => ((out.stdout += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((out.stderr += s), true)) as typeof process.stderr.write;
  try {
    const code = await command(args);
    return { code, ...out };
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
  }
}

/** The bundle with `change` applied to its files (gunzipped, changed, packed again). */
function rewrite(bundle: string, to: string, change: (entries: Array<{ name: string; data: Buffer }>) => Array<{ name: string; data: Buffer }>): string {
  fs.writeFileSync(to, writeTgz(change(readTgz(fs.readFileSync(bundle))), 0));
  return to;
}

const flipByte = (data: Buffer, at = Math.floor(data.length / 2)): Buffer => {
  const copy = Buffer.from(data);
  copy[at] = copy[at] === 0x41 ? 0x42 : 0x41;
  return copy;
};

test('results.json of every run records the suite and the contract SHA-256 (run.suite), valid against its schema', async () => {
  for (const outcome of ['failed', 'aborted'] as const) {
    const { results } = await runFolder(outcome);
    expect(results.run.suite).toEqual(suiteIdentity());
    expect(results.run.suite!.contractSha256).toMatch(/^[0-9a-f]{64}$/);
    const v = contract().validate('suite/results.json', JSON.parse(JSON.stringify(results)));
    expect(v.valid, formatErrors(v.errors)).toBe(true);
  }
  const cli = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), '--version'], { encoding: 'utf8' });
  const s = suiteIdentity();
  expect(cli.stdout).toBe(`${s.name} ${s.version} (contract sha256 ${s.contractSha256})\n`);
});

test('conformance bundle packs the reports, the redacted configuration and bundle.json; verify says intact and exits as the run did', async () => {
  const { dir, results } = await runFolder('failed');
  const reports = path.join(dir, 'reports');
  // From the command line, as CI types it: `conformance bundle` in the folder that holds reports/.
  const cli = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'bundle'], { cwd: dir, encoding: 'utf8' });
  expect(cli.stderr).toBe('');
  expect(cli.status).toBe(0);
  const bundle = path.join(reports, 'conformance-bundle.tgz');
  const s = suiteIdentity();
  expect(cli.stdout).toBe(`conformance bundle: ${path.join('reports', 'conformance-bundle.tgz')} (5 files, ${(fs.statSync(bundle).size / 1024).toFixed(1)} KB): ${s.name} ${s.version}, contract sha256 ${s.contractSha256}; FAIL\n`);

  const entries = readTgz(fs.readFileSync(bundle));
  expect(entries.map((e) => e.name)).toEqual(['bundle.json', 'results.json', 'conformance.html', 'junit.xml', 'config.json']);
  for (const name of ['results.json', 'conformance.html', 'junit.xml']) expect(entries.find((e) => e.name === name)!.data.equals(fs.readFileSync(path.join(reports, name))), name).toBe(true);
  const info = JSON.parse(entries[0]!.data.toString('utf8')) as BundleInfo;
  expect(info).toMatchObject({
    format: 'module-conformance-bundle',
    formatVersion: 1,
    suite: s,
    bundledWith: s,
    module: { code: 'shop-delivery', kinds: ['delivery'] },
    outcome: 'failed',
    verdict: 'FAIL',
    startedAt: results.run.startedAt,
    config: { file: 'config.json', source: 'my module.config.json' },
  });
  expect(Object.keys(info.manifest)).toEqual(['results.json', 'conformance.html', 'junit.xml', 'config.json']);
  expect(info.selfSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(Date.parse(info.bundledAt)).toBeGreaterThan(Date.parse('2026-01-01'));
  // The junit.xml bundled names the suite and the contract.
  expect(entries.find((e) => e.name === 'junit.xml')!.data.toString()).toContain(`<property name="contract.sha256" value="${s.contractSha256}"/>`);

  // The system's tar reads it.
  const listed = spawnSync('tar', ['-tzf', bundle], { encoding: 'utf8' });
  if (listed.status === 0) expect(listed.stdout.trim().split('\n')).toEqual(entries.map((e) => e.name));

  const verified = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'verify', bundle], { cwd: dir, encoding: 'utf8' });
  expect(verified.stderr).toBe('');
  expect(verified.status, 'an intact bundle of a failed run: exit 1').toBe(1);
  expect(verified.stdout).toMatch(
    new RegExp(`^conformance verify: reports/conformance-bundle\\.tgz: intact \\(5 files\\); ${s.name} ${s.version.replace(/\./g, '\\.')}, contract sha256 ${s.contractSha256}; run of 2026-11-22T00:00:00\\.000Z, module shop-delivery: FAIL \\(`),
  );
  expect(verified.stdout.trim().split('\n')).toHaveLength(1);
});

test('the configuration in the bundle keeps its placeholders and none of its secrets', async () => {
  const { dir } = await runFolder('failed');
  const out = path.join(dir, 'out', 'b.tgz');
  const said = await capture(bundleCommand, path.join(dir, 'reports'), '--out', out);
  expect(said.code, said.stderr).toBe(0);
  const tar = gunzipSync(fs.readFileSync(out)).toString('latin1');
  for (const secret of [...SECRETS, `"${SHORT_TOKEN}"`, `=${SESSION_SECRET}"`]) expect(tar.includes(secret), `${secret} is in the bundle`).toBe(false);
  const config = JSON.parse(readTgz(fs.readFileSync(out)).find((e) => e.name === 'config.json')!.data.toString()) as Record<string, any>;
  expect(config.apiKey).toBe('<redacted:apiKey>');
  expect(config.launch.args).toEqual(['main.js', '--api-key', '<redacted:api-key>', '--port={port}', '--max-old-space-size=4096', '--session-secret=<redacted:session-secret>', '--shop=<redacted:shop>']);
  expect(config.launch.env).toEqual({
    SYSTEM_URL: '{systemUrl}',
    MODULE_TOKEN: '{env:MODULE_TOKEN}',
    SHORT_TOKEN: '<redacted:SHORT_TOKEN>',
    SIGNING: '<redacted:SIGNING>',
    DEFAULTED_KEY: '{env:MODULE_KEY:-}',
    DB_URL: 'postgres://shop:<redacted:password>@127.0.0.1:5432/shop',
    PORT: '{port}',
  });
  const trigger = config.triggers['payment.notify'];
  expect(trigger.url).toBe('{moduleUrl}/dev/notify?token=<redacted:token>&event={event}');
  expect(trigger.headers).toEqual({ Authorization: 'Bearer {env:HOOK_TOKEN}', 'X-Hook-Token': '<redacted:X-Hook-Token>', 'X-Shop': 'shop-1' });
  expect(trigger.body).toEqual({ paymentId: '{paymentId}', apiKey: '{apiKey}' });
  const info = JSON.parse(readTgz(fs.readFileSync(out))[0]!.data.toString()) as BundleInfo;
  expect(info.config!.redacted).toEqual(expect.arrayContaining(['apiKey', 'launch.env.SIGNING', 'launch.args[2]', 'triggers.payment.notify.headers.X-Hook-Token']));

  // A secret of the configuration that reached a report all the same is redacted there too.
  const leaky = await runFolder('failed');
  const page = path.join(leaky.dir, 'reports', 'conformance.html');
  fs.writeFileSync(page, `<p>key ${API_KEY} leaked</p>`);
  const again = await capture(bundleCommand, path.join(leaky.dir, 'reports'));
  expect(again.code).toBe(0);
  expect(again.stderr).toBe('conformance bundle: conformance.html held a secret of the configuration: redacted in the bundle\n');
  const bundled = readTgz(fs.readFileSync(path.join(leaky.dir, 'reports', 'conformance-bundle.tgz')));
  expect(bundled.find((e) => e.name === 'conformance.html')!.data.toString()).toBe('<p>key <redacted:apiKey> leaked</p>');
});

test('what looks like a key is redacted whatever its name; paths, addresses and words are not', () => {
  for (const v of [ENV_SECRET, 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'dGhpcyBpcyBhIHNlY3JldCBrZXk9']) expect(looksSecret(v), v).toBe(true);
  for (const v of ['node_modules/.bin/tsx', 'http://127.0.0.1:8080', 'dist/main-2026.js', 'reference-module', '1000', './start-12345678.js']) expect(looksSecret(v), v).toBe(false);
  expect(() => redactConfig('{ not json')).toThrow();
});

test('verify: a byte changed in any file of the bundle, bundle.json included, or a file added or taken out, exits 2 naming it', async () => {
  const { dir } = await runFolder('passed');
  const bundle = path.join(dir, 'b.tgz');
  expect((await capture(bundleCommand, path.join(dir, 'reports'), '--out', bundle)).code).toBe(0);
  const intact = await capture(verifyCommand, bundle);
  expect(intact.code, intact.stdout).toBe(0);
  expect(intact.stdout).toMatch(/: intact \(5 files\); .*module shop-delivery: PASS /);

  for (const name of ['bundle.json', 'results.json', 'conformance.html', 'junit.xml', 'config.json']) {
    // In bundle.json a byte of a value (its date), so that it stays JSON; elsewhere the middle byte.
    const at = (data: Buffer): number => (name === 'bundle.json' ? data.indexOf('"bundledAt": "') + 16 : Math.floor(data.length / 2));
    const changed = rewrite(bundle, path.join(dir, `changed-${name}.tgz`), (es) => es.map((e) => (e.name === name ? { name, data: flipByte(e.data, at(e.data)) } : e)));
    const said = await capture(verifyCommand, changed);
    expect(said.code, `${name}: ${said.stdout}`).toBe(2);
    expect(said.stdout.split('\n')[0], name).toMatch(new RegExp(`^${name.replace('.', '\\.')}: changed`));
    expect(said.stdout).toMatch(/\nconformance verify: .*: TAMPERED \(\d+ problems?\); it says .*: PASS\n$/);
  }

  const notJson = await capture(verifyCommand, rewrite(bundle, path.join(dir, 'not-json.tgz'), (es) => es.map((e) => (e.name === 'bundle.json' ? { name: e.name, data: flipByte(e.data, 0) } : e))));
  expect(notJson.code).toBe(2);
  expect(notJson.stdout).toMatch(/^bundle\.json: changed \(not JSON any more\)\nconformance verify: .*: NOT A VALID BUNDLE\n$/);

  const added = await capture(verifyCommand, rewrite(bundle, path.join(dir, 'added.tgz'), (es) => [...es, { name: 'extra.txt', data: Buffer.from('x') }]));
  expect(added.code).toBe(2);
  expect(added.stdout.split('\n')[0]).toBe('extra.txt: added (not in the manifest)');

  const missing = await capture(verifyCommand, rewrite(bundle, path.join(dir, 'missing.tgz'), (es) => es.filter((e) => e.name !== 'junit.xml')));
  expect(missing.code).toBe(2);
  expect(missing.stdout.split('\n')[0]).toBe('junit.xml: missing (the manifest lists it)');

  // results.json changed and its SHA-256 in the manifest with it: bundle.json no longer holds, and says so.
  const forged = rewrite(bundle, path.join(dir, 'forged.tgz'), (es) => {
    const results = JSON.parse(es.find((e) => e.name === 'results.json')!.data.toString()) as Results;
    results.run.outcome = 'failed';
    const data = Buffer.from(JSON.stringify(results));
    const info = JSON.parse(es[0]!.data.toString()) as BundleInfo;
    info.manifest['results.json'] = createHash('sha256').update(data).digest('hex');
    return es.map((e) => (e.name === 'results.json' ? { name: e.name, data } : e.name === 'bundle.json' ? { name: e.name, data: Buffer.from(JSON.stringify(info, null, 2)) } : e));
  });
  const f = await capture(verifyCommand, forged);
  expect(f.code).toBe(2);
  expect(f.stdout).toContain('bundle.json: changed (its SHA-256 is not the one it records)\n');
  expect(f.stdout).toContain("bundle.json: its outcome is passed, results.json's is failed\n");

  // Not a bundle: a byte of the gzip changed, a text file, a tar without bundle.json, no file.
  const gz = fs.readFileSync(bundle);
  const broken = path.join(dir, 'broken.tgz');
  fs.writeFileSync(broken, flipByte(gz, 40));
  const notBundles: Array<[string, RegExp]> = [
    [broken, /^.*broken\.tgz: not a (gzip file|tar archive|ustar archive)/],
    [path.join(dir, 'reports', 'results.json'), /results\.json: not a gzip file/],
    [rewrite(bundle, path.join(dir, 'plain.tgz'), (es) => es.slice(1)), /plain\.tgz: not a bundle \(no bundle\.json\)/],
    [path.join(dir, 'nothing.tgz'), /^cannot read .*nothing\.tgz \(ENOENT\)/],
  ];
  for (const [file, line] of notBundles) {
    const said = await capture(verifyCommand, file);
    expect(said.code, file).toBe(2);
    expect(said.stdout, file).toMatch(line);
    expect(said.stdout).toMatch(/conformance verify: .*: NOT A VALID BUNDLE\n$/);
  }
});

test('bundle: no results.json in the folder exits 2 in one line; an aborted run bundles and verifies as the run exited (2)', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-empty-'));
  const none = await capture(bundleCommand, empty);
  expect(none.code).toBe(2);
  expect(none.stdout).toBe('');
  expect(none.stderr.trim().split('\n')).toHaveLength(1);
  expect(none.stderr).toMatch(/^conformance bundle: no results\.json in .*conformance-bundle-empty-/);
  expect((await capture(bundleCommand, empty, 'two')).code).toBe(2);
  expect((await capture(verifyCommand)).code).toBe(2);

  const { dir } = await runFolder('aborted');
  fs.rmSync(path.join(dir, 'my module.config.json'));
  const said = await capture(bundleCommand, path.join(dir, 'reports'));
  expect(said.code).toBe(0);
  expect(said.stderr).toMatch(/^conformance bundle: the configuration is not bundled: cannot read .*my module\.config\.json \(ENOENT\)\n$/);
  const verified = await capture(verifyCommand, path.join(dir, 'reports', 'conformance-bundle.tgz'));
  expect(verified.code).toBe(2);
  expect(verified.stdout).toMatch(/: intact \(4 files\); .*: ABORTED \(the run could not start: the module exited before it registered\)\n$/);
});
