/**
 * Registration conformance: the integrationModule the module sent to `edit` (or, in remote
 * mode, the one given in the configuration), judged rule by rule for every kind it declares.
 */
import { test } from '../fixtures.ts';
import { contract } from '../../src/contract/schemas.ts';
import { ensureMessageMatchesSchema, type SchemaSubject } from '../../src/checks/schema-rule.ts';
import { REGISTRATION_REGIONS, REGISTRATION_RULES } from '../../src/checks/registration/index.ts';
import type { RunSession } from '../../src/run/session.ts';

const KINDS = ['telephony', 'delivery', 'payment', 'mgTransport', 'mgBot'];

function registrationSubject(session: RunSession): SchemaSubject {
  const r = session.registration;
  return {
    schema: 'registration/integration-module.edit.json',
    message: r.module,
    errors: contract().validate('registration/integration-module.edit.json', r.module).errors,
    evidence: r.call ? [r.call.exchange.id] : [],
    kinds: r.kinds.filter((k) => KINDS.includes(k)),
  };
}

test.describe('registration', () => {
  for (const rule of REGISTRATION_RULES) {
    test(rule.check.checks, async ({ session, conformance }) => {
      await conformance.apply(rule.check, registrationSubject(session), { requirements: rule.requirements, severity: 'MUST' });
    });
  }

  for (const region of REGISTRATION_REGIONS) {
    test(`the ${region.name} conform to the contract schema`, async ({ session, conformance }) => {
      await conformance.apply(
        ensureMessageMatchesSchema,
        { ...registrationSubject(session), region: region.region, ...(region.kind ? { kind: region.kind } : {}) },
        { requirements: region.requirements, severity: 'MUST' },
      );
    });
  }
});
