/**
 * Fixtures of the conformance specs: `session` (worker scope) brings up the simulators and
 * the module under test once per run; `conformance` (test scope) applies checks and attaches
 * their results and the test's exchanges.
 *
 * One module per run: a check that does not hold does NOT fail its Playwright test. Playwright
 * discards a worker after a failed test, which would relaunch the module and lose its state;
 * the verdict is the conformance reporter's (results.json, conformance.html, junit.xml, the
 * exit code), made from the records. A spec that breaks (an exception) still fails its test,
 * and the reporter counts it as a failure of the run; the worker Playwright then starts for the
 * tests left does not start a second session (`claimSessionStart`): they are skipped, and the
 * run fails the suite rule `ensureOneSessionPerRun`.
 */
import { test as base, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { RunSession, SessionStartError } from '../src/run/session.ts';
import { claimSessionStart, noteBrokenSpec, notRunResult, secondStartResult } from '../src/run/session-start.ts';
import { Conformance, sessionRecordsDir, sessionSink, testSink } from '../src/run/conformance.ts';
import { judgeSession } from '../src/run/session-judgements.ts';
import { enterBatchRow, outDir, readAborted, runConfig, writeAborted } from '../src/run/environment.ts';
import { batchRowEndedFile, batchRowOf, type BatchRow } from '../src/run/batch-row.ts';
import { ATTACHED_AREAS, awaitAttachedEnded, awaitHandoff, isAttachedProject, parallelRun, removeHandoff, writeHandoff } from '../src/run/attach.ts';

export const test = base.extend<{ conformance: Conformance }, { session: RunSession; batchRow: BatchRow | undefined }>({
  // A row of a batch (src/run/batch-row.ts): its output folder, configuration and module
  // environment are this worker's before anything else; when the worker ends (its session
  // stopped and recorded, a teardown after the session's), the reporter is told the row ended.
  batchRow: [
    async ({}, use, workerInfo) => {
      const row = batchRowOf(workerInfo.project);
      if (row) enterBatchRow(row);
      await use(row);
      if (row) fs.writeFileSync(batchRowEndedFile(outDir()), JSON.stringify({ at: Date.now() }));
    },
    { scope: 'worker', auto: true },
  ],
  session: [
    async ({ batchRow: _row }, use, workerInfo) => {
      const started = Date.now();
      // The attached worker of a run with areas at the same time (src/run/attach.ts): no launch,
      // the host's module; its record carries its own exchanges and evidence, no judgement.
      // When the selection left the host's project no test, this worker is the host.
      const handoff = isAttachedProject(workerInfo.project) ? await awaitHandoff(attachWaitMs(runConfig())) : undefined;
      if (handoff && 'aborted' in handoff) {
        // No module to attach to: a run that could not start (exit 2), never a silent pass.
        if (!readAborted()) writeAborted(handoff.aborted);
        return use(abortedSession(handoff.aborted));
      }
      if (handoff && 'placeholders' in handoff) {
        const attached = RunSession.attach(runConfig(), handoff);
        await use(attached);
        await new Conformance(attached, sessionSink(attached.log.prefix)).finish();
        await attached.stop();
        return;
      }
      // A run that could not start fails fast: the session is never tried again, and every test
      // skips at once in this same worker (a thrown error would make Playwright start a new
      // worker for each remaining test).
      const aborted = readAborted();
      if (aborted) return use(abortedSession(aborted));
      // One session per run: a worker Playwright started after a spec broke launches nothing;
      // the run fails the suite rule, and every test left is skipped with the reason.
      const refused = claimSessionStart();
      if (refused) {
        fs.mkdirSync(sessionRecordsDir(), { recursive: true });
        fs.writeFileSync(path.join(sessionRecordsDir(), 'second-session-start.json'), JSON.stringify({ results: [secondStartResult(refused)], exchanges: [] }));
        return use(refusedSession(refused));
      }
      let session: RunSession;
      try {
        session = await RunSession.start(runConfig());
      } catch (e) {
        if (!(e instanceof SessionStartError)) throw e;
        writeAborted(e.message);
        return use(abortedSession(e.message));
      }
      if (parallelRun()) writeHandoff(session);
      await use(session);
      // The attached worker's tests still running: the module stays up for them (up to the run's deadline).
      if (parallelRun()) {
        await awaitAttachedEnded(started + (runConfig().runTimeoutMs ?? 900_000), () => session.launched?.stopReport() !== undefined);
        removeHandoff();
      }
      // Calls the module made on its own, outside any spec's flow, are judged once, here. The
      // session's record also carries the run's evidence and every kept exchange no test carried
      // (the session's start, between two tests).
      const own = new Conformance(session, sessionSink(session.log.prefix));
      await judgeSession(own);
      await own.finish();
      await session.stop();
    },
    // No limit of its own with areas at the same time: its end waits for the attached worker's tests (the run's deadline stops all).
    { scope: 'worker', timeout: parallelRun() ? 0 : 180_000 },
  ],
  conformance: async ({ session }, use, testInfo) => {
    const aborted = (session as Partial<AbortedSession>).aborted;
    testInfo.skip(aborted !== undefined, `the run could not start: ${aborted}`);
    const refused = (session as Partial<RefusedSession>).refused;
    if (refused !== undefined) {
      const sink = testSink(testInfo);
      await sink.write({ results: [notRunResult(sink.spec, refused)], exchanges: [] });
      testInfo.skip(true, `not run: ${refused}`);
    }
    // A host's test of an area the attached worker plays starts after it, as one at a time.
    if (parallelRun() && !isAttachedProject(testInfo.project) && testInfo.tags.some((t) => ATTACHED_AREAS.includes(t.slice(1)))) {
      const [timeout, waiting] = [testInfo.timeout, Date.now()];
      testInfo.setTimeout(0);
      await awaitAttachedEnded(Date.now() + (runConfig().runTimeoutMs ?? 900_000));
      testInfo.setTimeout(timeout + (Date.now() - waiting));
    }
    const conformance = new Conformance(session, testSink(testInfo));
    await use(conformance);
    // A spec that broke (the worker is then restarted): a refused second session start names it.
    if (testInfo.status === 'failed' || testInfo.status === 'timedOut') noteBrokenSpec(testInfo.titlePath.slice(1).join(' > '));
    const failures = await conformance.finish();
    for (const f of failures) testInfo.annotations.push({ type: 'conformance failure', description: `${f.check} (${f.requirements.join(', ')})` });
  },
});

/** How long an attached worker waits for the host's module: the host's registration wait, and a minute. */
const attachWaitMs = (config: ReturnType<typeof runConfig>): number => (config.launch?.registrationTimeoutMs ?? config.remote?.registrationTimeoutMs ?? 60_000) + 60_000;

/** Stands for the session of a run that could not start (the reason is in aborted.json). */
interface AbortedSession {
  aborted: string;
}

const abortedSession = (reason: string): RunSession => ({ aborted: reason }) as unknown as RunSession;

/** Stands for the session of a worker started after a spec broke: a second start, refused (`claimSessionStart`). */
interface RefusedSession {
  refused: string;
}

const refusedSession = (reason: string): RunSession => ({ refused: reason }) as unknown as RunSession;

export { expect };
