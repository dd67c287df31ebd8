/**
 * Run modes other than the embedded default: remote mode (the module runs elsewhere and its
 * registration is given), and a run on the document alone (profile checks off).
 */
import { test, expect, type TestInfo } from '@playwright/test';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { freePort } from '../../src/module/launcher.ts';
import { failedChecks, runSuite, type SuiteRun } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { DOCUMENT_ALONE_ROWS, ROW_TEST_TIMEOUT_MS, rowNamed } from './run-rows.ts';
import { resultsSaid, verdictSaid } from '../run/determinism.ts';

test.describe.configure({ timeout: 120_000 });

/** Starts the reference module as a vendor's staging module would run: its own process, its own stand-in system. */
async function startRemoteModule(faults: string): Promise<{ moduleUrl: string; registrationFile: string; stop: () => void }> {
  let registration: string | undefined;
  const system = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url?.includes('/integration-modules/')) registration = new URLSearchParams(body).get('integrationModule') ?? undefined;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((r) => system.listen(0, '127.0.0.1', r));
  const port = await freePort();
  const moduleUrl = `http://127.0.0.1:${port}`;
  const module = spawn(process.execPath, ['--import', 'tsx', 'examples/reference-module/main.ts'], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, SYSTEM_URL: `http://127.0.0.1:${(system.address() as AddressInfo).port}`, API_KEY: 'remote-test-key', PORT: String(port), PUBLIC_URL: moduleUrl, FAULTS: faults },
    stdio: 'ignore',
  });
  await expect.poll(() => registration, { timeout: 30_000 }).toBeDefined();
  const registrationFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'remote-')), 'registration.json');
  fs.writeFileSync(registrationFile, registration!);
  return { moduleUrl, registrationFile, stop: () => (module.kill('SIGTERM'), system.close()) };
}

test('remote mode with a failing check: judged, not aborted (exit 1, the failure named, every check run once)', async () => {
  const remote = await startRemoteModule('activity-reply-malformed');
  try {
    const run = await runSuite(['--module-url', remote.moduleUrl, '--registration', remote.registrationFile, '--runs', '20']);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(failedChecks(run.results)).toEqual(['ensureActivityAcknowledged']);
    expect(run.results!.run.outcome).toBe('failed');
    // Every later test ran against the same session: the registration checks after the failure passed.
    const passed = run.results!.results.filter((r) => r.status === 'passed').map((r) => r.check);
    expect(passed).toContain('ensurePayerTypesAreAllowed');
    expect(passed).toContain('ensureRefusedCallbackHasNoEffect');
  } finally {
    remote.stop();
  }
});

test('remote mode: a module running elsewhere, its registration given, flows without triggers skipped', async () => {
  const remote = await startRemoteModule('');
  try {
    const run = await runSuite(['--module-url', remote.moduleUrl, '--registration', remote.registrationFile, '--runs', '20']);
    expect(run.results, run.stderr).toBeDefined();
    expect(run.results!.run.mode).toBe('remote');
    expect(failedChecks(run.results)).toEqual([]);
    const passed = run.results!.results.filter((r) => r.status === 'passed').map((r) => r.check);
    expect(passed).toContain('ensureActivityAcknowledged');
    expect(passed).toContain('ensurePayerTypesAreAllowed');
    const skipped = run.results!.results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => /needs trigger (delivery\.tracking|telephony\.callsUpload|telephony\.callEvent|telephony\.managerLookup|payment\.notify)/.test(r.message))).toBe(true);
    expect(run.exitCode).toBe(0);
  } finally {
    remote.stop();
  }
});

test('remote mode, --parallel 2 (src/run/attach.ts): the attached worker calls the module elsewhere too; the same results as one at a time', async () => {
  test.setTimeout(300_000);
  const args = ['--area', 'delivery,telephony', '--runs', '10', '--seed', '4242'];
  const runs = [];
  for (const parallel of ['1', '2']) {
    // A fresh module each time: what one run saved is not the other's.
    const remote = await startRemoteModule('');
    try {
      runs.push(await runSuite(['--module-url', remote.moduleUrl, '--registration', remote.registrationFile, ...args, '--parallel', parallel]));
    } finally {
      remote.stop();
    }
  }
  const [one, two] = runs as [Awaited<ReturnType<typeof runSuite>>, Awaited<ReturnType<typeof runSuite>>];
  for (const run of [one, two]) expect(run.results, run.stderr).toBeDefined();
  expect(two.results!.exchanges.some((x) => x.id.startsWith('a') && x.label.startsWith('delivery.'))).toBe(true);
  expect(resultsSaid(two.results!)).toEqual(resultsSaid(one.results!));
  expect(verdictSaid(two.results!)).toEqual(verdictSaid(one.results!));
  expect(two.exitCode).toBe(one.exitCode);
});

/** The outcome of a row of run-rows.ts (a row of the shared batch, or the test's own run). */
function documentAlone(name: string, testInfo: TestInfo): Promise<SuiteRun> {
  test.setTimeout(ROW_TEST_TIMEOUT_MS);
  return batchedRun('document-alone', DOCUMENT_ALONE_ROWS, rowNamed(DOCUMENT_ALONE_ROWS, name), testInfo);
}

test(rowNamed(DOCUMENT_ALONE_ROWS, 'no-profile-full').title, async ({}, testInfo) => {
  const run = await documentAlone('no-profile-full', testInfo);
  expect(run.results, run.stderr).toBeDefined();
  expect(run.results!.run.profile).toBe(false);
  const profile = run.results!.results.filter((r) => r.profile);
  expect(profile.length).toBeGreaterThan(0);
  expect(profile.every((r) => r.status === 'skipped')).toBe(true);
  // The malformed activity reply breaks a wire-profile rule only: the document alone passes it.
  expect(failedChecks(run.results)).toEqual([]);
  expect(run.exitCode).toBe(0);
});

test(rowNamed(DOCUMENT_ALONE_ROWS, 'no-profile-event-type').title, async ({}, testInfo) => {
  // The call-event `type` enum rests on the wire profile alone; the payload check also carries document ids.
  const [profileOnly, documentRule] = await Promise.all([documentAlone('no-profile-event-type', testInfo), documentAlone('no-profile-event-codes', testInfo)]);
  expect(failedChecks(profileOnly.results)).toEqual([]);
  const judged = profileOnly.results!.results.filter((r) => r.check === 'ensureMessageMatchesSchema' && r.requirements.includes('WIRE-TEL-EVENT-TYPE-VALUES'));
  expect(judged.length).toBeGreaterThan(0);
  expect(judged.every((r) => r.status === 'passed')).toBe(true);
  expect(profileOnly.exitCode).toBe(0);

  expect(failedChecks(documentRule.results)).toEqual(['ensureMessageMatchesSchema']);
  expect(documentRule.results!.results.find((r) => r.status === 'failed')!.message).toContain('/codes/0');
  expect(documentRule.exitCode).toBe(1);
});
