/**
 * The properties of the suite and the checks each applies, with the requirement ids and the
 * severity of that use: the specs run them from here, and `conformance replay` finds a saved
 * failure's check here, so that a replayed case is judged exactly as the run judged it. A
 * check of one reply (`Check<Reply>`, `Check<ErrorReplySubject>`) is read off a case's outcome
 * through `adapt.ts`, here and nowhere else.
 */
import type { PropertyCheck } from './run.ts';
import { onErrorReply, onReply } from './adapt.ts';
import {
  ensureCalculateAnswersTariffList,
  ensureExtraDataAvailableAreDeclaredFields,
  ensureTariffCostIsNumberOrAbsent,
  ensureTariffTypeIsKnown,
} from '../checks/delivery/calculate-reply.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../checks/delivery/wrong-input.ts';
import {
  ensureErrorBodyCarriesErrorMsg,
  ensureErrorBodyIsJson,
  ensureErrorBodyMatchesErrorShape,
  ensureErrorStatusIsAccepted,
  ensureErrorStatusIsNot5xx,
} from '../checks/callbacks/error-reply.ts';

const MUST = 'MUST' as const;

/** The error form of an answer, judged on every case the module answered with an error. */
function errorChecks(profile: boolean): PropertyCheck[] {
  return [
    { check: onErrorReply(ensureErrorStatusIsAccepted), app: { requirements: profile ? ['WIRE-GEN-ERROR-STATUS-200-OR-4XX'] : ['GEN-ERR-REPLY-200-ERRORMSG'], severity: MUST } },
    { check: onReply(ensureErrorStatusIsNot5xx), app: { requirements: ['WIRE-GEN-ERROR-5XX-FAILURE'], severity: MUST } },
    { check: onReply(ensureErrorBodyIsJson), app: { requirements: ['WIRE-GEN-ERROR-NON-JSON-FAILURE'], severity: MUST } },
    { check: onReply(ensureErrorBodyCarriesErrorMsg), app: { requirements: ['GEN-ERR-REPLY-200-ERRORMSG', 'WIRE-GEN-ERROR-MISSING-ERRORMSG'], severity: MUST } },
    { check: onErrorReply(ensureErrorBodyMatchesErrorShape), app: { requirements: ['WIRE-GEN-ERROR-REPLY-SHAPE'], severity: MUST } },
  ];
}

/** `delivery.calculate: valid requests`: the tariffs answered, or an error of the right form. */
export const CALCULATE_VALID = 'delivery.calculate: valid requests';
/** `delivery.calculate: wrong input`: refused with the error form, the message naming the field. */
export const CALCULATE_WRONG = 'delivery.calculate: wrong input';

/** Each property's checks, by the property's name; `profile`: the run's reading (some ids differ by it). */
export const PROPERTY_CHECKS: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = {
  [CALCULATE_VALID]: (profile) => [
    { check: ensureCalculateAnswersTariffList, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-CALCULATE-RESULT-TARIFFS'], severity: MUST } },
    { check: ensureTariffTypeIsKnown, app: { requirements: ['WIRE-DLV-CALCULATE-TARIFF-TYPE'], severity: MUST } },
    { check: ensureTariffCostIsNumberOrAbsent, app: { requirements: ['DLV-CALCULATE-TARIFF-FIELDS'], severity: MUST } },
    { check: ensureExtraDataAvailableAreDeclaredFields, app: { requirements: ['DLV-CALCULATE-EXTRADATAAVAILABLE'], severity: MUST } },
    ...errorChecks(profile),
  ],
  [CALCULATE_WRONG]: (profile) => [
    { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
    ...errorChecks(profile),
  ],
};

/** The checks of a property; throws for a property the registry does not know (a defect of the suite). */
export function propertyChecks(property: string, profile: boolean): PropertyCheck[] {
  const checks = PROPERTY_CHECKS[property];
  if (!checks) throw new Error(`no property named ${JSON.stringify(property)} in src/properties/registry.ts`);
  return checks(profile);
}

/**
 * A property's check by name, as the property applies it to a case's outcome: in the named
 * property first, else in any property (a property renamed since the failure was saved);
 * undefined when no property applies a check of that name.
 */
export function findPropertyCheck(property: string, check: string): PropertyCheck | undefined {
  const names = [property, ...Object.keys(PROPERTY_CHECKS).filter((p) => p !== property)].filter((p) => p in PROPERTY_CHECKS);
  for (const p of names) {
    for (const profile of [true, false]) {
      const found = PROPERTY_CHECKS[p]!(profile).find((c) => c.check.name === check);
      if (found) return found;
    }
  }
  return undefined;
}
