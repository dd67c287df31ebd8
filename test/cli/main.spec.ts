/**
 * The command line does what people type: `help`, `-V`, `version`, `<command> --help` answer
 * (exit 0) instead of a usage error; a misspelled command or option names the nearest known
 * one; the requirements table cuts no text in the middle of a word.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { catalogue } from '../../src/contract/catalogue.ts';
import { versionLine } from '../../src/cli/main.ts';
import { RUN_USAGE } from '../../src/cli/run.ts';

test.describe.configure({ mode: 'parallel' });

const conformance = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

test.describe('what people type', () => {
  for (const args of [['help'], ['--help'], ['-h']]) {
    test(`conformance ${args.join(' ')}: the usage, exit 0`, () => {
      const r = conformance(...args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^usage: conformance <command>/);
      expect(r.stdout).toContain('requirements');
    });
  }

  for (const args of [['-V'], ['-v'], ['--version'], ['version']]) {
    test(`conformance ${args.join(' ')}: the version line, exit 0`, () => {
      const r = conformance(...args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`${versionLine()}\n`);
    });
  }

  for (const args of [['requirements', '--help'], ['requirements', '-h'], ['help', 'requirements']]) {
    test(`conformance ${args.join(' ')}: its usage, exit 0`, () => {
      const r = conformance(...args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^usage: conformance requirements \[--json\]/);
    });
  }

  test('conformance help run: the options of run, exit 0', () => {
    const r = conformance('help', 'run');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(RUN_USAGE);
  });

  test('a misspelled command or option names the nearest one, exit 2', () => {
    const command = conformance('rnu');
    expect(command.status).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe("conformance: unknown command 'rnu'; did you mean run?");
    const option = conformance('requirements', '--jsno');
    expect(option.status).toBe(2);
    expect(option.stderr).toBe('conformance requirements: unknown option --jsno; did you mean --json?\n');
  });
});

test.describe('the requirements table', () => {
  const r = conformance('requirements');
  const lines = r.stdout.split('\n');
  const header = lines[0]!;
  const start = header.indexOf('testability');
  const end = header.indexOf('section');

  test('every text whole: the testability column wraps on words, never cut in a word', () => {
    expect(r.status).toBe(0);
    expect(start).toBeGreaterThan(0);
    const rows = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of lines.slice(2)) {
      if (line === '') break;
      const id = line.slice(0, header.indexOf('level')).trim();
      if (id) rows.set(id, (current = []));
      current!.push(line.slice(start, end).trim());
      // No cell runs into the next column.
      expect(line.padEnd(end).slice(end - 2, end), line).toBe('  ');
    }
    for (const req of catalogue().entries) {
      const cells = rows.get(req.id);
      expect(cells, req.id).toBeDefined();
      expect(cells!.join(' '), req.id).toBe(req.testable ? 'testable' : `not testable: ${req.reason ?? ''}`.trim());
    }
    expect(rows.size).toBe(catalogue().entries.length);
  });

  test('the sections are whole, one per requirement, on its first line', () => {
    const sections = lines.slice(2, lines.indexOf('')).filter((l) => l.slice(0, header.indexOf('level')).trim() !== '').map((l) => l.slice(end));
    expect(sections).toEqual(catalogue().entries.map((e) => e.section));
  });
});
