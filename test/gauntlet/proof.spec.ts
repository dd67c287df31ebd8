/**
 * Every check is proven: each check an application table applies (`src/checks/tables.ts`) is caught failing (or warning) by a fault
 * variant of the reference module in the gauntlet's tables, or, for an informational check, is
 * shown by a variation or a hostile fault. A check that nothing makes fail is a defect of the suite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { registeredChecks } from '../../src/checks/check.ts';
import { ALL_ROWS } from '../../src/checks/tables.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { FAULT_CASES, HOSTILE_CASES } from './faults.ts';
import { FAULT_NAMES } from '../../examples/reference-module/faults.ts';

/** Fault variants proven by a test of their own instead of a row, and that test. */
const PROVEN_APART: Record<string, string> = {
  'tracking-trigger-fails': 'faults.spec.ts: a trigger answered with an error is skipped at once',
};

/** Informational checks and the variation (test/gauntlet/variations.spec.ts) that shows each. */
const SHOWN_BY_VARIATION: Record<string, string> = {
  checkModuleCallsSimulatedEndpoints: 'reads-orders',
};

test('every check an application table applies fails against a fault variant (or, informational, is shown by a variation); every registered check is applied by a row', async () => {
  const dir = path.join(PACKAGE_ROOT, 'src', 'checks');
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  // The suite's checks: those its own files export (a test file of this worker may register one of its own).
  const names = new Set<string>();
  for (const f of files) {
    const exported = (await import(pathToFileURL(path.join(dir, f)).href)) as Record<string, unknown>;
    for (const v of Object.values(exported)) {
      const name = (v as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && registeredChecks().get(name) === v) names.add(name);
    }
  }
  // The tables are where checks are applied: a registered check no row applies is dead, and every applied one must be proven.
  const applied = new Set(ALL_ROWS.map((r) => r.check.name));
  expect([...names].filter((name) => !applied.has(name)).sort()).toEqual([]);
  const proven = new Set([...FAULT_CASES.flatMap((c) => [...c.failing, ...(c.warnings ?? [])]), ...HOSTILE_CASES.flatMap((c) => [...c.failing, ...c.info]), ...Object.keys(SHOWN_BY_VARIATION)]);
  const unproven = [...applied].filter((name) => names.has(name) && !proven.has(name)).sort();
  expect(unproven).toEqual([]);
  expect(names.size).toBeGreaterThan(25);
});

test('every fault variant of the reference module has a row in the gauntlet (FAULT_CASES or HOSTILE_CASES), or a test of its own', () => {
  const rows = new Set([...FAULT_CASES, ...HOSTILE_CASES].map((c) => c.fault));
  expect(FAULT_NAMES.filter((f) => !rows.has(f) && !(f in PROVEN_APART))).toEqual([]);
  expect([...rows].filter((f) => !(FAULT_NAMES as string[]).includes(f))).toEqual([]);
});
