/**
 * Determinism and lanes (issue 33, items 2 and 3): one seed gives the same requests and the same
 * results over 10 consecutive runs of the reference module, one case at a time or 2 or 4 lanes
 * at once. The runs cover the areas whose properties run in lanes (delivery, payment), with 10
 * cases a property; each is compared with the first, one case at a time: the first request of
 * every generated case (what the module made up masked: `determinism.ts`), every result
 * (status, severity, cases, failing cases, exercised or not, counterexample path), the
 * requirements, the summary, the coverage.
 *
 * The 10 runs are the rows of one shared batch (test/gauntlet/batch.ts, started by the first of
 * these tests to ask): each a whole run of its own, prepared and finished by `conformance run`'s
 * own code (its seed fixed from its arguments, its own output folder), with its own worker,
 * session and module (a fresh process, nothing kept from the run before); they share the
 * Playwright runner's start (about 1.7 CPU-s a run saved) and start in order, 3 at a time
 * (`BATCH_WORKERS`), so that a run also meets the load of the others beside it. Without the
 * self-test run's list of tests (another `--reporter`), on a retry or a repeat, each is a
 * `conformance run` of its own, one after the other. Two tests, which Playwright may give two
 * workers: the 10 runs, and the lanes (the first three runs: 1, 2 and 4 lanes), which ends as
 * soon as those three have.
 */
import { test, expect } from '@playwright/test';
import type { SuiteRun } from '../gauntlet/run-suite.ts';
import { batchedRun } from '../gauntlet/batch.ts';
import { CONSECUTIVE, DETERMINISM_ROWS as ROWS, LANES, LANES_TITLE, SEED } from './determinism-rows.ts';
import { generatedRequests, moduleValues, resultsSaid, verdictSaid } from './determinism.ts';

test.describe.configure({ mode: 'parallel', timeout: 600_000 });

const runOf = (i: number, testInfo: Parameters<typeof batchedRun>[3]): Promise<SuiteRun> => batchedRun('determinism', ROWS, ROWS[i]!, testInfo);

/** The first run: passed, every generated property of the two areas sent its cases (calculate, save, lists, print, sequences, payment callbacks...). */
function checkFirst(first: SuiteRun): void {
  expect(first.results, first.stderr).toBeDefined();
  expect(first.exitCode).toBe(0);
  expect(first.results!.run.generation).toMatchObject({ seed: SEED, runs: 10, lanes: LANES[0] });
  expect(generatedRequests(first.results!, []).size).toBeGreaterThan(100);
}

/** Run `i` (0-based) says what the first said: its requests, its results, its verdict. */
function sameAsFirst(first: SuiteRun, run: SuiteRun, i: number): void {
  const n = LANES[i]!;
  expect(run.results, run.stderr).toBeDefined();
  expect(run.results!.run.generation).toMatchObject({ seed: SEED, runs: 10, lanes: n });
  // What either module made up is masked in both.
  const made = [...new Set([...moduleValues(first.results!), ...moduleValues(run.results!)])].sort((a, b) => b.length - a.length);
  expect(Object.fromEntries(generatedRequests(run.results!, made)), `run ${i + 1} (${n} lanes): the requests`).toEqual(Object.fromEntries(generatedRequests(first.results!, made)));
  expect(resultsSaid(run.results!), `run ${i + 1} (${n} lanes): the results`).toEqual(resultsSaid(first.results!));
  expect(verdictSaid(run.results!), `run ${i + 1} (${n} lanes): the verdict`).toEqual(verdictSaid(first.results!));
  expect(run.exitCode).toBe(0);
}

test(LANES_TITLE, async ({}, testInfo) => {
  const first = await runOf(0, testInfo);
  checkFirst(first);
  for (const i of [1, 2]) sameAsFirst(first, await runOf(i, testInfo), i);
});

test(CONSECUTIVE, async ({}, testInfo) => {
  const first = await runOf(0, testInfo);
  checkFirst(first);
  for (let i = 1; i < LANES.length; i++) sameAsFirst(first, await runOf(i, testInfo), i);
});
