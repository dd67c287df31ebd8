/**
 * The listing of the conformance tests (what `--grep`, `--area` and `--shard` select, and the
 * requirement ids each test declares it covers): Playwright's `--list` on the conformance
 * project, kept in the system's temporary folder under a hash of what it depends on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Selection } from '../module/config.ts';
import { CODE_ROOT, PACKAGE_ROOT, PLAYWRIGHT_CONFIG } from '../contract/paths.ts';
import { ENV_OUT } from '../run/environment.ts';
import { childEnv } from './child-env.ts';

/** Playwright's command line on the conformance project. */
export function playwrightBase(): string[] {
  const require = createRequire(import.meta.url);
  const playwrightCli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
  return [playwrightCli, 'test', '--project=conformance', '--config', PLAYWRIGHT_CONFIG];
}

/** The conformance tests of the suite (those a `--grep` selects), each with the requirement ids it declares it covers. */
export function listConformanceTests(grep?: string, out: string = path.resolve('reports')): Promise<ListedTest[] | undefined> {
  return listTests(playwrightBase(), grep, out);
}

/** A conformance test as Playwright lists it: its title path and the requirement ids it declares it covers. */
export interface ListedTest {
  title: string;
  /** Its spec file, from the folder of the Playwright configuration (`specs/delivery/calculate.spec.ts`). */
  file?: string;
  covers: string[];
  /** Its tags, each with its @ (`@delivery`: its area, src/run/areas.ts). */
  tags?: string[];
}

/**
 * The conformance tests a `--grep` selects (all without one), as Playwright lists them, with the
 * requirement ids each declares (`covers` annotations, specs/covers.ts); undefined when the
 * listing itself failed (the run then goes on and says what happened).
 */
/**
 * The listing depends only on the suite's code (specs and what they import, the Playwright
 * configuration) and the pattern: it is kept in the system's temporary folder under a hash of
 * those files' contents, so a run lists once per version of the suite (a Playwright start, about
 * 0.9 s, saved on every later narrowed run). Written whole (a rename), read only when it parses.
 */
function listingCacheFile(pwBase: string[], grep: string | undefined): string {
  const hash = createHash('sha256').update(JSON.stringify([pwBase.slice(1), grep ?? null, process.version]));
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (/\.(ts|js|json)$/.test(e.name)) hash.update(file).update(fs.readFileSync(file));
    }
  };
  for (const dir of ['specs', 'src', 'dist']) walk(path.join(CODE_ROOT, dir));
  hash.update(fs.readFileSync(PLAYWRIGHT_CONFIG));
  return path.join(os.tmpdir(), `module-conformance-${process.getuid?.() ?? 'user'}`, `listing-${hash.digest('hex').slice(0, 32)}.json`);
}

export async function listTests(pwBase: string[], grep: string | undefined, out: string): Promise<ListedTest[] | undefined> {
  let cache: string | undefined;
  try {
    cache = listingCacheFile(pwBase, grep);
    const kept = JSON.parse(fs.readFileSync(cache, 'utf8')) as unknown;
    if (Array.isArray(kept)) return kept as ListedTest[];
  } catch {
    // not listed yet with this code, or unreadable: list it
  }
  const listed = await listTestsAnew(pwBase, grep, out);
  if (listed && cache) {
    try {
      fs.mkdirSync(path.dirname(cache), { recursive: true, mode: 0o700 });
      const tmp = `${cache}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(listed));
      fs.renameSync(tmp, cache);
    } catch {
      // a listing that cannot be kept is listed again next time
    }
  }
  return listed;
}

async function listTestsAnew(pwBase: string[], grep: string | undefined, out: string): Promise<ListedTest[] | undefined> {
  const args = [...pwBase, '--list', '--reporter=json', ...(grep !== undefined ? ['--grep', grep] : [])];
  const stdout = await new Promise<string | undefined>((resolve) => {
    let text = '';
    const child = spawn(process.execPath, args, { cwd: PACKAGE_ROOT, env: childEnv({ [ENV_OUT]: out }), stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', () => resolve(text));
  });
  return parseListing(stdout);
}

/**
 * The tests of Playwright's JSON listing (`--list --reporter=json`); `projectId`: only those of
 * that project (a batch lists the selections of all its rows at once, each row a project).
 * Undefined when the listing itself failed.
 */
export function parseListing(stdout: string | undefined, projectId?: string): ListedTest[] | undefined {
  interface Annotation { type: string; description?: string }
  interface Suite { title?: string; specs?: Array<{ title: string; tags?: string[]; tests?: Array<{ projectId?: string; annotations?: Annotation[] }> }>; suites?: Suite[] }
  try {
    const report = JSON.parse(stdout!.slice(stdout!.indexOf('{'))) as { suites?: Suite[]; errors?: Array<{ message?: string }> };
    const tests: ListedTest[] = [];
    // The file's suite is the first level; describe blocks below it make the title path.
    const walk = (s: Suite, path: string[], file: string | undefined): void => {
      for (const spec of s.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (projectId !== undefined && t.projectId !== projectId) continue;
          tests.push({
            title: [...path, spec.title].join(' › '),
            ...(file !== undefined ? { file } : {}),
            covers: (t.annotations ?? []).filter((a) => a.type === 'covers' && a.description).map((a) => a.description!),
            // The JSON listing gives a tag without its @.
            tags: (spec.tags ?? []).map((tag) => (tag.startsWith('@') ? tag : `@${tag}`)),
          });
        }
      }
      for (const c of s.suites ?? []) walk(c, [...path, c.title ?? ''], file);
    };
    for (const file of report.suites ?? []) walk(file, [], file.title);
    const noTests = (report.errors ?? []).some((e) => /No tests found/.test(e.message ?? ''));
    if (tests.length === 0 && !noTests && (report.errors ?? []).length > 0) return undefined;
    return tests;
  } catch {
    return undefined;
  }
}

/**
 * What a `--grep` or an `--area` left out: the tests it did not select and the requirement ids
 * only they cover. A narrowed run judges what it selected and says what the selection left out.
 */
export function selectionOf(narrowing: { grep?: string; areas?: string[]; kinds?: string[] }, all: readonly ListedTest[], selected: readonly ListedTest[]): Selection {
  const chosen = new Set(selected.map((t) => t.title));
  const left = all.filter((t) => !chosen.has(t.title));
  const kept = new Set(selected.flatMap((t) => t.covers));
  return {
    ...narrowing,
    selected: selected.length,
    total: all.length,
    leftOutTests: left.map((t) => t.title),
    leftOut: [...new Set(left.flatMap((t) => t.covers))].filter((id) => !kept.has(id)).sort(),
  };
}
