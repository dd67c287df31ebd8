/**
 * Delivery `calculate`, generated: valid requests for the module's registration and the run's
 * account (the tariffs it answers judged), and wrong input (refused with the error form and a
 * message that names the field). One result per check over all the cases of a property; a
 * failure is shrunk, saved and replayable by its seed and path.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { CALCULATE_VALID, CALCULATE_WRONG } from '../../src/checks/delivery/applications.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { deliveryContextOf } from '../../src/generators/delivery/context.ts';
import { validCalculate, wrongCalculate } from '../../src/generators/delivery/calculate.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';


/** Why the property cannot run for this module, if it cannot. */
const notForThisModule = (session: RunSession): NotRun | undefined =>
  notRunFor(session, 'delivery', [{ callback: 'delivery.calculate', why: (m) => `the module declares no calculate action (${m}): the user enters the shipment number by hand` }]);

const PROPERTIES = [
  { title: 'calculate: generated valid requests, the tariffs answered', id: 'calculate-valid', name: CALCULATE_VALID, arbitrary: validCalculate },
  { title: 'calculate: generated wrong input, refused naming the field', id: 'calculate-wrong', name: CALCULATE_WRONG, arbitrary: wrongCalculate },
];

test.describe('delivery calculate', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers(propertyCovers(p.name)), ...inArea('delivery') }, async ({ session, conformance }) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const blocked = notForThisModule(session);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 30_000);
      const spec: PropertySpec = {
        name: p.name,
        id: p.id,
        // Each case is one calculate, judged on its reply alone.
        independent: true,
        arbitrary: p.arbitrary(deliveryContextOf(session)),
        checks,
        exec: async (c: GeneratedCase, caseId: string) => {
          const reply = await session.send('delivery.calculate', c.payload, { clientId: session.clientId(), case: caseId });
          return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
        },
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
