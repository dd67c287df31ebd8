/**
 * The GitHub Actions examples (examples/ci/): each workflow is YAML, calls only `conformance`
 * commands and options the CLI accepts (each command's own usage, `conformance help COMMAND`;
 * `run`'s arguments through its own parser and, where the configuration is one of the examples,
 * the configuration loader), names no address but loopback ones and the repository's
 * `${{ vars.* }}` / `${{ secrets.* }}`, and keeps the certification bundle and the reports as an
 * artifact even when the run fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { parseRunArgs } from '../../src/cli/run.ts';
import { loadConfig } from '../../src/module/config.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

const ROOT = PACKAGE_ROOT;
const CI = path.join(ROOT, 'examples', 'ci');
const WORKFLOWS = ['github-actions-launch.yml', 'github-actions-staging.yml'];

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}

interface Workflow {
  on: unknown;
  jobs: Record<string, { steps: Step[] }>;
}

/** A `conformance` command line of a step: its command, its arguments, and the step it is in. */
interface Invocation {
  command: string;
  args: string[];
  /** The arguments as written, `${{ ... }}` expressions kept. */
  written: string[];
  step: Step;
}

/** What an expression stands for when the arguments are parsed: a loopback URL for a variable or a secret, 1 for anything else (a run number). */
function sample(expression: string): string {
  return /^\s*(vars|secrets)\./.test(expression) ? 'https://127.0.0.1:9' : '1';
}

/** Shell words of one command line (quotes removed), up to its end (`&&`, `;`, `|`, a comment). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(&&|\|\||[;|]|#.*$)|(\S+)/g)) {
    if (m[3] !== undefined) break;
    out.push(m[1] ?? m[2] ?? m[4]!);
  }
  return out;
}

function invocations(workflow: Workflow): Invocation[] {
  const found: Invocation[] = [];
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (!step.run) continue;
      for (const line of step.run.replace(/\\\n/g, ' ').split('\n')) {
        const at = line.search(/\bnpx conformance\b/);
        if (at === -1) continue;
        const written = words(line.slice(at)).slice(2);
        const args = written.map((w) => w.replace(/\$\{\{([^}]*)\}\}/g, (_, e: string) => sample(e)));
        found.push({ command: args[0] ?? '', args: args.slice(1), written: written.slice(1), step });
      }
    }
  }
  return found;
}

/** `conformance help COMMAND` of the CLI itself: its usage text, or undefined for a command it does not know. */
const usages = new Map<string, string | undefined>();
function usageOf(command: string): string | undefined {
  if (!usages.has(command)) {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'conformance.js'), 'help', command], { cwd: ROOT, encoding: 'utf8' });
    usages.set(command, r.status === 0 ? r.stdout : undefined);
  }
  return usages.get(command);
}

function optionIn(usage: string, option: string): boolean {
  const name = option.split('=')[0]!;
  return new RegExp(`(^|[\\s\\[|(])${name.replace(/[-]/g, '\\-')}(?![\\w-])`, 'm').test(usage);
}

/** Where `conformance bundle [DIR] [--out FILE]` writes: DIR defaults to reports, FILE to DIR/conformance-bundle.tgz. */
function bundleFile(args: readonly string[]): { dir: string; file: string } {
  const positional: string[] = [];
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--out') out = args[++i];
    else if (a.startsWith('--out=')) out = a.slice('--out='.length);
    else if (!a.startsWith('-')) positional.push(a);
  }
  const dir = positional[0] ?? 'reports';
  return { dir: path.posix.normalize(dir), file: path.posix.normalize(out ?? `${dir}/conformance-bundle.tgz`) };
}

for (const name of WORKFLOWS) {
  test.describe(`examples/ci/${name}`, () => {
    const text = fs.readFileSync(path.join(CI, name), 'utf8');
    const workflow = parse(text) as Workflow;
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const calls = invocations(workflow);

    test('is a workflow: checkout, Node.js 20, npm ci, then the run', () => {
      expect(workflow.on).toBeTruthy();
      const uses = steps.map((s) => s.uses ?? s.run ?? '');
      const checkout = uses.findIndex((u) => u.startsWith('actions/checkout@'));
      const node = steps.findIndex((s) => s.uses?.startsWith('actions/setup-node@') && String(s.with?.['node-version']) === '20');
      const ci = uses.findIndex((u) => u.trim() === 'npm ci');
      const run = steps.findIndex((s) => calls.some((c) => c.step === s && c.command === 'run'));
      expect([checkout, node, ci, run].every((i) => i >= 0), `${checkout} ${node} ${ci} ${run}`).toBe(true);
      expect(checkout < node && node < ci && ci < run).toBe(true);
    });

    test('calls only conformance commands and options the CLI accepts', () => {
      expect(calls.map((c) => c.command)).toEqual(expect.arrayContaining(['run', 'bundle']));
      for (const call of calls) {
        const usage = usageOf(call.command);
        expect(usage, `conformance ${call.command}: not a command of the CLI`).toBeDefined();
        for (const option of call.args.filter((a) => a.startsWith('-'))) {
          expect(optionIn(usage!, option), `conformance ${call.command} ${option}: not in its usage`).toBe(true);
        }
        if (call.command !== 'run') continue;
        const parsed = parseRunArgs(call.args);
        const config = parsed.config && path.join(CI, parsed.config);
        if (config && fs.existsSync(config)) {
          // The configuration given beside the workflow loads with the run's flags (its hook token set, as the job's env sets it).
          const saved = process.env.STAGING_HOOK_TOKEN;
          process.env.STAGING_HOOK_TOKEN = 'token';
          try {
            const resolved = loadConfig(config, parsed.flags);
            expect(resolved.mode).toBe('remote');
            expect(resolved.remote?.moduleUrl).toBe(sample('vars.STAGING_URL'));
          } finally {
            if (saved === undefined) delete process.env.STAGING_HOOK_TOKEN;
            else process.env.STAGING_HOOK_TOKEN = saved;
          }
        }
      }
    });

    test('names no address but loopback ones and the repository variables and secrets', () => {
      for (const m of text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^\s/"'`:)]+)/gi)) {
        expect(['127.0.0.1', '[::1]'], m[0]).toContain(m[1]);
      }
      for (const m of text.matchAll(/(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/g)) {
        expect(m[0].startsWith('127.'), m[0]).toBe(true);
      }
      for (const call of calls) {
        call.written.forEach((w, i) => {
          if (['--module-url', '--system-public-url', '--gateway-public-url', '--bind'].includes(w)) {
            expect(call.written[i + 1], `${w} ${call.written[i + 1]}`).toMatch(/^\$\{\{\s*(vars|secrets)\.[A-Z_]+\s*\}\}$/);
          }
        });
        expect(call.written.filter((w) => /^--(module-url|system-public-url|gateway-public-url|bind)=/.test(w))).toEqual([]);
      }
      // Secrets reach the run through the environment only, never on its command line.
      expect(calls.flatMap((c) => c.written).filter((w) => w.includes('secrets.'))).toEqual([]);
    });

    test('packs the bundle and uploads it with the page, results.json and junit.xml, whatever the verdict', () => {
      const run = calls.find((c) => c.command === 'run')!;
      const out = parseRunArgs(run.args).out;
      const bundle = calls.find((c) => c.command === 'bundle')!;
      const { dir, file } = bundleFile(bundle.args);
      expect(dir).toBe(path.posix.normalize(out));
      expect(bundle.step.if).toMatch(/always\(\)/);
      const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
      expect(upload, 'an actions/upload-artifact step').toBeDefined();
      expect(upload!.if).toMatch(/always\(\)/);
      expect(steps.indexOf(upload!)).toBeGreaterThan(steps.indexOf(bundle.step));
      const paths = String(upload!.with?.path ?? '').split('\n').map((p) => p.trim()).filter(Boolean).map((p) => path.posix.normalize(p));
      expect(paths).toEqual(expect.arrayContaining([file, `${dir}/conformance.html`, `${dir}/results.json`, `${dir}/junit.xml`]));
    });
  });
}
