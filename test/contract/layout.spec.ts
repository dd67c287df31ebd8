/**
 * The layout of the repository as rules (.dependency-cruiser.cjs): no import cycles, src/'s
 * rooms importing only the rooms below them, src/ never importing specs/, test/, examples/ or
 * bench/, no src file that nothing imports. The same check as `npm run lint:layout`.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
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

/**
 * One place per rule: a requirement id is attached to a check only in an area's application
 * table (`src/checks/<area>/applications.ts`). The other places an id may be written name what
 * binds the platform or cite the contract, never a check's use: the callback table's platform
 * statements (`src/callbacks/table.ts`, implemented by the sender and the simulators) and the
 * contract's models (`src/contract/`: the invoice and template tables cite their rows' ids).
 */
test('requirement ids are written in the application tables only (and the platform statements, the contract models)', () => {
  const ID = /['"`](?:WIRE-)?(?:GEN|REG|DLV|PAY|TEL|TRN|BOT)-[A-Z0-9]+(?:-[A-Z0-9]+)*['"`]/g;
  const allowed = (file: string): boolean => /^src\/checks\/[\w-]+\/applications\.ts$/.test(file) || file.startsWith('src/contract/') || file === 'src/callbacks/table.ts';
  const files = (dir: string): string[] =>
    fs.readdirSync(path.join(PACKAGE_ROOT, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(`${dir}/${d.name}`) : d.name.endsWith('.ts') ? [`${dir}/${d.name}`] : []));
  const outside = [...files('src'), ...files('specs')]
    .filter((f) => !allowed(f))
    .flatMap((f) => [...fs.readFileSync(path.join(PACKAGE_ROOT, f), 'utf8').matchAll(ID)].map((m) => `${f}: ${m[0]}`));
  expect(outside).toEqual([]);
});
