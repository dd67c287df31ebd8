/**
 * A batch: many runs of `conformance run` (rows), played by ONE Playwright runner. Each row is
 * prepared and finished by the code of `conformance run` itself (`prepareRun`, `finishRun`: the
 * same seed, selection, configuration file, results and exit code); in between, the runner plays
 * the rows in slots (src/run/batch-row.ts, src/run/batch-slot.ts): a slot is a project
 * `conformance` whose one worker plays its rows one after the other, each row the tests its run
 * selects, in one session with its own module, as in a run; `workers` slots, the rows dealt in turn. The
 * conformance reporter writes each row's results into its own folder as soon as the row has
 * ended, and says so on the runner's output (`BATCH_ROW_LINE`): the row is finished then, while
 * the others go on.
 *
 * What a row saves against its own `conformance run`: the command's start, its listings,
 * Playwright's runner start, and its worker's start (about 1.3 CPU-s: Playwright's worker, the
 * suite's modules, the contract), shared by a slot's rows. Its session and module start as in a
 * run; a batch itself costs about 3 CPU-s (one listing for all rows, one runner). Not applied
 * in a batch: a row's run deadline (`runTimeoutMs`); the tests' own timeouts bound each row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { finishRun, prepareRun } from './run.ts';
import { listConformanceTests, playwrightBase } from './listing.ts';
import { childEnv } from './child-env.ts';
import { PACKAGE_ROOT, PLAYWRIGHT_CONFIG } from '../contract/paths.ts';
import { ENV_CONFIG, ENV_OUT } from '../run/environment.ts';
import { BATCH_ROW_LINE, ENV_BATCH, testKey, type BatchFile, type BatchRow } from '../run/batch-row.ts';


/** A row: the arguments of its `conformance run` (with its own `--out`), and the module's environment (FAULTS, VARIATIONS). */
export interface BatchRowSpec {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

/** How a row ended: what its `conformance run` would have printed and its exit code. */
export interface RowOutcome {
  name: string;
  /** Its output folder (absent when its arguments could not be read). */
  out?: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface BatchOptions {
  /** A folder of the batch's own files (its row list, the listing's). */
  dir: string;
  /** Rows played at once. */
  workers: number;
  /** Called as each row ends, in the order they end. */
  onRow: (outcome: RowOutcome) => void;
  /** Where the runner's own errors go (default: this process's stderr). */
  log?: (text: string) => void;
}

/** Collects what a row's run prints. */
function capture(): { text: () => string; write: (s: string) => boolean } {
  let text = '';
  return { text: () => text, write: (s: string) => ((text += s), true) };
}

/** Environment of the batch's runner: its rows file, no run's own output folder or configuration. */
const batchEnv = (file: string): NodeJS.ProcessEnv => childEnv({ [ENV_BATCH]: file, [ENV_OUT]: undefined, [ENV_CONFIG]: undefined });

/**
 * Plays the rows: prepares each (a row that cannot start ends at once, exit 2), plays them all in
 * one Playwright runner, finishes each as it ends. Returns Playwright's exit code. Interrupted
 * (SIGINT, SIGTERM), the runner is told to stop; rows not ended end with 130 or 143.
 */
export async function runBatch(rows: BatchRowSpec[], options: BatchOptions): Promise<number> {
  const log = options.log ?? ((text: string) => void process.stderr.write(text));
  fs.mkdirSync(options.dir, { recursive: true });
  const played: Array<{ spec: BatchRowSpec; row: BatchRow; stdout: ReturnType<typeof capture>; stderr: ReturnType<typeof capture> }> = [];
  for (const spec of rows) {
    const stdout = capture();
    const stderr = capture();
    // Prepared in the row's environment, as its own run would be (placeholders of the environment);
    // what it selects comes from the suite's one kept listing (listing.ts), listed once for all rows.
    const saved = Object.fromEntries(Object.keys(spec.env ?? {}).map((k) => [k, process.env[k]]));
    Object.assign(process.env, spec.env);
    const prepared = await prepareRun(spec.args, { stderr }).finally(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    if (typeof prepared === 'number') {
      options.onRow({ name: spec.name, exitCode: prepared, stdout: stdout.text(), stderr: stderr.text() });
      continue;
    }
    // The tests its run selects, as its run's Playwright would.
    const selected = prepared.grep === undefined ? undefined : await listConformanceTests(prepared.grep, options.dir);
    if (prepared.grep !== undefined && !selected?.every((t) => t.file !== undefined)) {
      fs.rmSync(prepared.configFile, { force: true });
      stderr.write('conformance batch: the tests this row selects could not be listed\n');
      options.onRow({ name: spec.name, out: prepared.out, exitCode: 2, stdout: stdout.text(), stderr: stderr.text() });
      continue;
    }
    const tests = selected?.map((t) => testKey(t.file!, [t.title]));
    played.push({ spec, stdout, stderr, row: { name: spec.name, out: prepared.out, runConfig: prepared.configFile, ...(prepared.grep !== undefined ? { grep: prepared.grep } : {}), env: spec.env ?? {}, ...(tests ? { tests } : {}) } });
  }
  if (played.length === 0) return 0;
  const file = path.join(options.dir, 'batch-rows.json');
  const files = [...new Set(((await listConformanceTests(undefined, options.dir)) ?? []).map((t) => t.file!))];
  if (files.length === 0 || files.includes(undefined as unknown as string)) {
    for (const p of played) {
      fs.rmSync(p.row.runConfig, { force: true });
      p.stderr.write('conformance batch: the conformance tests could not be listed\n');
      options.onRow({ name: p.spec.name, out: p.row.out, exitCode: 2, stdout: p.stdout.text(), stderr: p.stderr.text() });
    }
    return 2;
  }
  // One slot a worker, the rows dealt in turn in the order given: the first rows start first, the
  // slots' shares even (a slot's rows one after the other in its one worker).
  const slotCount = Math.max(1, Math.min(options.workers, played.length));
  const slots = Array.from({ length: slotCount }, (_, i) => played.map((_, r) => r).filter((r) => r % slotCount === i));
  const batchFile: BatchFile = { rows: played.map((p) => p.row), slots, files };
  fs.writeFileSync(file, JSON.stringify(batchFile));

  // What the runner printed but the rows' lines (its errors), logged and its end kept.
  let said = '';
  const say = (text: string): void => {
    said = (said + text).slice(-4000);
    log(text);
  };
  const finished = new Set<string>();
  const finish = (p: (typeof played)[number], code: number, interrupted?: NodeJS.Signals): void => {
    if (finished.has(p.row.name)) return;
    finished.add(p.row.name);
    fs.rmSync(p.row.runConfig, { force: true });
    let exitCode: number;
    if (interrupted) {
      p.stderr.write(`conformance run: interrupted (${interrupted}); no verdict\n`);
      exitCode = interrupted === 'SIGTERM' ? 143 : 130;
    } else {
      exitCode = finishRun(p.row.out, code, { stdout: p.stdout, stderr: p.stderr });
      // No results: what the runner last said is the row's reason too.
      if (!fs.existsSync(path.join(p.row.out, 'results.json')) && said.trim()) p.stderr.write(`conformance batch: the runner's last output:\n${said.slice(-2000)}\n`);
    }
    options.onRow({ name: p.row.name, out: p.row.out, exitCode, stdout: p.stdout.text(), stderr: p.stderr.text() });
  };
  const byOut = new Map(played.map((p) => [path.resolve(p.row.out), p]));
  let interrupted: NodeJS.Signals | undefined;
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [playwrightBase()[0]!, 'test', '--config', PLAYWRIGHT_CONFIG, `--workers=${options.workers}`], { cwd: PACKAGE_ROOT, env: batchEnv(file), stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (!line.startsWith(BATCH_ROW_LINE)) {
          if (line.trim()) say(`${line}\n`);
          continue;
        }
        const p = byOut.get(path.resolve((JSON.parse(line.slice(BATCH_ROW_LINE.length)) as { out: string }).out));
        if (p) finish(p, 0);
      }
    });
    child.stderr.on('data', (d: Buffer) => say(d.toString()));
    let forced: NodeJS.Timeout | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (interrupted) return void child.kill('SIGKILL');
      interrupted = signal;
      child.kill('SIGINT');
      forced = setTimeout(() => child.kill('SIGKILL'), 30_000);
      forced.unref();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    child.on('close', (c) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      clearTimeout(forced);
      resolve(c ?? 1);
    });
  });
  // Rows the runner never said ended: their results, if written, or no results (exit 2).
  for (const p of played) finish(p, code, interrupted);
  return code;
}
