/**
 * The one Ajv instance of the suite. Every contract schema is loaded here once, compiled in a
 * strict JSON Schema 2020-12 instance with ajv-formats, all errors, no coercion and no defaults.
 * Nothing else in the suite constructs an Ajv.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type AnySchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMAS_DIR, schemaId } from './paths.ts';

// ajv-formats ships CommonJS; under ESM its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** A contract schema as loaded from disk. */
export interface LoadedSchema {
  /** Path relative to `schemas/`, with forward slashes. */
  file: string;
  id: string;
  schema: AnySchemaObject;
}

/** Every `*.json` file below `schemas/`, sorted by path. */
export function listSchemaFiles(dir: string = SCHEMAS_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) out.push(path.relative(dir, full).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Reads every contract schema from disk. */
export function loadSchemas(dir: string = SCHEMAS_DIR): LoadedSchema[] {
  return listSchemaFiles(dir).map((file) => {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as AnySchemaObject;
    return { file, id: String(schema.$id ?? schemaId(file)), schema };
  });
}

/** Builds a strict Ajv 2020-12 instance holding the given schemas. */
export function createAjv(schemas: LoadedSchema[]): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    validateFormats: true,
  });
  addFormats(ajv);
  for (const s of schemas) ajv.addSchema(s.schema);
  return ajv;
}

/** Outcome of validating one message. */
export interface ValidationOutcome {
  valid: boolean;
  errors: ErrorObject[];
}

/** The contract: every schema compiled once, looked up by `$id` or by path below `schemas/`. */
export class Contract {
  readonly ajv: Ajv2020;
  readonly schemas: LoadedSchema[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(schemas: LoadedSchema[] = loadSchemas()) {
    this.schemas = schemas;
    this.ajv = createAjv(schemas);
  }

  /** Accepts a full `$id` or a path relative to `schemas/` (`delivery/save.request.json`). */
  resolveId(ref: string): string {
    return ref.startsWith('http') ? ref : schemaId(ref);
  }

  /** The compiled validator of a schema; throws when the schema is unknown. */
  validator(ref: string): ValidateFunction {
    const id = this.resolveId(ref);
    let fn = this.compiled.get(id);
    if (!fn) {
      fn = this.ajv.getSchema(id);
      if (!fn) throw new Error(`unknown schema ${ref}`);
      this.compiled.set(id, fn);
    }
    return fn;
  }

  /** Validates data against a schema. */
  validate(ref: string, data: unknown): ValidationOutcome {
    const fn = this.validator(ref);
    const valid = fn(data) as boolean;
    return { valid, errors: valid ? [] : [...(fn.errors ?? [])] };
  }
}

let shared: Contract | undefined;

/** The process-wide contract, loaded on first use. */
export function contract(): Contract {
  shared ??= new Contract();
  return shared;
}

/** One line per error: `/path keyword: message`. */
export function formatErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '/'} ${e.keyword}: ${e.message ?? ''}`.trim()).join('; ');
}
