/**
 * Proof per requirement, not per check: every requirement the reference module is credited
 * with (passed) has a fault variant in the gauntlet's table that shows its violation caught
 * (the table's `requirement` and `also` ids, each verified by that fault's run in
 * faults.spec.ts), or is listed here with the reason it has none.
 */
import { test, expect } from '@playwright/test';
import { FAULT_CASES } from './faults.ts';
import { cleanFullRun } from './run-suite.ts';

/** Credited requirements without a fault variant, and why. Each reason names where it is shown caught instead. */
export const WITHOUT_FAULT: Record<string, string> = {
  'REG-BASEURL-URL':
    'a malformed baseUrl leaves the suite no address for any callback, so nothing else could be judged; shown caught in test/checks/registration-rules.spec.ts (ensureUrlsAreWellFormed on a baseUrl without scheme)',
  'REG-INTEGRATIONS-ONE-OR-MORE':
    'a registration without integrations declares no kind, so no other rule applies; shown caught in test/checks/registration-rules.spec.ts (integrations not an object)',
  'DLV-SETTINGS-OBJECT':
    'settings that are not an object take away every settings field the other rules judge; shown caught in test/checks/registration-rules.spec.ts',
  'DLV-DELIVERYDATAFIELDLIST-ARRAY':
    'a data field list that is not an array takes away every field the data-field rules judge; shown caught in test/checks/registration-rules.spec.ts',
};

test('every requirement credited on the reference module has a fault variant that shows it caught, or a reason', async () => {
  const run = await cleanFullRun();
  expect(run.exitCode, run.stderr).toBe(0);
  const credited = run.results!.requirements.filter((r) => r.status === 'passed').map((r) => r.id);
  expect(credited.length).toBeGreaterThan(80);
  const shown = new Set(FAULT_CASES.flatMap((c) => [c.requirement, ...(c.also ?? [])]).filter((id): id is string => !!id));
  const unproven = credited.filter((id) => !shown.has(id) && !(id in WITHOUT_FAULT));
  expect(unproven, 'credited requirements with no fault variant and no reason').toEqual([]);
  // A reason for an id that a fault now shows, or that is no longer credited, is stale.
  expect(Object.keys(WITHOUT_FAULT).filter((id) => shown.has(id) || !credited.includes(id))).toEqual([]);
});
