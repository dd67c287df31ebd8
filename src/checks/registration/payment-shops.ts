import type { ErrorObject } from 'ajv';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import { at, matches, type ErrorMatcher, type SchemaRule, type SchemaSubject } from '../schema-rule.ts';

const SCHEMA = 'registration/integration-module.edit.json';
const SHOPS = '/integrations/payment/shops';

/** The schema errors this rule owns: everything about `integrations.payment.shops` and its shops. */
const OWNS: ErrorMatcher[] = [{ schema: SCHEMA, path: /^\/integrations\/payment\/shops(\/.*)?$/ }];

/** What each member of a shop must be (integration-interface.md, Payment configuration). */
const MEMBER: Record<string, string> = {
  code: 'code, a non-empty string',
  name: 'name, a string',
  active: 'active, true or false',
};

/** "shop 1 ("outlet")": the index, and the code when the shop has a usable one. */
function shopLabel(message: unknown, index: string): string {
  const code = (at(message, `${SHOPS}/${index}`) as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.length > 0 ? `shop ${index} (code ${JSON.stringify(code)})` : `shop ${index}`;
}

/** One error, said of the shop (by index) and the member it concerns. */
function describe(message: unknown, e: ErrorObject): { received: string; expected: string } {
  const rest = e.instancePath.slice(SHOPS.length);
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  if (rest === '') return { received: `shops = ${show(at(message, SHOPS), 120)}`, expected: 'shops, an array of {code, name, active}' };
  const [, index, member] = rest.split('/');
  const shop = shopLabel(message, index!);
  if (member === undefined && missing !== undefined) return { received: `${shop} has no ${missing}`, expected: `${shop}: ${MEMBER[missing] ?? missing}` };
  if (member === undefined) return { received: `${shop} = ${show(at(message, e.instancePath), 120)}`, expected: `${shop}: an object {code, name, active}` };
  return { received: `${shop}: ${member} = ${show(at(message, e.instancePath), 120)}`, expected: `${shop}: ${MEMBER[member] ?? `${member}: ${e.message ?? e.keyword}`}` };
}

/**
 * Every payment shop is an object `{code, name, active}`: `code` a non-empty string, `name` a
 * string, `active` a boolean (integration-interface.md, Payment configuration: `shops` | array
 * of `{name, code, active}`). The schema states it (registration/payment-configuration.json);
 * this rule owns those errors, so the generic schema check of the payment region leaves them to
 * it, and says each by the shop's index and member. JSON null in a member reads as absent (wire
 * profile section 9): a null member is a missing one. Shop codes are not required to be unique:
 * the document does not say so.
 */
export const ensureShopsHaveCodeNameActive: SchemaRule = Object.assign(
  defineCheck<SchemaSubject>({
    name: 'ensureShopsHaveCodeNameActive',
    checks: 'every payment shop is {code, name, active}: a non-empty code, a name, active true or false',
    run(s) {
      if (!(s.kinds ?? []).includes('payment')) return notApplicable('the module declares no payment integration');
      if (s.schema !== SCHEMA) throw new Error(`ensureShopsHaveCodeNameActive judges ${SCHEMA}, not ${s.schema}`);
      const errors = s.errors.filter((e) => OWNS.some((m) => matches(e, m, s.schema)));
      if (errors.length > 0) {
        const parts = errors.map((e) => describe(s.message, e));
        const unique = (xs: string[]): string[] => xs.filter((v, i, a) => a.indexOf(v) === i);
        return fail(unique(parts.map((p) => p.received)).join('; '), unique(parts.map((p) => p.expected)).join('; '), s.evidence);
      }
      const shops = at(s.message, SHOPS);
      if (shops === undefined) return notApplicable('the payment integration lists no shops');
      if (Array.isArray(shops) && shops.length === 0) return notApplicable('the payment integration lists no shops (an empty list)');
      return pass(`${Array.isArray(shops) ? shops.length : 0} shops, each with a code, a name and active`, s.evidence);
    },
  }),
  { owns: OWNS as readonly ErrorMatcher[] },
);
