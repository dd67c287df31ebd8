import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { OPENAPI_FILES, loadOpenApi, operations, references } from '../../src/contract/openapi.ts';
import { ID_BASE, OPENAPI_DIR, PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { loadSchemas } from '../../src/contract/schemas.ts';

const ids = new Set(loadSchemas().map((s) => s.id));

function pointer(doc: unknown, ptr: string): unknown {
  return ptr
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);
}

for (const file of OPENAPI_FILES) {
  test(`${file} lints clean with Redocly`, () => {
    test.setTimeout(120_000);
    const out = execFileSync(
      process.execPath,
      [path.join(PACKAGE_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', '--config', path.join(OPENAPI_DIR, 'redocly.yaml'),
        '--format=json', path.join(OPENAPI_DIR, file)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const report = JSON.parse(out.slice(out.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
}

for (const file of OPENAPI_FILES) {
  test.describe(file, () => {
    const doc = loadOpenApi(file);

    test('is OpenAPI 3.1 with operations, each with an operationId', () => {
      expect(doc.openapi).toMatch(/^3\.1\./);
      const ops = operations(doc);
      expect(ops.length).toBeGreaterThan(5);
      expect(ops.filter((o) => !o.operation.operationId).map((o) => `${o.method} ${o.key}`)).toEqual([]);
    });

    test('every $ref resolves, and a schema reference resolves to the $id of the file it names', () => {
      const docUrl = `${ID_BASE}openapi/${file}`;
      const broken: string[] = [];
      for (const { at, ref } of references(doc)) {
        if (ref.startsWith('#')) {
          if (pointer(doc, ref) === undefined) broken.push(`${at}: ${ref}`);
          continue;
        }
        const [target, fragment] = ref.split('#');
        const onDisk = path.resolve(OPENAPI_DIR, target!);
        if (!fs.existsSync(onDisk)) broken.push(`${at}: ${ref} (no file)`);
        else {
          const byId = new URL(target!, docUrl).href;
          if (!ids.has(byId)) broken.push(`${at}: ${ref} (${byId} is no schema $id)`);
          if (fragment && pointer(JSON.parse(fs.readFileSync(onDisk, 'utf8')), `#${fragment}`) === undefined) broken.push(`${at}: ${ref} (no ${fragment})`);
        }
      }
      expect(broken).toEqual([]);
    });
  });
}

test('the module document has a webhook per callback: activity, nine delivery actions, autocomplete, four payment actions, three telephony URLs', () => {
  const keys = Object.keys(loadOpenApi('module.openapi.yaml').webhooks ?? {}).sort();
  expect(keys).toEqual(
    [
      'activity',
      ...['calculate', 'save', 'get', 'delete', 'print', 'shipmentPointList', 'shipmentSave', 'shipmentDelete', 'tariffList', 'autocomplete'].map((a) => `delivery.${a}`),
      ...['create', 'approve', 'cancel', 'refund'].map((a) => `payment.${a}`),
      ...['makeCall', 'changeUserStatus', 'record'].map((a) => `telephony.${a}`),
    ].sort(),
  );
});
