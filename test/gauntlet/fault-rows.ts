/**
 * The fault gauntlet's rows (faults.spec.ts): each fault's run, narrowed to its area, of the
 * compiled reference module (compiled-module.ts), as a row of the shared batch (batch.ts) that the batch selection reporter starts as the self-test run begins.
 */
import { FAULT_CASES } from './faults.ts';
import type { GauntletRow } from './batch.ts';
import { compiledReferenceConfig } from './compiled-module.ts';

/** Each fault's run, narrowed to its area (and part): the rows of one shared batch (batch.ts). */
export const FAULT_ROWS: GauntletRow[] = FAULT_CASES.map((c) => ({
  name: c.fault,
  title: `fault ${c.fault} is caught by ${[...c.failing, ...(c.warnings ?? []).map((w) => `${w} (warning)`)].join(' + ')}`,
  args: () => ['--area', [c.area].flat().join(','), ...(c.part ? ['--grep', c.part] : []), ...(c.runs ? ['--runs', String(c.runs)] : []), '--config', compiledReferenceConfig(c.settings)],
  env: { FAULTS: c.fault },
}));
