/**
 * The installed package works: `npm pack` (which builds the JavaScript, scripts.prepack), a
 * fresh project that installs the tarball, then `npx conformance --version` and
 * `npx conformance run` certifying the bundled reference module from the installed package
 * (then its bundle, a baseline of it and a configuration from `conformance init`),
 * with a configuration of that project. Slow (a build, an install, a whole run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { CONTRACT_FILE, PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import type { Results } from '../../src/report/results.ts';

test.describe.configure({ timeout: 600_000 });

interface Ran {
  code: number;
  output: string;
}

/**
 * Runs a command (npm, npx, tar) to its end. The environment of an outer `npm test` that would
 * steer an inner npm (its project, its package, its script) is left out.
 */
function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Ran> {
  const env = Object.fromEntries(
    Object.entries(childEnv(extra)).filter(([k]) => !/^(npm_config_local_prefix|npm_package_|npm_lifecycle_|INIT_CWD$)/i.test(k)),
  );
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { cwd, env, shell: process.platform === 'win32' });
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (e) => resolve({ code: -1, output: `${output}\n${e.message}` }));
    child.on('exit', (c) => resolve({ code: c ?? -1, output }));
  });
}

test('the packed package installs in a fresh project and certifies the bundled reference module', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-package-'));
  const project = path.join(tmp, 'vendor-project');
  fs.mkdirSync(project);

  // npm pack: the build runs (prepack) and the tarball holds only what a user needs.
  const pack = await run('npm', ['pack', '--pack-destination', tmp], PACKAGE_ROOT);
  expect(pack.code, pack.output).toBe(0);
  const tarballs = fs.readdirSync(tmp).filter((f) => f.endsWith('.tgz'));
  expect(tarballs).toHaveLength(1);
  const tarball = path.join(tmp, tarballs[0]!);
  const listing = await run('tar', ['-tzf', tarball], tmp);
  expect(listing.code, listing.output).toBe(0);
  const files = listing.output.trim().split('\n').map((f) => f.replace(/^package\//, ''));
  expect(files.filter((f) => /^(test|reports)\//.test(f))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.ts')), 'the package runs built JavaScript, it ships no TypeScript').toEqual([]);
  for (const f of [
    'bin/conformance.js',
    'dist/src/cli/main.js',
    'dist/playwright.config.js',
    'dist/examples/reference-module/main.js',
    'examples/reference-module/conformance.config.json',
    'examples/reference-module/start.js',
    'specs/requirements/catalogue.json',
    'specs/requirements/contract.json',
    'schemas/suite/config.json',
    'openapi/system.openapi.yaml',
    'README.md',
  ])
    expect(files).toContain(f);

  // A vendor's project installs the tarball.
  expect((await run('npm', ['init', '-y'], project)).code).toBe(0);
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  expect(install.code, install.output).toBe(0);
  const installed = path.join(project, 'node_modules', 'module-conformance');
  expect(fs.existsSync(path.join(installed, 'package.json'))).toBe(true);
  expect(fs.existsSync(path.join(project, 'node_modules', 'tsx')), 'no TypeScript loader is needed at run time').toBe(false);

  // npx conformance --version
  const sha256 = (JSON.parse(fs.readFileSync(CONTRACT_FILE, 'utf8')) as { sha256: string }).sha256;
  const version = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const printed = await run('npx', ['conformance', '--version'], project);
  expect(printed.code, printed.output).toBe(0);
  expect(printed.output).toContain(`module-conformance ${version} (contract sha256 ${sha256})\n`);

  // npx conformance run --config <the project's file>: the bundled configuration copied as it is
  // into the project (it starts the reference module as {suiteDir}/examples/reference-module/start.js,
  // the installed package's); loopback only; the output in the project.
  fs.copyFileSync(path.join(installed, 'examples', 'reference-module', 'conformance.config.json'), path.join(project, 'conformance.config.json'));
  const certified = await run('npx', ['conformance', 'run', '--config', 'conformance.config.json', '--runs', '20'], project, { FAULTS: '', VARIATIONS: '' });
  expect(certified.code, certified.output).toBe(0);
  expect(certified.output).toMatch(/conformance: (PASS|CONFORMANT)/);
  const resultsFile = path.join(project, 'reports', 'results.json');
  expect(fs.existsSync(resultsFile), certified.output).toBe(true);
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Results;
  expect(results.run.outcome).toBe('passed');
  expect(results.summary.failed).toBe(0);
  expect(results.summary.passed).toBeGreaterThan(0);
  expect(results.run.suite).toEqual({ name: 'module-conformance', version, contractSha256: sha256 });

  // npx conformance bundle, then verify: the certification bundle of the run, intact, its verdict (exit 0: it passed).
  const bundled = await run('npx', ['conformance', 'bundle'], project);
  expect(bundled.code, bundled.output).toBe(0);
  expect(bundled.output).toContain(`reports/conformance-bundle.tgz (5 files, `);
  const verified = await run('npx', ['conformance', 'verify', 'reports/conformance-bundle.tgz'], project);
  expect(verified.code, verified.output).toBe(0);
  expect(verified.output).toMatch(new RegExp(`^conformance verify: reports/conformance-bundle\\.tgz: intact \\(5 files\\); module-conformance ${version.replace(/\./g, '\\.')}, contract sha256 ${sha256}; .*: (PASS|CONFORMANT)`, 'm'));
  // The verdict line's page, as a path from the project (where the command was typed).
  expect(certified.output).toContain('(reports/conformance.html)');

  // npx conformance baseline: a baseline of the run (no failure: an empty one), which a run accepts.
  const baselined = await run('npx', ['conformance', 'baseline', 'reports', '--out', 'known.json'], project);
  expect(baselined.code, baselined.output).toBe(0);
  expect(JSON.parse(fs.readFileSync(path.join(project, 'known.json'), 'utf8'))).toEqual({ baseline: 1, expected: [] });

  // npx conformance init: a configuration to fill in, from the installed package's own text; unfilled, a run names the blanks (exit 2).
  const init = await run('npx', ['conformance', 'init', '--kinds', 'delivery,payment', '--out', 'init.config.json'], project);
  expect(init.code, init.output).toBe(0);
  const unfilled = await run('npx', ['conformance', 'run', '--config', 'init.config.json', '--baseline', 'known.json'], project);
  expect(unfilled.code, unfilled.output).toBe(2);
  expect(unfilled.output).toMatch(/conformance run: config init\.config\.json: fill in \/launch\/command/);
  expect(fs.existsSync(path.join(installed, 'reports')), 'nothing is written inside the installed package').toBe(false);

  fs.rmSync(tmp, { recursive: true, force: true });
});
