/**
 * Delivery `calculate`, generated: valid requests for the module's registration and the run's
 * account (the tariffs it answers judged), and wrong input (refused with the error form and a
 * message that names the field). One result per check over all the cases of a property; a
 * failure is shrunk, saved and replayable by its seed and path.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../areas.ts';
import { runProperty, type PropertyCheck, type PropertySpec } from '../../src/properties/run.ts';
import { onErrorReply, onReply } from '../../src/properties/adapt.ts';
import { callbackUrl } from '../../src/callbacks/send.ts';
import { CALLBACKS } from '../../src/callbacks/table.ts';
import { dateBase, type DeliveryContext } from '../../src/generators/delivery/common.ts';
import { validCalculate, wrongCalculate } from '../../src/generators/delivery/calculate.ts';
import {
  ensureCalculateAnswersTariffList,
  ensureExtraDataAvailableAreDeclaredFields,
  ensureTariffCostIsNumberOrAbsent,
  ensureTariffTypeIsKnown,
} from '../../src/checks/delivery/calculate-reply.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../../src/checks/delivery/wrong-input.ts';
import { ensureErrorBodyCarriesErrorMsg, ensureErrorBodyIsJson, ensureErrorBodyMatchesErrorShape, ensureErrorStatusIsAccepted, ensureErrorStatusIsNot5xx } from '../../src/checks/callbacks/error-reply.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/properties/types.ts';
import type { Check } from '../../src/checks/check.ts';

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

const VALID_CHECKS = (profile: boolean): PropertyCheck[] => [
  { check: ensureCalculateAnswersTariffList, app: { requirements: ['WIRE-GEN-SUCCESS-REPLY-SHAPE', 'WIRE-DLV-CALCULATE-RESULT-TARIFFS'], severity: MUST } },
  { check: ensureTariffTypeIsKnown, app: { requirements: ['WIRE-DLV-CALCULATE-TARIFF-TYPE'], severity: MUST } },
  { check: ensureTariffCostIsNumberOrAbsent, app: { requirements: ['DLV-CALCULATE-TARIFF-FIELDS'], severity: MUST } },
  { check: ensureExtraDataAvailableAreDeclaredFields, app: { requirements: ['DLV-CALCULATE-EXTRADATAAVAILABLE'], severity: MUST } },
  ...errorChecks(profile),
];

const WRONG_CHECKS = (profile: boolean): PropertyCheck[] => [
  { check: ensureWrongInputIsRefused, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
  { check: ensureErrorNamesTheIncorrectField, app: { requirements: ['GEN-ERR-NAMES-INCORRECT-FIELD'], severity: MUST } },
  ...errorChecks(profile),
];

const ids = (checks: PropertyCheck[]): string[] => checks.flatMap((c) => c.app.requirements);

/** What the generators may use: the module's registration and the run's account. */
function deliveryContext(session: RunSession): DeliveryContext {
  const account = session.system.account;
  return {
    module: session.registration!.module,
    stores: account.stores.map((s) => ({ code: s.code, name: s.name, ...(s.address ? { address: s.address as Record<string, unknown> } : {}) })),
    currencies: [...new Set(account.sites.map((s) => s.currency))],
    firstDay: dateBase(new Date()),
    profile: session.config.profile,
  };
}

/** Why the property cannot run for this module, if it cannot. */
function notForThisModule(session: RunSession): { status: 'skipped' | 'notApplicable'; why: string } | undefined {
  if (!session.registration) return { status: 'skipped', why: session.notRegistered ?? 'the module is not registered' };
  if (!session.registration.kinds.includes('delivery')) return { status: 'notApplicable', why: 'the module declares no delivery integration' };
  const where = callbackUrl(CALLBACKS['delivery.calculate'], session.registration.module);
  if ('missing' in where) return { status: 'notApplicable', why: `the module declares no calculate action (${where.missing}): the user enters the shipment number by hand` };
  if (!session.clientId()) return { status: 'skipped', why: 'the registration gives no clientId to call the module with (see the registration checks)' };
  return undefined;
}

const PROPERTIES = [
  { title: 'calculate: generated valid requests, the tariffs answered', id: 'calculate-valid', name: 'delivery.calculate: valid requests', arbitrary: validCalculate, checks: VALID_CHECKS },
  { title: 'calculate: generated wrong input, refused naming the field', id: 'calculate-wrong', name: 'delivery.calculate: wrong input', arbitrary: wrongCalculate, checks: WRONG_CHECKS },
];

test.describe('delivery calculate', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers([...ids(p.checks(true)), ...ids(p.checks(false))]), ...inArea('delivery') }, async ({ session, conformance }) => {
      const checks = p.checks(session.config.profile);
      const blocked = notForThisModule(session);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks as unknown as Array<{ check: Check<never>; app: PropertyCheck['app'] }>);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 30_000);
      const spec: PropertySpec = {
        name: p.name,
        id: p.id,
        arbitrary: p.arbitrary(deliveryContext(session)),
        checks,
        exec: async (c: GeneratedCase, caseId: string) => {
          const reply = await session.send('delivery.calculate', c.payload, { clientId: session.clientId(), case: caseId, label: `delivery.calculate (${caseId})` });
          return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
        },
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
