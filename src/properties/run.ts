/**
 * Runs a property: N generated cases sent to the module one after the other (one launch), each
 * judged by the property's checks, and ONE result per check over all of them: cases run, cases
 * on which it held, and for a failure its first failing case shrunk to a minimal request (with
 * the seed and fast-check's path that replay it exactly) and saved for `conformance replay`.
 * `fc.check` is used, never a throwing assertion: a check that does not hold never fails the
 * Playwright test (that would relaunch the module).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { Application } from '../checks/apply.ts';
import type { Check, Verdict } from '../checks/check.ts';
import { PROGRESS_PREFIX, type CheckResult, type PropertyProgress, type PropertyStats } from '../checks/result.ts';
import type { Conformance } from '../run/conformance.ts';
import { ENV_CONFIG, outDir } from '../run/environment.ts';
import type { CaseOutcome, GeneratedCase, SavedFailure } from '../checks/case.ts';
import type { RunSession } from '../run/session.ts';
import { fillAcceptance, type AcceptedCalls } from '../checks/callbacks/acceptance.ts';

/** A property's exec that sends each case as generated, with the module's clientId. */
export const sendAsIs =
  (session: RunSession) =>
  async (c: GeneratedCase, caseId: string): Promise<CaseOutcome> => ({ case: c, reply: await session.send(c.callback, c.payload, { clientId: session.clientId(), case: caseId }), module: session.registration!.module, profile: session.config.profile });

export interface PropertyCheck {
  check: Check<CaseOutcome>;
  app: Application;
}

export interface PropertySpec {
  /** `delivery.calculate: valid requests`. */
  name: string;
  /** Short name for case ids (`calculate-valid`): exchanges carry `<id>#<n>`. */
  id: string;
  arbitrary: fc.Arbitrary<GeneratedCase>;
  checks: PropertyCheck[];
  /** Sends one case and returns what the module answered. */
  exec(c: GeneratedCase, caseId: string): Promise<CaseOutcome>;
  /**
   * The cases are independent: each sends only what names its own deliveries, invoices,
   * templates, channels or chats, and is judged on what the module answered it, so that up to
   * `generation.lanes` of them may be in flight at once. Unset: one case after the other.
   */
  independent?: boolean;
}

export interface Generation {
  seed: number;
  runs: number;
  timeLimitMs: number;
  /** Cases in flight at once for an independent property (default 1). */
  lanes?: number;
}

interface Tally {
  passed: number;
  failed: number;
  notApplicable: number;
  /** The index of the first failing case, its outcome and verdict. */
  first?: { index: number; outcome: CaseOutcome; verdict: Verdict };
  /** Why the first case that did not exercise the check did not (its verdict's detail): the first that says why, else the first. */
  firstNotApplicable?: { index: number; detail: string };
  /** The first case that did not exercise it and says why. */
  firstReason?: { index: number; detail: string };
}

/** Not-applicable details that say no more than that nothing was judged: a later case's reason is shown instead. */
const NO_REASON = new Set(['no step of the sequence exercised it', 'not exercised']);

/** Writes a progress line the console reporter shows (never a result); only in a conformance run, whose console reads it. */
function progress(p: PropertyProgress): void {
  if (process.env[ENV_CONFIG] === undefined) return;
  process.stdout.write(`${PROGRESS_PREFIX}${JSON.stringify(p)}\n`);
}

const fileName = (check: string, property: string): string => `${check}.${property.replace(/[^A-Za-z0-9.-]+/g, '-')}.json`;

/** Runs the property and records one result per check; returns them. */
export async function runProperty(conformance: Conformance, spec: PropertySpec, gen: Generation): Promise<CheckResult[]> {
  const profile = conformance.session.config.profile;
  // Profile checks (all ids WIRE-) are not run by the document alone: `apply` records them skipped.
  const active = spec.checks.filter((c) => profile || !(c.app.requirements.length > 0 && c.app.requirements.every((id) => id.startsWith('WIRE-'))));
  const tallies = new Map<PropertyCheck, Tally>(active.map((c) => [c, { passed: 0, failed: 0, notApplicable: 0 }]));
  const started = Date.now();
  let index = 0;
  let lastProgress = 0;
  const judge = async (c: PropertyCheck, outcome: CaseOutcome): Promise<Verdict> => {
    try {
      return await c.check.run(outcome);
    } catch (e) {
      return { outcome: 'fail', received: `the check could not run: ${(e as Error).message}`, expected: 'a module reply the check can read' };
    }
  };

  // Phase 1: every case, every check; nothing stops the run but the time budget. Cases are
  // generated one after the other, in order (fast-check's path is the case's index); an
  // independent property has up to `lanes` of them in flight, each judged when it ends, and the
  // tallies keep what one case after the other gives (the first failing case is the lowest).
  const lanes = spec.independent ? Math.max(1, gen.lanes ?? 1) : 1;
  const inFlight = new Set<Promise<void>>();
  const runCase = async (c: GeneratedCase, i: number): Promise<void> => {
    // A refusal is credited only when the same call with the clientId was accepted in the run, before this case (`acceptance.ts`).
    const outcome = fillAcceptance(await spec.exec(c, `${spec.id}#${i}`), conformance.session.accepted, { property: spec.id, index: i });
    for (const pc of active) {
      const v = await judge(pc, outcome);
      const t = tallies.get(pc)!;
      if (v.outcome === 'fail') {
        t.failed += 1;
        if (!t.first || i < t.first.index) t.first = { index: i, outcome, verdict: v };
      } else if (v.outcome === 'pass') t.passed += 1;
      else {
        t.notApplicable += 1;
        const detail = v.detail ?? '';
        if (!t.firstNotApplicable || i < t.firstNotApplicable.index) t.firstNotApplicable = { index: i, detail };
        // A step-over rule with no step to judge says nothing more: a later case's reason is shown.
        if (!NO_REASON.has(detail) && (!t.firstReason || i < t.firstReason.index)) t.firstReason = { index: i, detail };
      }
    }
    done += 1;
    if (Date.now() - lastProgress > 1000 || done === gen.runs) {
      lastProgress = Date.now();
      progress({ property: spec.name, done, total: gen.runs, failing: [...tallies.values()].filter((t) => t.failed > 0).length });
    }
  };
  let done = 0;
  const phase1 = await fc.check(
    fc.asyncProperty(spec.arbitrary, async (c) => {
      const i = index++;
      const running = runCase(c, i).finally(() => inFlight.delete(running));
      inFlight.add(running);
      // The next case is generated when a lane is free.
      while (inFlight.size >= lanes) await Promise.race(inFlight);
      return true;
    }),
    { seed: gen.seed, numRuns: gen.runs, interruptAfterTimeLimit: Math.max(1000, Math.floor(gen.timeLimitMs * 0.7)), markInterruptAsFailure: false },
  );
  await Promise.all(inFlight);
  const cases = index;
  const budgetEnded = phase1.interrupted || cases < gen.runs;

  // Phase 2: each failing check's first failing case, replayed by its path and shrunk against that check alone.
  const results: CheckResult[] = [];
  for (const pc of spec.checks) {
    const t = tallies.get(pc);
    const stats: PropertyStats = {
      property: spec.name,
      seed: gen.seed,
      runs: gen.runs,
      cases,
      passed: t?.passed ?? 0,
      failed: t?.failed ?? 0,
      notApplicable: t?.notApplicable ?? 0,
      timeLimitMs: gen.timeLimitMs,
      budgetEnded,
    };
    let verdict: Verdict;
    if (!t) verdict = { outcome: 'skip', detail: 'profile checks are off (the run uses the document alone)' };
    else if (t.first) {
      const shrunk = await shrink(spec, pc, t.first, gen, started, judge, conformance.session.accepted);
      const failure: SavedFailure = {
        check: pc.check.name,
        requirements: pc.app.requirements,
        severity: pc.app.severity === 'SHOULD' ? 'SHOULD' : 'MUST',
        property: spec.name,
        seed: gen.seed,
        path: shrunk.path,
        case: shrunk.outcome.case,
        request: { method: shrunk.outcome.reply.exchange.request.method ?? 'POST', url: shrunk.outcome.reply.exchange.request.url ?? '', ...(typeof shrunk.outcome.reply.exchange.request.body === 'string' ? { body: shrunk.outcome.reply.exchange.request.body } : {}) },
        reply: { ...(shrunk.outcome.reply.status !== undefined ? { status: shrunk.outcome.reply.status } : {}), ...(typeof shrunk.outcome.reply.exchange.response?.body === 'string' ? { body: shrunk.outcome.reply.exchange.response.body } : {}), ...(shrunk.outcome.reply.error ? { error: shrunk.outcome.reply.error } : {}) },
        verdict: { outcome: shrunk.verdict.outcome, ...(shrunk.verdict.received ? { received: shrunk.verdict.received } : {}), ...(shrunk.verdict.expected ? { expected: shrunk.verdict.expected } : {}) },
      };
      const file = saveFailure(failure, conformance);
      stats.counterexample = {
        path: shrunk.path,
        request: redactValue(conformance, shrunk.outcome.case.payload),
        exchange: shrunk.outcome.reply.exchange.id,
        shrinks: shrunk.shrinks,
        ...(file ? { file } : {}),
      };
      const shrunkNote = shrunk.shrinks > 0 ? `shrunk in ${shrunk.shrinks} step(s)` : 'not shrunk further';
      verdict = {
        outcome: 'fail',
        received: `${t.failed} of ${cases} generated case(s) broke it; the first, ${shrunkNote} (seed ${gen.seed}, path ${shrunk.path}): ${shrunk.verdict.received ?? ''}`,
        expected: shrunk.verdict.expected ?? '',
        // A sequence's reply is its last step's: the failing step (first of the verdict's evidence, `overSteps`) comes first, so the curl line reproduces it.
        evidence: [...new Set([...(shrunk.outcome.steps ? (shrunk.verdict.evidence ?? []).slice(0, 1) : []), shrunk.outcome.reply.exchange.id, t.first.outcome.reply.exchange.id])],
      };
    } else if (t.passed > 0) verdict = { outcome: 'pass', detail: `held on ${t.passed} of ${cases} generated case(s)${t.notApplicable > 0 ? ` (${t.notApplicable} did not exercise it)` : ''}${budgetEnded ? `; the time budget (${gen.timeLimitMs} ms) ended the property after ${cases} of ${gen.runs}` : ''}` };
    else verdict = { outcome: 'notApplicable', detail: cases === 0 ? 'no case could be sent within the time budget' : `none of ${cases} generated case(s) exercised it${t?.firstReason ? `; for instance: ${t.firstReason.detail}` : ''}` };
    const result = await conformance.apply({ ...pc.app, to: spec.name, check: { name: pc.check.name, checks: pc.check.checks, run: () => verdict } }, undefined as never);
    result.property = stats;
    results.push(result);
  }
  return results;
}

/**
 * Replays a check's first failing case by its path and lets fast-check shrink it, the check
 * alone deciding: the smallest request that still breaks it. A module that does not fail the
 * replayed case again (it is not deterministic) leaves the case as it was first seen.
 */
async function shrink(
  spec: PropertySpec,
  pc: PropertyCheck,
  first: NonNullable<Tally['first']>,
  gen: Generation,
  started: number,
  judge: (c: PropertyCheck, o: CaseOutcome) => Promise<Verdict>,
  accepted?: AcceptedCalls,
): Promise<{ outcome: CaseOutcome; verdict: Verdict; path: string; shrinks: number }> {
  let last: { outcome: CaseOutcome; verdict: Verdict } | undefined;
  let step = 0;
  const left = Math.max(2000, gen.timeLimitMs - (Date.now() - started));
  const details = await fc.check(
    fc.asyncProperty(spec.arbitrary, async (c) => {
      const outcome = await spec.exec(c, `${spec.id}#${first.index}.s${step++}`);
      if (accepted) fillAcceptance(outcome, accepted);
      const verdict = await judge(pc, outcome);
      if (verdict.outcome === 'fail') last = { outcome, verdict };
      return verdict.outcome !== 'fail';
    }),
    { seed: gen.seed, path: String(first.index), numRuns: 1, interruptAfterTimeLimit: left, markInterruptAsFailure: false },
  );
  if (!details.failed || !last || details.counterexamplePath === null) return { ...first, path: String(first.index), shrinks: 0 };
  return { ...last, path: details.counterexamplePath, shrinks: details.numShrinks };
}

/** Writes `failures/<check>.<property>.json`; returns its path relative to the output folder. */
function saveFailure(failure: SavedFailure, conformance: Conformance): string | undefined {
  try {
    const dir = path.join(outDir(), 'failures');
    fs.mkdirSync(dir, { recursive: true });
    const name = fileName(failure.check, failure.property);
    const redacted = redactValue(conformance, failure) as SavedFailure;
    fs.writeFileSync(path.join(dir, name), `${JSON.stringify(redacted, null, 2)}\n`);
    return `failures/${name}`;
  } catch {
    return undefined;
  }
}

/** A value with the run's secrets redacted, as every report shows it. */
function redactValue(conformance: Conformance, value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? value : (JSON.parse(conformance.session.log.redactor.json(text)) as unknown);
}
