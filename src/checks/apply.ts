/**
 * Applying a check: the caller (a spec) gives the requirement ids and the severity. Ids must be
 * in the catalogue; a MUST rule that does not hold fails, a SHOULD rule warns. Profile checks
 * (all ids `WIRE-`) are skipped when the run uses the document alone.
 */
import { catalogue, isProfile } from '../contract/catalogue.ts';
import type { Check, Verdict } from './check.ts';
import type { CheckResult, Severity, Status } from './result.ts';
import type { Exchange } from '../evidence/exchange.ts';
import { curlNote } from '../evidence/curl.ts';

export interface Application {
  requirements: string[];
  severity: Severity;
  /**
   * Why this use's severity is not the catalogue level of its ids (stricter or looser); without
   * it the severity is the catalogue's (test/contract/catalogue.spec.ts holds every use to that).
   */
  levelReason?: string;
  /** Used for the "Reproduce" line when the verdict names no exchange with a curl line. */
  reproduce?: string;
}

/**
 * One row of an area's application table (`src/checks/<area>/applications.ts`): which check is
 * applied to what (`to`: a property's name, or the name of a judgement of calls, of a session or
 * of a spec), with its requirement ids and severity. The tables are the only place ids and
 * severity are attached to a check; everything that applies, lists, replays or covers a check
 * reads a row.
 */
export interface Row<S = never> extends Application {
  to: string;
  check: Check<S>;
  /** The row is applied to the generated cases of the property named `to` (`src/properties/run.ts`). */
  property?: true;
  /** Applies in this reading of the run only (`true`: with the wire profile, `false`: the document alone; some ids differ by it); absent: both. */
  reading?: boolean;
}

/** A row before its table says what it is applied to. */
export type Use<S = never> = Omit<Row<S>, 'to' | 'property'>;

/** A use of a check with its ids and severity (MUST unless said). */
export function use<S>(check: Check<S>, requirements: readonly string[], severity: Severity = 'MUST', more: { levelReason?: string; reading?: boolean; reproduce?: string } = {}): Use<S> {
  return { check, requirements: [...requirements], severity, ...more };
}

/** The rows of uses applied to one property or judgement. */
export function applyTo<S>(to: string, uses: ReadonlyArray<Use<S>>): Row<S>[] {
  return uses.map((u) => ({ ...u, to }));
}

/** The rows of uses applied to a property's generated cases (`to`: the property's name). */
export function forProperty<S>(property: string, uses: ReadonlyArray<Use<S>>): Row<S>[] {
  return uses.map((u) => ({ ...u, to: property, property: true }));
}

/** One row. */
export function row<S>(to: string, check: Check<S>, requirements: readonly string[], severity: Severity = 'MUST', more: { levelReason?: string; reading?: boolean; reproduce?: string } = {}): Row<S> {
  return { to, ...use(check, requirements, severity, more) };
}

/** The rows applied to `to`, in table order; with `reading`, only those of that reading of the run. */
export function rowsTo<R extends Row<never>>(rows: readonly R[], to: string, reading?: boolean): R[] {
  return rows.filter((r) => r.to === to && (reading === undefined || r.reading === undefined || r.reading === reading));
}

/** The requirement ids of rows (what a test that applies them can credit). */
export const idsOfRows = (rows: ReadonlyArray<{ requirements: readonly string[] }>): string[] => [...new Set(rows.flatMap((r) => r.requirements))];

/** The application of a row (ids, severity, level reason, reproduce line). */
export function appOf(r: Application): Application {
  return { requirements: [...r.requirements], severity: r.severity, ...(r.levelReason ? { levelReason: r.levelReason } : {}), ...(r.reproduce ? { reproduce: r.reproduce } : {}) };
}

/**
 * A result the suite records without running the check on a subject: a check not run (skipped,
 * not applicable), or a suite rule whose verdict the run itself gives. Check, title, ids and
 * severity come from the check and its application (a row).
 */
export function recordedResult(check: Pick<Check<never>, 'name' | 'checks'>, app: Application, result: { status: Status; message: string; spec?: string; evidence?: string[] }): CheckResult {
  return {
    check: check.name,
    title: check.checks,
    requirements: [...app.requirements],
    profile: app.requirements.length > 0 && app.requirements.every(isProfile),
    severity: app.severity,
    status: result.status,
    message: result.message,
    evidence: result.evidence ?? [],
    ...(result.spec !== undefined ? { spec: result.spec } : {}),
  };
}

export interface ApplyContext {
  /** False when profile (`WIRE-`) checks are off. */
  profile: boolean;
  exchange(id: string): Exchange | undefined;
  spec?: string;
}

function status(verdict: Verdict, severity: Severity): Status {
  switch (verdict.outcome) {
    case 'pass':
      return 'passed';
    case 'skip':
      return 'skipped';
    case 'notApplicable':
      return 'notApplicable';
    case 'fail':
      return severity === 'MUST' ? 'failed' : severity === 'SHOULD' ? 'warning' : 'info';
  }
}

export function message(check: Check<never>, verdict: Verdict, app: Application, reproduce: string | undefined): string {
  const lines = [`Checked: ${check.checks}.`];
  if (verdict.outcome === 'fail') {
    lines.push(`Received: ${verdict.received ?? '(nothing)'}`, `Expected: ${verdict.expected ?? ''}`);
  } else if (verdict.detail) {
    lines.push(`${verdict.outcome === 'pass' ? 'Held' : verdict.outcome === 'skip' ? 'Skipped' : 'Not applicable'}: ${verdict.detail}`);
  }
  lines.push(`Requirements: ${app.requirements.join(', ') || '(suite rule)'} (${app.severity}${app.levelReason ? `: ${app.levelReason}` : ''})`);
  if (verdict.outcome === 'fail' && reproduce) {
    lines.push(`Reproduce with: ${reproduce}`);
    const note = curlNote(reproduce);
    if (note) lines.push(note);
  }
  else if (verdict.outcome === 'fail' && verdict.evidence?.length) lines.push(`Evidence: exchange ${verdict.evidence.join(', ')}`);
  return lines.join('\n');
}

export async function apply<S>(check: Check<S>, subject: S, app: Application, ctx: ApplyContext): Promise<CheckResult> {
  for (const id of app.requirements) catalogue().get(id); // an id the catalogue lacks is a defect of the suite
  const profile = app.requirements.length > 0 && app.requirements.every(isProfile);
  let verdict: Verdict;
  if (profile && !ctx.profile) {
    verdict = { outcome: 'skip', detail: 'profile checks are off (the run uses the document alone)' };
  } else {
    try {
      verdict = await check.run(subject);
    } catch (e) {
      verdict = { outcome: 'fail', received: `the check could not run: ${(e as Error).message}`, expected: 'a module reply the check can read' };
    }
  }
  const evidence = verdict.evidence ?? [];
  // A curl line reproduces the case only when it is a request the suite sent to the module.
  const reproduce =
    evidence
      .map((id) => ctx.exchange(id))
      .filter((x) => x !== undefined && (x.direction === 'system->module' || x.direction === 'gateway->module'))
      .map((x) => x!.curl)
      .find((c) => c !== undefined) ?? app.reproduce;
  return {
    check: check.name,
    title: check.checks,
    requirements: app.requirements,
    profile,
    severity: app.severity,
    status: status(verdict, app.severity),
    message: message(check as Check<never>, verdict, app, reproduce),
    evidence,
    ...(reproduce ? { reproduce } : {}),
    ...(ctx.spec ? { spec: ctx.spec } : {}),
  };
}
