/**
 * A batch (src/cli/batch.ts): many runs played by one Playwright runner, rows in slots (a
 * worker plays a slot's rows one after the other), each row with its own session and module. A row's results and exit code are those of
 * the same `conformance run` (same seed); the one-session rule holds per row; a waiting test
 * whose batch died fails at once, saying so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { test, expect } from '@playwright/test';
import { runBatch, type RowOutcome } from '../../src/cli/batch.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { ENV_BATCH, SLOT_ENTRY, slotGrep } from '../../src/run/batch-row.ts';
import type { Results } from '../../src/report/results.ts';
import { runSuite } from './run-suite.ts';
import { batchedRun } from './batch.ts';
import { runnerKey } from './batch.ts';
import { breakingSpec } from './breaking-spec.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

/** Each result by spec, check and requirement ids: its statuses. */
function statuses(results: Results | undefined): Record<string, string[]> {
  const by: Record<string, string[]> = {};
  for (const r of results?.results ?? []) (by[`${r.spec}::${r.check}::${r.requirements.join(',')}`] ??= []).push(r.status);
  for (const k of Object.keys(by)) by[k]!.sort();
  return by;
}

const read = (out: string | undefined): Results | undefined => (out && fs.existsSync(path.join(out, 'results.json')) ? (JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results) : undefined);

test('a row of a batch has the results and the exit code of its own conformance run with the same seed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-equal-'));
  const rows: Array<{ name: string; args: string[]; env: Record<string, string> }> = [
    { name: 'registration', args: ['--area', 'registration', '--seed', '3141'], env: { FAULTS: 'delivery-duplicate-action-path' } },
    { name: 'delivery', args: ['--area', 'delivery', '--grep', 'delivery statuses pushed through tracking', '--runs', '10', '--seed', '3141'], env: { FAULTS: 'tracking-unchunked' } },
    { name: 'unknown-area', args: ['--area', 'deliveries'], env: {} },
  ];
  const outcomes = new Map<string, RowOutcome>();
  // Each row as it ends: one at a time, the first is finished before the second has ended.
  const endedBefore = new Map<string, string[]>();
  const [code, ...alone] = await Promise.all([
    runBatch(
      rows.map((r) => ({ ...r, args: ['--out', path.join(dir, r.name), ...r.args] })),
      {
        dir: path.join(dir, 'batch'),
        workers: 1,
        onRow: (o) => {
          outcomes.set(o.name, o);
          endedBefore.set(o.name, rows.filter((r) => r.name !== o.name && fs.existsSync(path.join(dir, r.name, 'results.json'))).map((r) => r.name));
        },
      },
    ),
    ...rows.map((r) => runSuite(r.args, r.env)),
  ]);
  expect(code).toBe(0);
  for (const [i, row] of rows.entries()) {
    const own = alone[i]!;
    const batched = outcomes.get(row.name)!;
    expect(batched.exitCode, row.name).toBe(own.exitCode);
    const [a, b] = [own.results, read(batched.out)];
    expect(b?.summary, row.name).toEqual(a?.summary);
    expect(b?.run.selection, row.name).toEqual(a?.run.selection);
    expect(b?.run.outcome, row.name).toEqual(a?.run.outcome);
    expect(statuses(b), row.name).toEqual(statuses(a));
    // What the run prints after Playwright: the same words (its folder aside; what the module sent,
    // quoted in the failures' recap, holds values the module draws itself, such as tracking numbers).
    expect(batched.stderr).toBe(own.stderr.slice(own.stderr.length - batched.stderr.length));
    const words = (stdout: string, out: string): string => stdout.replaceAll(path.relative(PACKAGE_ROOT, out), 'OUT').replace(/ {2}Received: .*$/gm, '');
    if (batched.out) expect(words(own.stdout, own.out)).toContain(words(batched.stdout, batched.out));
  }
  expect(endedBefore.get('registration')).toEqual([]);
  expect(endedBefore.get('delivery')).toEqual(['registration']);
  expect(outcomes.get('registration')!.exitCode).toBe(1);
  expect(outcomes.get('delivery')!.exitCode).toBe(1);
  expect(outcomes.get('unknown-area')!.stderr).toMatch(/^conformance run: unknown area "deliveries" in --area deliveries; /);
});

const BREAKS = breakingSpec(['a test left']);

test('in a batch, each row has its one session: a spec that breaks in one row relaunches nothing, and each row writes its own results (two rows in one slot)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'batch-rows-'));
  const specs = path.join(dir, 'specs');
  fs.mkdirSync(specs);
  fs.writeFileSync(path.join(specs, 'breaks.spec.ts'), BREAKS);
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}\n');
  const rows = ['a', 'b'].map((name) => ({ name, out: path.join(dir, name), runConfig: '', env: { FAULTS: '' } }));
  for (const row of rows) fs.mkdirSync(row.out);
  // The batch's slot as playwright.config.ts makes it (both rows in one worker, one after the
  // other), on the spec written for this test.
  const config = path.join(dir, 'playwright.config.mjs');
  const project = { name: 'conformance', testDir: path.join(PACKAGE_ROOT, 'specs'), testMatch: `${SLOT_ENTRY}.ts`, workers: 1, outputDir: path.join(dir, 'slot-0') };
  const reporter = [[path.join(PACKAGE_ROOT, 'src', 'report', 'conformance-reporter.ts')]];
  fs.writeFileSync(config, `export default { timeout: 60_000, reporter: ${JSON.stringify(reporter)}, projects: [{ ...${JSON.stringify(project)}, grep: new RegExp(${JSON.stringify(slotGrep([0, 1]).source)}) }] };\n`);
  const batchFile = path.join(dir, 'rows.json');
  fs.writeFileSync(batchFile, JSON.stringify({ rows, slots: [[0, 1]], files: [path.join(specs, 'breaks.spec.ts')] }));
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
  let stdout = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [cli, 'test', '--config', config, '--workers=2'], { cwd: PACKAGE_ROOT, env: childEnv({ [ENV_BATCH]: batchFile }) });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('exit', (c) => resolve(c ?? -1));
  });
  expect(code, stdout).toBe(1);
  for (const row of rows) {
    // Each row's module launched once; its results in its folder, said on the runner's output.
    expect(fs.readFileSync(path.join(row.out, 'internal', 'launches.log'), 'utf8').trim().split('\n'), row.name).toHaveLength(1);
    expect(stdout).toContain(`@@conformance-batch-row ${JSON.stringify({ name: row.name, out: row.out })}`);
    const results = read(row.out)!;
    const rule = results.results.filter((r) => r.check === 'ensureOneSessionPerRun');
    expect(rule).toHaveLength(1);
    expect(rule[0]).toMatchObject({ status: 'failed', spec: 'run' });
    expect(results.results.find((r) => r.check === 'ensureSpecRanToTheEnd' && r.status === 'failed')?.message).toContain('broken on purpose');
    expect(results.results.filter((r) => r.check === 'ensureSpecRanToTheEnd' && r.status === 'skipped').map((r) => r.spec)).toEqual(['a test left']);
    expect(results.results.find((r) => r.check === 'ensureActivityAcknowledged')?.status).toBe('passed');
  }
});

test('a test waiting on a shared batch that died fails at once, with the reason', async ({}, testInfo) => {
  // The batch of this group is taken (its lock folder) by a driver that is gone.
  const group = `died-${process.pid}`;
  const dir = path.join(os.tmpdir(), `conformance-batch-${group}-${runnerKey(process.ppid)}`);
  fs.mkdirSync(dir, { recursive: true });
  const gone = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => gone.on('exit', r));
  fs.writeFileSync(path.join(dir, 'driver.json'), JSON.stringify({ pid: gone.pid }));
  fs.writeFileSync(path.join(dir, 'driver.log'), 'Error: the runner broke\n');
  const row = { name: 'a-row', title: testInfo.title, args: () => [], env: {} };
  // Not waited out (that would say "gave no outcome ... within"): the driver is seen gone.
  await expect(batchedRun(group, [row], row, testInfo, new Set([row.title]))).rejects.toThrow(/the shared batch died-\d+ \(.*\) died without row a-row; its log:\nError: the runner broke/);
});
