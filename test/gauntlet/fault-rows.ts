/**
 * The fault gauntlet's rows (faults.spec.ts): each fault's run, narrowed to its area, as a row of
 * the shared batch (batch.ts) that the batch selection reporter starts as the self-test run begins.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAULT_CASES } from './faults.ts';
import type { GauntletRow } from './batch.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

/** The reference module's configuration with `settings` merged over it, written to a fresh file (its module launched from the package root). */
export function configWith(settings: NonNullable<(typeof FAULT_CASES)[number]['settings']>): string {
  const reference = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, any>;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fault-config-')), 'conformance.config.json');
  fs.writeFileSync(file, JSON.stringify({ ...reference, launch: { ...reference.launch, cwd: PACKAGE_ROOT }, callbacks: { ...reference.callbacks, ...settings.callbacks }, ...(settings.flowTimeoutMs ? { flowTimeoutMs: settings.flowTimeoutMs } : {}) }));
  return file;
}

/** Each fault's run, narrowed to its area (and part): the rows of one shared batch (batch.ts). */
export const FAULT_ROWS: GauntletRow[] = FAULT_CASES.map((c) => ({
  name: c.fault,
  title: `fault ${c.fault} is caught by ${[...c.failing, ...(c.warnings ?? []).map((w) => `${w} (warning)`)].join(' + ')}`,
  args: () => ['--area', [c.area].flat().join(','), ...(c.part ? ['--grep', c.part] : []), ...(c.runs ? ['--runs', String(c.runs)] : []), ...(c.settings ? ['--config', configWith(c.settings)] : [])],
  env: { FAULTS: c.fault },
}));
