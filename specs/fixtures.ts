/**
 * Fixtures of the conformance specs: `session` (worker scope) brings up the simulators and
 * the module under test once per worker; `conformance` (test scope) applies checks, attaches
 * their results and the test's exchanges, and fails the test when a MUST check failed.
 */
import { test as base, expect } from '@playwright/test';
import { RunSession, SessionStartError } from '../src/run/session.ts';
import { Conformance, sessionSink, testSink } from '../src/run/conformance.ts';
import { readAborted, runConfig, writeAborted } from '../src/run/environment.ts';

export const test = base.extend<{ conformance: Conformance }, { session: RunSession }>({
  session: [
    async ({}, use) => {
      // A run that could not start does not try again in each worker.
      const aborted = readAborted();
      if (aborted) throw new SessionStartError(aborted);
      let session: RunSession;
      try {
        session = await RunSession.start(runConfig());
      } catch (e) {
        if (e instanceof SessionStartError) writeAborted(e.message);
        throw e;
      }
      await use(session);
      // Calls the module made on its own, outside any spec's flow, are judged once, here.
      const own = new Conformance(session, sessionSink(session.log.prefix));
      await own.judgeUnpromptedCalls();
      if (own.results.length > 0 || session.startup.length > 0) await own.finish();
      await session.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  conformance: async ({ session }, use, testInfo) => {
    const conformance = new Conformance(session, testSink(testInfo));
    await use(conformance);
    const failures = await conformance.finish();
    expect(failures.map((f) => `${f.check}\n${f.message}`), 'MUST checks that did not hold').toEqual([]);
  },
});

export { expect };
