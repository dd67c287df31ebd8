/**
 * The suite's identity, as `conformance --version` prints it and every report records it
 * (results.json `run.suite`, junit.xml's properties, a bundle's bundle.json): the package's
 * name and version, and the SHA-256 of the contract document the requirements catalogue was
 * made from (specs/requirements/contract.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONTRACT_FILE, PACKAGE_ROOT } from './paths.ts';

export interface SuiteIdentity {
  name: string;
  version: string;
  /** SHA-256 (hex) of the contract document; `unknown` when specs/requirements/contract.json cannot be read. */
  contractSha256: string;
}

function readField(file: string, field: string): string {
  try {
    const value = (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : 'unknown';
  } catch {
    return 'unknown';
  }
}

let identity: SuiteIdentity | undefined;

/** The suite's name, version and contract SHA-256 (read once). */
export function suiteIdentity(): SuiteIdentity {
  identity ??= {
    name: readField(path.join(PACKAGE_ROOT, 'package.json'), 'name'),
    version: readField(path.join(PACKAGE_ROOT, 'package.json'), 'version'),
    contractSha256: readField(CONTRACT_FILE, 'sha256'),
  };
  return { ...identity };
}

/** `module-conformance <version> (contract sha256 <hex>)`: the suite and the contract it was made from. */
export function suiteLine(s: SuiteIdentity = suiteIdentity()): string {
  return `${s.name} ${s.version} (contract sha256 ${s.contractSha256})`;
}
