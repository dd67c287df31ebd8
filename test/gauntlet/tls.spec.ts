/**
 * HTTPS simulators end to end: the reference module launched with `NODE_EXTRA_CA_CERTS={caFile}`
 * against a run with `tls: true` (`examples/reference-module/conformance.tls.config.json`).
 * Loopback only.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { loadConfig } from '../../src/module/config.ts';
import { RunSession, SessionStartError } from '../../src/run/session.ts';
import { failedChecks, runSuite } from './run-suite.ts';

test.describe.configure({ timeout: 120_000 });

const TLS_CONFIG = path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.tls.config.json');

test('a full run with tls: conformant, the module registered over https', async () => {
  const run = await runSuite(['--config', TLS_CONFIG, '--runs', '20'], { FAULTS: '', NODE_EXTRA_CA_CERTS: undefined });
  expect(run.results, run.stderr).toBeDefined();
  expect(failedChecks(run.results)).toEqual([]);
  expect(run.results!.summary.failed).toBe(0);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  // The console of a whole run gives the seed as it starts (the replay tests read rows of a batch, whose console is the recap alone).
  expect(run.stdout).toMatch(/\nseed \d+ \(generated requests: 20 per property; conformance run --seed \d+ sends the same ones again\)\n/);

  const exchanges = run.results!.exchanges;
  const registration = exchanges.find((x) => x.direction === 'module->system' && /\/integration-modules\/[^/]+\/edit$/.test(new URL(x.request.url ?? '', 'http://x').pathname));
  expect(registration, 'the registration exchange').toBeDefined();
  expect(registration!.request.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
  // Every call the module made to the simulators went over TLS: https, and wss for the bot socket.
  const toSimulators = exchanges.filter((x) => x.direction === 'module->system' || x.direction === 'module->gateway');
  expect(toSimulators.length).toBeGreaterThan(0);
  for (const x of toSimulators) expect(x.request.url, x.label).toMatch(x.label.startsWith('bot websocket') ? /^wss:\/\// : /^https:\/\//);
  // results.json holds the exchanges the specs attached; when a spec attached the bot's upgrade, it is wss.
  for (const x of exchanges.filter((e) => e.label === 'bot websocket connect')) expect(x.request.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/api\/bot\/v1\/ws/);
});

test('a session with tls: {caFile} reaches the module, which registers over https and connects its bot over wss', async () => {
  const session = await RunSession.start(loadConfig(TLS_CONFIG), 'tls');
  let caFile: string | undefined;
  try {
    const vars = session.placeholders();
    caFile = vars.caFile;
    expect(vars.systemUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(vars.gatewayUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(fs.readFileSync(caFile!, 'utf8')).toBe(session.tls!.caPem);
    expect(session.registration?.call?.exchange.request.url).toMatch(/^https:\/\//);
    expect(session.registration?.kinds).toContain('mgBot');

    await expect.poll(() => session.gateway.botConnections().length, { timeout: 15_000 }).toBeGreaterThan(0);
    const upgrade = session.gateway.botConnections()[0]!.exchange;
    expect(upgrade.request.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/api\/bot\/v1\/ws\?events=/);
    expect(upgrade.response?.status).toBe(101);
    const gatewayCalls = session.log.all().filter((x) => x.direction === 'module->gateway');
    expect(gatewayCalls.map((x) => x.label)).toEqual(expect.arrayContaining(['transport.channel.activate', 'bot.command.set', 'bot websocket connect']));
    for (const x of gatewayCalls) expect(x.request.url).toMatch(/^(https|wss):\/\/127\.0\.0\.1:/);
  } finally {
    await session.stop();
  }
  // The CA file goes with the run.
  expect(fs.existsSync(caFile!)).toBe(false);
});

test('a module that does not trust the run CA cannot register: the run does not start', async () => {
  const config = JSON.parse(fs.readFileSync(TLS_CONFIG, 'utf8')) as { launch: { cwd: string; env: Record<string, string>; registrationTimeoutMs: number } };
  delete config.launch.env.NODE_EXTRA_CA_CERTS;
  config.launch.env.REGISTER_ATTEMPTS = '2';
  config.launch.env.REGISTER_RETRY_MS = '100';
  config.launch.cwd = PACKAGE_ROOT;
  config.launch.registrationTimeoutMs = 4000;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tls-untrusted-')), 'config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
  try {
    const started = RunSession.start(loadConfig(file), 'tls-untrusted');
    await expect(started).rejects.toThrow(SessionStartError);
    await expect(started).rejects.toThrow(/never registered.*serve https \(tls\): does the module trust the run's CA/);
  } finally {
    if (saved !== undefined) process.env.NODE_EXTRA_CA_CERTS = saved;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});
