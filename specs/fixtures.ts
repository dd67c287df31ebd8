/**
 * Fixtures of the conformance specs: `played` (worker scope) brings up the simulators and the
 * module under test once per run (a slot of a batch: once per row), `session` is its session;
 * `conformance` (test scope) applies checks and attaches their results and the test's exchanges.
 *
 * One module per run: a check that does not hold does NOT fail its Playwright test. Playwright
 * discards a worker after a failed test, which would relaunch the module and lose its state;
 * the verdict is the conformance reporter's (results.json, conformance.html, junit.xml, the
 * exit code), made from the records. A spec that breaks (an exception) still fails its test,
 * and the reporter counts it as a failure of the run; the worker Playwright then starts for the
 * tests left does not start a second session (`claimSessionStart`): they are skipped, and the
 * run fails the suite rule `ensureOneSessionPerRun`.
 */
import { test as base, expect, type FullProject } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { RunSession, SessionStartError } from '../src/run/session.ts';
import { claimSessionStart, noteBrokenSpec, notRunResult, secondStartResult } from '../src/run/session-start.ts';
import { Conformance, sessionRecordsDir, sessionSink, testSink } from '../src/run/conformance.ts';
import { judgeSession } from '../src/run/session-judgements.ts';
import { enterBatchRow, outDir, readAborted, runConfig, writeAborted } from '../src/run/environment.ts';
import { batchRowEndedFile, readBatchFile, slotTitlePath, type BatchRow } from '../src/run/batch-row.ts';
import { slotTestType } from '../src/run/batch-slot.ts';
import { ATTACHED_AREAS, awaitAttachedEnded, awaitHandoff, isAttachedProject, parallelRun, removeHandoff, writeHandoff } from '../src/run/attach.ts';

/** A session this worker plays, and how it ends (judged, recorded, stopped). */
interface Played {
  session: RunSession;
  end: () => Promise<void>;
}

const nothingToEnd = async (): Promise<void> => undefined;

/** Opens the session of the run (or row) this worker plays: launched, attached, or standing for a run that could not start. */
async function play(project: FullProject): Promise<Played> {
  const started = Date.now();
  // The attached worker of a run with areas at the same time (src/run/attach.ts): no launch,
  // the host's module; its record carries its own exchanges and evidence, no judgement.
  // When the selection left the host's project no test, this worker is the host.
  const handoff = isAttachedProject(project) ? await awaitHandoff(attachWaitMs(runConfig())) : undefined;
  if (handoff && 'aborted' in handoff) {
    // No module to attach to: a run that could not start (exit 2), never a silent pass.
    if (!readAborted()) writeAborted(handoff.aborted);
    return { session: abortedSession(handoff.aborted), end: nothingToEnd };
  }
  if (handoff && 'placeholders' in handoff) {
    const attached = RunSession.attach(runConfig(), handoff);
    return {
      session: attached,
      end: async () => {
        await new Conformance(attached, sessionSink(attached.log.prefix)).finish();
        await attached.stop();
      },
    };
  }
  // A run that could not start fails fast: the session is never tried again, and every test
  // skips at once in this same worker (a thrown error would make Playwright start a new
  // worker for each remaining test).
  const aborted = readAborted();
  if (aborted) return { session: abortedSession(aborted), end: nothingToEnd };
  // One session per run: a worker Playwright started after a spec broke launches nothing;
  // the run fails the suite rule, and every test left is skipped with the reason.
  const refused = claimSessionStart();
  if (refused) {
    fs.mkdirSync(sessionRecordsDir(), { recursive: true });
    fs.writeFileSync(path.join(sessionRecordsDir(), 'second-session-start.json'), JSON.stringify({ results: [secondStartResult(refused)], exchanges: [] }));
    return { session: refusedSession(refused), end: nothingToEnd };
  }
  let session: RunSession;
  try {
    session = await RunSession.start(runConfig());
  } catch (e) {
    if (!(e instanceof SessionStartError)) throw e;
    writeAborted(e.message);
    return { session: abortedSession(e.message), end: nothingToEnd };
  }
  if (parallelRun()) writeHandoff(session);
  return {
    session,
    end: async () => {
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
  };
}

/**
 * The rows a worker of a batch's slot plays one after the other (src/run/batch-slot.ts): the
 * row of each test, entered (its folder, configuration, module environment) and its session
 * played when its first test starts; the row before ended then (judged, stopped, said ended).
 */
class SlotRows {
  private current: { row: BatchRow; played: Played; leave: () => void } | undefined;

  constructor(private readonly project: FullProject) {}

  async sessionOf(row: BatchRow): Promise<RunSession> {
    if (this.current?.row.out !== row.out) {
      await this.end();
      const leave = enterBatchRow(row);
      this.current = { row, played: await play(this.project), leave };
    }
    return this.current.played.session;
  }

  async end(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    try {
      await current.played.end();
    } finally {
      fs.mkdirSync(path.dirname(batchRowEndedFile(outDir())), { recursive: true });
      fs.writeFileSync(batchRowEndedFile(outDir()), JSON.stringify({ at: Date.now() }));
      current.leave();
    }
  }
}

const slots = readBatchFile()?.slots !== undefined;

const extended = base.extend<{ conformance: Conformance; session: RunSession }, { played: Played | SlotRows }>({
  // The session of the worker's run: one per worker. A slot of a batch (src/run/batch-row.ts):
  // its rows one after the other (SlotRows), each entered (its output folder, configuration and
  // module environment) before its session, and said ended once its session is stopped and recorded.
  played: [
    async ({}, use, workerInfo) => {
      if (slots) {
        const rows = new SlotRows(workerInfo.project);
        await use(rows);
        await rows.end();
        return;
      }
      const played = await play(workerInfo.project);
      await use(played);
      await played.end();
    },
    // No limit of its own with areas at the same time: its end waits for the attached worker's tests (the run's deadline stops all).
    { scope: 'worker', auto: true, timeout: parallelRun() ? 0 : 180_000 },
  ],
  session: async ({ played }, use, testInfo) => {
    if (!(played instanceof SlotRows)) return use(played.session);
    const row = readBatchFile()!.rows[slotTitlePath(testInfo.titlePath).row!]!;
    // A row's start (and the end of the one before) is not the test's time.
    const [timeout, waiting] = [testInfo.timeout, Date.now()];
    testInfo.setTimeout(timeout + 360_000);
    const session = await played.sessionOf(row);
    testInfo.setTimeout(timeout + (Date.now() - waiting));
    await use(session);
  },
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
    if (testInfo.status === 'failed' || testInfo.status === 'timedOut') noteBrokenSpec(slotTitlePath(testInfo.titlePath).titlePath.slice(1).join(' > '));
    const failures = await conformance.finish();
    for (const f of failures) testInfo.annotations.push({ type: 'conformance failure', description: `${f.check} (${f.requirements.join(', ')})` });
  },
});

/** The conformance specs' test function (in a batch's slot, the one that declares each row's tests: src/run/batch-slot.ts). */
export const test = slots ? slotTestType(extended) : extended;

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
