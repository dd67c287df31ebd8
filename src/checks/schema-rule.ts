/**
 * Rules backed by the contract schemas. A named rule owns a region of a message's schema
 * errors (by instance path, keyword, missing property); the generic schema check reports only
 * the errors that none of the named rules applied alongside it owns (given with its subject,
 * `ownedBy`), so one fault fails one check, whichever modules were loaded.
 */
import type { ErrorObject } from 'ajv';
import { defineCheck, fail, notApplicable, pass, show, type Check } from './check.ts';

/** Selects schema errors: instance path (a regular expression over the whole path), keyword, missing property. */
export interface ErrorMatcher {
  /** The schema (path below schemas/) whose errors this matcher selects. */
  schema: string;
  path: RegExp;
  keyword?: string | string[];
  missing?: string;
}

export function matches(e: ErrorObject, m: ErrorMatcher, schema: string): boolean {
  if (m.schema !== schema) return false;
  if (!m.path.test(e.instancePath)) return false;
  if (m.keyword !== undefined && !(Array.isArray(m.keyword) ? m.keyword : [m.keyword]).includes(e.keyword)) return false;
  if (m.missing !== undefined && (e.params as { missingProperty?: string }).missingProperty !== m.missing) return false;
  return true;
}

/** A message with its schema errors, as judged by schema rules. */
export interface SchemaSubject {
  /** The schema the message was validated against (path below schemas/). */
  schema: string;
  /** The message (the integrationModule JSON, a decoded request payload). */
  message: unknown;
  errors: ErrorObject[];
  /** Exchange ids where the message was seen. */
  evidence: string[];
  /** Which parts the message declares (module kinds), for applicability. */
  kinds?: string[];
  /** The reading the errors were made with: with the wire profile (default) or the document alone. */
  profile?: boolean;
}

/** The value at a JSON pointer (Ajv's instancePath). */
export function at(message: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), message);
}

/** "/integrations/delivery/payerType/1 = "thirdParty"" lines for a failure. */
export function describeErrors(message: unknown, errors: ErrorObject[]): { received: string; expected: string } {
  const received = errors
    .map((e) => {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      return missing ? `${e.instancePath || '(root)'} has no "${missing}"` : `${e.instancePath || '(root)'} = ${show(at(message, e.instancePath), 120)}`;
    })
    .filter((v, i, a) => a.indexOf(v) === i);
  const expected = errors
    .map((e) => {
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      const text = allowed ? `one of ${allowed.length > 12 ? `${allowed.length} allowed values` : allowed.map((a) => JSON.stringify(a)).join(', ')}` : e.message ?? e.keyword;
      return `${e.instancePath || '(root)'}: ${text}`;
    })
    .filter((v, i, a) => a.indexOf(v) === i);
  return { received: received.join('; '), expected: expected.join('; ') };
}

export interface SchemaRuleSpec {
  name: string;
  /** The schema whose errors the rule owns (path below schemas/). */
  schema: string;
  checks: string;
  /** The module kind this rule belongs to; not applicable when the module does not declare it. */
  kind?: string;
  owns: Array<Omit<ErrorMatcher, 'schema'>>;
  /** A rule the schema cannot express, run in addition (returns what is wrong, or nothing). */
  extra?: (message: unknown) => { received: string; expected: string } | undefined;
}

/** A named rule over the schema errors it owns. */
export interface SchemaRule extends Check<SchemaSubject> {
  /** The errors it owns: the generic schema check applied alongside it leaves them to it. */
  readonly owns: readonly ErrorMatcher[];
}

/** Defines a named rule over the schema errors it owns. */
export function defineSchemaRule(spec: SchemaRuleSpec): SchemaRule {
  const owns: ErrorMatcher[] = spec.owns.map((m) => ({ ...m, schema: spec.schema }));
  const check = defineCheck<SchemaSubject>({
    name: spec.name,
    checks: spec.checks,
    run(s) {
      if (spec.kind && !(s.kinds ?? []).includes(spec.kind)) return notApplicable(`the module declares no ${spec.kind} integration`);
      if (s.schema !== spec.schema) throw new Error(`${spec.name} judges ${spec.schema}, not ${s.schema}`);
      const errors = s.errors.filter((e) => owns.some((m) => matches(e, m, s.schema)));
      if (errors.length > 0) {
        const d = describeErrors(s.message, errors);
        return fail(d.received, d.expected, s.evidence);
      }
      const extra = spec.extra?.(s.message);
      if (extra) return fail(extra.received, extra.expected, s.evidence);
      return pass(undefined, s.evidence);
    },
  });
  return Object.assign(check, { owns });
}

/**
 * The errors owned by those of these checks that are named schema rules: what the generic
 * schema check applied alongside them leaves to them (its subject's `owned`).
 */
export function ownedBy(checks: Iterable<Check<never> | Check<SchemaSubject> | undefined>): ErrorMatcher[] {
  const out: ErrorMatcher[] = [];
  for (const check of checks) {
    const owns = (check as Partial<SchemaRule> | undefined)?.owns;
    if (owns) out.push(...owns);
  }
  return out;
}

/** The part of a message a generic schema check judges: a region, less what the named rules applied alongside own. */
export interface RegionSubject extends SchemaSubject {
  region: RegExp;
  /** The kind this region belongs to, for applicability. */
  kind?: string;
  /** The errors owned by the named schema rules applied to the same message (`ownedBy`): left to them. */
  owned: readonly ErrorMatcher[];
}

/** Generic: the errors in a region that none of the named rules applied alongside owns. Applied once per region, with that region's ids. */
export const ensureMessageMatchesSchema = defineCheck<RegionSubject>({
  name: 'ensureMessageMatchesSchema',
  checks: 'the message conforms to its contract schema (types, formats, allowed values)',
  run(s) {
    if (s.kind && !(s.kinds ?? []).includes(s.kind)) return notApplicable(`the module declares no ${s.kind} integration`);
    // An `if` error only wraps the errors of its `then`, which are reported themselves.
    const errors = s.errors.filter((e) => e.keyword !== 'if' && s.region.test(e.instancePath) && !s.owned.some((m) => matches(e, m, s.schema)));
    if (errors.length === 0) return pass(undefined, s.evidence);
    const d = describeErrors(s.message, errors);
    return fail(d.received, d.expected, s.evidence);
  },
});
