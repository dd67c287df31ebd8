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
