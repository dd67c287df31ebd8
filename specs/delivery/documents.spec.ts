/**
 * Delivery `print`, generated: deliveries the suite first creates with `save` (a minimal valid
 * payload; without a declared save there is nothing the module could print, so print is not
 * applicable), printed by each order form of the registration's `plateList`, several at once
 * only when `platePrintLimit` is above 1, `deliveryIds` nested as the platform sends them or flat
 * (each case draws its form on its own, so each form is judged whatever the module made of the
 * other; a refusal of either is a SHOULD warning of its accept rule, never credited as a print
 * error). The document is judged by its structure and its Content-Type; a delivery the module
 * never made is refused with HTTP 400 and the error body (document, Errors 3).
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertyCheck, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { PRINT } from '../../src/checks/delivery/applications.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { deliveryContextOf } from '../../src/generators/delivery/context.ts';
import { minimalSave, orderPlates, printLimit, printRequest } from '../../src/generators/delivery/print.ts';
import { invent } from '../../src/generators/invented.ts';
import { describeReply } from '../../src/checks/callbacks/reply.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';

const ids = (checks: PropertyCheck[]): string[] => checks.flatMap((c) => c.app.requirements);

/** Why print cannot run for this module, if it cannot. */
function notForThisModule(session: RunSession): NotRun | undefined {
  const blocked = notRunFor(session, 'delivery', [
    { callback: 'delivery.print' },
    { callback: 'delivery.save', why: (m) => `the module declares no save action (${m}): no delivery exists at the module to print` },
  ]);
  if (blocked) return blocked;
  if (orderPlates(session.registration!.module).length === 0) return { status: 'notApplicable', why: 'plateList has no form that prints orders' };
  return undefined;
}

test.describe('delivery print', () => {
  test('print: saved deliveries printed as PDF or ZIP, unknown ones refused with HTTP 400', { ...covers([...new Set([...ids(propertyChecks(PRINT, true)), ...ids(propertyChecks(PRINT, false))])]), ...inArea('delivery') }, async ({ session, conformance }) => {
    const checks = propertyChecks(PRINT, session.config.profile);
    const notRun = (status: 'skipped' | 'notApplicable', why: string) => conformance.notRun(status, why, checks);
    const blocked = notForThisModule(session);
    if (blocked) return notRun(blocked.status, blocked.why);
    const gen = { ...session.config.generation, runs: Math.min(session.config.generation.runs, 20) };
    test.setTimeout(gen.timeLimitMs + 60_000);
    const module = session.registration!.module;
    const ctx = deliveryContextOf(session);
    const limit = printLimit(module);

    // The deliveries to print: created first, as the platform does before any print.
    const deliveryIds: string[] = [];
    const refusals: string[] = [];
    for (let i = 0; i < Math.min(limit, 3); i++) {
      const payload = invent(gen.seed, `print-save-${i}`, minimalSave(ctx, i));
      const reply = await session.send('delivery.save', payload, { clientId: session.clientId(), case: `print-save#${i}` });
      const id = (reply.json as { success?: unknown; result?: { deliveryId?: unknown } } | undefined)?.result?.deliveryId;
      if ((reply.json as { success?: unknown } | undefined)?.success === true && (typeof id === 'string' || typeof id === 'number') && String(id) !== '') deliveryIds.push(String(id));
      else refusals.push(describeReply(reply));
    }
    if (deliveryIds.length === 0) return notRun('skipped', `no delivery could be created to print: save answered ${refusals[0] ?? 'nothing'}`);

    const spec: PropertySpec = {
      name: PRINT,
      id: 'print',
      // Prints change nothing: each case is judged on its reply alone.
      independent: true,
      arbitrary: printRequest({ deliveryIds, plates: orderPlates(module), limit }),
      checks,
      exec: async (c: GeneratedCase, caseId: string) => {
        const reply = await session.send('delivery.print', c.payload, { clientId: session.clientId(), case: caseId });
        return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
      },
    };
    await runProperty(conformance, spec, gen);
  });
});
