/**
 * The fault gauntlet: the suite runs against the clean reference module (the whole suite) and
 * against each of its fault variants, narrowed to the fault's area (`--area`: its specs and the
 * registration area's). The clean module passes with zero failures; each fault is caught by
 * exactly its own checks. The rows of the detection table are printed at the end of `npm test`.
 */
import { test, expect } from '@playwright/test';
import { referenceConfigFile } from './compiled-module.ts';
import { FAULT_CASES } from './faults.ts';
import { cleanFullRun, failedChecks, runSuite, warningChecks } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { FAULT_ROWS as ROWS } from './fault-rows.ts';
import { DETECTION_ROW } from '../../src/report/summary-line-reporter.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { contract, formatErrors } from '../../src/contract/schemas.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

test('the clean reference module is certified with zero failures (exit 0)', async ({}, testInfo) => {
  const run = await cleanFullRun();
  expect(run.results, run.stderr).toBeDefined();
  expect(failedChecks(run.results)).toEqual([]);
  expect(run.results!.summary.failed).toBe(0);
  expect(warningChecks(run.results)).toEqual([]);
  expect(run.results!.summary.passed).toBeGreaterThan(15);
  expect(run.results!.run.outcome).toBe('passed');
  const valid = contract().validate('suite/results.json', run.results);
  expect(valid.valid, formatErrors(valid.errors)).toBe(true);
  expect(run.exitCode).toBe(0);
  await testInfo.attach(DETECTION_ROW, { body: `(clean)|-|${failedChecks(run.results).length} failed, ${run.results!.summary.passed} passed|yes` });
});

for (const [i, c] of FAULT_CASES.entries()) {
  const row = ROWS[i]!;
  test(row.title, async ({}, testInfo) => {
    const run = await batchedRun('faults', ROWS, row, testInfo);
    expect(run.results, run.stderr).toBeDefined();
    const failing = failedChecks(run.results);
    await testInfo.attach(DETECTION_ROW, {
      body: `${c.fault}|${[...c.failing, ...(c.warnings ?? []).map((w) => `${w} (warning)`)].join(', ')}|${[...failing, ...warningChecks(run.results).map((w) => `${w} (warning)`)].join(', ') || '(none)'}|${
        JSON.stringify(failing) === JSON.stringify([...c.failing].sort()) && JSON.stringify(warningChecks(run.results)) === JSON.stringify([...(c.warnings ?? [])].sort()) ? 'yes' : 'NO'
      }`,
    });
    expect(failing).toEqual([...c.failing].sort());
    expect(warningChecks(run.results)).toEqual([...(c.warnings ?? [])].sort());
    if (c.requirement) {
      const [check, status] = c.failing.length > 0 ? [c.failing[0], 'failed'] : [c.warnings![0], 'warning'];
      const first = run.results!.results.find((r) => r.check === check && r.status === status && r.requirements.includes(c.requirement!));
      expect(first, `a ${status} result of ${check} with ${c.requirement}`).toBeDefined();
      expect(first?.message).toMatch(/Received: .+\nExpected: .+/);
    }
    // Every id the table says the fault shows caught is carried by a failed or warning result.
    const caught = new Set(run.results!.results.filter((r) => r.status === 'failed' || r.status === 'warning').flatMap((r) => r.requirements));
    expect([c.requirement, ...(c.also ?? [])].filter((id): id is string => !!id && !caught.has(id))).toEqual([]);
    // A SHOULD rule that does not hold warns; only a MUST failure fails the run.
    expect(run.exitCode).toBe(c.failing.length > 0 ? 1 : 0);
  });
}

test('a module that never calls the system ends the run with exit 2 and a one-line reason', async ({}, testInfo) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'silent-'));
  const config = path.join(dir, 'conformance.config.json');
  fs.writeFileSync(config, JSON.stringify({ mode: 'launch', launch: { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'], registrationTimeoutMs: 1500 } }));
  const run = await runSuite(['--config', config]);
  await testInfo.attach(DETECTION_ROW, { body: `(a module that never calls the system)|exit 2|exit ${run.exitCode}|${run.exitCode === 2 ? 'yes' : 'NO'}` });
  expect(run.exitCode).toBe(2);
  const line = run.stderr.trim().split('\n').at(-1)!;
  expect(line).toMatch(/could not start: module never registered within 1500 ms \(no call to POST \/api\/v5\/integration-modules\/\{code\}\/edit/);
  expect(run.results?.run.outcome).toBe('aborted');
  // No line per test it could not run: what the run prints is its start and the one reason.
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/SKIP/);
  expect(`${run.stdout}${run.stderr}`.trim().split('\n').length).toBeLessThanOrEqual(3);
});

test('a run that cannot start says why in one line and exits 2: a module that exits at once, a command not found, a remote URL where nothing listens', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cannot-start-'));
  const configOf = (name: string, launch: Record<string, unknown>): string => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify({ mode: 'launch', launch }));
    return file;
  };
  // A port nothing listens on: one taken and let go.
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  const registration = path.join(dir, 'registration.json');
  fs.writeFileSync(registration, JSON.stringify({ code: 'nowhere', integrationCode: 'nowhere', active: true, name: 'Nowhere', clientId: 'c-1', baseUrl: `http://127.0.0.1:${port}`, actions: { activity: '/activity' } }));
  const [exits, missing, remote] = await Promise.all([
    runSuite(['--config', configOf('exits', { command: process.execPath, args: ['-e', "console.error('boom: no DATABASE_URL'); process.exit(3)"] })]),
    runSuite(['--config', configOf('missing', { command: 'no-such-command-for-conformance', args: [] })]),
    runSuite(['--module-url', `http://127.0.0.1:${port}`, '--registration', registration]),
  ]);
  for (const run of [exits, missing, remote]) {
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.results?.run.outcome).toBe('aborted');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/SKIP|FAIL|PASS/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }
  // The module's own words, and where the rest of its output is (a path from where the run was started).
  expect(exits.stderr).toMatch(/^conformance run: the run could not start: module never registered: it exited \(code 3\) before registering; its stderr: boom: no DATABASE_URL \((.+)\)\n$/);
  expect(fs.existsSync(path.resolve(PACKAGE_ROOT, /\(([^()]+)\)\n$/.exec(exits.stderr)![1]!))).toBe(true);
  expect(missing.stderr).toMatch(/could not start: .*spawn no-such-command-for-conformance ENOENT/);
  expect(remote.stderr).toBe(`conformance run: the run could not start: the module could not be reached: nothing listens at http://127.0.0.1:${port} (ECONNREFUSED connecting to 127.0.0.1:${port})\n`);
});

test('a trigger answered with an error is skipped at once with its answer as evidence, never waited out', async () => {
  // A flow timeout far beyond the test's own: waiting it out would fail this test.
  const config = referenceConfigFile({ flowTimeoutMs: 600_000 });
  // The tracking flows are the delivery area's: the run is narrowed to it.
  const run = await runSuite(['--config', config, '--area', 'delivery', '--runs', '10'], { FAULTS: 'tracking-trigger-fails' });
  expect(run.exitCode).toBe(0);
  const skipped = run.results!.results.filter((r) => r.status === 'skipped');
  expect(skipped.length).toBeGreaterThan(3);
  expect(skipped.every((r) => r.message.includes('Skipped: the trigger failed: HTTP 500: the carrier desk is unreachable'))).toBe(true);
  const evidence = run.results!.exchanges.find((x) => x.id === skipped[0]!.evidence[0])!;
  expect(evidence.label).toBe('trigger delivery.tracking');
  expect(run.results!.exchanges.some((x) => x.direction === 'module->system' && /\/tracking$/.test(x.request.url ?? ''))).toBe(false);
});

test('a bad configuration ends the run with exit 2 and a one-line reason', async () => {
  const run = await runSuite(['--config', 'package.json']);
  expect(run.exitCode).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(/^conformance run: config package\.json: missing required key "mode" at \/; unknown keys "name", .* at \/; known keys: mode, /);
});
