/**
 * `conformance run [--config FILE] [options]`: certifies a module. Starts Playwright on the
 * conformance specs with the resolved configuration, then reads `results.json`.
 * Exit 0: no MUST check failed; 1: one did; 2: the run could not start (one-line reason).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { readOptions, sessionOptions, type OptionSpec } from './options.ts';
import { loadConfig, type ConfigFlags, type ResolvedConfig, type Selection } from '../module/config.ts';
import { ConfigError, nearestName } from '../module/config-error.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';
import { ENV_CONFIG, ENV_CWD, ENV_OUT } from '../run/environment.ts';
import { MODULE_OUTPUT_LOGS } from '../run/module-files.ts';
import { INTERNAL } from '../run/output-layout.ts';
import { ENV_PARALLEL, removeAttachFiles, writeInterrupted } from '../run/attach.ts';
import type { Results } from '../report/results.ts';
import { verdictText } from '../report/coverage.ts';
import { moduleStopText, summaryText } from '../report/results.ts';
import { consoleStyle, replayContext, resultLine } from '../report/console-reporter.ts';
import { AREAS } from '../run/areas.ts';
import { listTests, playwrightBase, selectionOf, type ListedTest } from './listing.ts';
import { childEnv } from './child-env.ts';
import { kindsOption, kindTags } from './kinds.ts';
import { MODULE_KINDS, type ModuleKind } from '../contract/kinds.ts';
import { applyBaseline, gateLines, readBaseline, writeGate, type Baseline } from './baseline.ts';
import { SHARD_USAGE, seedGiven, shardArgs, shardInfo, shardOption, shardSelection } from './shard.ts';

export const RUN_USAGE = `usage: conformance run [--config FILE] [options]

  --config FILE            run configuration (default: the bundled reference module)
  --out DIR                output folder (default: reports)
  --module-url URL         remote mode: the module runs at URL
  --registration FILE      remote mode: the module's integrationModule JSON
  --bind ADDR              address the simulators listen on (default 127.0.0.1)
  --system-public-url URL  address the module uses to reach the system simulator
  --gateway-public-url URL address the module uses to reach the gateway simulator
  --no-profile             the document alone: skip wire-profile (WIRE-) checks
  --seed N                 the seed of every generated request (default: drawn, printed, recorded)
  --runs N                 generated cases per property (default 100)
  --lanes N                cases of a property in flight at once, where they are independent (default 4;
                           the same requests and results for any N)
  --parallel N             areas at once (1 or 2; config concurrency.areas, default 1): with 2, the delivery specs run in a
                           second worker at the same time as the others, against the one module
                           (the same results as one at a time); not with --shard
  --grep PATTERN           run only the specs whose title matches (a regular expression,
                           case-insensitive); one that matches nothing ends the run (exit 2).
                           A title as the console prints it, its parts joined by › (or >),
                           is matched as written: --grep "registration › the registration call"
  --baseline FILE          the failures known and accepted for now (conformance baseline writes one):
                           the run fails only on others, and on baselined ones that no longer fail
  --area AREAS             run only the specs of these areas, comma-separated (${AREAS.join(', ')});
                           the registration area always runs. With --grep: the tests of
                           these areas whose title matches
  --kind KINDS             run only the tests of these module kinds, comma-separated (${MODULE_KINDS.join(', ')}),
                           and the registration area's; not with --area
${SHARD_USAGE}

An option's value may also follow an equals sign (--out=DIR). An unknown option, a missing
value or a configuration key the schema does not know ends the run with exit 2.
`;

interface RunArgs {
  config?: string;
  out: string;
  grep?: string;
  /** `--area`: the areas run, registration first, in the order of src/run/areas.ts. */
  areas?: string[];
  /** `--kind`: the module kinds run (src/cli/kinds.ts), in the order of src/contract/kinds.ts. */
  kinds?: ModuleKind[];
  /** `--shard I/N` (src/cli/shard.ts). */
  shard?: { current: number; total: number };
  /** `--parallel N`: areas at once (src/run/attach.ts). */
  parallel?: number;
  /** `--baseline FILE` (src/cli/baseline.ts). */
  baseline?: string;
  flags: ConfigFlags;
}

/** The options of `conformance run`: those with a `value` take one (`--name VALUE` or `--name=VALUE`). */
const OPTIONS: Array<OptionSpec<RunArgs>> = [
  ...sessionOptions<RunArgs>(),
  { name: '--seed', value: 'N', set: (o, v) => (o.flags.seed = integerOption('--seed', v, 0, 4294967295)) },
  { name: '--runs', value: 'N', set: (o, v) => (o.flags.runs = integerOption('--runs', v, 1, 100000)) },
  { name: '--lanes', value: 'N', set: (o, v) => (o.flags.lanes = integerOption('--lanes', v, 1, 64)) },
  { name: '--grep', value: 'PATTERN', set: (o, v) => (o.grep = v) },
  { name: '--area', value: 'AREAS', set: (o, v) => (o.areas = areasOption(v, o.areas)) },
  { name: '--kind', value: 'KINDS', set: (o, v) => (o.kinds = kindsOption(v, o.kinds)) },
  { name: '--shard', value: 'I/N', set: (o, v) => (o.shard = shardOption(v)) },
  { name: '--parallel', value: 'N', set: (o, v) => (o.parallel = integerOption('--parallel', v, 1, 2)) },
  { name: '--baseline', value: 'FILE', set: (o, v) => (o.baseline = v) },
];

/**
 * The areas of `--area a,b` (added to those of an earlier `--area`), the registration area always
 * among them, in the order of src/run/areas.ts. An unknown area is a configuration error naming the
 * nearest known one.
 */
export function areasOption(value: string, earlier: readonly string[] = []): string[] {
  const named = value.split(',').map((a) => a.trim());
  for (const area of named) {
    if ((AREAS as readonly string[]).includes(area)) continue;
    const meant = area === '' ? undefined : nearestName(area, [...AREAS]);
    throw new ConfigError(`unknown area ${JSON.stringify(area)} in --area ${value}; ${meant ? `did you mean ${meant}? ` : ''}known areas: ${AREAS.join(', ')}`);
  }
  const chosen = new Set(['registration', ...earlier, ...named]);
  return AREAS.filter((a) => chosen.has(a));
}

/** True for a listed test of one of these areas (tagged `@area`). */
export function inAreas(test: ListedTest, areas: readonly string[]): boolean {
  return (test.tags ?? []).some((tag) => areas.includes(tag.slice(1)));
}

/**
 * The one `--grep` Playwright is given for a run narrowed by areas, a pattern or both. A test's
 * tags are part of what Playwright matches (its title path, then its tags, joined by spaces):
 * the areas are a tag (`@delivery`, src/run/areas.ts), the pattern a lookahead beside it. A
 * pattern in the `/source/flags` form keeps its flags.
 */
export function playwrightGrep(grep: string | undefined, areas: readonly string[] | undefined): string | undefined {
  if (!areas) return grep;
  const tag = `@(?:${areas.join('|')})(?![\\w-])`;
  if (grep === undefined) return tag;
  const literal = /^\/(.*)\/([gi]*)$/.exec(grep);
  return literal ? `/^(?=[\\s\\S]*${tag})(?=[\\s\\S]*(?:${literal[1]}))/${literal[2]}` : `^(?=[\\s\\S]*${tag})(?=[\\s\\S]*(?:${grep}))`;
}

/** An integer option's value within its bounds; anything else is a configuration error. */
function integerOption(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name} takes an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return n;
}

/** The separator of the parts of a title the console prints (` › `), or its ASCII form (` > `). */
const TITLE_SEPARATOR = /\s+[›>]\s+/;

/**
 * A `--grep` as Playwright reads it. A title as the console prints it (`registration › the
 * registration call`) is matched as written: Playwright matches the title path joined with
 * spaces, so each separator becomes a space and the rest is taken literally (a title's brackets
 * and braces are text). Any other pattern is a regular expression, as typed.
 */
export function grepPattern(typed: string): string {
  if (/^\/.*\/[gim]*$/.test(typed) || !TITLE_SEPARATOR.test(typed)) return typed;
  return typed
    .trim()
    .split(TITLE_SEPARATOR)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join(' ');
}

/** Reads the arguments of `conformance run`. Throws ConfigError with a one-line reason. */
export function parseRunArgs(args: string[]): RunArgs {
  const out = readOptions<RunArgs>(args, OPTIONS, { out: 'reports', flags: {} }, 'run', (a) => {
    throw new ConfigError(`unexpected argument ${JSON.stringify(a)}${/\.json$/i.test(a) ? `; did you mean --config ${a}?` : '; see conformance run --help'}`);
  });
  if (out.kinds && out.areas) throw new ConfigError('--kind and --area do not go together: give the kinds (--kind) or the areas (--area)');
  if (out.grep !== undefined) {
    out.grep = grepPattern(out.grep);
    // As Playwright reads it: `/source/flags`, or a case-insensitive regular expression.
    const literal = /^\/(.*)\/([gim]*)$/.exec(out.grep);
    try {
      new RegExp(literal ? literal[1]! : out.grep, literal ? literal[2] : 'gi');
    } catch (e) {
      throw new ConfigError(`--grep ${JSON.stringify(out.grep)} is not a regular expression: ${(e as Error).message}`);
    }
  }
  return out;
}


/** The deadline of a run when the configuration sets none: 15 minutes. */
export const DEFAULT_RUN_TIMEOUT_MS = 900_000;

export async function runCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(RUN_USAGE);
    return 0;
  }
  const prepared = await prepareRun(args);
  return typeof prepared === 'number' ? prepared : playRun(prepared);
}

/** Where a run writes what it prints (a batch keeps each row's apart). */
interface Output {
  write(text: string): unknown;
}

/** A run ready to start: its arguments, resolved configuration, output folder, the `--grep` Playwright is given, its configuration file. */
export interface PreparedRun {
  parsed: RunArgs;
  config: ResolvedConfig;
  out: string;
  grep?: string;
  configFile: string;
  pwBase: string[];
  /** `--baseline FILE`, read and checked. */
  baseline?: Baseline;
}

/**
 * What `conformance run` does before Playwright starts (a batch, src/cli/batch.ts, does it for
 * each of its rows): reads the arguments and the configuration (the seed fixed), lists what a
 * narrowed run selects (`list`: the conformance tests a `--grep` selects, all without one; by
 * default Playwright's listing, kept), clears the output folder and writes the run's
 * configuration file. Exit code 2, its one-line reason written to `stderr`, when it cannot start.
 */
export async function prepareRun(args: string[], options: { stderr?: Output; list?: (grep: string | undefined) => Promise<ListedTest[] | undefined> } = {}): Promise<PreparedRun | number> {
  const stderr = options.stderr ?? process.stderr;
  let parsed: RunArgs;
  let config;
  let baseline: Baseline | undefined;
  try {
    parsed = parseRunArgs(args);
    config = loadConfig(parsed.config, parsed.flags);
    if (parsed.baseline !== undefined) baseline = readBaseline(parsed.baseline);
    if (parsed.shard) config = { ...config, shard: shardInfo(config, parsed.shard, seedGiven(parsed.flags.seed, config)) };
    // A shard's tests are those of Playwright's split of one project: one at a time.
    if (parsed.shard && (parsed.parallel ?? 1) > 1) throw new Error('--parallel 2 does not go with --shard (a shard runs its tests one at a time)');
  } catch (e) {
    stderr.write(`conformance run: ${(e as Error).message}\n`);
    return 2;
  }
  const pwBase = playwrightBase();
  const out = path.resolve(parsed.out);
  const list = options.list ?? ((g: string | undefined) => listTests(pwBase, g, out));
  let selection: Selection | undefined;
  // A narrowed run (--grep, --area, or both) gives Playwright one pattern (see playwrightGrep).
  // Kinds select as areas do, by their tags (src/cli/kinds.ts).
  const tags = parsed.areas ?? (parsed.kinds ? kindTags(parsed.kinds) : undefined);
  const grep = playwrightGrep(parsed.grep, tags);
  if (grep !== undefined) {
    // A run that selects nothing is a configuration error, found before anything starts.
    // An --area alone selects by the tags of the listing (what its pattern selects, one listing less).
    const [selected, all] =
      parsed.grep === undefined
        ? await list(undefined).then((listed) => [listed?.filter((t) => inAreas(t, tags!)), listed] as const)
        : await Promise.all([list(grep), list(undefined)]);
    if (selected?.length === 0) {
      // (An --area alone always selects the registration area's tests: here with a --grep.)
      const where = parsed.kinds ? ` in the tests of the kinds ${parsed.kinds.join(', ')} and of the registration area` : parsed.areas ? ` in the areas ${parsed.areas.join(', ')}` : '';
      const among = tags ? `the ${all?.filter((t) => inAreas(t, tags)).length} conformance tests of those ${parsed.kinds ? 'kinds' : 'areas'}` : `the suite's ${all?.length} conformance tests`;
      stderr.write(`conformance run: no check matches --grep ${JSON.stringify(parsed.grep)}${where}${all ? ` (none of the titles of ${among}; the pattern is a case-insensitive regular expression)` : ''}\n`);
      return 2;
    }
    // The pattern as typed, for the verdict and the reports.
    const typed =
      parsed.grep === undefined ? undefined : (args.reduce<string | undefined>((found, a, i) => (a === '--grep' ? args[i + 1] : a.startsWith('--grep=') ? a.slice(7) : found), undefined) ?? parsed.grep);
    const narrowing = { ...(typed !== undefined ? { grep: typed } : {}), ...(parsed.areas ? { areas: parsed.areas } : {}), ...(parsed.kinds ? { kinds: parsed.kinds } : {}) };
    if (selected && all) selection = selectionOf(narrowing, all, selected);
    else selection = { ...narrowing, selected: 0, total: 0, leftOutTests: [], leftOut: [] };
  }
  // A shard is a run narrowed to its tests (src/cli/shard.ts).
  const sharded = parsed.shard ? await shardSelection(parsed.shard, selection, grep, (extra, g) => listTests(pwBase, g, out, extra), selectionOf) : selection;
  if (typeof sharded === 'string') return (stderr.write(`conformance run: ${sharded}\n`), 2);
  selection = sharded;
  fs.mkdirSync(out, { recursive: true });
  // What an earlier run left here (the run's own files in internal/; those of the former layout too).
  const former = ['aborted.json', 'session-records', 'launches.log', 'session-start.json', 'module-stop.json', 'module-output.json', 'blob-report', 'playwright-report', 'test-results', 'run.log', 'rate-limit.json', 'webhook-types.json'];
  for (const f of ['results.json', 'conformance.html', 'junit.xml', 'module.stdout.log', 'module.stderr.log', 'failures', 'gate.json', INTERNAL, ...former]) fs.rmSync(path.join(out, f), { recursive: true, force: true });
  const configFile = path.join(out, '.run-config.json');
  fs.writeFileSync(configFile, JSON.stringify({ ...config, ...(selection ? { selection } : {}) }), { mode: 0o600 });
  return { parsed, config, out, ...(grep !== undefined ? { grep } : {}), configFile, pwBase, ...(baseline ? { baseline } : {}) };
}

/** Plays a prepared run: Playwright on the conformance project, one worker; then the verdict. */
async function playRun({ parsed, config, out, grep, configFile, pwBase, baseline }: PreparedRun): Promise<number> {
  // The deadline of the whole run: Playwright stops what still runs, and the reporters still write.
  // A shard runs its tests one at a time, whatever the configuration's concurrency.areas.
  const parallel = parsed.shard ? 1 : (parsed.parallel ?? config.concurrency?.areas ?? 1);
  const pwArgs = [...pwBase, `--workers=${parallel}`, `--global-timeout=${config.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS}`];
  if (grep !== undefined) pwArgs.push('--grep', grep);
  if (parsed.shard) pwArgs.push(...shardArgs(parsed.shard));
  // Interrupted (Ctrl-C, a cancelled CI job): Playwright is told to stop (SIGINT, its graceful
  // interruption, whichever signal came), its worker stops the module's process group, and the
  // run ends without a verdict (exit 130 or 143).
  let interrupted: NodeJS.Signals | undefined;
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, pwArgs, {
      cwd: PACKAGE_ROOT,
      env: childEnv({ [ENV_OUT]: out, [ENV_CONFIG]: configFile, [ENV_CWD]: process.cwd(), [ENV_PARALLEL]: parallel > 1 ? String(parallel) : undefined }),
      stdio: 'inherit',
    });
    let forced: NodeJS.Timeout | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (interrupted) {
        // A second signal: no more waiting.
        child.kill('SIGKILL');
        return;
      }
      interrupted = signal;
      // Areas at the same time: the host's session stops waiting for the attached worker's tests.
      if (parallel > 1) writeInterrupted(out);
      child.kill('SIGINT');
      // Playwright that does not end in time is ended; its worker's exit hook still kills the module's group.
      forced = setTimeout(() => child.kill('SIGKILL'), 30_000);
      forced.unref();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    child.on('exit', (c, sig) => {
      const done = (): void => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        clearTimeout(forced);
        resolve(c ?? 1);
      };
      // Playwright ended by a signal sent to the whole process group (Ctrl-C, a cancelled CI
      // job): under load its exit can be seen before this process's own signal is handled; that
      // signal is given a moment to arrive, so the run still ends as interrupted (130, 143).
      if (!interrupted && (sig !== null || c === 130 || c === 143)) setTimeout(done, 250);
      else done();
    });
  });
  fs.rmSync(configFile, { force: true });
  if (parallel > 1) removeAttachFiles(out);
  if (interrupted) {
    process.stderr.write(`conformance run: interrupted (${interrupted}); no verdict\n`);
    return interrupted === 'SIGTERM' ? 143 : 130;
  }
  return finishRun(out, code, process, baseline);
}

/**
 * What `conformance run` does after Playwright ended (a batch too, for each row): reads
 * `results.json`, prints the run-level results, the tally and the verdict, and gives the exit
 * code (0: no MUST failure; 1: one; 2: no results, named with Playwright's exit `code`, or a run
 * that could not start). With a baseline, the gate's: 0 when every failure is baselined and no
 * baselined requirement stopped failing, else 1 (src/cli/baseline.ts).
 */
export function finishRun(out: string, code: number, io: { stdout: Output; stderr: Output } = process, baseline?: Baseline): number {
  let results: Results;
  try {
    results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results;
  } catch {
    io.stderr.write(`conformance run: the run produced no results (Playwright exited with ${code})\n`);
    return 2;
  }
  if (results.run.outcome === 'aborted') {
    // The module's output files, named as the output folder holds them, as paths from here.
    let why = results.run.aborted ?? '';
    for (const name of Object.values(MODULE_OUTPUT_LOGS)) why = why.replaceAll(`(${name})`, `(${path.relative(process.cwd(), path.join(out, name)) || name})`);
    io.stderr.write(`conformance run: the run could not start: ${why}\n`);
    return 2;
  }
  const deadline = (results.run as { deadline?: { runTimeoutMs: number; stopped: number } }).deadline;
  if (deadline) io.stdout.write(`\nconformance run: stopped at the run deadline (runTimeoutMs ${deadline.runTimeoutMs}); ${deadline.stopped} conformance test(s) did not run to their end\n`);
  // The verdict says what it rests on: what was tested of what applies to the module.
  const stopped = moduleStopText(results.run.moduleStop);
  if (stopped) io.stdout.write(`\nconformance: stopping the module: ${stopped}\n`);
  // The failures again, once the run's lines have scrolled by: check, ids, why in one line, the
  // replay command of a generated case (paths from where the run was typed), the spec.
  const failures = results.results.filter((r) => r.status === 'failed' && r.spec !== 'run');
  if (failures.length > 0) {
    const where = replayContext(out, results.run.config);
    io.stdout.write(`\nfailures (${failures.length})\n${failures.map((r) => `${resultLine(r, consoleStyle(), where)}${r.spec ? `\n      in ${r.spec}` : ''}\n`).join('')}`);
  }
  // The run-level rules, then every result counted as results.json counts them, then the verdict.
  const runLevel = results.results.filter((r) => r.spec === 'run');
  if (runLevel.length > 0) io.stdout.write(`run\n${runLevel.map((r) => `${resultLine(r, consoleStyle())}\n`).join('')}`);
  io.stdout.write(`\n${summaryText(results.summary)}\n`);
  const verdict = results.coverage ? verdictText(results.coverage) : results.run.outcome === 'passed' ? 'PASS (no MUST failure)' : 'FAIL';
  io.stdout.write(`\nconformance: ${verdict} (${path.relative(process.cwd(), path.join(out, 'conformance.html')) || 'conformance.html'})\n`);
  if (baseline) {
    const gate = applyBaseline(results, baseline);
    io.stdout.write(gateLines(gate, baseline));
    writeGate(out, gate, baseline);
    return gate.exitCode;
  }
  return results.run.outcome === 'passed' ? 0 : 1;
}
