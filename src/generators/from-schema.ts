/**
 * fast-check arbitraries built from the contract's JSON Schemas: objects, arrays, strings
 * (patterns through `fc.stringMatching`), numbers, enums and unions, `$ref`s resolved. The view
 * decides what is generated: with the profile, every member the schemas name; by the document
 * alone, members that rest on the wire profile alone (`x-profile: true`) are not sent, since the
 * document does not know them. A spec's semantics go on top as overrides by path. Every choice is
 * fast-check's, so a value shrinks and a seed replays it.
 */
import fc from 'fast-check';
import { loadSchemas, type LoadedSchema } from '../contract/schemas.ts';
import { matching } from './matching.ts';

type Node = Record<string, unknown>;

export interface SchemaArbitraryOptions {
  /** True: the wire profile's view (default); false: the document alone. */
  profile?: boolean;
  /**
   * Arbitraries that replace what the schema would generate, by path from the root: `/currency`,
   * `/packages/*` (every item), `/deliveryAddress/city`. An override of an object member makes the
   * member present unless the arbitrary itself may give `undefined` (then the member is left out).
   */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** Paths of optional members always generated (`/packages`). */
  present?: readonly string[];
  /** Paths of members never generated. */
  absent?: readonly string[];
  /** Most items of a generated array (default 3). */
  maxItems?: number;
}

let schemas: Map<string, LoadedSchema> | undefined;

function byId(id: string): Node {
  schemas ??= new Map(loadSchemas().map((s) => [s.id, s]));
  const s = schemas.get(id);
  if (!s) throw new Error(`unknown schema ${id}`);
  return s.schema as Node;
}

const ID_BASE = 'https://module-conformance.dev/schemas/';

/** Resolves a `$ref` against the schema it appears in: `./x.json`, `x.json#/$defs/y`, `#/$defs/y`. */
function resolve(ref: string, baseId: string): { node: Node; baseId: string } {
  const [file, pointer] = ref.split('#') as [string, string | undefined];
  const id = file === '' ? baseId : new URL(file, baseId).toString();
  let node = byId(id);
  for (const part of (pointer ?? '').split('/').filter(Boolean)) node = node[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))] as Node;
  if (!node) throw new Error(`unresolved $ref ${ref} in ${baseId}`);
  return { node, baseId: id };
}

const matches = (pattern: string, path: string): boolean => {
  const a = pattern.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((p, i) => p === '*' || p === b[i]);
};

/** Whether an object meets an `if` schema of the simple form the contract uses: required members, and members of a const or enum value. */
function holds(cond: Node, o: Record<string, unknown>): boolean {
  if (((cond.required ?? []) as string[]).some((k) => !(k in o))) return false;
  return Object.entries((cond.properties ?? {}) as Record<string, Node>).every(([k, sub]) => {
    if (!(k in o) || typeof sub !== 'object') return true;
    if ('const' in sub) return o[k] === sub.const;
    if (Array.isArray(sub.enum)) return sub.enum.includes(o[k]);
    return true;
  });
}

/**
 * One schema of a node and its `allOf` members (resolved): their properties (a member's
 * definition over a bare `true`), their required members, and the first type given.
 */
function mergeAllOf(node: Node, baseId: string): Node {
  const parts = [...(node.allOf as Node[]).map((m) => (typeof m.$ref === 'string' ? resolve(m.$ref, baseId).node : m)), Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'allOf'))];
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  let type: unknown;
  let not: unknown;
  const conditionals: Node[] = [];
  for (const part of parts) {
    not ??= part.not;
    if (part.if && part.then) conditionals.push({ if: part.if, then: part.then });
    for (const c of (part['x-conditionals'] ?? []) as Node[]) conditionals.push(c);
    for (const [k, v] of Object.entries((part.properties ?? {}) as Record<string, unknown>)) if (v !== true || !(k in properties)) properties[k] = v;
    for (const r of (part.required ?? []) as string[]) required.add(r);
    type ??= part.type;
  }
  return { ...(type !== undefined ? { type } : { type: 'object' }), properties, required: [...required], ...(not !== undefined ? { not } : {}), ...(conditionals.length > 0 ? { 'x-conditionals': conditionals } : {}) };
}

/** True when all of a member's schema rests on the wire profile (`x-profile: true`, on it or on what its `$ref` names). */
function restsOnProfile(node: Node, baseId: string): boolean {
  if (node['x-profile'] === true) return true;
  return typeof node.$ref === 'string' && resolve(node.$ref, baseId).node['x-profile'] === true;
}

/** An https URL of plain characters (what ajv-formats' strict `uri` accepts). */
const URL_ARB = fc
  .record({ host: fc.constantFrom('module.example.com', 'cdn.example.org', 'shop.example.net'), path: fc.array(matching(/^[a-z0-9]{1,8}$/), { maxLength: 3 }) })
  .map(({ host, path }) => `https://${host}/${path.join('/')}`);

/** Strings of the formats the contract's schemas use (ajv-formats). */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uri: URL_ARB,
  'uri-reference': URL_ARB,
  url: URL_ARB,
  email: fc.emailAddress(),
  'date-time': fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uuid: fc.uuid(),
};

/** The arbitrary of one schema (a path below `schemas/` or an `$id`). */
/**
 * A character of a free text: printable ASCII, a Cyrillic letter, or a Latin letter with a
 * diacritic (the scripts the platform's users write in; issue 31, item 8).
 */
const TEXT_UNIT: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x410, max: 0x44f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom(...'ÀÉÖÜßàáâãäåçèéêëíîïñòóôõöùúûüýÿąćęłńóśźżčďěňřšťůžğışİ'.split('')) },
);

export function schemaArbitrary(ref: string, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const id = ref.startsWith('http') ? ref : `${ID_BASE}${ref}`;
  const profile = options.profile ?? true;
  const overrides = Object.entries(options.overrides ?? {});
  const maxItems = options.maxItems ?? 3;
  const override = (path: string): fc.Arbitrary<unknown> | undefined => overrides.find(([p]) => matches(p, path))?.[1];
  const listed = (list: readonly string[] | undefined, path: string): boolean => (list ?? []).some((p) => matches(p, path));

  const build = (node: Node | boolean, baseId: string, path: string, depth: number): fc.Arbitrary<unknown> => {
    const given = override(path);
    if (given) return given;
    // A boolean schema: anything (true), or nothing can be valid (false: never asked for).
    if (node === true || node === false) return fc.jsonValue({ maxDepth: 2 });
    if (typeof node.$ref === 'string') {
      const r = resolve(node.$ref, baseId);
      return build({ ...r.node, ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref')) }, r.baseId, path, depth);
    }
    if (Array.isArray(node.allOf)) return build(mergeAllOf(node, baseId), baseId, path, depth);
    if ('const' in node) return fc.constant(node.const);
    if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
    if (Array.isArray(node.oneOf ?? node.anyOf)) return fc.oneof(...((node.oneOf ?? node.anyOf) as Node[]).map((n) => build(n, baseId, path, depth + 1)));
    const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
    // A union of an object and an empty array (PHP's empty map): the object form.
    const type = types.includes('object') ? 'object' : types[0];
    switch (type) {
      case 'object': {
        const properties = (node.properties ?? {}) as Record<string, Node>;
        const required = new Set((node.required ?? []) as string[]);
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        const requiredKeys: string[] = [];
        for (const [key, sub] of Object.entries(properties)) {
          const at = `${path}/${key}`;
          if (listed(options.absent, at)) continue;
          if (!profile && restsOnProfile(sub, baseId)) continue;
          if (depth > 8 && !required.has(key)) continue;
          model[key] = build(sub, baseId, at, depth + 1);
          if (required.has(key) || override(at) || listed(options.present, at)) requiredKeys.push(key);
        }
        // `not: {required: [a, b]}` (never all of them together): the last of them is left out.
        const never = node.not && typeof node.not === 'object' && Array.isArray((node.not as Node).required) ? ((node.not as Node).required as string[]) : undefined;
        // `if`/`then` (a member required for one value of another): what `then` requires is added.
        const conditionals = [...(node.if && node.then ? [{ if: node.if, then: node.then }] : []), ...((node['x-conditionals'] ?? []) as Node[])] as Array<{ if: Node; then: Node }>;
        const clean = (o: Record<string, unknown>): Record<string, unknown> => {
          const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
          if (never && never.every((k) => k in out)) delete out[never.at(-1)!];
          return out;
        };
        const base = fc.record(model, { requiredKeys }).map(clean);
        if (conditionals.length === 0) return base;
        return base.chain((o) => {
          const missing = [...new Set(conditionals.filter((c) => holds(c.if, o)).flatMap((c) => ((c.then.required ?? []) as string[]).filter((k) => !(k in o) && model[k])))];
          if (missing.length === 0) return fc.constant(o);
          return fc.record(Object.fromEntries(missing.map((k) => [k, model[k]!])), { requiredKeys: missing }).map((extra) => ({ ...o, ...extra }));
        });
      }
      case 'array': {
        const items = (node.items ?? {}) as Node;
        const max = Math.min(maxItems, typeof node.maxItems === 'number' ? node.maxItems : maxItems);
        const min = typeof node.minItems === 'number' ? node.minItems : 0;
        return fc.array(build(items, baseId, `${path}/*`, depth + 1), { minLength: min, maxLength: Math.max(min, max) });
      }
      case 'string':
        if (typeof node.format === 'string' && FORMATS[node.format]) return FORMATS[node.format]!;
        if (typeof node.pattern === 'string') return matching(new RegExp(node.pattern));
        return fc.string({ unit: TEXT_UNIT, minLength: typeof node.minLength === 'number' ? node.minLength : 0, maxLength: Math.min(40, typeof node.maxLength === 'number' ? node.maxLength : 40) });
      case 'integer':
        return fc.integer({ min: typeof node.minimum === 'number' ? node.minimum : -1000, max: typeof node.maximum === 'number' ? node.maximum : 1_000_000 });
      case 'number':
        return fc.double({ min: typeof node.minimum === 'number' ? node.minimum : -1000, max: typeof node.maximum === 'number' ? node.maximum : 1_000_000, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return build(byId(id), id, '', 0);
}
