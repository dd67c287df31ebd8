/**
 * Measurements for `bench/run.ts`: one `conformance run` of a checkout (wall time, the time to
 * its first line of output, the resident memory of the suite's processes and of the module's
 * sampled over the run, what results.json and the module's log say of its start), and one
 * engine-against-bare-loop comparison (`bench/engine.ts`, run in the checkout measured).
 * Linux only (/proc).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { childEnv } from '../src/cli/child-env.ts';
import { descendants, rssBytes } from '../test/gauntlet/process-tree.ts';
import { PACKAGE_ROOT } from '../src/contract/paths.ts';
import type { Results } from '../src/report/results.ts';

const MB = 1024 * 1024;
const TIME = '/usr/bin/time';

export interface CliRun {
  exitCode: number;
  wallMs: number;
  /** From the process's spawn to its first byte on stdout. */
  firstOutputMs?: number;
  /** CPU time (user + system) of every process of the run, the module's included (GNU time). */
  cpuS?: number;
  /** Peak of the suite's processes summed (CLI, Playwright runner, worker, the module's watchdog), the module's left out. */
  peakSuiteMB: number;
  peakModuleMB: number;
  /** The peak of each kind of process (CLI, runner, worker, watchdog, module). */
  peakByRoleMB: Record<string, number>;
  /** The suite's memory at a quarter, half, three quarters and nine tenths of the run (MB). */
  suiteQuartersMB: number[];
  /** The start: from the spawn of `conformance run` to each step (ms). */
  start: { cliStarted?: number; moduleListening?: number; registered?: number; firstCallback?: number };
  verdict?: string;
  results?: number;
  failed?: number;
  /** Of the `delivery.calculate: valid requests` property, when it ran: the cases run and whether its budget ended it. */
  calculate?: { cases: number; budgetEnded: boolean };
  /** The properties whose time budget (generation.timeLimitMs) ended them before their cases were all run. */
  budgetEnded: number;
  deadlineReached: boolean;
  /** The tests the run deadline stopped or never started. */
  deadlineStopped?: number;
  /** The slowest tests: the time between a test's end and the one before it (the first from the first output), from the console's lines. */
  slowest: Array<{ title: string; ms: number }>;
  stderrTail: string;
}

type Role = 'CLI' | 'runner' | 'worker' | 'watchdog' | 'time' | 'module';

/** What a process of a run is, by its command line: the suite's own (the CLI, the Playwright runner and worker, the module's watchdog), or the module's. */
function roleOf(pid: number): Role {
  let cmd = '';
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return 'module';
  }
  if (cmd.startsWith(TIME)) return 'time';
  if (/bin[/\\]conformance\.js run/.test(cmd)) return 'CLI';
  if (/workerProcessEntry|workerMain/.test(cmd)) return 'worker';
  if (/playwright[/\\].*cli\.js test/.test(cmd)) return 'runner';
  if (/process\.kill\(-group/.test(cmd)) return 'watchdog';
  return 'module';
}

/** The first moment an endpoint of these directions was called (the evidence's per-endpoint summary counts every call, kept or not). */
function firstAt(results: Results, directions: string[]): number | undefined {
  const endpoints = (results as unknown as { evidence?: { endpoints?: Array<{ endpoint: string; firstAt: string }> } }).evidence?.endpoints ?? [];
  const times = endpoints.filter((e) => directions.some((d) => e.endpoint.startsWith(`${d} `) || e.endpoint === d)).map((e) => Date.parse(e.firstAt));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** When the reference module logged that it listens (module.stderr.log: `[reference-module] <ISO time> listening on ...`). */
function moduleListeningAt(out: string): number | undefined {
  try {
    const m = /\[reference-module\] (\S+) listening on/.exec(fs.readFileSync(path.join(out, 'module.stderr.log'), 'utf8'));
    return m ? Date.parse(m[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** `node bin/conformance.js run --out TMP ...args` in `root`, measured; its output folder removed after. */
export async function runCli(root: string, args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-run-'));
  let stderr = '';
  let firstOutput: number | undefined;
  const spawnedAt = Date.now();
  const t0 = performance.now();
  const command = [process.execPath, path.join(root, 'bin', 'conformance.js'), 'run', '--out', out, ...args];
  // GNU time, where there is one, gives the CPU time of the run's processes (the module's too: every process is waited for).
  const timeFile = path.join(out, '.time');
  const timed = fs.existsSync(TIME) ? [TIME, '-f', '%U %S', '-o', timeFile, ...command] : command;
  const child = spawn(timed[0]!, timed.slice(1), { cwd: root, env: childEnv({ FAULTS: '', ANSWER_DELAY_MS: '', ...env }) });
  // The console reporter prints a test's title (`area › title`, at the start of a line) when the test ends.
  const ends: Array<{ title: string; at: number }> = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const at = performance.now() - t0;
    firstOutput ??= at;
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (/^\S.* › /.test(line)) ends.push({ title: line.trim(), at });
  });
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const series: Array<{ at: number; suite: number }> = [];
  let peakSuite = 0;
  let peakModule = 0;
  const peakByRole: Record<string, number> = {};
  const sample = (): void => {
    if (child.pid === undefined) return;
    const byRole: Record<string, number> = {};
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      // Read anew each time: a process just forked shows its parent's command line until it runs its own.
      const role = roleOf(pid);
      byRole[role] = (byRole[role] ?? 0) + rssBytes(pid);
    }
    const moduleBytes = byRole.module ?? 0;
    const suiteBytes = Object.values(byRole).reduce((a, b) => a + b, 0) - moduleBytes;
    for (const [role, bytes] of Object.entries(byRole)) peakByRole[role] = Math.max(peakByRole[role] ?? 0, bytes);
    peakSuite = Math.max(peakSuite, suiteBytes);
    peakModule = Math.max(peakModule, moduleBytes);
    series.push({ at: performance.now() - t0, suite: suiteBytes });
  };
  const timer = setInterval(sample, 250);
  const exitCode = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  clearInterval(timer);
  const wallMs = performance.now() - t0;
  const quarter = (q: number): number => {
    const at = wallMs * q;
    const s = [...series].reverse().find((x) => x.at <= at) ?? series[0];
    return Math.round((s?.suite ?? 0) / MB);
  };
  let cpuS: number | undefined;
  try {
    const [user, sys] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) cpuS = user! + sys!;
  } catch {
    // no GNU time
  }
  const file = path.join(out, 'results.json');
  const results = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Results) : undefined;
  const since = (t: number | undefined): number | undefined => (t === undefined || Number.isNaN(t) ? undefined : t - spawnedAt);
  const calc = results?.results.find((r) => r.property?.property === 'delivery.calculate: valid requests')?.property;
  const run: CliRun = {
    exitCode,
    wallMs: Math.round(wallMs),
    ...(firstOutput !== undefined ? { firstOutputMs: Math.round(firstOutput) } : {}),
    ...(cpuS !== undefined ? { cpuS: Math.round(cpuS * 10) / 10 } : {}),
    peakSuiteMB: Math.round(peakSuite / MB),
    peakModuleMB: Math.round(peakModule / MB),
    peakByRoleMB: Object.fromEntries(Object.entries(peakByRole).map(([role, bytes]) => [role, Math.round(bytes / MB)])),
    suiteQuartersMB: [0.25, 0.5, 0.75, 0.9].map(quarter),
    start: results
      ? {
          cliStarted: since(Date.parse(results.run.startedAt)),
          moduleListening: since(moduleListeningAt(out)),
          registered: since(firstAt(results, ['module->system'])),
          firstCallback: since(firstAt(results, ['system->module', 'gateway->module'])),
        }
      : {},
    ...(results?.coverage ? { verdict: results.coverage.verdict } : {}),
    ...(results ? { results: results.results.length, failed: results.results.filter((r) => r.status === 'failed').length } : {}),
    ...(calc ? { calculate: { cases: calc.cases, budgetEnded: calc.budgetEnded } } : {}),
    budgetEnded: new Set((results?.results ?? []).filter((r) => r.property?.budgetEnded).map((r) => r.property!.property)).size,
    deadlineReached: results?.run.deadline?.reached ?? false,
    ...(results?.run.deadline?.reached ? { deadlineStopped: results.run.deadline.stopped } : {}),
    slowest: ends
      .map((e, i) => ({ title: e.title, ms: Math.round(e.at - (i === 0 ? (firstOutput ?? 0) : ends[i - 1]!.at)) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8),
    stderrTail: stderr.slice(-600),
  };
  fs.rmSync(out, { recursive: true, force: true });
  return run;
}

/**
 * A configuration of the reference module for a measured run, in a fresh folder: the checkout's
 * own (`root`), the module launched from `moduleRoot` (this checkout's by default: its module can
 * be slowed, ANSWER_DELAY_MS), with a property time budget, a run deadline and an answer delay.
 */
export function benchConfig(root: string, settings: { timeLimitMs?: number; runTimeoutMs?: number; delayMs?: number; moduleRoot?: string }): string {
  const reference = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, any>;
  const launch = { ...reference.launch, cwd: settings.moduleRoot ?? root, env: { ...reference.launch.env, ...(settings.delayMs !== undefined ? { ANSWER_DELAY_MS: String(settings.delayMs) } : {}) } };
  const config = {
    ...reference,
    launch,
    ...(settings.timeLimitMs !== undefined ? { generation: { ...reference.generation, timeLimitMs: settings.timeLimitMs } } : {}),
    ...(settings.runTimeoutMs !== undefined ? { runTimeoutMs: settings.runTimeoutMs } : {}),
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-config-'));
  configDirs.push(dir);
  const file = path.join(dir, 'conformance.config.json');
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

const configDirs: string[] = [];

/** Removes the folders of the configurations `benchConfig` wrote. */
export function removeConfigs(): void {
  for (const dir of configDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Whether the checkout's `conformance run` knows an option (its usage names it). */
export function knowsOption(root: string, option: string): boolean {
  const help = spawnSync(process.execPath, [path.join(root, 'bin', 'conformance.js'), 'run', '--help'], { cwd: root, encoding: 'utf8' });
  return new RegExp(`^\\s+${option}\\b`, 'm').test(help.stdout ?? '');
}

export interface EngineRun {
  property: string;
  runs: number;
  calls: number;
  engine: Array<{ lanes: number; ms: number; casesPerSecond: number; callsPerSecond: number; failedChecks: string[] }>;
  bare: { ms: number; calls: number; sameStatus: number; casesPerSecond: number; callsPerSecond: number };
  /** The bare loop with a new connection per request (absent from an older copy of engine.ts). */
  bareNewConnections?: { ms: number; casesPerSecond: number; callsPerSecond: number };
  ratio: number;
  peakRssMB: number;
}

/**
 * `bench/engine.ts` in the checkout `root` (an older checkout without it gets this one's copy for
 * the run, removed after: it reads the checkout's own src/).
 */
export async function runEngine(root: string, args: string[]): Promise<EngineRun | { error: string }> {
  let script = path.join(root, 'bench', 'engine.ts');
  let copied = false;
  if (!fs.existsSync(script)) {
    script = path.join(root, 'bench', '.bench-engine.ts');
    fs.copyFileSync(path.join(PACKAGE_ROOT, 'bench', 'engine.ts'), script);
    copied = true;
  }
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: childEnv({ FAULTS: '', ANSWER_DELAY_MS: '' }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
    const line = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !line.startsWith('{')) return { error: `exit ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    return JSON.parse(line) as EngineRun;
  } finally {
    if (copied) fs.rmSync(script, { force: true });
  }
}

/** The commit of a checkout, `+` when its tracked files differ from it. */
export function commitOf(root: string): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
  return `${head || 'unknown'}${dirty ? '+' : ''}`;
}
