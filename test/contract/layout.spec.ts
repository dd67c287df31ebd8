/**
 * The layout of the repository as rules (.dependency-cruiser.cjs): no import cycles, src/'s
 * rooms importing only the rooms below them, src/ never importing specs/, test/, examples/ or
 * bench/, no src file that nothing imports. The same check as `npm run lint:layout`.
 */
import { test, expect } from '@playwright/test';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

// Every root is cruised: whether a src file is imported at all depends on the specs too.
const ROOTS = ['src', 'specs', 'examples', 'test', 'bench'];

test('the imports follow the layout rules of .dependency-cruiser.cjs', async () => {
  test.setTimeout(120_000);
  const options = await extractDepcruiseOptions(path.join(PACKAGE_ROOT, '.dependency-cruiser.cjs'));
  const tsConfigFile = path.join(PACKAGE_ROOT, 'tsconfig.json');
  const tsConfig = extractTSConfig(tsConfigFile);
  const cruised = await cruise(ROOTS, { ...options, baseDir: PACKAGE_ROOT, tsConfig: { fileName: tsConfigFile }, outputType: 'json' }, {}, { tsConfig });
  const result = (typeof cruised.output === 'string' ? JSON.parse(cruised.output) : cruised.output) as ICruiseResult;
  expect(result.summary.totalCruised, 'the cruise found the repository').toBeGreaterThan(100);
  const errors = result.summary.violations
    .filter((v) => v.rule.severity === 'error')
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle?.length ? ` (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' -> ')})` : ''}`);
  expect(errors, `${errors.length} layout violations:\n${errors.join('\n')}`).toEqual([]);
});
