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
import type { Results } from '../../src/report/results.ts';
import { batchedRun } from './batch.ts';
import { EVIDENCE_ROWS, LONG_CLIENT_ID, ROW_TEST_TIMEOUT_MS, SHORT_CLIENT_ID, rowNamed } from './run-rows.ts';

// Whole runs, rows of the shared batch (run-rows.ts).
test.describe.configure({ timeout: ROW_TEST_TIMEOUT_MS });

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

test(rowNamed(EVIDENCE_ROWS, 'evidence-long-client-id').title, async ({}, testInfo) => {
  const clientId = LONG_CLIENT_ID;
  const run = await batchedRun('evidence-complete', EVIDENCE_ROWS, rowNamed(EVIDENCE_ROWS, 'evidence-long-client-id'), testInfo);
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

test(rowNamed(EVIDENCE_ROWS, 'evidence-short-client-id').title, async ({}, testInfo) => {
  const clientId = SHORT_CLIENT_ID;
  const run = await batchedRun('evidence-complete', EVIDENCE_ROWS, rowNamed(EVIDENCE_ROWS, 'evidence-short-client-id'), testInfo);
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
