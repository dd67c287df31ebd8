/**
 * What Playwright itself selects for patterns, the oracle of the suite's own selection
 * (src/cli/listing.ts): one `--list` of the conformance specs with a project per pattern, each
 * project's `grep` the pattern (a batch's rows are projects so, src/run/batch-row.ts), read back
 * from Playwright's JSON report. Kept per process: a pattern is listed once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { childEnv } from '../../src/cli/child-env.ts';
import { PACKAGE_ROOT, PLAYWRIGHT_CONFIG } from '../../src/contract/paths.ts';
import { ENV_CONFIG, ENV_OUT } from '../../src/run/environment.ts';
import { ENV_BATCH, type BatchFile } from '../../src/run/batch-row.ts';

const require = createRequire(import.meta.url);
const playwrightCli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');

/** A test as Playwright lists it: its describe blocks and title (` › `), its file suite's title, its tags with their @. */
export interface PlaywrightListed { title: string; file: string; tags: string[] }
interface Suite { title: string; specs?: Array<{ title: string; tags?: string[]; tests?: Array<{ projectId?: string }> }>; suites?: Suite[] }

const kept = new Map<string, PlaywrightListed[]>();

/** What Playwright selects for each pattern (undefined: all tests), in the order given. */
export function playwrightLists(patterns: ReadonlyArray<string | undefined>): PlaywrightListed[][] {
  const key = (p: string | undefined): string => (p === undefined ? '\u0000all' : p);
  const missing = [...new Set(patterns.filter((p) => !kept.has(key(p))))];
  if (missing.length > 0) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-pwlist-'));
    const file = path.join(dir, 'rows.json');
    const batch: BatchFile = { rows: missing.map((grep, i) => ({ name: `listing-${i}`, out: dir, runConfig: '', ...(grep !== undefined ? { grep } : {}), env: {} })) };
    fs.writeFileSync(file, JSON.stringify(batch));
    const r = spawnSync(process.execPath, [playwrightCli, 'test', '--config', PLAYWRIGHT_CONFIG, '--list', '--reporter=json'], {
      cwd: PACKAGE_ROOT,
      env: childEnv({ [ENV_BATCH]: file, [ENV_OUT]: undefined, [ENV_CONFIG]: undefined }),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { suites?: Suite[]; config?: { projects?: Array<{ id?: string; metadata?: { conformanceRow?: { name?: string } } }> }; errors?: unknown[] };
    missing.forEach((grep, i) => {
      const id = report.config?.projects?.find((p) => p.metadata?.conformanceRow?.name === `listing-${i}`)?.id;
      if (id === undefined) throw new Error(`Playwright did not list the pattern ${JSON.stringify(grep)}: ${JSON.stringify(report.errors ?? r.stderr).slice(0, 500)}`);
      const out: PlaywrightListed[] = [];
      const walk = (s: Suite, file: string, describes: string[]): void => {
        // (The JSON listing gives a tag without its @.)
        for (const spec of s.specs ?? []) {
          if ((spec.tests ?? []).some((t) => t.projectId === id)) out.push({ title: [...describes, spec.title].join(' › '), file, tags: (spec.tags ?? []).map((t) => (t.startsWith('@') ? t : `@${t}`)) });
        }
        for (const child of s.suites ?? []) walk(child, file, [...describes, child.title]);
      };
      for (const fileSuite of report.suites ?? []) walk(fileSuite, fileSuite.title, []);
      // By file (the report's files come in the order the projects first name them), each file's tests in their order.
      kept.set(key(grep), out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)));
    });
  }
  return patterns.map((p) => kept.get(key(p))!);
}

/** What Playwright selects for one pattern (all tests without one). */
export function playwrightList(grep?: string): PlaywrightListed[] {
  return playwrightLists([grep])[0]!;
}
