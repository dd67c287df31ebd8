/**
 * A whole run against the reference module (every kind, chat transport and bot): every
 * exchange the run kept whole is in results.json exactly once, the per-endpoint `kept` counts
 * agree with them, and the module's clientId (the only credential of a callback) is nowhere in
 * clear: not in results.json, conformance.html, junit.xml or any file of the output folder.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import type { Results } from '../../src/report/results.ts';
import { runSuite } from './run-suite.ts';

test.describe.configure({ timeout: 180_000 });

/** The bundled configuration, with the module's clientId taken from the suite's environment. */
function configWithClientId(): string {
  const file = path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { launch: { cwd: string; env: Record<string, string> } };
  config.launch.cwd = PACKAGE_ROOT;
  config.launch.env.CLIENT_ID = '{env:CLIENT_ID}';
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'evidence-config-')), 'conformance.config.json');
  fs.writeFileSync(out, JSON.stringify(config));
  return out;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

function expectEveryKeptExchangeOnce(results: Results): void {
  const ids = results.exchanges.map((x) => x.id);
  expect(new Set(ids).size, 'each exchange once').toBe(ids.length);
  const per = new Map<string, number>();
  for (const x of results.exchanges) per.set(`${x.direction} ${x.label}`, (per.get(`${x.direction} ${x.label}`) ?? 0) + 1);
  for (const e of results.evidence!.endpoints) {
    expect(per.get(e.endpoint) ?? 0, `exchanges of ${e.endpoint} in results.json`).toBe(e.kept);
    expect(e.count, e.endpoint).toBe(e.kept + e.dropped);
  }
  const summarised = new Set(results.evidence!.endpoints.map((e) => e.endpoint));
  for (const endpoint of per.keys()) expect(summarised, endpoint).toContain(endpoint);
}

test('a whole run: every kept exchange in results.json once, and a long clientId nowhere in the output', async () => {
  const clientId = 'f00dcafe5e11a1b2c3d4e5f60718293a';
  const run = await runSuite(['--config', configWithClientId(), '--runs', '20'], { CLIENT_ID: clientId });
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  const results = run.results!;
  expectEveryKeptExchangeOnce(results);
  // The run did register commands and activate the channel: all their exchanges are there.
  for (const endpoint of ['module->gateway transport.channel.activate', 'module->gateway bot.command.set', 'module->system edit']) {
    expect(results.exchanges.some((x) => `${x.direction} ${x.label}` === endpoint), endpoint).toBe(true);
  }
  // The callbacks did carry the clientId (redacted), and the gateway tokens name their owner redacted.
  expect(results.exchanges.some((x) => x.direction === 'system->module' && (x.request.body ?? '').includes('clientId=<redacted:clientId>'))).toBe(true);
  for (const t of results.evidence!.gateway) expect(t.clientId).toBe('<redacted:clientId>');
  const leaks = filesUnder(run.out).filter((f) => fs.readFileSync(f).includes(clientId));
  expect(leaks, 'files holding the clientId in clear').toEqual([]);
});

test('a whole run with a 2-character clientId: redacted in every clientId field, the rest of the report readable', async () => {
  const clientId = 'c7';
  const run = await runSuite(['--config', configWithClientId(), '--runs', '20'], { CLIENT_ID: clientId });
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  const results = run.results!;
  expectEveryKeptExchangeOnce(results);
  let callbacks = 0;
  for (const x of results.exchanges) {
    const url = new URL(x.request.url ?? 'http://x/');
    const form = (x.request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(x.request.body ?? '') : new URLSearchParams();
    for (const v of [...url.searchParams.getAll('clientId'), ...form.getAll('clientId')]) {
      callbacks++;
      expect(v, `${x.id} ${x.label}`).not.toBe(clientId);
    }
    expect(x.curl ?? '', x.id).not.toContain(`clientId=${clientId}'`);
    expect(x.request.body ?? '', x.id).not.toContain(`"clientId":"${clientId}"`);
  }
  expect(callbacks).toBeGreaterThan(0);
  for (const t of results.evidence!.gateway) expect(t.clientId).toBe('<redacted:clientId>');
  // Not blacked out as a word: the system's host, the module code.
  const all = JSON.stringify(results);
  expect(all).toContain('127.0.0.1');
  expect(all).toContain('"code":"reference-module"');
});
