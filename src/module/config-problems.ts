/**
 * A strict configuration: every problem the schema (`schemas/suite/config.json`, closed) and the
 * placeholder check find, one message each, naming the key, its path in the file (a JSON pointer,
 * `/` for the top) and, for a misspelling, the nearest known name.
 */
import type { ErrorObject } from 'ajv';
import { contract } from '../contract/schemas.ts';
import { nearestName } from './config-error.ts';
import { escapePointer, placeholderProblems } from './placeholders.ts';
import { readinessPatternProblems } from './readiness-pattern.ts';
import { blanksOf, blankText } from './config-blanks.ts';

const CONFIG_SCHEMA = 'suite/config.json';

const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The subschema of the config schema at a schema path (`#/properties/launch/...`). */
function schemaAt(schemaPath: string): Record<string, unknown> | undefined {
  const root = contract().schemas.find((s) => s.file === CONFIG_SCHEMA)?.schema as unknown;
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map(unescapePointer);
  let node: unknown = root;
  for (const s of segments) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

/** Where a JSON pointer is in the file: the index of each key (or item) along it, in file order. */
function positionIn(data: unknown, pointer: string): number[] {
  const out: number[] = [];
  let node = data;
  for (const s of pointer.split('/').slice(1).map(unescapePointer)) {
    if (!node || typeof node !== 'object') break;
    out.push(Array.isArray(node) ? Number(s) : Object.keys(node).indexOf(s));
    node = (node as Record<string, unknown>)[s];
  }
  return out;
}

/** The value at a JSON pointer of the data. */
function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const s of pointer.split('/').slice(1).map(unescapePointer)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const quoted = (names: readonly unknown[]): string => names.map((n) => JSON.stringify(n)).join(', ');

interface Problem {
  /** Where it is reported: the object holding the key, or the value itself. */
  at: string;
  /** Where it is in the file: the unknown key, the value, or the object missing a key. */
  pointer: string;
  /** 0 missing key, 1 unknown key, 2 wrong type, 3 any other. */
  rank: number;
  text: string;
  /** An unknown key's suggestion, to drop the `required` error it explains. */
  meant?: string;
  missing?: string;
  /** An unknown name with no near known one: said once for all such names of its object. */
  unknown?: { noun: 'key' | 'trigger'; name: string; known: string[] };
}

function problemOf(e: ErrorObject, data: unknown): Problem | undefined {
  const at = e.instancePath || '/';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined; // said by the error inside (`then`'s required, the name's enum)
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((schemaAt(e.schemaPath.replace(/\/additionalProperties$/, ''))?.properties as Record<string, unknown> | undefined) ?? {});
      const meant = nearestName(key, known);
      const pointer = `${e.instancePath}/${escapePointer(key)}`;
      if (!meant) return { at, pointer, rank: 1, text: '', unknown: { noun: 'key', name: key, known } };
      return { at, pointer, rank: 1, text: `unknown key ${JSON.stringify(key)} at ${at}; did you mean ${JSON.stringify(meant)}?`, meant };
    }
    case 'required': {
      const key = String(params.missingProperty);
      return { at, pointer: e.instancePath, rank: 0, text: `missing required key ${JSON.stringify(key)} at ${at}`, missing: key };
    }
    case 'type': {
      const value = valueAt(data, e.instancePath);
      const expected = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type).split(',').join(' or ');
      return { at, pointer: e.instancePath, rank: 2, text: `wrong type at ${at}: expected ${expected}, got ${jsonType(value)}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      if (e.schemaPath.endsWith('/propertyNames/enum')) {
        // A trigger name outside the vocabulary.
        const name = String((e as ErrorObject & { propertyName?: string }).propertyName);
        const meant = nearestName(name, allowed.map(String));
        const pointer = `${e.instancePath}/${escapePointer(name)}`;
        if (!meant) return { at, pointer, rank: 1, text: '', unknown: { noun: 'trigger', name, known: allowed.map(String) } };
        return { at, pointer, rank: 1, text: `unknown trigger ${JSON.stringify(name)} at ${at}; did you mean ${JSON.stringify(meant)}?` };
      }
      const value = valueAt(data, e.instancePath);
      const meant = typeof value === 'string' ? nearestName(value, allowed.filter((v): v is string => typeof v === 'string')) : undefined;
      return { at, pointer: e.instancePath, rank: 3, text: `invalid value ${shown(value)} at ${at}; ${meant ? `did you mean ${JSON.stringify(meant)}?` : `expected one of ${quoted(allowed)}`}` };
    }
    default:
      return { at, pointer: e.instancePath, rank: 3, text: `invalid value ${shown(valueAt(data, e.instancePath))} at ${at}: ${e.message ?? e.keyword}` };
  }
}

/**
 * What is wrong with a configuration, one message a problem, in the order of the file (a key
 * missing from an object before what is inside it; at one place a missing key, then an unknown
 * one, then a wrong type, then the rest).
 * A missing required key that a misspelled key was meant to be is not said twice; nor is a
 * second complaint about the same value. Empty when the configuration is valid.
 */
export function configProblems(data: unknown): string[] {
  const out = contract().validate(CONFIG_SCHEMA, data);
  // The strings the run interprets: placeholders, and the readiness pattern.
  const placeholders = [...placeholderProblems(data), ...readinessPatternProblems(data)];
  // A value still to fill in (`<FILL IN: ...>`, conformance init) is said as such, and nothing else of it.
  const blanks = blanksOf(data);
  if (out.valid && placeholders.length === 0 && blanks.length === 0) return [];
  const problems = (out.valid ? [] : out.errors).map((e) => problemOf(e, data)).filter((p): p is Problem => p !== undefined);
  const meant = new Set(problems.filter((p) => p.meant).map((p) => `${p.at}\u0000${p.meant}`));
  const seenValues = new Set<string>();
  const unknown = new Map<string, { problem: Problem; names: string[] }>();
  const kept = problems.filter((p) => {
    if (p.missing !== undefined && meant.has(`${p.at}\u0000${p.missing}`)) return false;
    if (p.unknown) {
      // Unknown names nothing known is near: one problem for all of them in their object.
      const group = `${p.at}\u0000${p.unknown.noun}`;
      const seen = unknown.get(group);
      if (seen) seen.names.push(p.unknown.name);
      else unknown.set(group, { problem: p, names: [p.unknown.name] });
      return !seen;
    }
    if (p.rank >= 2) {
      if (seenValues.has(p.at)) return false;
      seenValues.add(p.at);
    }
    return true;
  });
  for (const { problem: p, names } of unknown.values()) {
    const { noun, known } = p.unknown!;
    p.text = `unknown ${noun}${names.length > 1 ? 's' : ''} ${quoted(names)} at ${p.at}; known ${noun}s: ${known.join(', ') || '(none)'}`;
  }
  kept.push(...placeholders);
  const blanked = (p: { pointer: string }): boolean => blanks.some((b) => p.pointer === b.pointer || p.pointer.startsWith(`${b.pointer}/`));
  kept.splice(0, kept.length, ...kept.filter((p) => !blanked(p)), ...blanks.map((b) => ({ at: b.pointer || '/', pointer: b.pointer, rank: 0, text: blankText(b) })));
  const order = (p: Problem): number[] => positionIn(data, p.pointer);
  const before = (a: number[], b: number[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  return [...new Set(kept.sort((a, b) => before(order(a), order(b)) || a.rank - b.rank).map((p) => p.text))];
}
