/**
 * A property's failure is its first failing case shrunk to the one thing that matters, with the
 * seed and path that replay it: each calculate fault of the reference module is caught with a
 * shrunk counterexample.
 */
import { test, expect } from '@playwright/test';
import { batchedRun } from './batch.ts';
import { CALCULATE_FAULTS, SHRINK_ROWS } from './shrink-rows.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

type Json = Record<string, unknown>;

for (const [i, row] of CALCULATE_FAULTS.entries()) {
  test(SHRINK_ROWS[i]!.title, async ({}, testInfo) => {
    const run = await batchedRun('shrink', SHRINK_ROWS, SHRINK_ROWS[i]!, testInfo);
    expect(run.results, run.stderr).toBeDefined();
    const failed = run.results!.results.filter((r) => r.status === 'failed');
    expect([...new Set(failed.map((r) => r.check))].sort()).toEqual([...row.failing].sort());
    for (const r of failed) {
      const p = r.property!;
      expect(p.seed).toBe(11);
      expect(p.cases).toBe(100);
      expect(p.failed).toBeGreaterThan(0);
      const ce = p.counterexample!;
      expect(ce.shrinks).toBeGreaterThan(0);
      expect(ce.path).toMatch(/^\d+(:\d+)*$/);
      expect(r.message).toContain(`seed 11, path ${ce.path}`);
      const packages = (ce.request as Json).packages as Json[];
      // Shrunk: packages of one item each, whatever broke it. A fault that turns on the weight of
      // the order (over 10 kg in all) may leave two packages whose weights sum just over it: a
      // counterexample no single removal or smaller weight keeps failing (1-minimal); a fault that
      // turns on anything else leaves one package.
      const overTenKg = row.fault === 'calculate-cost-as-text-over-10kg' || row.fault === 'calculate-resets-connection';
      expect(packages.length).toBeLessThanOrEqual(overTenKg ? 2 : 1);
      for (const pkg of packages) expect(pkg.items).toHaveLength(1);
      if (row.fault === 'calculate-cost-as-text-over-10kg') expect(packages.reduce((s, pkg) => s + Number(pkg.weight), 0)).toBe(10_001);
      if (row.fault === 'calculate-accepts-zero-weight') expect(packages[0]!.weight).toBe(0);
    }
  });
}
