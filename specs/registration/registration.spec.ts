/**
 * Registration conformance: how the module made its registration call (every attempt, the
 * system's answer included), and the integrationModule it sent (or, in remote mode, the one
 * given in the configuration), judged rule by rule for every kind it declares. A registration
 * the system refused is judged too: on the JSON the module sent, when it can be read.
 */
import { test } from '../fixtures.ts';
import { REGISTRATION_JUDGEMENTS, registrationSubject } from '../../src/checks/registration/judge.ts';
import { REGISTRATION_CALL } from '../../src/checks/registration/applications.ts';
import { appOf, idsOfRows } from '../../src/checks/apply.ts';
import type { RunSession } from '../../src/run/session.ts';
import { covers, idsOf } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';

/** The module JSON to judge: the accepted registration, else the last readable attempt. */
function judgedModule(session: RunSession): { module: Record<string, unknown>; evidence: string[] } | undefined {
  const r = session.registration;
  if (r) return { module: r.module, evidence: r.call ? [r.call.exchange.id] : [] };
  const attempt = session.system.calls.filter((c) => c.endpoint === 'edit' && c.attempted).at(-1);
  return attempt ? { module: attempt.attempted!, evidence: [attempt.exchange.id] } : undefined;
}

test.describe('registration', () => {
  test('the registration call', { ...covers(idsOfRows(Object.values(REGISTRATION_CALL))), ...inArea('registration') }, async ({ session, conformance }) => {
    const given = session.config.mode === 'remote' && typeof session.config.remote?.registration === 'object';
    if (given) {
      conformance.notRun('notApplicable', 'the registration was given in the configuration (remote mode): no registration call to judge', [
        { check: REGISTRATION_CALL.viaEdit.check as never, app: appOf(REGISTRATION_CALL.viaEdit) },
      ]);
      return;
    }
    const attempts = session.system.calls.filter((c) => c.endpoint === 'edit');
    const otherCalls = session.system.callCount() - attempts.length + session.system.unsimulatedCount();
    await conformance.apply(REGISTRATION_CALL.viaEdit, { attempts, otherCalls });
    await conformance.apply(REGISTRATION_CALL.apiKey, attempts);
    await conformance.apply(REGISTRATION_CALL.form, attempts);
    await conformance.apply(REGISTRATION_CALL.apiV5, attempts);
  });

  for (const judgement of REGISTRATION_JUDGEMENTS) {
    test(judgement.title, { ...covers(idsOf(judgement.planned)), ...inArea('registration') }, async ({ session, conformance }) => {
      const judged = judgedModule(session);
      if (!judged) {
        conformance.notRun('skipped', `no registration could be read: ${session.notRegistered ?? 'the module sent none'}`, judgement.planned);
        return;
      }
      const subject = registrationSubject(judged.module, { profile: session.config.profile, evidence: judged.evidence });
      for (const result of await judgement.run(subject, conformance.context())) conformance.record(result);
    });
  }
});
