/**
 * The contract's schemas, compiled by this module alone: a strict JSON Schema 2020-12 Ajv with
 * ajv-formats, all errors, no coercion and no defaults. Nothing else in the suite constructs an
 * Ajv.
 *
 * Two views of the same files: *with the profile* (the schemas as written) and *the document
 * alone*, where every constraint that rests on the wire profile alone is dropped. A schema
 * marks such constraints where they stand:
 *
 * - `"x-profile": true` on a subschema: all of it rests on the profile; without the profile the
 *   subschema accepts anything (its annotations and `$defs` stay).
 * - `"x-profile": {"<keyword>": true}`: that keyword of the subschema rests on the profile;
 *   `{"<keyword>": [v, ...]}` only those entries of it (names in `required`, values in `enum`,
 *   members of `properties`).
 * - `"x-document": {"<keyword>": <value>}`: where the profile relaxes the document, the value
 *   the document alone gives the keyword (`null` removes it).
 *
 * Both views read JSON `null` in an object member as the member being absent (wire profile
 * section 9; the document does not say how absence is written, and null is a reading a correct
 * module makes): a null optional field is never a failure, a null required one is missing.
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
  for (const keyword of SOURCE_KEYWORDS) ajv.addKeyword(keyword);
  for (const s of schemas) ajv.addSchema(s.schema);
  return ajv;
}

/** The annotations that mark the source of constraints (see the head of this file). */
export const SOURCE_KEYWORDS = ['x-profile', 'x-document'] as const;

/** Keywords a subschema keeps when all of it rests on the profile and the profile is off. */
const ANNOTATIONS = new Set(['$id', '$schema', '$anchor', '$comment', 'title', 'description', 'examples', '$defs', 'x-document']);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A schema as the document alone reads it: every constraint marked `x-profile` dropped, `x-document` applied. */
export function documentAlone<T>(node: T): T {
  if (Array.isArray(node)) return node.map((n) => documentAlone(n)) as T;
  if (!node || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  let out: Record<string, unknown> = Object.fromEntries(Object.entries(src).map(([k, v]) => [k, k === 'enum' || k === 'const' || k === 'examples' || k === 'default' ? v : documentAlone(v)]));
  const marks = src['x-profile'];
  if (marks === true) {
    out = Object.fromEntries(Object.entries(out).filter(([k]) => ANNOTATIONS.has(k)));
  } else if (marks && typeof marks === 'object') {
    for (const [keyword, which] of Object.entries(marks as Record<string, unknown>)) {
      const value = out[keyword];
      if (which === true || value === undefined) delete out[keyword];
      else if (Array.isArray(which) && Array.isArray(value)) {
        const kept = value.filter((v) => !which.some((w) => same(v, w)));
        if (kept.length > 0) out[keyword] = kept;
        else delete out[keyword];
      } else if (Array.isArray(which) && value && typeof value === 'object') {
        out[keyword] = Object.fromEntries(Object.entries(value).filter(([k]) => !which.includes(k)));
      } else throw new Error(`x-profile: cannot drop ${JSON.stringify(which)} from "${keyword}"`);
    }
  }
  const doc = src['x-document'];
  if (doc && typeof doc === 'object') {
    for (const [keyword, value] of Object.entries(doc as Record<string, unknown>)) {
      if (value === null) delete out[keyword];
      else out[keyword] = value;
    }
  }
  return out as T;
}

/**
 * The message as the schemas judge it: object members whose value is JSON null are absent.
 * Iterative (an explicit stack), so that a hostile message nested however deep cannot overflow
 * the call stack.
 */
export function withoutNulls<T>(value: T): T {
  if (!value || typeof value !== 'object') return value;
  const copy = (v: unknown): unknown => (Array.isArray(v) ? new Array<unknown>(v.length) : v && typeof v === 'object' ? {} : v);
  const root = copy(value);
  const stack: Array<[unknown, unknown]> = [[value, root]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      const out = to as unknown[];
      from.forEach((v, i) => {
        out[i] = copy(v);
        if (v && typeof v === 'object') stack.push([v, out[i]]);
      });
    } else {
      const out = to as Record<string, unknown>;
      for (const [k, v] of Object.entries(from as Record<string, unknown>)) {
        if (v === null) continue;
        // Like Object.fromEntries: `__proto__` is an own member, not the prototype.
        Object.defineProperty(out, k, { value: copy(v), enumerable: true, writable: true, configurable: true });
        if (v && typeof v === 'object') stack.push([v, out[k]]);
      }
    }
  }
  return root as T;
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

  /** False for the document-alone view. */
  readonly profile: boolean;

  constructor(schemas: LoadedSchema[] = loadSchemas(), view: ContractView = {}) {
    this.profile = view.profile ?? true;
    this.schemas = this.profile ? schemas : schemas.map((s) => ({ ...s, schema: documentAlone(s.schema) }));
    this.ajv = createAjv(this.schemas);
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

  /** Validates data against a schema (null members read as absent). */
  validate(ref: string, data: unknown): ValidationOutcome {
    const fn = this.validator(ref);
    const valid = fn(withoutNulls(data)) as boolean;
    return { valid, errors: valid ? [] : [...(fn.errors ?? [])] };
  }
}

/** Which reading of the contract: with the wire profile (default) or the document alone. */
export interface ContractView {
  profile?: boolean;
}

const shared = new Map<boolean, Contract>();

/** The process-wide contract of a view, loaded on first use. */
export function contract(view: ContractView = {}): Contract {
  const profile = view.profile ?? true;
  let c = shared.get(profile);
  if (!c) shared.set(profile, (c = new Contract(profile ? loadSchemas() : shared.get(true)?.schemas ?? loadSchemas(), { profile })));
  return c;
}

/** One line per error: `/path keyword: message`. */
export function formatErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '/'} ${e.keyword}: ${e.message ?? ''}`.trim()).join('; ');
}
