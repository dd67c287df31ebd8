/**
 * What a run tested, against what applies to the module: the testable requirements of the
 * catalogue whose area the module's declared kinds cover (REG and GEN apply to every module,
 * `WIRE-X` as `X`), how many were tested (a check result credited them passed, failed or
 * warning), how many passed, and why the others were not tested. A PASS says what it rests on.
 */
import { areaOf, catalogue, isProfile, type Area, type Requirement } from '../contract/catalogue.ts';
import type { CheckResult } from '../checks/result.ts';

/** The module kind an area's requirements apply to; `null`: every module. */
export const AREA_KIND: Record<Area, string | null> = {
  REG: null,
  GEN: null,
  TEL: 'telephony',
  DLV: 'delivery',
  PAY: 'payment',
  TRN: 'mgTransport',
  BOT: 'mgBot',
};

export type Verdict = 'CONFORMANT' | 'PASS' | 'FAIL';

/** How a run was narrowed: a `--grep` pattern as typed, the areas of `--area` (registration among them), a shard, or more of them. */
export interface Narrowing {
  grep?: string;
  areas?: readonly string[];
  /** The module kinds of `--kind` (src/cli/kinds.ts). */
  kinds?: readonly string[];
  /** `--shard I/N` (`2/3`): one shard of a run (`conformance merge` joins them). */
  shard?: string;
}

/** The narrowing as a command line says it: `--area registration,delivery --grep "tracking"`. */
export function narrowingText(n: Narrowing): string {
  return [...(n.areas ? [`--area ${n.areas.join(',')}`] : []), ...(n.kinds ? [`--kind ${n.kinds.join(',')}`] : []), ...(n.grep !== undefined ? [`--grep ${JSON.stringify(n.grep)}`] : []), ...(n.shard ? [`--shard ${n.shard}`] : [])].join(' ');
}

/** Requirement ids of one reason for not being tested. */
export interface CoverageGroup {
  count: number;
  ids: string[];
}

export interface Coverage {
  /** CONFORMANT only when every applicable requirement was tested and passed, and no MUST check failed. */
  verdict: Verdict;
  kinds: string[];
  profile: boolean;
  /** MUST checks that failed (suite rules included): what makes the verdict FAIL. */
  failedChecks: number;
  /** Of `failedChecks`, those that credit no applicable requirement: the suite's own rules (the module answered, something reached it). */
  failedRules: number;
  /** Testable requirements that apply to the module's kinds (and, with `--no-profile`, are not `WIRE-`). */
  applicable: number;
  tested: number;
  passed: number;
  failed: number;
  warned: number;
  notTested: number;
  /** Tested requirements that did not pass. */
  failedIds: string[];
  warnedIds: string[];
  /** Why the applicable requirements that were not tested were not; the counts add up to `notTested`. */
  groups: {
    /** Its only results were skipped for an undeclared trigger. */
    needsTrigger: CoverageGroup & { triggers: string[] };
    /** Skipped for another reason (a trigger that failed, a flow that did not happen). */
    skipped: CoverageGroup;
    /** All its results were not applicable: the module did not send the field or exercise the case. */
    notApplicable: CoverageGroup;
    /** No check of the suite credits it. */
    notCovered: CoverageGroup;
    /** Only tests the run's `--grep` or `--area` did not select cover it (a narrowed run). */
    leftOut: CoverageGroup;
  };
  /** A run narrowed by `--grep`, `--area` or both: never CONFORMANT, whatever it tested. */
  narrowed?: Narrowing & { selected: number; total: number };
  /** Triggers the configuration declares that no check of the run used: what was not tried. */
  unusedTriggers: string[];
  /** `WIRE-` requirements of the module's kinds, not applicable to a run on the document alone. */
  profileOff: CoverageGroup;
  /** The rest of the catalogue, out of this run's scope. */
  catalogue: { total: number; notTestable: number; otherKinds: number };
}

export interface CoverageInput {
  results: readonly CheckResult[];
  kinds: readonly string[];
  profile: boolean;
  /** MUST checks that failed in the run. */
  failedChecks: number;
  entries: readonly Requirement[];
  /** A narrowed run: the requirement ids only the tests it left out cover. */
  selection?: Narrowing & { selected: number; total: number; leftOut: readonly string[] };
  /** Declared triggers the run never fired. */
  unusedTriggers?: readonly string[];
}

const TRIGGER = /needs trigger ([\w.-]+)/;

const group = (ids: string[]): CoverageGroup => ({ count: ids.length, ids });

/**
 * True when the requirement applies to a module of these kinds: its area's kind, or, where the
 * catalogue names the kinds a statement binds (a GEN method of a payment endpoint), one of those.
 */
export function appliesTo(id: string, kinds: readonly string[], entry: Pick<Requirement, 'kinds'> | undefined = catalogue().has(id) ? catalogue().get(id) : undefined): boolean {
  if (entry?.kinds) return entry.kinds.some((k) => kinds.includes(k));
  const kind = AREA_KIND[areaOf(id)];
  return kind === null || kinds.includes(kind);
}

export function computeCoverage(input: CoverageInput): Coverage {
  const byId = new Map<string, CheckResult[]>();
  for (const r of input.results) {
    for (const id of r.requirements) {
      const list = byId.get(id);
      if (list) list.push(r);
      else byId.set(id, [r]);
    }
  }

  let notTestable = 0;
  let otherKinds = 0;
  const applicable: string[] = [];
  const profileOff: string[] = [];
  for (const e of input.entries) {
    if (!e.testable) notTestable += 1;
    else if (!appliesTo(e.id, input.kinds, e)) otherKinds += 1;
    else if (!input.profile && isProfile(e.id)) profileOff.push(e.id);
    else applicable.push(e.id);
  }

  const tested: string[] = [];
  const passed: string[] = [];
  const failed: string[] = [];
  const warned: string[] = [];
  const needsTrigger: string[] = [];
  const triggers = new Set<string>();
  const skipped: string[] = [];
  const notApplicable: string[] = [];
  const notCovered: string[] = [];
  const leftOut: string[] = [];
  const outOfSelection = new Set(input.selection?.leftOut ?? []);
  for (const id of applicable) {
    const rs = byId.get(id) ?? [];
    const judged = rs.filter((r) => r.status === 'passed' || r.status === 'failed' || r.status === 'warning');
    if (judged.length > 0) {
      tested.push(id);
      if (judged.some((r) => r.status === 'failed')) failed.push(id);
      else if (judged.some((r) => r.status === 'warning')) warned.push(id);
      else passed.push(id);
      continue;
    }
    if (outOfSelection.has(id)) {
      leftOut.push(id);
      continue;
    }
    const skips = rs.filter((r) => r.status === 'skipped');
    const forTrigger = skips.map((r) => TRIGGER.exec(r.message)?.[1]);
    if (skips.length > 0 && forTrigger.every((t) => t !== undefined)) {
      needsTrigger.push(id);
      for (const t of forTrigger) triggers.add(t!);
    } else if (skips.length > 0) skipped.push(id);
    else if (rs.some((r) => r.status === 'notApplicable')) notApplicable.push(id);
    // Only informational results, or none: no check of the suite tests it.
    else notCovered.push(id);
  }

  const applicableIds = new Set(applicable);
  const failedOfRequirements = input.results.filter((r) => r.status === 'failed' && r.requirements.some((id) => applicableIds.has(id))).length;
  const allPassed = applicable.length > 0 && passed.length === applicable.length;
  const verdict: Verdict = input.failedChecks > 0 ? 'FAIL' : allPassed && !input.selection ? 'CONFORMANT' : 'PASS';
  return {
    verdict,
    kinds: [...input.kinds],
    profile: input.profile,
    failedChecks: input.failedChecks,
    failedRules: Math.max(0, input.failedChecks - failedOfRequirements),
    applicable: applicable.length,
    tested: tested.length,
    passed: passed.length,
    failed: failed.length,
    warned: warned.length,
    notTested: applicable.length - tested.length,
    failedIds: failed,
    warnedIds: warned,
    groups: {
      needsTrigger: { ...group(needsTrigger), triggers: [...triggers].sort() },
      skipped: group(skipped),
      notApplicable: group(notApplicable),
      notCovered: group(notCovered),
      leftOut: group(leftOut),
    },
    ...(input.selection
      ? {
          narrowed: {
            ...(input.selection.grep !== undefined ? { grep: input.selection.grep } : {}),
            ...(input.selection.areas ? { areas: [...input.selection.areas] } : {}),
            ...(input.selection.kinds ? { kinds: [...input.selection.kinds] } : {}),
            ...(input.selection.shard ? { shard: input.selection.shard } : {}),
            selected: input.selection.selected,
            total: input.selection.total,
          },
        }
      : {}),
    unusedTriggers: [...(input.unusedTriggers ?? [])].sort(),
    profileOff: group(profileOff),
    catalogue: { total: input.entries.length, notTestable, otherKinds },
  };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * What failed, counted as the rest of the line counts: requirements (a MUST check that failed
 * fails each applicable requirement it credits), and the suite rules that failed beside them.
 */
function failedText(c: Coverage): string {
  const rules = c.failedRules ?? 0;
  const parts = [...(c.failed > 0 ? [plural(c.failed, 'requirement', 'requirements')] : []), ...(rules > 0 ? [plural(rules, 'suite rule', 'suite rules')] : [])];
  return parts.length > 0 ? parts.join(' and ') : plural(c.failedChecks, 'MUST check', 'MUST checks');
}

/**
 * The verdict in one line, e.g. `PASS (no MUST failure) — 47 of 212 applicable requirements
 * tested, 47 passed; 165 not tested: 12 need a trigger (delivery.tracking), 150 not yet covered
 * by the suite, 3 not applicable`. CONFORMANT only when nothing applicable went untested and
 * the run was not narrowed; a narrowed run says so first, and what its selection left out.
 */
export function verdictText(c: Coverage): string {
  const off = c.profileOff.count > 0 ? `; ${plural(c.profileOff.count, 'profile requirement', 'profile requirements')} not applicable to a run on the document alone (--no-profile)` : '';
  const unused = c.unusedTriggers.length > 0 ? `; declared ${c.unusedTriggers.length === 1 ? 'trigger' : 'triggers'} never used${c.narrowed ? ' by the selected tests' : ''}: ${c.unusedTriggers.join(', ')}` : '';
  if (c.verdict === 'CONFORMANT') return `CONFORMANT — all ${c.applicable} applicable requirements tested and passed${off}${unused}`;
  const narrowed = c.narrowed ? ` in a run narrowed by ${narrowingText(c.narrowed)} (${c.narrowed.selected} of ${c.narrowed.total} conformance tests)` : '';
  const head = c.verdict === 'FAIL' ? `FAIL (${failedText(c)} failed)${narrowed}` : `PASS (no MUST failure)${narrowed}`;
  const tested = [`${c.passed} passed`, ...(c.failed > 0 ? [`${c.failed} failed`] : []), ...(c.warned > 0 ? [`${c.warned} warned (SHOULD)`] : [])];
  const g = c.groups;
  const why = [
    ...(g.leftOut.count > 0 ? [`${g.leftOut.count} left out by the selection`] : []),
    ...(g.needsTrigger.count > 0 ? [`${g.needsTrigger.count} ${g.needsTrigger.count === 1 ? 'needs' : 'need'} a trigger (${g.needsTrigger.triggers.join(', ')})`] : []),
    ...(g.skipped.count > 0 ? [`${g.skipped.count} skipped`] : []),
    ...(g.notCovered.count > 0 ? [`${g.notCovered.count} not yet covered by the suite`] : []),
    ...(g.notApplicable.count > 0 ? [`${g.notApplicable.count} not applicable`] : []),
  ];
  const untested = c.notTested > 0 ? `; ${c.notTested} not tested: ${why.join(', ')}` : '';
  return `${head} — ${c.tested} of ${plural(c.applicable, 'applicable requirement', 'applicable requirements')} tested, ${tested.join(', ')}${untested}${off}${unused}`;
}
