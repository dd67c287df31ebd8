/**
 * `npm run bench`: the figures of issue 33 in one table, printed and written to
 * docs/benchmarks.md with the machine, the date and the commit (the definitions are in the
 * document, `bench/report.ts`):
 *
 *   (a) `npm start` (the full certification of the reference module): wall time, peak memory
 *   (b) generated cases a second, engine against a bare undici loop: calculate, delivery sequences
 *   (c) from the spawn of `conformance run` to the first callback reaching the module
 *   (d) 10,000 generated calculate cases: wall time, memory (flat in the number of cases?)
 *   (e) (a) and (d) with more cases (1k, 10k, 100k), with `--lanes` 1, 2, 4, 8, and (a) with `--parallel 2`
 *   (f) the reference module answering every request in 800 ms, certified (ANSWER_DELAY_MS)
 *
 *   npm run bench [-- --quick] [--before DIR] [--only a,b,c,d,e,f] [--lanes 1,2,4,8] [--parallel 2]
 *                 [--seed 1] [--slow-deadline 300] [--doc docs/benchmarks.md]
 *
 * `--quick` leaves out the 100k point, the full run at 1,000 cases, and of the lanes all but 1
 * and the default (the table says what was left out). `--before DIR` measures an older checkout
 * (`git worktree add /tmp/bench-before <commit>`, its node_modules installed or linked) beside
 * this one, each measurement of the two one after the other; its figures are kept in the
 * document for the runs without `--before`. (c) is read from the run of (a). The lanes figures
 * are taken where the checkout's `conformance run` has `--lanes`, those of areas at once where it
 * has `--parallel`. Linux only (/proc).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../src/contract/paths.ts';
import { benchConfig, commitOf, knowsOption, removeConfigs, runCli, runEngine, type CliRun, type EngineRun } from './measure.ts';
import { loadAverage, machine, readBefore, readNotes, table, writeDoc, type Before, type Row } from './report.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    before: { type: 'string' },
    only: { type: 'string', default: 'a,b,c,d,e,f' },
    lanes: { type: 'string', default: '1,2,4,8' },
    parallel: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
    'slow-deadline': { type: 'string', default: '300' },
    doc: { type: 'string', default: path.join(PACKAGE_ROOT, 'docs', 'benchmarks.md') },
  },
});

const started = performance.now();
const commitAtStart = commitOf(PACKAGE_ROOT);
const loadStart = loadAverage();
const only = new Set(values.only.split(',').map((s) => s.trim()));
const quick = values.quick;
const seed = values.seed;
const slowDeadlineS = Number(values['slow-deadline']);
const doc = path.resolve(values.doc);
const NOW = PACKAGE_ROOT;
const BEFORE = values.before ? path.resolve(values.before) : undefined;
const CALCULATE = 'calculate: generated valid requests';
const HOUR = 3_600_000;

type Which = 'before' | 'now';
const roots: Array<[Which, string]> = BEFORE ? [['before', BEFORE], ['now', NOW]] : [['now', NOW]];
const rows: Row[] = [];
const beforeFigures: Record<string, string> = {};
const skipped: string[] = [];

/** The lanes a checkout has (`--lanes` in its usage), and its default. */
function lanesOf(root: string): { has: boolean; default?: number } {
  if (!knowsOption(root, '--lanes')) return { has: false };
  const d = /DEFAULT_LANES = (\d+)/.exec(fs.readFileSync(path.join(root, 'src', 'module', 'config.ts'), 'utf8'));
  return { has: true, ...(d ? { default: Number(d[1]) } : {}) };
}
const lanes = { now: lanesOf(NOW), before: BEFORE ? lanesOf(BEFORE) : { has: false } };
const LANES = values.lanes.split(',').map(Number).filter((n) => n >= 1);
/** Areas at once (`--parallel N`), where the checkout has the option. */
const PARALLEL = values.parallel.split(',').map(Number).filter((n) => n >= 2);
const parallel = { now: knowsOption(NOW, '--parallel'), before: BEFORE ? knowsOption(BEFORE, '--parallel') : false };
/** The lanes values measured beside the default (quick: 1 alone). */
const otherLanes = (which: Which): number[] => (lanes[which].has ? LANES.filter((l) => l !== lanes[which].default && (!quick || l === 1)) : []);

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const cpu = (r: CliRun): string => (r.cpuS === undefined ? '' : ` (${r.cpuS.toFixed(1)} CPU-s)`);
const exit = (r: CliRun): string =>
  `${r.exitCode === 0 ? '' : ` (exit ${r.exitCode})`}${r.deadlineReached ? ` (cut by the run deadline: ${r.deadlineStopped ?? '?'} tests stopped or not started)` : ''}${r.budgetEnded > 0 ? ` (${r.budgetEnded} properties cut by their time budget)` : ''}`;
const roles = (r: CliRun): string => ['CLI', 'runner', 'worker', 'watchdog', 'module'].filter((k) => r.peakByRoleMB[k] !== undefined).map((k) => `${k} ${r.peakByRoleMB[k]}`).join(', ') + ' MB';
/** Where the time of a run went: its slowest tests, for the document. */
const details: string[] = [];
const slowest = (which: Which, what: string, r: CliRun): void => {
  details.push(`- ${what}, ${which}: ${r.slowest.map((t) => `${t.title} ${s(t.ms)}`).join('; ')}`);
};

function put(which: Which, row: Row): void {
  if (which === 'before') beforeFigures[row.key] = row.now;
  else rows.push(row);
  process.stderr.write(`  ${which}: ${row.item}, ${row.measure}: ${row.now}\n`);
}

/** Each measurement of the checkouts, before then now. */
async function both(what: string, measure: (which: Which, root: string) => Promise<void>): Promise<void> {
  process.stderr.write(`${what}\n`);
  for (const [which, root] of roots) await measure(which, root);
}

function fullRows(which: Which, r: CliRun): void {
  slowest(which, '(a) npm start', r);
  put(which, { key: 'a.wall', item: '(a) npm start', measure: 'wall time (CPU time of every process)', now: `${s(r.wallMs)}${cpu(r)}${exit(r)}`, target: '≤ 30 s', met: r.wallMs <= 30_000 && r.exitCode === 0 });
  put(which, { key: 'a.memory', item: '(a) npm start', measure: 'peak memory: the suite (the module)', now: `${r.peakSuiteMB} MB (${r.peakModuleMB} MB)` });
  put(which, { key: 'a.memory.roles', item: '(a) npm start', measure: 'peak of each process', now: roles(r) });
  put(which, { key: 'a.verdict', item: '(a) npm start', measure: 'verdict', now: `${r.verdict ?? 'none'}, ${r.results ?? 0} results, ${r.failed ?? 0} failed` });
  if (!only.has('c')) return;
  const st = r.start;
  const first = st.firstCallback;
  put(which, { key: 'c.first', item: '(c) start', measure: 'spawn to the first callback', now: first === undefined ? 'none seen' : s(first), target: '≤ 1.5 s', met: first !== undefined && first <= 1_500 });
  const step = (ms: number | undefined): string => (ms === undefined ? '?' : s(ms));
  put(which, { key: 'c.steps', item: '(c) start', measure: 'CLI started / module listening / registered; first output', now: `${step(st.cliStarted)} / ${step(st.moduleListening)} / ${step(st.registered)}; ${step(r.firstOutputMs)}` });
}

function engineRows(which: Which, name: string, e: EngineRun | { error: string }, unit: string): void {
  const key = `b.${name}`;
  const item = `(b) ${name}`;
  if ('error' in e) return put(which, { key: `${key}.rate`, item, measure: 'engine / bare loop', now: `failed: ${e.error}` });
  const one = e.engine[0]!;
  put(which, { key: `${key}.rate`, item: `${item}, ${e.runs} ${unit}`, measure: `engine (1 lane) / bare loop, ${unit}/s (calls/s)`, now: `${one.casesPerSecond} (${one.callsPerSecond}) / ${e.bare.casesPerSecond} (${e.bare.callsPerSecond}); same answers ${e.bare.sameStatus} of ${e.bare.calls}` });
  if (e.bareNewConnections) put(which, { key: `${key}.newconn`, item, measure: `bare loop, a new connection per request as the engine's client: ${unit}/s (calls/s)`, now: `${e.bareNewConnections.casesPerSecond} (${e.bareNewConnections.callsPerSecond})` });
  put(which, { key: `${key}.ratio`, item, measure: 'engine ÷ bare loop, 1 lane', now: e.ratio.toFixed(2), target: '≥ 0.5', met: e.ratio >= 0.5 });
  for (const l of e.engine.slice(1)) {
    const ratio = e.bare.ms / l.ms;
    put(which, { key: `${key}.lanes${l.lanes}`, item, measure: `engine, ${l.lanes} lanes: ${unit}/s (÷ bare loop)`, now: `${l.casesPerSecond} (${ratio.toFixed(2)})`, target: '≥ 0.5', met: ratio >= 0.5 });
  }
  put(which, { key: `${key}.memory`, item, measure: 'peak memory of the engine process (both passes)', now: `${e.peakRssMB} MB` });
}

const calcPeaks: Record<Which, Record<number, number>> = { before: {}, now: {} };

function calcRow(which: Which, key: string, item: string, n: number, r: CliRun, target?: { ms: number; text: string }, lanesRun = false): void {
  if (!lanesRun) calcPeaks[which][n] = r.peakSuiteMB;
  const cut = r.calculate && r.calculate.cases < n ? `, only ${r.calculate.cases} cases (the time budget)` : '';
  put(which, { key, item, measure: 'wall (CPU); peak memory (at ¼ ½ ¾ 90%; of each process)', now: `${s(r.wallMs)}${cpu(r)}${exit(r)}${cut}; ${r.peakSuiteMB} MB (${r.suiteQuartersMB.join(' ')}; ${roles(r)})`, ...(target ? { target: target.text, met: r.wallMs <= target.ms && r.exitCode === 0 && !cut } : {}) });
}

const calcArgs = (root: string, n: number, l?: number): string[] => ['--config', benchConfig(root, { timeLimitMs: HOUR }), '--seed', seed, '--runs', String(n), '--grep', CALCULATE, ...(l ? ['--lanes', String(l)] : [])];

// (a) and (c): npm start, as it is (the bundled configuration), the seed fixed.
if (only.has('a')) await both('(a) npm start', async (which, root) => fullRows(which, await runCli(root, ['--seed', seed])));

// (b) the engine against the bare loop.
if (only.has('b')) {
  await both('(b) engine against a bare loop', async (which, root) => {
    const l = lanes[which];
    const lanesArg = ['1', ...(l.has ? LANES.filter((x) => x !== 1).map(String) : [])].join(',');
    engineRows(which, 'calculate', await runEngine(root, ['--property', 'calculate', '--runs', '1000', '--seed', seed, '--lanes', lanesArg]), 'cases');
    engineRows(which, 'delivery sequences', await runEngine(root, ['--property', 'sequences', '--runs', '100', '--seed', seed, '--lanes', lanesArg]), 'sequences');
  });
}

// (d) 10,000 calculate cases, and (e) 1k and 100k.
const points = [1_000, 10_000, 100_000].filter((n) => (n === 10_000 ? only.has('d') || only.has('e') : only.has('e')) && !(quick && n === 100_000));
if (quick && only.has('e')) skipped.push('(e) 100,000 calculate cases (--quick)');
for (const n of points) {
  await both(`(${n === 10_000 ? 'd' : 'e'}) ${n} calculate cases`, async (which, root) => {
    const r = await runCli(root, calcArgs(root, n));
    calcRow(which, n === 10_000 ? 'd.calc' : `e.calc.${n}`, `(${n === 10_000 ? 'd' : 'e'}) ${n.toLocaleString('en')} calculate cases`, n, r, n === 10_000 ? { ms: 60_000, text: '≤ 60 s' } : undefined);
  });
}
if (points.length > 1) {
  // Flat: the peak at the most cases measured against the peak at a tenth of them (a short run is mostly the start).
  for (const [which] of roots) {
    const p = calcPeaks[which];
    const known = points.filter((n) => p[n] !== undefined);
    const top = known[known.length - 1]!;
    const low = p[top / 10];
    const growth = low === undefined ? undefined : (p[top]! - low) / low;
    put(which, {
      key: 'd.flat',
      item: '(d) memory flat in cases',
      measure: `peak at ${known.map((n) => `${n / 1000}k`).join(' / ')} cases`,
      now: `${known.map((n) => `${p[n]} MB`).join(' / ')}${growth === undefined ? '' : ` (${growth >= 0 ? '+' : ''}${Math.round(growth * 100)}% from ${top / 10_000}k to ${top / 1000}k)`}`,
      target: '≤ +25% for 10× the cases',
      ...(growth === undefined ? {} : { met: growth <= 0.25 }),
    });
  }
}

// (e) with lanes: the full run and 10,000 calculate cases; the full run at 1,000 cases a property.
if (only.has('e')) {
  await both('(e) lanes', async (which, root) => {
    for (const l of otherLanes(which)) {
      const full = await runCli(root, ['--seed', seed, '--lanes', String(l)]);
      put(which, { key: `e.full.lanes${l}`, item: `(e) npm start --lanes ${l}`, measure: 'wall (CPU); peak memory', now: `${s(full.wallMs)}${cpu(full)}${exit(full)}; ${full.peakSuiteMB} MB` });
      calcRow(which, `e.calc.lanes${l}`, `(e) 10,000 calculate cases, --lanes ${l}`, 10_000, await runCli(root, calcArgs(root, 10_000, l)), undefined, true);
    }
  });
  await both('(e) areas at once', async (which, root) => {
    for (const p of parallel[which] ? PARALLEL : []) {
      const full = await runCli(root, ['--seed', seed, '--parallel', String(p)]);
      slowest(which, `(e) npm start --parallel ${p}`, full);
      put(which, { key: `e.full.parallel${p}`, item: `(e) npm start --parallel ${p}`, measure: 'wall (CPU); peak memory', now: `${s(full.wallMs)}${cpu(full)}${exit(full)}; ${full.peakSuiteMB} MB`, target: '≤ 30 s', met: full.wallMs <= 30_000 && full.exitCode === 0 });
    }
  });
  if (!parallel.now) skipped.push('(e) areas at once: this checkout has no --parallel');
  if (!lanes.now.has) skipped.push('(e) lanes: this checkout has no --lanes');
  else if (quick) skipped.push(`(e) lanes ${LANES.filter((l) => l !== 1 && l !== lanes.now.default).join(', ')} (--quick)`);
  if (quick) skipped.push('(e) the full run at 1,000 cases a property (--quick)');
  else {
    await both('(e) the full run at 1,000 cases a property', async (which, root) => {
      const r = await runCli(root, ['--config', benchConfig(root, { timeLimitMs: HOUR }), '--seed', seed, '--runs', '1000']);
      put(which, { key: 'e.full.1000', item: '(e) npm start --runs 1000', measure: 'wall (CPU); peak memory', now: `${s(r.wallMs)}${cpu(r)}${exit(r)}; ${r.peakSuiteMB} MB` });
    });
  }
}

// (f) the module answering in 800 ms (this checkout's reference module, for an older suite too):
// as it is, with each other lanes value, with areas at once (--parallel), and with both at their most.
if (only.has('f')) {
  await both(`(f) a module answering in 800 ms (run deadline ${slowDeadlineS} s)`, async (which, root) => {
    const config = benchConfig(root, { delayMs: 800, moduleRoot: NOW, runTimeoutMs: slowDeadlineS * 1000 });
    const most = Math.max(...LANES);
    const variants: string[][] = [
      [],
      ...(quick ? [] : otherLanes(which).map((l) => ['--lanes', String(l)])),
      ...PARALLEL.filter(() => parallel[which]).map((p) => ['--parallel', String(p)]),
      ...(quick || !lanes[which].has ? [] : PARALLEL.filter(() => parallel[which]).map((p) => ['--parallel', String(p), '--lanes', String(most)])),
    ];
    for (const flags of variants) {
      const r = await runCli(root, ['--config', config, '--seed', seed, ...flags]);
      const label = flags.length ? ` ${flags.join(' ')}` : '';
      slowest(which, `(f) 800 ms a request${label}`, r);
      put(which, { key: `f.wall${flags.join('')}`, item: `(f) 800 ms a request${label}`, measure: 'wall time (CPU); verdict', now: `${r.deadlineReached ? '> ' : ''}${s(r.wallMs)}${cpu(r)}${exit(r)}; ${r.verdict ?? 'none'}`, target: '≤ 3 min', met: r.wallMs <= 180_000 && !r.deadlineReached });
    }
  });
  if (quick && lanes.now.has) skipped.push('(f) lanes other than the default, and --parallel with the most lanes (--quick)');
}

// The table and the document: an older checkout without lanes has no lanes figures.
if (BEFORE && !lanes.before.has) for (const r of rows) if (/lanes/.test(r.key)) beforeFigures[r.key] ??= 'n/a: no --lanes';
if (BEFORE && !parallel.before) for (const r of rows) if (/parallel/.test(r.key)) beforeFigures[r.key] ??= 'n/a: no --parallel';
removeConfigs();
const commitAtEnd = commitOf(NOW);
const commit = commitAtEnd === commitAtStart ? commitAtEnd : `${commitAtStart} to ${commitAtEnd}`;
const before: Before | undefined = BEFORE ? { commit: commitOf(BEFORE), date: new Date().toISOString().slice(0, 10), machine: machine(), figures: beforeFigures } : readBefore(doc);
const rendered = table(rows, before, commit);
process.stdout.write(`\n${rendered}\n${skipped.length ? `not measured: ${skipped.join('; ')}\n` : ''}`);
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
if (details.length) process.stdout.write(`slowest tests (the time from the test before to its end):\n${details.join('\n')}\n`);
const input = { details, date: new Date().toISOString(), commit, machine: machine(), load: { start: loadStart, end: loadAverage() }, durationS: (performance.now() - started) / 1000, command, rows, before, skipped, notes: readNotes(doc) };
writeDoc(doc, input);
const raw = path.join(PACKAGE_ROOT, 'reports', 'bench.json');
fs.mkdirSync(path.dirname(raw), { recursive: true });
fs.writeFileSync(raw, `${JSON.stringify(input, null, 2)}\n`);
process.stdout.write(`written to ${path.relative(process.cwd(), doc)}\n`);
