/**
 * `conformance run`'s command line: an unknown option, a missing value, a misspelled
 * configuration key or a `--grep` that selects nothing ends the run at once with exit 2 and one
 * line on stderr, before any module is launched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseRunArgs } from '../../src/cli/run.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { runSuite } from '../gauntlet/run-suite.ts';

test.describe.configure({ mode: 'parallel', timeout: 60_000 });

const message = (args: string[]): string => {
  try {
    parseRunArgs(args);
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
};

test.describe('argument parsing', () => {
  test('an unknown option names the nearest known one', () => {
    expect(message(['--no-profil'])).toBe('unknown option --no-profil; did you mean --no-profile?');
    expect(message(['--conifg', 'x.json'])).toBe('unknown option --conifg; did you mean --config?');
    expect(message(['--module-uri', 'http://x'])).toBe('unknown option --module-uri; did you mean --module-url?');
    expect(message(['--grpe', 'x'])).toBe('unknown option --grpe; did you mean --grep?');
    expect(message(['--frobnicate'])).toBe('unknown option --frobnicate; see conformance run --help');
  });

  test('a word that is no option', () => {
    expect(message(['conformance.config.json'])).toBe('unexpected argument "conformance.config.json"; did you mean --config conformance.config.json?');
    expect(message(['now'])).toBe('unexpected argument "now"; see conformance run --help');
  });

  test('a missing value names the option and what it takes', () => {
    expect(message(['--config'])).toBe('missing value for --config (--config FILE)');
    expect(message(['--out', '--no-profile'])).toBe('missing value for --out (--out DIR)');
    expect(message(['--grep='])).toBe('missing value for --grep (--grep PATTERN)');
    expect(message(['--no-profile=yes'])).toBe('option --no-profile takes no value');
  });

  test('a --grep that is not a regular expression', () => {
    expect(message(['--grep', '('])).toMatch(/^--grep "\(" is not a regular expression: Invalid regular expression/);
  });

  test('values after a space or an equals sign', () => {
    expect(parseRunArgs(['--config=a.json', '--out', 'o', '--grep', 'registration', '--no-profile', '--bind=0.0.0.0'])).toEqual({
      config: 'a.json',
      out: 'o',
      grep: 'registration',
      flags: { profile: false, bind: '0.0.0.0' },
    });
  });
});

test.describe('end to end: exit 2 with one line, nothing run', () => {
  const noResults = (out: string): void => expect(fs.existsSync(path.join(out, 'results.json'))).toBe(false);

  test('a configuration with "trigers"', async () => {
    const reference = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, unknown>;
    const { triggers, ...rest } = reference;
    const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trigers-')), 'conformance.config.json');
    fs.writeFileSync(config, JSON.stringify({ ...rest, trigers: triggers }));
    const run = await runSuite(['--config', config]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`conformance run: config ${config}: unknown key "trigers" at /; did you mean "triggers"?\n`);
    noResults(run.out);
  });

  test('a misspelled trigger name', async () => {
    const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trackin-')), 'conformance.config.json');
    fs.writeFileSync(config, JSON.stringify({ mode: 'launch', launch: { command: 'node' }, triggers: { 'delivery.trackin': { url: '{moduleUrl}/t' } } }));
    const run = await runSuite(['--config', config]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`conformance run: config ${config}: unknown trigger "delivery.trackin" at /triggers; did you mean "delivery.tracking"?\n`);
  });

  test('an unknown option', async () => {
    const run = await runSuite(['--no-profil']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('conformance run: unknown option --no-profil; did you mean --no-profile?\n');
    noResults(run.out);
  });

  test('a missing value', async () => {
    const run = await runSuite(['--grep']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('conformance run: missing value for --grep (--grep PATTERN)\n');
  });

  test('a --grep that selects no check', async () => {
    const run = await runSuite(['--grep', 'nothing-matches-this'], { FAULTS: '' });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^conformance run: no check matches --grep "nothing-matches-this" \(none of the titles of the suite's \d+ conformance tests; the pattern is a case-insensitive regular expression\)\n$/);
    expect(fs.existsSync(path.join(run.out, 'internal', 'launches.log'))).toBe(false);
    noResults(run.out);
  });
});
