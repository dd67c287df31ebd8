/**
 * Judges one registration (the `integrationModule` JSON) with every registration rule and the
 * generic schema check of each region, outside a run as well as inside one: the registration
 * spec and the corpus of real registrations (`test/corpus/`) share it.
 *
 * A requirement is credited only when its statement was tested on what the module sent:
 * field-level requirements (`REGISTRATION_FIELD_OF`) are judged one by one on their own fields, and a
 * rule whose case the registration does not have (`RULE_CASES`) is not applicable.
 */
import { apply, appOf, type Application, type ApplyContext } from '../apply.ts';
import { notApplicable, type Check } from '../check.ts';
import type { CheckResult, Severity } from '../result.ts';
import { ownedBy, type ErrorMatcher, type RegionSubject, type SchemaSubject } from '../schema-rule.ts';
import { contract, withoutNulls } from '../../contract/schemas.ts';
import { declaredKinds } from '../../contract/kinds.ts';
import { REGISTRATION_REGIONS } from './index.ts';
import { REGISTRATION_RULES } from './applications.ts';
import { FIELDS, RULE_CASES, errorField, pointers } from './scopes.ts';
import { REGISTRATION_FIELD_OF } from './applications.ts';
import { crossFieldErrors } from './cross-field.ts';


export const REGISTRATION_SCHEMA = 'registration/integration-module.edit.json';

/** The subject the registration rules judge, validated with the run's view of the contract. */
export function registrationSubject(module: Record<string, unknown>, options: { profile: boolean; evidence?: string[] }): SchemaSubject {
  return {
    schema: REGISTRATION_SCHEMA,
    // JSON null in a member means the member is absent (wire profile section 9).
    message: withoutNulls(module),
    errors: [...contract({ profile: options.profile }).validate(REGISTRATION_SCHEMA, module).errors, ...crossFieldErrors(withoutNulls(module))],
    evidence: options.evidence ?? [],
    kinds: declaredKinds(module),
    profile: options.profile,
  };
}

/**
 * The errors the registration rules own: each region's generic schema check, applied alongside
 * them, leaves these to them.
 */
export const REGISTRATION_OWNED: readonly ErrorMatcher[] = ownedBy(REGISTRATION_RULES.map((r) => r.check));

/** One judgement to make: a rule or a region of the schema, with its ids. */
export interface RegistrationJudgement {
  title: string;
  /** The checks with their applications, for a judgement that cannot run (`Conformance.notRun`). */
  planned: Array<{ check: Check<never>; app: Application }>;
  run(subject: SchemaSubject, ctx: ApplyContext): Promise<CheckResult[]>;
}

/** The check, except that a pass on a registration without the rule's case is not applicable. */
function withCase<S extends SchemaSubject>(check: Check<S>, why: (subject: S) => string | undefined): Check<S> {
  return {
    name: check.name,
    checks: check.checks,
    async run(subject) {
      const verdict = await check.run(subject);
      const reason = verdict.outcome === 'pass' ? why(subject) : undefined;
      return reason ? notApplicable(reason) : verdict;
    },
  };
}

/** The field a requirement speaks of, when it is a field-level requirement. */
function scopeOf(id: string): RegExp | undefined {
  const name = REGISTRATION_FIELD_OF[id];
  return name === undefined ? undefined : FIELDS[name];
}

/** "/integrations/telephony/makeCallUrl" from a field pattern, for a reason. */
const fieldName = (scope: RegExp): string => scope.source.replace(/\\\//g, '/').replace(/^\^|\$$|\(\/\|\$\)$/g, '');

/**
 * Applies a check once per requirement on that requirement's fields (its errors only; not
 * applicable when the module sent none of them), and once more, without ids, on errors of
 * the check that fall on no requirement's fields, reported only when it fails.
 */
async function judgeByField<S extends SchemaSubject>(check: Check<S>, subject: S, requirements: string[], severity: Severity, ctx: ApplyContext, level: { levelReason?: string } = {}): Promise<CheckResult[]> {
  const sent = pointers(subject.message);
  const out: CheckResult[] = [];
  const scopes = requirements.map(scopeOf).filter((s): s is RegExp => s !== undefined);
  for (const id of requirements) {
    const scope = scopeOf(id);
    if (!scope) {
      out.push(await apply(check, subject, { requirements: [id], severity, ...level }, ctx));
      continue;
    }
    const own = { ...subject, errors: subject.errors.filter((e) => scope.test(errorField(e))) };
    const absent = sent.some((p) => scope.test(p)) ? undefined : `the module sends no ${fieldName(scope)}`;
    out.push(await apply(withCase(check, () => absent), own, { requirements: [id], severity, ...level }, ctx));
  }
  const rest = { ...subject, errors: subject.errors.filter((e) => !scopes.some((s) => s.test(errorField(e)))) };
  const leftover = await apply(check, rest, { requirements: [], severity }, ctx);
  if (leftover.status === 'failed' || leftover.status === 'warning') out.push(leftover);
  return out;
}

const byField = (ids: string[]): boolean => ids.some((id) => scopeOf(id) !== undefined);

/** Every judgement of a registration, in the order of the report. */
export const REGISTRATION_JUDGEMENTS: RegistrationJudgement[] = [
  ...REGISTRATION_RULES.map((rule): RegistrationJudgement => {
    const severity = rule.severity;
    // A severity below or above the catalogue level of the ids, with its reason (test/contract/catalogue.spec.ts).
    const level = rule.levelReason ? { levelReason: rule.levelReason } : {};
    const cases = RULE_CASES[rule.check.name];
    return {
      title: rule.to,
      planned: [{ check: rule.check as Check<never>, app: appOf(rule) }],
      run: async (subject, ctx) => {
        if (byField(rule.requirements)) return judgeByField(rule.check, subject, rule.requirements, severity, ctx, level);
        const check = cases ? withCase(rule.check, (s) => cases(s.message as Record<string, unknown>)) : rule.check;
        return [await apply(check, subject, appOf(rule), ctx)];
      },
    };
  }),
  ...REGISTRATION_REGIONS.map((region): RegistrationJudgement => ({
    title: region.row.to,
    planned: [{ check: region.row.check as Check<never>, app: appOf(region.row) }],
    run: (subject, ctx) => {
      const regional: RegionSubject = {
        ...subject,
        errors: subject.errors.filter((e) => region.region.test(e.instancePath)),
        region: region.region,
        ...(region.kind ? { kind: region.kind } : {}),
        owned: REGISTRATION_OWNED,
      };
      return judgeByField(region.row.check, regional, region.row.requirements, region.row.severity, ctx);
    },
  })),
];

/** Judges a registration outside a run (the corpus): every rule and region, with or without the profile. */
export async function judgeRegistration(module: Record<string, unknown>, options: { profile: boolean }): Promise<CheckResult[]> {
  const subject = registrationSubject(module, options);
  const ctx: ApplyContext = { profile: options.profile, exchange: () => undefined };
  const out: CheckResult[] = [];
  for (const j of REGISTRATION_JUDGEMENTS) out.push(...(await j.run(subject, ctx)));
  return out;
}
