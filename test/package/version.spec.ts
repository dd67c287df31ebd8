/**
 * `conformance --version`: the suite's version and the SHA-256 of the contract document the
 * requirements catalogue was made from, recorded in specs/requirements/contract.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { CONTRACT_FILE, PACKAGE_ROOT } from '../../src/contract/paths.ts';

const recorded = JSON.parse(fs.readFileSync(CONTRACT_FILE, 'utf8')) as { document: string; sha256: string };
const CONTRACT_DOCUMENT = path.resolve(PACKAGE_ROOT, '..', 'shared', 'spec', 'integration-interface.md');
const version = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('the recorded SHA-256 is that of the contract document beside the repository', () => {
  expect(recorded.document).toBe(path.basename(CONTRACT_DOCUMENT));
  expect(recorded.sha256).toMatch(/^[0-9a-f]{64}$/);
  test.skip(!fs.existsSync(CONTRACT_DOCUMENT), 'shared/spec is not beside the repository');
  const actual = createHash('sha256').update(fs.readFileSync(CONTRACT_DOCUMENT)).digest('hex');
  expect(actual, 'the contract changed: review the catalogue against it, then record the new hash in specs/requirements/contract.json').toBe(
    recorded.sha256,
  );
});

test('`conformance --version` prints the suite version and the contract hash; the usage names it', () => {
  const conformance = (...args: string[]): string =>
    execFileSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { encoding: 'utf8' });
  expect(conformance('--version')).toBe(`module-conformance ${version} (contract sha256 ${recorded.sha256})\n`);
  expect(conformance('--help')).toMatch(/^\s+--version\s+\S/m);
});
