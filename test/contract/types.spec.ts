import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import { generateTypes, TYPES_FILE } from '../../src/contract/generate-types.ts';
import { loadSchemas } from '../../src/contract/schemas.ts';

test('generated message types are in sync with the schemas (run `npm run generate:types`)', async () => {
  test.setTimeout(120_000);
  const fresh = await generateTypes();
  expect(fs.readFileSync(TYPES_FILE, 'utf8')).toBe(fresh);
});

test('every message schema has its type, named by its title', () => {
  const generated = fs.readFileSync(TYPES_FILE, 'utf8');
  const missing = loadSchemas()
    .filter((s) => !s.file.startsWith('suite/'))
    .map((s) => String(s.schema.title))
    .filter((title) => !new RegExp(`export (type|interface) ${title}\\b`).test(generated));
  expect(missing).toEqual([]);
});
