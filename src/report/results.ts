/**
 * Builds `results.json` from the records the conformance tests attached: the check results,
 * the run-level verdict (no silent passes), and the requirement table of the whole catalogue,
 * each requirement with its checks and status, or the reason it is untested.
 */
import { areaOf, catalogue, isProfile, type Requirement } from '../contract/catalogue.ts';
import { suiteIdentity, type SuiteIdentity } from '../contract/suite.ts';
import { apply, appOf, recordedResult } from '../checks/apply.ts';
import { RUN_RULES } from '../checks/run/applications.ts';
import { summarize, type CheckResult, type PropertyStats, type ResultsSummary } from '../checks/result.ts';
import type { Exchange } from '../evidence/exchange.ts';
import { mergeEndpoints } from '../evidence/endpoints.ts';
import type { RunEvidence, TestRecord } from '../run/conformance.ts';
import { AREA_KIND, appliesTo, computeCoverage, narrowingText, type Coverage } from './coverage.ts';
import type { ModuleStop } from '../module/launcher.ts';
import type { ModuleOutput } from '../module/output-tail.ts';
import type { ResolvedConfig, Selection, ShardInfo } from '../module/config.ts';

/** The generation settings of a run: seed, cases per property, a property's time budget. */
export type Generation = ResolvedConfig['generation'];

export type RequirementStatus = 'passed' | 'failed' | 'warning' | 'skipped' | 'notApplicable' | 'untested';

export interface RequirementRow {
  id: string;
  level: Requirement['level'];
  actor: Requirement['actor'];
  section: string;
  quote: string;
  status: RequirementStatus;
  checks: string[];
  reason?: string;
  /** It applies to the run (counted in `coverage.applicable`); absent when the run was aborted. */
  applicable?: boolean;
}

export interface Results {
  suite: { name: string; version: string };
  run: {
    /**
     * The suite that made the run: its name, version and the SHA-256 of the contract document
     * (what `conformance --version` prints). Absent in results written before it was recorded.
     */
    suite?: SuiteIdentity;
    startedAt: string;
    durationMs: number;
    outcome: 'passed' | 'failed' | 'aborted';
    aborted?: string;
    mode?: string;
    config?: string;
    profile: boolean;
    /** Launch mode: how the run stopped the module's processes (SIGTERM, SIGKILL after the grace period). */
    moduleStop?: ModuleStop;
    /**
     * Launch mode: the end of what the module printed on stdout and stderr during the whole run
     * (an aborted run included), secrets redacted; the files `module.stdout.log` and
     * `module.stderr.log` hold more of it.
     */
    moduleOutput?: ModuleOutput;
    /** A run narrowed by `--grep`: the pattern, the tests selected of all, the tests and the requirements left out. */
    selection?: Selection;
    /** Present when the run reached its deadline (`runTimeoutMs`): how many tests it stopped or never started. */
    deadline?: { runTimeoutMs: number; reached: boolean; stopped: number };
    /** The seed of every generated request of the run (config `generation.seed`, `--seed`): with it, the run's cases again. */
    seed?: number;
    /** Generated requests: the seed, the cases per property (`--runs`) and a property's time budget. */
    generation?: Generation;
    /** One shard of a run (`conformance run --shard I/N`): which, and what must be alike in every shard. */
    shard?: ShardInfo;
    /** A run joined from its shards by `conformance merge` (src/report/merge.ts): each shard's folder and how it went. */
    merged?: { shards: MergedShard[] };
  };
  module: TestRecord['module'] | null;
  summary: ResultsSummary;
  /** What the run tested against what applies to the module (absent when the run was aborted). */
  coverage?: Coverage;
  results: CheckResult[];
  requirements: RequirementRow[];
  /**
   * What the run saw, beside the checks: per endpoint every exchange counted (the `exchanges`
   * are those kept whole), and per gateway token its peak rate and what it did after its 429s.
   */
  evidence?: RunEvidence;
  exchanges: Exchange[];
}

export interface BuildInput {
  records: TestRecord[];
  /** Tests that ended in error without a record of checks (a spec that broke). */
  brokenSpecs: Array<{ title: string; error: string }>;
  startedAt: Date;
  durationMs: number;
  aborted?: string;
  profile: boolean;
  mode?: string;
  config?: string;
  moduleStop?: ModuleStop;
  moduleOutput?: ModuleOutput;
  /** A run narrowed by `--grep`: what it selected and left out. */
  selection?: Selection;
  /** The run's generation settings (`generation` of the resolved configuration). */
  generation?: Generation;
  /** `--shard I/N`: the shard this run is. */
  shard?: ShardInfo;
}

/** A shard a merged run was joined from. */
export interface MergedShard {
  shard: string;
  dir: string;
  startedAt: string;
  durationMs: number;
  outcome: Results['run']['outcome'];
  /** The shard's own check tally. */
  summary: ResultsSummary;
}

const ORDER: RequirementStatus[] = ['failed', 'warning', 'passed', 'skipped', 'notApplicable'];

/** Why a requirement no check credited is untested. */
function untestedReason(e: Requirement, scope?: { kinds: readonly string[]; profile: boolean }): string {
  if (!e.testable) return `not testable: ${e.reason ?? ''}`;
  if (scope && !appliesTo(e.id, scope.kinds, e)) return `does not apply: the module does not declare ${(e.kinds ?? [AREA_KIND[areaOf(e.id)]]).join(' or ')}`;
  if (scope && !scope.profile && isProfile(e.id)) return 'profile requirement: the run uses the document alone (--no-profile)';
  return 'no check of the suite covers it yet';
}

/** The results that credit each requirement id, in the order of the results (linear: one push per id of a result). */
export function groupByRequirement(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const byId = new Map<string, CheckResult[]>();
  for (const r of results) {
    for (const id of r.requirements) {
      const rs = byId.get(id);
      if (rs) rs.push(r);
      else byId.set(id, [r]);
    }
  }
  return byId;
}

/**
 * The whole catalogue, each requirement with its checks and status, or the reason it is
 * untested; with `scope` (the module's kinds and the profile setting) the reason says when a
 * requirement does not apply to the run.
 */
export function requirementTable(results: readonly CheckResult[], scope?: { kinds: readonly string[]; profile: boolean }): RequirementRow[] {
  const byId = groupByRequirement(results);
  return catalogue().entries.map((e) => {
    const rs = byId.get(e.id) ?? [];
    const applicable = scope ? { applicable: e.testable && appliesTo(e.id, scope.kinds, e) && (scope.profile || !isProfile(e.id)) } : {};
    const base = { id: e.id, level: e.level, actor: e.actor, section: e.section, quote: e.quote, checks: [...new Set(rs.map((r) => r.check))], ...applicable };
    if (rs.length === 0) return { ...base, status: 'untested' as const, reason: untestedReason(e, scope) };
    const statuses = new Set(rs.map((r) => (r.status === 'info' ? 'passed' : r.status)) as RequirementStatus[]);
    const status = ORDER.find((s) => statuses.has(s)) ?? 'skipped';
    return { ...base, status };
  });
}

export async function buildResults(input: BuildInput): Promise<Results> {
  const results = input.records.flatMap((r) => r.results);
  const seen = new Set<string>();
  const exchanges = input.records.flatMap((r) => r.exchanges).filter((x) => (seen.has(x.id) ? false : (seen.add(x.id), true)));
  // ISO times of one format: compared as text (a stable sort keeps the order of equal times).
  exchanges.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  const exchangeById = new Map(exchanges.map((x) => [x.id, x]));
  const module = input.records.find((r) => r.module)?.module ?? null;
  const evidenced = input.records.filter((r) => r.evidence);
  const evidence: RunEvidence | undefined =
    evidenced.length > 0 ? { endpoints: mergeEndpoints(evidenced.map((r) => r.evidence!.endpoints)), gateway: evidenced.flatMap((r) => r.evidence!.gateway) } : undefined;

  if (!input.aborted) {
    for (const b of input.brokenSpecs) {
      const rule = RUN_RULES.specBroke;
      const message = `Checked: the conformance spec "${b.title}" ran to its end.\nReceived: ${b.error}\nExpected: a spec that completes; a broken spec proves nothing\nRequirements: (suite rule) (${rule.severity})`;
      results.push(recordedResult(rule.check, rule, { status: 'failed', message, spec: b.title }));
    }
    // No silent passes: judged over every exchange of the run. Only a --grep can leave out every
    // test that sends a callback (an --area run always runs the registration area's activity spec).
    // A shard (--shard) may hold no test that calls the module: the merge judges the whole run's exchanges.
    const { grep, shard } = input.selection ?? {};
    const narrowed = grep !== undefined || shard ? narrowingText({ ...(grep !== undefined ? { grep } : {}), ...(shard ? { shard } : {}) }) : undefined;
    results.push(
      await apply(RUN_RULES.moduleReached.check, { exchanges, ...(narrowed ? { narrowed } : {}) }, appOf(RUN_RULES.moduleReached), {
        profile: input.profile,
        exchange: (id) => exchangeById.get(id),
        spec: 'run',
      }),
    );
  }
  const triggers = input.records.find((r) => r.triggers)?.triggers;
  const summary = summarize(results);
  const outcome = input.aborted ? 'aborted' : summary.failed > 0 ? 'failed' : 'passed';
  const suite = suiteIdentity();
  return {
    suite: { name: suite.name, version: suite.version },
    run: {
      suite,
      startedAt: input.startedAt.toISOString(),
      durationMs: Math.round(input.durationMs),
      outcome,
      ...(input.aborted ? { aborted: input.aborted } : {}),
      ...(input.mode ? { mode: input.mode } : {}),
      ...(input.config ? { config: input.config } : {}),
      profile: input.profile,
      ...(input.moduleStop ? { moduleStop: input.moduleStop } : {}),
      ...(input.moduleOutput ? { moduleOutput: input.moduleOutput } : {}),
      ...(input.selection ? { selection: input.selection } : {}),
      ...(input.generation ? { seed: input.generation.seed, generation: { ...input.generation } } : {}),
      ...(input.shard ? { shard: input.shard } : {}),
    },
    module,
    summary,
    ...(input.aborted
      ? {}
      : {
          coverage: computeCoverage({
            results,
            kinds: module?.kinds ?? [],
            profile: input.profile,
            failedChecks: summary.failed,
            entries: catalogue().entries,
            ...(input.selection ? { selection: input.selection } : {}),
            ...(triggers ? { unusedTriggers: triggers.declared.filter((t) => !triggers.fired.includes(t)) } : {}),
          }),
        }),
    results,
    requirements: requirementTable(results, input.aborted ? undefined : { kinds: module?.kinds ?? [], profile: input.profile }),
    ...(evidence ? { evidence } : {}),
    exchanges,
  };
}

/** One line per endpoint and per gateway token: what the run saw beside the checks. */
export function evidenceLines(evidence: RunEvidence | undefined): string[] {
  if (!evidence) return [];
  const kb = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
  return [
    ...evidence.endpoints.map((e) => {
      const statuses = Object.entries(e.statuses).map(([code, n]) => `${code}×${n}`).join(', ');
      return `${e.endpoint}: ${e.count} exchange(s)${e.dropped > 0 ? `, ${e.kept} kept whole, ${e.dropped} summarised` : ''}, ${kb(e.bytes)}, peak ${e.peakPerSecond}/s, ${statuses} (${e.firstAt} to ${e.lastAt})`;
    }),
    ...evidence.gateway.map(
      (t) => `gateway token ${t.token}${t.clientId ? ` (${t.clientId})` : ''}: ${t.requests} request(s), peak ${t.peakPerSecond}/s, ${t.tooManyRequests} answered 429; ${t.afterTooMany}`,
    ),
  ];
}

/** One sentence on how the module's processes were stopped, when something had to be killed or the run was interrupted; undefined otherwise. */
export function moduleStopText(stop: ModuleStop | undefined): string | undefined {
  if (!stop) return undefined;
  const parts: string[] = [];
  if (stop.killed) parts.push(`the module did not end on SIGTERM and was killed (SIGKILL) after ${stop.graceMs} ms`);
  if (stop.childrenKilled) parts.push(`processes it started were still running after ${stop.graceMs} ms and were killed (SIGKILL to its process group)`);
  if (stop.interrupted) parts.push(`the run was interrupted (${stop.interrupted}) and stopped the module`);
  return parts.length > 0 ? `${parts.join('; ')}.` : undefined;
}

/**
 * The `conformance replay` line of a saved failure: its file as results.json names it (relative
 * to the output folder, where the reports are) and the run's configuration file, if it had one.
 */
export function replayCommand(file: string, run: Pick<Results['run'], 'config'>): string {
  const quote = (s: string): string => (/^[\w./:@=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return `conformance replay ${quote(file)}${run.config ? ` --config ${quote(run.config)}` : ''}`;
}

/** A property's cases as one check saw them: `100 of 100 generated case(s): 19 passed, 81 failed, 0 not applicable; seed 11`. */
export function propertyCasesText(p: PropertyStats): string {
  const budget = p.budgetEnded ? `; the time budget (${p.timeLimitMs} ms) ended it` : '';
  return `${p.cases} of ${p.runs} generated case(s): ${p.passed} passed, ${p.failed} failed, ${p.notApplicable} not applicable; seed ${p.seed}${budget}`;
}

/**
 * The check results of a run in one line, counted the same way everywhere (console, page,
 * results.json's `summary`): every result, the run-level rules with the others.
 */
export function summaryText(s: ResultsSummary): string {
  return `checks: ${s.passed} passed, ${s.failed} failed, ${s.warnings} warnings, ${s.skipped} skipped, ${s.notApplicable} not applicable, ${s.info} info`;
}
