/**
 * The example configurations run when copied: each JSON configuration under examples/, copied
 * alone into a fresh folder elsewhere, loads with the suite's own loader, and the files of its
 * launch command (its `args` that name files, placeholders filled as the launcher fills them)
 * exist, from the folder the module would be started in. Nothing is launched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { loadConfig } from '../../src/module/config.ts';
import { fill } from '../../src/module/placeholders.ts';

/** Every configuration among the examples: a JSON file with a `mode`. */
function exampleConfigs(dir = path.join(PACKAGE_ROOT, 'examples')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : exampleConfigs(file);
    if (!e.name.endsWith('.json')) return [];
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { mode?: unknown };
    return typeof data.mode === 'string' ? [file] : [];
  });
}

/** What the run fills at launch (src/run/session.ts), as values a launch would have. */
const VARS = { systemUrl: 'http://127.0.0.1:7100', gatewayUrl: 'http://127.0.0.1:7200', apiKey: 'key', port: '7300', moduleUrl: 'http://127.0.0.1:7300', caFile: path.join(os.tmpdir(), 'ca.pem') };

const configs = exampleConfigs();

test('the examples hold configurations, the bundled reference module among them', () => {
  expect(configs.map((f) => path.relative(PACKAGE_ROOT, f))).toEqual(expect.arrayContaining(['examples/reference-module/conformance.config.json', 'examples/reference-module/conformance.tls.config.json']));
});

for (const file of configs) {
  const name = path.relative(PACKAGE_ROOT, file);
  test(`${name}, copied into another folder, loads and its launch command's files exist`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copied-config-'));
    const copy = path.join(dir, path.basename(file));
    fs.copyFileSync(file, copy);
    const text = fs.readFileSync(copy, 'utf8');
    // The variables a configuration reads without a default are the vendor's to set.
    const unset = [...text.matchAll(/\{env:([A-Za-z_][\w.]*)\}/g)].map((m) => m[1]!).filter((n) => process.env[n] === undefined);
    for (const n of unset) process.env[n] = 'set by the vendor';
    try {
      const raw = JSON.parse(text) as { mode: string; remote?: unknown };
      // A remote example may leave the module's address to the command line (--module-url).
      const config = loadConfig(copy, raw.mode === 'remote' && !raw.remote ? { moduleUrl: 'http://127.0.0.1:9' } : {});
      if (!config.launch) return;
      const cwd = config.launch.cwd!;
      expect(fs.statSync(cwd).isDirectory(), `${name}: launch.cwd ${cwd}`).toBe(true);
      const args = (config.launch.args ?? []).map((a) => fill(a, VARS)).filter((a) => !a.startsWith('-') && /[\\/]|\.(c|m)?[jt]s$/.test(a));
      expect(args.length, `${name}: the launch args name a file`).toBeGreaterThan(0);
      for (const arg of args) expect(fs.existsSync(path.resolve(cwd, arg)), `${name}: ${arg} from ${cwd}`).toBe(true);
      const command = fill(config.launch.command, VARS);
      if (/[\\/]/.test(command)) expect(fs.existsSync(path.resolve(cwd, command)), `${name}: ${command}`).toBe(true);
    } finally {
      for (const n of unset) delete process.env[n];
    }
  });
}

test('the configuration as it was, "cwd": "../..", would not have run from another folder', () => {
  // What the issue saw: the old bundled configuration's start file, relative to a cwd two folders up.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copied-config-'));
  const copy = path.join(dir, 'conformance.config.json');
  const bundled = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as { launch: Record<string, unknown> };
  fs.writeFileSync(copy, JSON.stringify({ ...bundled, launch: { ...bundled.launch, cwd: '../..', args: ['examples/reference-module/start.js'] } }));
  const config = loadConfig(copy);
  expect(fs.existsSync(path.resolve(config.launch!.cwd!, 'examples/reference-module/start.js'))).toBe(false);
});
