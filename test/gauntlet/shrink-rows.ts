/**
 * The shrink runs (shrink.spec.ts): each calculate fault of the reference module, the calculate
 * properties at seed 11; rows of the shared batch (batch.ts) of the compiled reference module.
 */
import type { GauntletRow } from './batch.ts';
import { FAULT_CASES } from './faults.ts';
import { compiledReferenceConfig } from './compiled-module.ts';

export const CALCULATE_FAULTS = FAULT_CASES.filter((c) => c.fault.startsWith('calculate-'));

export const SHRINK_ROWS: GauntletRow[] = CALCULATE_FAULTS.map((c) => ({
  name: `shrink-${c.fault}`,
  title: `${c.fault}: caught with a shrunk counterexample, seed and path`,
  args: () => ['--grep', 'calculate', '--seed', '11', '--config', compiledReferenceConfig()],
  env: { FAULTS: c.fault },
}));
