/**
 * A module that dies says why: the launched module's stdout and stderr are kept for the whole
 * run (bounded, the end kept) in the output folder (`module.stdout.log`, `module.stderr.log`),
 * in results.json (`run.moduleOutput`) and in conformance.html, secrets redacted; a run that
 * cannot start names the module's own error (not Node's version trailer) in its one-line reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { referenceConfigFile } from './compiled-module.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { runSuite, type SuiteRun } from './run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

const API_KEY = 'k-module-output-0123456789abcdef';
const FIXTURES = path.join(PACKAGE_ROOT, 'test', 'gauntlet', 'fixtures');

/** A configuration that launches one of the fixtures' modules. */
function fixtureConfig(script: string, registrationTimeoutMs: number): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'module-output-')), 'conformance.config.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ mode: 'launch', apiKey: API_KEY, launch: { command: process.execPath, args: [path.join(FIXTURES, script)], env: { API_KEY: '{apiKey}' }, registrationTimeoutMs } }),
  );
  return file;
}

/** Every file the run wrote, with its text. */
function filesOf(dir: string): Array<{ file: string; text: string }> {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ file, text: fs.readFileSync(file, 'latin1') }));
}

function expectNoApiKey(run: SuiteRun): void {
  expect(run.stderr).not.toContain(API_KEY);
  expect(run.stdout).not.toContain(API_KEY);
  expect(filesOf(run.out).filter((f) => f.text.includes(API_KEY)).map((f) => f.file)).toEqual([]);
}

/** The one-line reason the CLI printed. */
function reasonLine(run: SuiteRun): string {
  const lines = run.stderr.trim().split('\n').filter((l) => l.startsWith('conformance run: the run could not start: '));
  expect(lines, run.stderr).toHaveLength(1);
  return lines[0]!;
}

test('a module that crashes before registering: exit 2, the reason names its error, its output is in the reports', async () => {
  const run = await runSuite(['--config', fixtureConfig('crashes-on-start.cjs', 10_000)]);
  expect(run.exitCode, run.stderr).toBe(2);
  const reason = reasonLine(run);
  expect(reason).toMatch(/module never registered: it exited \(code 1\) before registering; .*Error: Cannot find module 'nope-missing-module'/);
  expect(reason).not.toMatch(/Node\.js v\d/);
  expect(reason.length).toBeLessThan(600);

  const stderrLog = fs.readFileSync(path.join(run.out, 'module.stderr.log'), 'utf8');
  expect(stderrLog).toContain("Error: Cannot find module 'nope-missing-module'");
  expect(stderrLog).toContain('using API key <redacted:apiKey>');
  expect(fs.readFileSync(path.join(run.out, 'module.stdout.log'), 'utf8')).toContain('starting the module');

  expect(run.results!.run.outcome).toBe('aborted');
  const output = run.results!.run.moduleOutput!;
  expect(output.stderr.lines.join('\n')).toContain("Error: Cannot find module 'nope-missing-module'");
  expect(output.stdout.lines).toContain('starting the module');

  // Whatever the module prints is shown escaped.
  const html = fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8');
  expect(html).toContain('id="module-output"');
  expect(html).toContain('Cannot find module &#39;nope-missing-module&#39;');
  expect(html).toContain('&lt;script&gt;alert(&quot;module output&quot;)&lt;/script&gt;');
  expect(html).not.toContain('<script>alert');
  expectNoApiKey(run);
});

test('a module that runs but never registers: exit 2, the reason names the error it printed, its output is in the reports', async () => {
  const run = await runSuite(['--config', fixtureConfig('never-registers.cjs', 1500)]);
  expect(run.exitCode, run.stderr).toBe(2);
  const reason = reasonLine(run);
  expect(reason).toMatch(/module never registered within 1500 ms \(no call to POST \/api\/v5\/integration-modules\/\{code\}\/edit at [^)]*\); .*Error: channel could not be activated with key <redacted:apiKey>: connection refused/);
  expect(reason).not.toContain('at activate');

  expect(fs.readFileSync(path.join(run.out, 'module.stderr.log'), 'utf8')).toContain('connecting to the platform');
  expect(fs.readFileSync(path.join(run.out, 'module.stdout.log'), 'utf8')).toContain('starting the module');
  const output = run.results!.run.moduleOutput!;
  expect(output.stderr.lines).toContain('connecting to the platform');
  expect(output.stderr.lines).toContain('Error: channel could not be activated with key <redacted:apiKey>: connection refused');
  expectNoApiKey(run);
});

test('what the module logs after registering, to the end of the run, is in results.json and the reports folder', async () => {
  const config = referenceConfigFile({ apiKey: API_KEY });
  const run = await runSuite(['--config', config, '--runs', '20'], { FAULTS: '' });
  expect(run.exitCode, run.stderr).toBe(0);
  const stderr = run.results!.run.moduleOutput!.stderr.lines;
  // Logged after its registration, and on the way out, when the run stopped it (SIGTERM).
  expect(stderr.some((l) => /\[reference-module\] \S+ registered /.test(l))).toBe(true);
  expect(stderr.at(-1)).toMatch(/\[reference-module\] \S+ SIGTERM: stopping$/);
  expect(fs.readFileSync(path.join(run.out, 'module.stderr.log'), 'utf8')).toMatch(/SIGTERM: stopping\n$/);
  expect(fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8')).toMatch(/id="module-output"[\s\S]*SIGTERM: stopping/);
  expectNoApiKey(run);
});
