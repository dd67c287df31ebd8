/**
 * The property runner on a module played in memory: every case sent once and judged by every
 * check, one result per check, a failure's first case replayed by its path and shrunk against
 * that check alone, saved; the time budget ends a property and says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { ENV_OUT } from '../../src/run/environment.ts';
import { calculateInMemory, inMemoryConformance } from './in-memory.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import type { SavedFailure } from '../../src/checks/case.ts';

type Json = Record<string, unknown>;

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'property-'));
process.env[ENV_OUT] = out;

const conformance = inMemoryConformance;

/** A module in memory: tariffs whose cost turns into text above 10 kg in all. */
const spec = (sent: string[], slowMs = 0): PropertySpec =>
  calculateInMemory({
    answer: async (caseId) => {
      sent.push(caseId);
      if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
    },
  });

test('one result per check over all the cases; the failing one shrunk to the smallest case that breaks it, saved for replay', async () => {
  const sent: string[] = [];
  const results = await runProperty(conformance(), spec(sent), { seed: 42, runs: 100, timeLimitMs: 30_000 });
  expect(results.map((r) => [r.check, r.status])).toEqual([
    ['ensureCalculateAnswersTariffList', 'passed'],
    ['ensureTariffTypeIsKnown', 'passed'],
    ['ensureTariffCostIsNumberOrAbsent', 'failed'],
  ]);
  // Every case sent once in the property; then the shrink steps of the failing check.
  expect(sent.filter((id) => !id.includes('.s'))).toHaveLength(100);
  expect(new Set(sent.filter((id) => !id.includes('.s'))).size).toBe(100);
  const failed = results[2]!.property!;
  expect(failed.cases).toBe(100);
  expect(failed.passed + failed.failed + failed.notApplicable).toBe(100);
  expect(results[0]!.property!.passed).toBe(100);
  const ce = failed.counterexample!;
  const packages = (ce.request as Json).packages as Json[];
  expect(packages).toEqual([expect.objectContaining({ weight: 10_001, items: [expect.any(Object)] })]);
  expect(ce.shrinks).toBeGreaterThan(0);
  expect(results[2]!.message).toContain(`seed 42, path ${ce.path}`);
  const saved = JSON.parse(fs.readFileSync(path.join(out, ce.file!), 'utf8')) as SavedFailure;
  expect(saved).toMatchObject({ check: 'ensureTariffCostIsNumberOrAbsent', seed: 42, path: ce.path, requirements: ['DLV-CALCULATE-TARIFF-FIELDS'] });
  expect(saved.case.payload).toEqual(ce.request);
});

test('the same seed sends the same cases; the path replays the shrunk case', async () => {
  const a: string[] = [];
  const b: string[] = [];
  const first = await runProperty(conformance(), spec(a), { seed: 7, runs: 30, timeLimitMs: 30_000 });
  const second = await runProperty(conformance(), spec(b), { seed: 7, runs: 30, timeLimitMs: 30_000 });
  expect(JSON.stringify(first.map((r) => r.property!.counterexample?.request))).toBe(JSON.stringify(second.map((r) => r.property!.counterexample?.request)));
  expect(a).toEqual(b);
});

test('the time budget ends the property and says how many cases ran', async () => {
  const sent: string[] = [];
  const results = await runProperty(conformance(), spec(sent, 20), { seed: 1, runs: 10_000, timeLimitMs: 1500 });
  const stats = results[0]!.property!;
  expect(stats.budgetEnded).toBe(true);
  expect(stats.cases).toBeLessThan(10_000);
  expect(stats.cases).toBeGreaterThan(5);
  expect(results[0]!.message).toMatch(new RegExp(`the time budget \\(1500 ms\\) ended the property after ${stats.cases} of 10000`));
});
