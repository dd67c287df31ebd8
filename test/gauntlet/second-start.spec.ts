/**
 * One launch, structurally: a conformance spec that breaks makes Playwright start a new worker
 * for the tests left; that worker's session start is refused (the module is not launched again),
 * every test left is skipped with the reason, and the run fails the suite rule
 * `ensureOneSessionPerRun`. Played with the conformance fixtures and reporters on a spec file
 * written for it (the suite's own specs do not break), against the reference module.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { test, expect } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { breakingSpec } from './breaking-spec.ts';
import { ENV_OUT } from '../../src/run/environment.ts';
import type { Results } from '../../src/report/results.ts';

test.describe.configure({ timeout: 180_000 });

const SPEC = breakingSpec(['a test left', 'another test left']);

test('a spec that breaks forces no second launch: the tests left are skipped with the reason, and the run fails ensureOneSessionPerRun', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'second-start-'));
  const specs = path.join(dir, 'specs');
  const out = path.join(dir, 'out');
  fs.mkdirSync(specs);
  fs.writeFileSync(path.join(specs, 'breaks.spec.ts'), SPEC);
  // ES modules, as the suite's own specs are (its package.json says so).
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}\n');
  const config = path.join(dir, 'playwright.config.mjs');
  const report = (name: string): string => path.join(PACKAGE_ROOT, 'src', 'report', name);
  fs.writeFileSync(
    config,
    `export default ${JSON.stringify({
      workers: 1,
      timeout: 60_000,
      outputDir: path.join(out, 'test-results'),
      reporter: [[report('console-reporter.ts')], [report('conformance-reporter.ts')]],
      projects: [{ name: 'conformance', testDir: specs, testMatch: '**/*.spec.ts' }],
    })};\n`,
  );
  const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js');
  let stdout = '';
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [cli, 'test', '--config', config], { cwd: PACKAGE_ROOT, env: childEnv({ [ENV_OUT]: out, FAULTS: '' }) });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('exit', (c) => resolve(c ?? -1));
  });
  expect(code, stdout).toBe(1);
  // The module was launched once.
  expect(fs.readFileSync(path.join(out, 'internal', 'launches.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  const rule = results.results.filter((r) => r.check === 'ensureOneSessionPerRun');
  expect(rule).toHaveLength(1);
  expect(rule[0]).toMatchObject({ status: 'failed', severity: 'MUST', spec: 'run' });
  expect(rule[0]!.message).toContain('Received: a second session start in this run, refused: the conformance spec "a spec that breaks" broke and Playwright started a new worker for the tests left');
  const broken = results.results.find((r) => r.check === 'ensureSpecRanToTheEnd' && r.status === 'failed');
  expect(broken?.message).toContain('broken on purpose');
  const skipped = results.results.filter((r) => r.check === 'ensureSpecRanToTheEnd' && r.status === 'skipped');
  expect(skipped.map((r) => r.spec)).toEqual(['a test left', 'another test left']);
  for (const r of skipped) expect(r.message).toContain('Skipped: a second session start in this run, refused: the conformance spec "a spec that breaks" broke');
  // What ran before the spec broke still counts.
  expect(results.results.find((r) => r.check === 'ensureActivityAcknowledged')?.status).toBe('passed');
  expect(results.run.outcome).toBe('failed');
  // Run-level rules are printed once, by `conformance run` from results.json (test/gauntlet/narrowed.spec.ts), not by the console reporter.
  expect(stdout).toMatch(/the spec broke: Error: broken on purpose/);
});
