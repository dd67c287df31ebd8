/**
 * Registration conformance: the integrationModule the module sent to `edit` (or, in remote
 * mode, the one given in the configuration), judged rule by rule for every kind it declares.
 */
import { test } from '../fixtures.ts';
import { REGISTRATION_JUDGEMENTS, registrationSubject } from '../../src/checks/registration/judge.ts';

test.describe('registration', () => {
  for (const judgement of REGISTRATION_JUDGEMENTS) {
    test(judgement.title, async ({ session, conformance }) => {
      const r = session.registration;
      const subject = registrationSubject(r.module, { profile: session.config.profile, evidence: r.call ? [r.call.exchange.id] : [] });
      await conformance.record(await judgement.run(subject, conformance.context()));
    });
  }
});
