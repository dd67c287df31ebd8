/**
 * A property's failure is its first failing case shrunk to the one thing that matters, with the
 * seed and path that replay it: each calculate fault of the reference module is caught with a
 * shrunk counterexample.
 */
import { test, expect } from '@playwright/test';
import { runSuite } from './run-suite.ts';
import { FAULT_CASES } from './faults.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

type Json = Record<string, unknown>;

const CALCULATE_FAULTS = FAULT_CASES.filter((c) => c.fault.startsWith('calculate-'));

for (const row of CALCULATE_FAULTS) {
  test(`${row.fault}: caught with a shrunk counterexample, seed and path`, async () => {
    const run = await runSuite(['--grep', 'calculate', '--seed', '11'], { FAULTS: row.fault });
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
      // Shrunk: one package of one item, whatever broke it; a wrong-input case whose breakage
      // strips the first package's weight may need a second package to carry the weight the
      // fault turns on (calculate-resets-connection: over 10 kg in all).
      const wrongInput = p.property.includes('wrong input');
      expect(packages.length).toBeLessThanOrEqual(wrongInput && row.fault === 'calculate-resets-connection' ? 2 : 1);
      for (const pkg of packages) expect(pkg.items).toHaveLength(1);
      if (row.fault === 'calculate-cost-as-text-over-10kg') expect(packages[0]!.weight).toBe(10_001);
      if (row.fault === 'calculate-accepts-zero-weight') expect(packages[0]!.weight).toBe(0);
    }
  });
}
