/**
 * The determinism test's runs (determinism.spec.ts) of the compiled reference module
 * (test/gauntlet/compiled-module.ts): rows of a shared batch (test/gauntlet/batch.ts),
 * started by the batch selection reporter as the self-test run begins.
 */
import type { GauntletRow } from '../gauntlet/batch.ts';
import { compiledReferenceConfig } from '../gauntlet/compiled-module.ts';

export const SEED = 20261128;
export const ARGS = ['--area', 'delivery,payment', '--runs', '10', '--seed', String(SEED)];
/** The lanes of each of the 10 runs, in order. */
export const LANES = [1, 2, 4, 1, 2, 4, 1, 2, 4, 4];

export const CONSECUTIVE = 'one seed: the same requests and results over 10 consecutive runs (1, 2 and 4 lanes)';
export const LANES_TITLE = 'one seed: the same requests and results with 1, 2 and 4 lanes';

/** The runs: the first three (1, 2 and 4 lanes) are the lanes test's rows, the others the consecutive test's (a row plays when its test is selected). */
export const DETERMINISM_ROWS: GauntletRow[] = LANES.map((n, i) => ({
  name: `run-${i + 1}-lanes-${n}`,
  title: i < 3 ? LANES_TITLE : CONSECUTIVE,
  args: () => [...ARGS, '--lanes', String(n), '--config', compiledReferenceConfig()],
  env: { FAULTS: '' },
}));
