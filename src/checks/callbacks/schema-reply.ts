/**
 * A reply rule backed by a contract schema, written once: which subjects and answers it judges,
 * then the reply's JSON validated against the schema in the run's view (`contract({profile})`),
 * the errors kept to the rule's region by instance path, and a failure that names them, or what
 * holds. Each rule declares its own tests and texts; the order is always: `when` (the case),
 * `answer` (the reply), `notJson`, `before`, the schema, `holds`.
 */
import type { ErrorObject } from 'ajv';
import type { Reply } from '../../client/callback-client.ts';
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, type Check, type Verdict } from '../check.ts';
import type { CaseOutcome } from '../case.ts';
import { claimsSuccess, describeReply } from './reply.ts';

/** The reply a subject carries, and the run's reading (absent: the contract's default view, the profile). */
export interface ReplyReading {
  reply: Reply;
  profile?: boolean;
}

/**
 * Which answers a rule judges:
 * - `success` (default): only a reply that claims success; any other is not applicable,
 *   "the module did not answer success (<reply>)";
 * - `mustSucceed`: a reply that does not claim success fails (received, expected); a 2xx one is
 *   validated first, so that its schema errors are named;
 * - a function: the rule's own test, a verdict ending the check.
 */
export type AnswerTest<S> = 'success' | 'mustSucceed' | ((reply: Reply, s: S) => Verdict | undefined);

/** The schema errors a rule owns: those whose instance path matches `only`, or all but those matching one of `except`. */
export type Region = { only: RegExp } | { except: readonly RegExp[] };

interface RuleBase<S> {
  name: string;
  checks: string;
  /** The schema the reply's JSON is validated against (path below `schemas/`). */
  schema: string;
  /** Not applicable to this subject (the callback, the case's intent): a verdict ends the check before the reply is read. */
  when?: (s: S) => Verdict | undefined;
  answer?: AnswerTest<S>;
  /** What a reply whose body is not JSON gets, after the answer test; without it, the body goes to the schema. */
  notJson?: (s: S, evidence: string[]) => Verdict;
  /** Rules judged before the schema (a verdict ends the check). */
  before?: (s: S, evidence: string[]) => Verdict | undefined;
  region?: Region;
  /** What a failure received (default: the reply, `describeReply`). */
  received?: (s: S) => string;
  /** The shape a failure expected; with the schema's errors it reads `<expected> (<errors>)`. */
  expected?: string | ((s: S) => string);
  /** A failure of its own, instead of `received` / `<expected> (<errors>)`. */
  failure?: (s: S, errors: ErrorObject[], evidence: string[]) => Verdict;
  /** The verdict when the region of the schema holds: a pass, or rules that need a reply of the schema. */
  holds: (s: S, evidence: string[]) => Verdict;
}

/** A subject that carries `{reply, profile}` (a case's outcome, an error reply's subject) is read as is; any other says how. */
export type SchemaReplyRule<S> = RuleBase<S> & (S extends { reply: Reply; profile: boolean } ? { read?: (s: S) => ReplyReading } : { read: (s: S) => ReplyReading });

/** The errors of the rule's region. */
export function inRegion(errors: ErrorObject[], region: Region | undefined): ErrorObject[] {
  if (!region) return errors;
  if ('only' in region) return errors.filter((e) => region.only.test(e.instancePath));
  return errors.filter((e) => !region.except.some((r) => r.test(e.instancePath)));
}

/** Builds and registers the named check of a schema-backed reply rule. */
export function defineSchemaReplyCheck<S = CaseOutcome>(rule: SchemaReplyRule<S>): Check<S> {
  if (rule.expected === undefined && rule.failure === undefined) throw new Error(`${rule.name}: a schema reply rule says what a failure expected (expected or failure)`);
  const read = rule.read ?? ((s: S) => s as unknown as ReplyReading);
  const answer = rule.answer ?? 'success';
  const received = (s: S, reply: Reply): string => (rule.received ? rule.received(s) : describeReply(reply));
  const expected = (s: S): string => (typeof rule.expected === 'function' ? rule.expected(s) : rule.expected!);
  return defineCheck<S>({
    name: rule.name,
    checks: rule.checks,
    run(s) {
      const gate = rule.when?.(s);
      if (gate) return gate;
      const { reply, profile } = read(s);
      const evidence = [reply.exchange.id];
      if (answer === 'success') {
        if (!claimsSuccess(reply)) return notApplicable(`the module did not answer success (${describeReply(reply)})`);
      } else if (answer === 'mustSucceed') {
        if (reply.status === undefined || reply.status >= 300) return fail(received(s, reply), expected(s), evidence);
      } else {
        const v = answer(reply, s);
        if (v) return v;
      }
      if (reply.json === undefined && rule.notJson) return rule.notJson(s, evidence);
      const early = rule.before?.(s, evidence);
      if (early) return early;
      const errors = inRegion(contract({ profile }).validate(rule.schema, reply.json).errors, rule.region);
      if (errors.length > 0) return rule.failure ? rule.failure(s, errors, evidence) : fail(received(s, reply), `${expected(s)} (${formatErrors(errors)})`, evidence);
      if (answer === 'mustSucceed' && !claimsSuccess(reply)) return fail(received(s, reply), expected(s), evidence);
      return rule.holds(s, evidence);
    },
  });
}
