/**
 * Two suite rules of the run's session start (`src/run/session-start.ts`): the module is launched
 * once (a second session start is refused and fails the run), and a conformance spec runs to its
 * end (the tests a refused start leaves are skipped with the reason). Their results are made where
 * the run sees the refusal, not by applying them to a subject, so they are not registered checks
 * (the gauntlet proves them in test/gauntlet/second-start.spec.ts, not by a fault row); they are
 * here for the run's application table to name, with their severity.
 */
import { fail, skip, type Check, type Verdict } from '../check.ts';

/** Its subject: why the second start was refused. */
export const ensureOneSessionPerRun = {
  name: 'ensureOneSessionPerRun',
  checks: 'the run has one session: the module is launched once',
  run: (reason: string): Verdict => fail(`${reason}; every conformance test left was skipped`, 'one session for the whole run: a spec that breaks must not force a second start'),
} satisfies Check<string>;

/** Its subject: why the spec did not run to its end (the results name the spec in their message). */
export const ensureSpecRanToTheEnd = {
  name: 'ensureSpecRanToTheEnd',
  checks: 'the conformance spec ran to its end',
  run: (reason: string): Verdict => skip(reason),
} satisfies Check<string>;
