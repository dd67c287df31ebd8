/**
 * Determinism and lanes (issue 33, items 2 and 3): one seed gives the same requests and the same
 * results over 10 consecutive runs of the reference module, one case at a time or 2 or 4 lanes
 * at once. The runs cover the areas whose properties run in lanes (delivery, payment), with 10
 * cases a property; each is compared with the first, one case at a time: the first request of
 * every generated case (what the module made up masked: `determinism.ts`), every result
 * (status, severity, cases, failing cases, exercised or not, counterexample path), the
 * requirements, the summary, the coverage.
 */
import { test, expect } from '@playwright/test';
import { runSuite } from '../gauntlet/run-suite.ts';
import { generatedRequests, moduleValues, resultsSaid, verdictSaid } from './determinism.ts';

test('one seed: the same requests and results over 10 consecutive runs, with 1, 2 and 4 lanes', async () => {
  test.setTimeout(900_000);
  const lanes = [1, 2, 4, 1, 2, 4, 1, 2, 4, 4];
  const args = ['--area', 'delivery,payment', '--runs', '10', '--seed', '20261128'];
  const first = await runSuite([...args, '--lanes', String(lanes[0])], { FAULTS: '' });
  expect(first.results, first.stderr).toBeDefined();
  expect(first.exitCode).toBe(0);
  // Every generated property of the two areas sent its cases (calculate, save, lists, print, sequences, payment callbacks...).
  expect(generatedRequests(first.results!, []).size).toBeGreaterThan(100);
  const said = resultsSaid(first.results!);
  const verdict = verdictSaid(first.results!);
  for (const [i, n] of lanes.entries()) {
    if (i === 0) continue;
    const run = await runSuite([...args, '--lanes', String(n)], { FAULTS: '' });
    expect(run.results, run.stderr).toBeDefined();
    expect(run.results!.run.generation).toMatchObject({ seed: 20261128, runs: 10, lanes: n });
    // What either module made up is masked in both.
    const made = [...new Set([...moduleValues(first.results!), ...moduleValues(run.results!)])].sort((a, b) => b.length - a.length);
    expect(Object.fromEntries(generatedRequests(run.results!, made)), `run ${i + 1} (${n} lanes): the requests`).toEqual(Object.fromEntries(generatedRequests(first.results!, made)));
    expect(resultsSaid(run.results!), `run ${i + 1} (${n} lanes): the results`).toEqual(said);
    expect(verdictSaid(run.results!), `run ${i + 1} (${n} lanes): the verdict`).toEqual(verdict);
    expect(run.exitCode).toBe(0);
  }
});
