/** Checks of one reply applied to a property's cases: the same rule, read off a case's outcome. */
import { notApplicable, pass, type Check, type Verdict } from './check.ts';
import type { ErrorReplySubject } from './callbacks/error-reply.ts';
import type { CaseOutcome } from './case.ts';
import type { Reply } from '../client/callback-client.ts';

/** An error-answer rule over the cases of a property (the reply and the run's reading). */
export function onErrorReply(check: Check<ErrorReplySubject>): Check<CaseOutcome> {
  return { name: check.name, checks: check.checks, run: (o) => check.run({ reply: o.reply, profile: o.profile }) };
}

/** A one-reply rule over the cases of a property. */
export function onReply(check: Check<Reply>): Check<CaseOutcome> {
  return { name: check.name, checks: check.checks, run: (o) => check.run(o.reply) };
}

const stepName = (s: CaseOutcome, i: number, n: number): string =>
  s.trigger !== undefined ? `step ${i + 1} of ${n}, trigger ${s.trigger}` : `step ${i + 1} of ${n}, ${s.case.callback.split('.')[1]}${s.case.intent.kind === 'refused' ? ` with a ${s.case.intent.clientId} clientId` : s.case.intent.kind === 'open' ? ` (${s.case.intent.why})` : ''}`;

/**
 * A check of one step, over every step of a sequence (or the case itself when it is not one):
 * it fails on the first step that breaks it, naming the step; it passes when a step exercised
 * it and none broke it. `only` narrows the steps it judges.
 */
export function overSteps(check: Check<CaseOutcome>, only?: (step: CaseOutcome) => boolean): Check<CaseOutcome> {
  return {
    name: check.name,
    checks: check.checks,
    async run(o) {
      const steps = (o.steps ?? [o]).filter((s) => !only || only(s));
      let held: Verdict | undefined;
      let count = 0;
      // Why the first step that did not exercise it did not (a refusal without an accepted authorised call says so).
      let why: string | undefined;
      for (const [i, s] of steps.entries()) {
        const v = await check.run(s);
        if (v.outcome === 'notApplicable' && why === undefined && v.detail && (s.case.intent.kind === 'refused' || steps.length === 1)) why = v.detail;
        // The failing step's own exchange first: the result's curl line reproduces that step, not the sequence's last.
        if (v.outcome === 'fail') return { ...v, received: `${o.steps ? `${stepName(s, i, steps.length)}: ` : ''}${v.received ?? ''}`, evidence: [...new Set([s.reply.exchange.id, ...(v.evidence ?? [])])] };
        if (v.outcome === 'pass') {
          held ??= v;
          count += 1;
        }
      }
      if (!held) return notApplicable(`${o.steps ? 'no step of the sequence exercised it' : 'not exercised'}${why ? ` (${why})` : ''}`);
      return pass(o.steps ? `held on ${count} step(s) of the sequence` : (held.detail ?? ''), held.evidence);
    },
  };
}

/** Steps sent with a missing or unknown clientId. */
export const refusedStep = (s: CaseOutcome): boolean => s.case.intent.kind === 'refused';
