/**
 * Joins the `results.json` of the shards of one run (`conformance run --shard I/N`) into the
 * results of the whole run: the records go through `buildResults` (results.ts), the reporter's own
 * code, so the requirements, the coverage, the summary and the run-level rules are computed as an
 * unsharded run computes them.
 *
 * Each conformance test ran in exactly one shard: its results are taken as they are, shard after
 * shard (Playwright's shards are consecutive runs of the tests, so the order is an unsharded run's).
 * What every shard recorded on its own, outside the tests (each launched its module and judged,
 * when its session ended, the calls that module made on its own), is combined:
 * - a result the same in several shards (spec, check, requirement ids, status and message, its
 *   numbers aside) is kept once, with the evidence of all;
 * - a rule judged (passed, failed, warning) in some shards and only skipped or not applicable in
 *   others keeps the judged results, each naming the shards where it was not judged (in a shard
 *   that ran none of the tests making those calls there was nothing to judge);
 * - any other result stays, so a rule failed in any shard fails the run.
 * Exchange ids stay as the shards wrote them; a session prefix two shards share (the same pid on
 * two machines) is renamed in the later shard.
 */
import { buildResults, type MergedShard, type Results } from './results.ts';
import type { CheckResult } from '../checks/result.ts';
import type { TestRecord } from '../run/conformance.ts';
import type { Selection } from '../module/config.ts';

/** A shard's output folder and the results it wrote. */
export interface ShardRun {
  dir: string;
  results: Results;
}

/** The spec of the run-level rules (results.ts): judged again over the joined exchanges. */
const RUN_SPEC = 'run';

const name = (r: Results): string => (r.run.shard ? `${r.run.shard.current}/${r.run.shard.total}` : '?');

/** `a (shards 1, 2), b (shard 3)`: a value and the shards that have it, for a refusal. */
function mixed(shards: readonly ShardRun[], label: string, valueOf: (r: Results) => unknown): string | undefined {
  const by = new Map<string, number[]>();
  for (const s of shards) {
    const v = JSON.stringify(valueOf(s.results)) ?? 'none';
    by.set(v, [...(by.get(v) ?? []), s.results.run.shard?.current ?? 0]);
  }
  if (by.size < 2) return undefined;
  return `mixed ${label}: ${[...by].map(([v, ns]) => `${v} (shard${ns.length === 1 ? '' : 's'} ${ns.join(', ')})`).join(', ')}`;
}

/**
 * Why these shards cannot be joined into one run, or nothing: each must be a shard, of the same
 * number of shards, each shard once and none missing, run alike (suite version, contract, seed,
 * generated cases, profile, mode, configuration, selection, module).
 */
export function mergeProblems(shards: readonly ShardRun[]): string[] {
  const problems: string[] = [];
  if (shards.length === 0) return ['no shard given'];
  const whole = shards.filter((s) => !s.results.run.shard);
  for (const s of whole) problems.push(`${s.dir} holds a whole run's results, not a shard's (conformance run --shard I/N)`);
  if (whole.length > 0) return problems;
  const totals = mixed(shards, 'numbers of shards', (r) => r.run.shard!.total);
  if (totals) return [totals];
  const total = shards[0]!.results.run.shard!.total;
  const seen = new Map<number, string>();
  for (const s of shards) {
    const i = s.results.run.shard!.current;
    if (seen.has(i)) problems.push(`shard ${i}/${total} given twice (${seen.get(i)} and ${s.dir})`);
    else seen.set(i, s.dir);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) problems.push(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing (given: ${[...seen.keys()].sort((a, b) => a - b).join(', ')})`);
  const alike: Array<[string, (r: Results) => unknown]> = [
    ['suite versions', (r) => r.suite.version],
    ['contracts', (r) => r.run.shard!.contract],
    ['seeds', (r) => r.run.seed ?? r.run.generation?.seed],
    ['generated cases per property (--runs)', (r) => r.run.generation?.runs],
    ['profile settings (--no-profile)', (r) => r.run.profile],
    ['modes', (r) => r.run.mode],
    ['selections (--grep, --area, --kind)', (r) => ({ grep: r.run.selection?.grep, areas: r.run.selection?.areas, kinds: r.run.selection?.kinds })],
    ['configurations', (r) => r.run.shard!.config],
    // A shard that could not start has no module to compare.
    ['modules', (r) => (r.module ? { code: r.module.code, kinds: r.module.kinds } : undefined)],
  ];
  for (const [label, valueOf] of alike) {
    const problem = mixed(
      shards.filter((s) => label !== 'modules' || s.results.module),
      label,
      valueOf,
    );
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The session prefixes of a shard's exchange ids (`s4711` of `s4711-x12`). */
function prefixesOf(r: Results): Set<string> {
  return new Set(r.exchanges.map((x) => x.id.replace(/-x\d+$/, '')));
}

/** The shards with distinct exchange ids: a prefix an earlier shard used is renamed (`s4711` to `s4711.2`) wherever the later shard writes it. */
function distinctIds(shards: readonly ShardRun[]): ShardRun[] {
  const used = new Set<string>();
  return shards.map((s) => {
    let text: string | undefined;
    for (const prefix of prefixesOf(s.results)) {
      if (!used.has(prefix)) {
        used.add(prefix);
        continue;
      }
      const renamed = `${prefix}.${s.results.run.shard?.current ?? 0}`;
      used.add(renamed);
      const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      text = (text ?? JSON.stringify(s.results)).replace(new RegExp(`(?<![\\w.-])${escaped}-x(?=\\d)`, 'g'), `${renamed}-x`);
    }
    return text === undefined ? s : { dir: s.dir, results: JSON.parse(text) as Results };
  });
}

const JUDGED = new Set(['passed', 'failed', 'warning']);
const ruleKey = (r: CheckResult): string => JSON.stringify([r.spec, r.check, r.requirements, r.title ?? '']);
/** A result's identity but its numbers, exchange ids and plurals (`all 1 call`, `all 326 calls`): the same finding in two shards. */
const findingKey = (r: CheckResult): string => JSON.stringify([ruleKey(r), r.status, r.severity, r.message.replace(/\d+/g, '#').replace(/(\w)s\b/g, '$1')]);
/** Results that say nothing was judged: folded into a judged result of the same rule from another shard. */
const UNJUDGED = new Set(['skipped', 'notApplicable']);
const shardsText = (ns: readonly string[]): string => `shard${ns.length === 1 ? '' : 's'} ${ns.join(', ')}`;

/**
 * The results of the specs several shards recorded (their sessions' own judgements, a refused
 * second start), combined as the module comment says.
 */
export function combineShared(shared: ReadonlyArray<{ shard: string; result: CheckResult }>): CheckResult[] {
  // A rule only skipped or not applicable in a shard, judged in another: the judged results stand.
  const judgedIn = new Map<string, Set<string>>();
  for (const { shard, result } of shared) if (JUDGED.has(result.status)) judgedIn.set(ruleKey(result), (judgedIn.get(ruleKey(result)) ?? new Set()).add(shard));
  const folded = new Map<string, Array<{ shard: string; result: CheckResult }>>();
  const kept = shared.filter((e) => {
    const judged = judgedIn.get(ruleKey(e.result));
    if (!UNJUDGED.has(e.result.status) || !judged || judged.has(e.shard)) return true;
    folded.set(ruleKey(e.result), [...(folded.get(ruleKey(e.result)) ?? []), e]);
    return false;
  });
  // The same finding in several shards: once (the n-th of a shard with the n-th of another).
  const groups = new Map<string, Array<{ shard: string; result: CheckResult }>>();
  const nth = new Map<string, number>();
  for (const e of kept) {
    const key = `${findingKey(e.result)}#${e.shard}`;
    const n = nth.get(key) ?? 0;
    nth.set(key, n + 1);
    const group = `${findingKey(e.result)}#${n}`;
    groups.set(group, [...(groups.get(group) ?? []), e]);
  }
  const out: CheckResult[] = [];
  const foldedDone = new Set<string>();
  for (const group of groups.values()) {
    const first = group[0]!.result;
    const evidence = [...new Set(group.flatMap((e) => e.result.evidence))];
    let message = `${first.message}\nRecorded in ${shardsText(group.map((e) => e.shard))}.`;
    const rule = ruleKey(first);
    if (JUDGED.has(first.status) && folded.has(rule) && !foldedDone.has(rule)) {
      foldedDone.add(rule);
      for (const f of folded.get(rule)!) {
        const why = f.result.message.split('\n').find((l) => /^(Skipped|Not applicable): /.test(l)) ?? f.result.status;
        message += `\nIn shard ${f.shard}: ${why}`;
        for (const id of f.result.evidence) if (!evidence.includes(id)) evidence.push(id);
      }
    }
    out.push({ ...first, message, evidence });
  }
  return out;
}

/**
 * The selection of the joined run: none when the shards narrowed nothing but themselves; else
 * the run's `--grep`/`--area` with what the shards selected together (the tests and requirements
 * every shard left out are those the run left out).
 */
function joinedSelection(selections: ReadonlyArray<Selection | undefined>): Selection | undefined {
  const first = selections[0];
  if (!first || (first.grep === undefined && !first.areas && !first.kinds)) return undefined;
  const inAll = (lists: string[][]): string[] => lists.reduce((a, b) => a.filter((x) => b.includes(x)));
  const given = selections.filter((s): s is Selection => s !== undefined);
  return {
    ...(first.grep !== undefined ? { grep: first.grep } : {}),
    ...(first.areas ? { areas: first.areas } : {}),
    ...(first.kinds ? { kinds: first.kinds } : {}),
    selected: given.reduce((n, s) => n + s.selected, 0),
    total: first.total,
    leftOutTests: inAll(given.map((s) => s.leftOutTests)),
    leftOut: inAll(given.map((s) => s.leftOut)),
  };
}

/** The results of the whole run, from the results of all its shards (`mergeProblems` must have found none). */
export async function mergeShards(given: readonly ShardRun[]): Promise<Results> {
  const shards = distinctIds([...given].sort((a, b) => a.results.run.shard!.current - b.results.run.shard!.current));
  const runs = shards.map((s) => s.results);
  const specShards = new Map<string, Set<string>>();
  for (const r of runs) for (const x of r.results) if (x.spec !== RUN_SPEC) specShards.set(x.spec ?? '', (specShards.get(x.spec ?? '') ?? new Set()).add(name(r)));
  const isShared = (x: CheckResult): boolean => (specShards.get(x.spec ?? '')?.size ?? 0) > 1;
  const records: TestRecord[] = runs.map((r, i) => ({
    results: r.results.filter((x) => x.spec !== RUN_SPEC && !isShared(x)),
    exchanges: r.exchanges,
    ...(r.evidence ? { evidence: r.evidence } : {}),
    ...(i === 0 && runs.some((s) => s.module) ? { module: runs.find((s) => s.module)!.module! } : {}),
  }));
  // Declared triggers no shard used: those every shard reports unused (declared = that, fired = none).
  const unused = runs.map((r) => r.coverage?.unusedTriggers ?? []).reduce((a, b) => a.filter((t) => b.includes(t)));
  records.push({
    results: combineShared(runs.flatMap((r) => r.results.filter(isShared).map((result) => ({ shard: name(r), result })))),
    exchanges: [],
    triggers: { declared: unused, fired: [] },
  });
  const aborted = runs.find((r) => r.run.outcome === 'aborted');
  const starts = runs.map((r) => Date.parse(r.run.startedAt));
  const startedAt = Math.min(...starts);
  const endedAt = Math.max(...runs.map((r, i) => starts[i]! + r.run.durationMs));
  const first = runs[0]!;
  const stop = runs.find((r) => r.run.moduleStop && (r.run.moduleStop.killed || r.run.moduleStop.childrenKilled || r.run.moduleStop.interrupted))?.run.moduleStop ?? first.run.moduleStop;
  const output = (aborted ?? first).run.moduleOutput;
  const selection = joinedSelection(runs.map((r) => r.run.selection));
  const results = await buildResults({
    records,
    brokenSpecs: [],
    startedAt: new Date(startedAt),
    durationMs: endedAt - startedAt,
    ...(aborted ? { aborted: `shard ${name(aborted)}: ${aborted.run.aborted ?? 'the run could not start'}` } : {}),
    profile: first.run.profile,
    ...(first.run.mode ? { mode: first.run.mode } : {}),
    ...(first.run.config ? { config: first.run.config } : {}),
    ...(stop ? { moduleStop: stop } : {}),
    ...(output ? { moduleOutput: output } : {}),
    ...(selection ? { selection } : {}),
    ...(first.run.generation ? { generation: first.run.generation } : {}),
  });
  const deadlines = runs.filter((r) => r.run.deadline);
  if (deadlines.length > 0) results.run.deadline = { runTimeoutMs: deadlines[0]!.run.deadline!.runTimeoutMs, reached: true, stopped: deadlines.reduce((n, r) => n + r.run.deadline!.stopped, 0) };
  const merged: MergedShard[] = shards.map((s) => ({ shard: name(s.results), dir: s.dir, startedAt: s.results.run.startedAt, durationMs: s.results.run.durationMs, outcome: s.results.run.outcome, summary: s.results.summary }));
  results.run.merged = { shards: merged };
  return results;
}

/** What the page says of a shard, or of a run joined from shards; empty for another run. */
export function shardsNote(run: Results['run']): string | undefined {
  if (run.merged) {
    const parts = run.merged.shards.map((s) => `${s.shard} (${s.dir}, ${(s.durationMs / 1000).toFixed(1)} s, ${s.outcome})`);
    return `Joined by conformance merge from ${run.merged.shards.length} shard${run.merged.shards.length === 1 ? '' : 's'}: ${parts.join(', ')}.`;
  }
  if (run.shard) return `Shard ${run.shard.current} of ${run.shard.total} of a run (conformance run --shard ${run.shard.current}/${run.shard.total}); conformance merge joins the shards' folders into the run's verdict.`;
  return undefined;
}
