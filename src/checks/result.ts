/** The result of applying a check: one row of `results.json` (schema `schemas/suite/results.json`). */

export type Severity = 'MUST' | 'SHOULD' | 'INFO';
export type Status = 'passed' | 'failed' | 'warning' | 'skipped' | 'notApplicable' | 'info';

export interface CheckResult {
  check: string;
  /** What was checked, in words. */
  title: string;
  requirements: string[];
  /** True when every requirement id is a wire-profile (`WIRE-`) id. */
  profile: boolean;
  severity: Severity;
  status: Status;
  /** What was checked -> received / expected -> requirement ids -> how to reproduce. */
  message: string;
  /** Exchange ids. */
  evidence: string[];
  /** A line that reproduces the case (curl, or a replay command). */
  reproduce?: string;
  /** The spec that applied the check. */
  spec?: string;
  /** A check applied over a property's generated cases: one result for all of them. */
  property?: PropertyStats;
}

/**
 * A property's run as one check result sees it: the generated cases it ran (one launch,
 * sequentially), how many this check held on, and for a failure the first failing case shrunk
 * to a minimal request, with the seed and fast-check's path that replay it exactly.
 */
export interface PropertyStats {
  /** The property: the callback and what it generates (`delivery.calculate: valid requests`). */
  property: string;
  /** The run's seed (config `generation.seed`, `--seed`). */
  seed: number;
  /** Cases asked for (`generation.runs`, `--runs`). */
  runs: number;
  /** Cases sent before the property ended (all of them, or fewer when its time budget ended). */
  cases: number;
  /** Of those, the cases on which this check held, did not hold, or did not apply. */
  passed: number;
  failed: number;
  notApplicable: number;
  /** The property's time budget, and true when it ended the property before `runs` cases. */
  timeLimitMs: number;
  budgetEnded: boolean;
  /** The first failing case, shrunk. */
  counterexample?: Counterexample;
}

export interface Counterexample {
  /** fast-check's replay path of the shrunk case (with `seed`). */
  path: string;
  /** The payload of the shrunk request, as sent (secrets redacted). */
  request: unknown;
  /** The exchange that carried the shrunk request. */
  exchange?: string;
  /** Shrink steps that kept the check failing. */
  shrinks: number;
  /** The saved failure (`failures/<check>.json` in the output folder), for `conformance replay`. */
  file?: string;
}

/** A worker's line on stdout that the console reporter shows as a property's progress (never a result). */
export const PROGRESS_PREFIX = '@@conformance-progress ';

export interface PropertyProgress {
  property: string;
  done: number;
  total: number;
  failing: number;
}

export interface ResultsSummary {
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  notApplicable: number;
  info: number;
}

export function summarize(results: readonly CheckResult[]): ResultsSummary {
  const s: ResultsSummary = { passed: 0, failed: 0, warnings: 0, skipped: 0, notApplicable: 0, info: 0 };
  for (const r of results) {
    if (r.status === 'warning') s.warnings += 1;
    else s[r.status] += 1;
  }
  return s;
}
