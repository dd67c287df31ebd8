/**
 * The titles the console prints are usable as `--grep` patterns: `registration › the
 * registration call` (or with `>`) selects that test. Playwright matches a pattern against the
 * test's title path joined with spaces (project, file, describe blocks, title); the console
 * prints the describe blocks and the title joined with ` › `.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test, expect } from '@playwright/test';
import { parseRunArgs } from '../../src/cli/run.ts';
import { listConformanceTests } from '../../src/cli/listing.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { PACKAGE_ROOT, PLAYWRIGHT_CONFIG } from '../../src/contract/paths.ts';
import { ENV_OUT } from '../../src/run/environment.ts';

const require = createRequire(import.meta.url);
const playwrightCli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');

interface Listed {
  /** As the console prints it: `test.titlePath().slice(3).join(' › ')`. */
  printed: string;
  /** As Playwright's --grep reads it. */
  grepTitle: string;
}
interface Suite { title: string; specs?: Array<{ title: string; tags?: string[] }>; suites?: Suite[] }

/** The conformance tests a --grep selects (all without one), as Playwright lists them. */
function list(grep?: string): Listed[] {
  const args = [playwrightCli, 'test', '--project=conformance', '--config', PLAYWRIGHT_CONFIG, '--list', '--reporter=json', ...(grep !== undefined ? ['--grep', grep] : [])];
  const r = spawnSync(process.execPath, args, { cwd: PACKAGE_ROOT, env: childEnv({ [ENV_OUT]: path.join(PACKAGE_ROOT, 'reports') }), encoding: 'utf8' });
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { suites?: Suite[]; errors?: Array<{ message?: string }> };
  const out: Listed[] = [];
  const walk = (s: Suite, file: string, describes: string[]): void => {
    for (const spec of s.specs ?? []) out.push({ printed: [...describes, spec.title].join(' › '), grepTitle: ['', 'conformance', file, ...describes, spec.title, ...(spec.tags ?? [])].join(' ') });
    for (const child of s.suites ?? []) walk(child, file, [...describes, child.title]);
  };
  // A file's suite is titled with its path from the project's folder (specs/).
  for (const fileSuite of report.suites ?? []) walk(fileSuite, path.relative('specs', fileSuite.title), []);
  if (out.length === 0 && grep === undefined) throw new Error(`the conformance specs did not list: ${JSON.stringify(report.errors ?? r.stderr).slice(0, 500)}`);
  return out;
}

/** As Playwright reads a --grep (`forceRegExp`): `/source/flags`, or a case-insensitive regular expression. */
const grepRegExp = (pattern: string): RegExp => {
  const literal = /^\/(.*)\/([gi]*)$/.exec(pattern);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(pattern, 'gi');
};
const selects = (pattern: string, t: Listed): boolean => {
  const re = grepRegExp(pattern);
  re.lastIndex = 0;
  return re.test(t.grepTitle);
};
const grepOf = (typed: string): string => parseRunArgs(['--grep', typed]).grep!;

test.describe('printed titles as --grep patterns', () => {
  // Playwright's listing, read once when the first test runs (not as the file loads).
  let all: Listed[];
  test.beforeAll(() => {
    all = list();
  });

  test('every printed title, with › or >, selects its test', () => {
    expect(all.length).toBeGreaterThan(10);
    const missed: string[] = [];
    for (const t of all) {
      for (const typed of [t.printed, t.printed.replace(/ › /g, ' > ')]) {
        if (!selects(grepOf(typed), t)) missed.push(typed);
      }
    }
    expect(missed).toEqual([]);
  });

  test('a printed title selects its test alone, unless another title holds it whole', () => {
    for (const t of all) {
      const holders = all.filter((o) => o.printed.toLowerCase().includes(t.printed.toLowerCase()));
      expect(all.filter((o) => selects(grepOf(t.printed), o)), t.printed).toEqual(holders);
    }
  });

  test('Playwright itself selects a printed title with brackets and braces', async () => {
    const tricky = all.filter((t) => /[(){}]/.test(t.printed) && t.printed.includes(' › ')).slice(0, 2);
    expect(tricky.length).toBeGreaterThan(0);
    for (const t of tricky) {
      expect(list(grepOf(t.printed)).map((l) => l.printed)).toEqual([t.printed]);
      // The suite's own selection (one listing, the pattern matched as Playwright matches it) agrees.
      expect((await listConformanceTests(grepOf(t.printed), path.join(PACKAGE_ROOT, 'reports')))!.map((l) => l.title)).toEqual([t.printed]);
    }
  });

  test('a regular expression stays one', () => {
    expect(grepOf('registration')).toBe('registration');
    expect(grepOf('tracking|call event')).toBe('tracking|call event');
    expect(grepOf('/^ conformance/i')).toBe('/^ conformance/i');
    const trackingOrEvent = all.filter((t) => selects(grepOf('tracking|call event'), t));
    expect(trackingOrEvent.length).toBeGreaterThanOrEqual(2);
  });
});
