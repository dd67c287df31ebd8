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
import { fileURLToPath } from 'node:url';
import type { Selection } from '../module/config.ts';
import { CODE_ROOT, PACKAGE_ROOT, PLAYWRIGHT_CONFIG } from '../contract/paths.ts';
import { ENV_OUT } from '../run/environment.ts';
import { childEnv } from './child-env.ts';
import { grepRegExp } from '../run/batch-row.ts';
import type { ListingDocument } from './listing-reporter.ts';

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
 * The listing is kept in the system's temporary folder under a hash of what it depends on: the
 * suite's code (specs and what they import, the Playwright configuration), the arguments given to
 * Playwright, Node's version. One listing of all tests serves every pattern (`grepTitle`), so a
 * version of the suite is listed once (about 1.9 CPU-s saved on every later run). Written whole
 * (a rename), read only when it parses; a listing under way elsewhere is waited for (a lock file).
 */
function listingCacheFile(args: string[]): string {
  const hash = createHash('sha256').update(JSON.stringify(['listing-2', args, process.version]));
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
      else if (/\.(ts|js|json)$/.test(e.name)) hash.update(path.relative(CODE_ROOT, file)).update(fs.readFileSync(file));
    }
  };
  // The code Playwright loads: `specs/` and `src/` beside the configuration (in the repository, the
  // TypeScript; installed, the code built into `dist/`). A build's output in the repository is not read.
  for (const dir of ['specs', 'src']) walk(path.join(CODE_ROOT, dir));
  hash.update(fs.readFileSync(PLAYWRIGHT_CONFIG));
  return path.join(os.tmpdir(), `module-conformance-${process.getuid?.() ?? 'user'}`, `listing-${hash.digest('hex').slice(0, 32)}.json`);
}

/** A listed test with the text Playwright matches a `--grep` against. */
type Listed = ListedTest & { grepTitle: string };

/**
 * The conformance tests a `--grep` selects (all without one), with the requirement ids each
 * declares (`covers` annotations, specs/covers.ts); undefined when the listing itself failed (the
 * run then goes on and says what happened). `extra`: more arguments for Playwright (a shard's):
 * what they select is Playwright's to say, listed with the pattern given to it.
 */
export async function listTests(pwBase: string[], grep: string | undefined, out: string, extra: string[] = []): Promise<ListedTest[] | undefined> {
  const own = extra.length > 0 ? grep : undefined;
  const args = [...pwBase.slice(1), ...extra, ...(own !== undefined ? ['--grep', own] : [])];
  const listed = await keptListing(args, () => listTestsAnew([...pwBase, ...extra], own, out));
  if (!listed) return undefined;
  // The pattern read as Playwright reads a --grep, matched against the same text.
  const re = extra.length > 0 || grep === undefined ? undefined : grepRegExp(grep);
  return listed
    .filter((t) => {
      if (!re) return true;
      re.lastIndex = 0;
      return re.test(t.grepTitle);
    })
    .map(({ grepTitle: _, ...t }) => t);
}

/** The listing kept for these arguments, else listed by `list` (one process lists; the others wait for it). */
async function keptListing(args: string[], list: () => Promise<Listed[] | undefined>): Promise<Listed[] | undefined> {
  let cache: string;
  try {
    cache = listingCacheFile(args);
  } catch {
    return list();
  }
  const read = (): Listed[] | undefined => {
    try {
      const kept = JSON.parse(fs.readFileSync(cache, 'utf8')) as unknown;
      return Array.isArray(kept) ? (kept as Listed[]) : undefined;
    } catch {
      return undefined; // not listed yet with this code, or unreadable: list it
    }
  };
  const kept = read();
  if (kept) return kept;
  const lock = `${cache}.lock`;
  let locked = false;
  try {
    fs.mkdirSync(path.dirname(cache), { recursive: true, mode: 0o700 });
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    locked = true;
  } catch {
    // Another process lists it: waited for while its lock is fresh (a listing takes seconds).
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const done = read();
      if (done) return done;
      let age = Infinity;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        // its lock is gone without a listing: listed here
      }
      if (age > 60_000) break;
    }
  }
  try {
    const listed = await list();
    if (listed) {
      try {
        const tmp = `${cache}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(listed));
        fs.renameSync(tmp, cache);
      } catch {
        // a listing that cannot be kept is listed again next time
      }
    }
    return listed;
  } finally {
    if (locked) fs.rmSync(lock, { force: true });
  }
}

/** The listing reporter beside this file (`.ts` in the repository, `.js` installed). */
const LISTING_REPORTER = fileURLToPath(new URL(`./listing-reporter${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

async function listTestsAnew(args: string[], grep: string | undefined, out: string): Promise<Listed[] | undefined> {
  const stdout = await new Promise<string | undefined>((resolve) => {
    let text = '';
    const child = spawn(process.execPath, [...args, '--list', `--reporter=${LISTING_REPORTER}`, ...(grep !== undefined ? ['--grep', grep] : [])], { cwd: PACKAGE_ROOT, env: childEnv({ [ENV_OUT]: out }), stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', () => resolve(text));
  });
  try {
    const doc = JSON.parse(stdout!.slice(stdout!.indexOf('{'))) as ListingDocument;
    const noTests = doc.errors.some((e) => /No tests found/.test(e));
    if (doc.tests.length === 0 && !noTests && doc.errors.length > 0) return undefined;
    return doc.tests;
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
