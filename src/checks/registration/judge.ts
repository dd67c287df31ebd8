/**
 * Judges one registration (the `integrationModule` JSON) with every registration rule and the
 * generic schema check of each region, outside a run as well as inside one: the registration
 * spec and the corpus of real registrations (`test/corpus/`) share it.
 */
import { apply, type ApplyContext } from '../apply.ts';
import type { CheckResult } from '../result.ts';
import { ensureMessageMatchesSchema, type SchemaSubject } from '../schema-rule.ts';
import { contract, withoutNulls } from '../../contract/schemas.ts';
import { declaredKinds } from '../../contract/kinds.ts';

export { declaredKinds, MODULE_KINDS } from '../../contract/kinds.ts';
import { REGISTRATION_REGIONS, REGISTRATION_RULES } from './index.ts';

export const REGISTRATION_SCHEMA = 'registration/integration-module.edit.json';

/** The subject the registration rules judge, validated with the run's view of the contract. */
export function registrationSubject(module: Record<string, unknown>, options: { profile: boolean; evidence?: string[] }): SchemaSubject {
  return {
    schema: REGISTRATION_SCHEMA,
    // JSON null in a member means the member is absent (wire profile section 9).
    message: withoutNulls(module),
    errors: contract({ profile: options.profile }).validate(REGISTRATION_SCHEMA, module).errors,
    evidence: options.evidence ?? [],
    kinds: declaredKinds(module),
    profile: options.profile,
  };
}

/** One judgement to make: a rule or a region of the schema, with its ids. */
export interface RegistrationJudgement {
  title: string;
  run(subject: SchemaSubject, ctx: ApplyContext): Promise<CheckResult>;
}

/** Every judgement of a registration, in the order of the report. */
export const REGISTRATION_JUDGEMENTS: RegistrationJudgement[] = [
  ...REGISTRATION_RULES.map((rule) => ({
    title: rule.check.checks,
    run: (subject: SchemaSubject, ctx: ApplyContext) => apply(rule.check, subject, { requirements: rule.requirements, severity: rule.severity ?? 'MUST' }, ctx),
  })),
  ...REGISTRATION_REGIONS.map((region) => ({
    title: `the ${region.name} conform to the contract schema`,
    run: (subject: SchemaSubject, ctx: ApplyContext) =>
      apply(ensureMessageMatchesSchema, { ...subject, region: region.region, ...(region.kind ? { kind: region.kind } : {}) }, { requirements: region.requirements, severity: 'MUST' }, ctx),
  })),
];

/** Judges a registration outside a run (the corpus): every rule and region, with or without the profile. */
export async function judgeRegistration(module: Record<string, unknown>, options: { profile: boolean }): Promise<CheckResult[]> {
  const subject = registrationSubject(module, options);
  const ctx: ApplyContext = { profile: options.profile, exchange: () => undefined };
  const out: CheckResult[] = [];
  for (const j of REGISTRATION_JUDGEMENTS) out.push(await j.run(subject, ctx));
  return out;
}
