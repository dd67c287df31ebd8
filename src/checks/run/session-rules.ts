/**
 * Two suite rules of the run's session start (`src/run/session-start.ts`): the module is launched
 * once (a second session start is refused and fails the run), and a conformance spec runs to its
 * end (the tests a refused start leaves are skipped with the reason). Their results are made where
 * the run sees the refusal, not by applying them to a subject, so they are not registered checks
 * (the gauntlet proves them in test/gauntlet/second-start.spec.ts, not by a fault row); they are
 * here for the run's application table to name, with their severity.
 */
import { fail, skip, type Check } from '../check.ts';

export const ensureOneSessionPerRun: Check<string> = {
  name: 'ensureOneSessionPerRun',
  checks: 'the run has one session: the module is launched once',
  run: (reason) => fail(`${reason}; every conformance test left was skipped`, 'one session for the whole run: a spec that breaks must not force a second start'),
};

export const ensureSpecRanToTheEnd: Check<string> = {
  name: 'ensureSpecRanToTheEnd',
  checks: 'the conformance spec ran to its end',
  run: (reason) => skip(reason),
};
