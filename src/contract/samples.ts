/**
 * Data-driven samples of the contract schemas, in the form ajv's own tests use:
 * one file per schema, `test/contract/samples/<same path as the schema>`, holding
 * `{schema, tests: [{description, data, valid, error?, documentAlone?}]}`. An invalid sample states
 * the error it must fail with (`keyword` and `instancePath`, optionally a subset of `params`);
 * `documentAlone` states the outcome without the wire profile where it differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './paths.ts';

export const SAMPLES_DIR = path.join(PACKAGE_ROOT, 'test', 'contract', 'samples');

export interface ExpectedError {
  keyword: string;
  instancePath: string;
  params?: Record<string, unknown>;
}

export interface SampleCase {
  description: string;
  data: unknown;
  valid: boolean;
  /** Required when `valid` is false: the reason the sample must fail for. */
  error?: ExpectedError;
  /**
   * The outcome with the document alone (profile-only constraints dropped, see
   * `src/contract/schemas.ts`), when it differs from the outcome with the profile.
   */
  documentAlone?: { valid: boolean; error?: ExpectedError };
}

export interface SampleFile {
  /** Path of the schema below `schemas/`. */
  schema: string;
  tests: SampleCase[];
}

/** The samples file of a schema (`delivery/save.request.json`), or undefined when it has none. */
export function readSamples(schemaFile: string): SampleFile | undefined {
  const file = path.join(SAMPLES_DIR, schemaFile);
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SampleFile;
}
