/**
 * Areas at the same time (issue 33, item 2; src/run/attach.ts): `--parallel 2` plays the delivery
 * specs in a second worker attached to the session of the first, against the one launched module,
 * and gives what one at a time gives for the same seed: the first request of every generated case
 * (what the module made up masked), every result (status, severity, tallies, counterexample path),
 * the requirements, the summary and the coverage. The areas: delivery (attached) and telephony
 * (the host's, its flows observing the module's calls to the system), 10 cases a property.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runSuite } from '../gauntlet/run-suite.ts';
import { generatedRequests, moduleValues, resultsSaid, verdictSaid } from './determinism.ts';

test('--parallel 2: delivery beside the other areas, one module launched, the same results as one at a time', async () => {
  test.setTimeout(300_000);
  const args = ['--area', 'delivery,telephony', '--runs', '10', '--seed', '4242'];
  const [one, two] = [await runSuite(args, { FAULTS: '' }), await runSuite([...args, '--parallel', '2'], { FAULTS: '' })];
  for (const run of [one, two]) {
    expect(run.results, run.stderr).toBeDefined();
    expect(run.exitCode).toBe(0);
    // The module launched once (a line per launch).
    expect(fs.readFileSync(path.join(run.out, 'internal', 'launches.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  }
  // Two sessions' exchanges in the parallel run (the attached one's ids of its own prefix), the delivery callbacks among the attached one's.
  const prefixes = (r: typeof one): Set<string> => new Set(r.results!.exchanges.map((x) => x.id.replace(/\d+-x\d+$/, '')));
  expect([...prefixes(one)]).toEqual(['s']);
  expect([...prefixes(two)].sort()).toEqual(['a', 's']);
  expect(two.results!.exchanges.some((x) => x.id.startsWith('a') && x.label.startsWith('delivery.'))).toBe(true);
  // No handoff left behind (it carries the clientId).
  expect(fs.existsSync(path.join(two.out, '.session-handoff.json'))).toBe(false);
  const made = [...new Set([...moduleValues(one.results!), ...moduleValues(two.results!)])].sort((a, b) => b.length - a.length);
  // Each session's log keeps its own share of a busy endpoint's exchanges whole: the requests of the cases both runs kept are compared.
  const [sent1, sent2] = [generatedRequests(one.results!, made), generatedRequests(two.results!, made)];
  const both = [...sent1.keys()].filter((k) => sent2.has(k));
  expect(both.length).toBeGreaterThan(50);
  expect(Object.fromEntries(both.map((k) => [k, sent2.get(k)])), 'the requests').toEqual(Object.fromEntries(both.map((k) => [k, sent1.get(k)])));
  expect(resultsSaid(two.results!), 'the results').toEqual(resultsSaid(one.results!));
  expect(verdictSaid(two.results!), 'the verdict').toEqual(verdictSaid(one.results!));
  // The results in the order of a run one at a time.
  expect(two.results!.results.map((r) => r.spec)).toEqual(one.results!.results.map((r) => r.spec));
  for (const r of [one, two]) fs.rmSync(r.out, { recursive: true, force: true });
});

test('--parallel 2, a selection of delivery specs alone: the attached worker launches the module, and a fault is caught by its check', async () => {
  test.setTimeout(300_000);
  const run = await runSuite(['--area', 'delivery', '--grep', 'calculate: generated valid requests', '--runs', '30', '--seed', '4242', '--parallel', '2'], { FAULTS: 'calculate-resets-connection' });
  expect(run.results, run.stderr).toBeDefined();
  expect(run.exitCode).toBe(1);
  expect(run.results!.run.selection?.selected).toBe(1);
  expect(fs.readFileSync(path.join(run.out, 'internal', 'launches.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  expect([...new Set(run.results!.results.filter((r) => r.status === 'failed').map((r) => r.check))]).toEqual(['ensureCallbackIsAnswered']);
  expect(fs.readdirSync(run.out).filter((f) => f.startsWith('.'))).toEqual([]);
  fs.rmSync(run.out, { recursive: true, force: true });
});
