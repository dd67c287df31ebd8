/**
 * Payment sequences: fast-check commands over the invoice state machine (the one model the
 * system simulator enforces too): invoices of its own created, the manager's actions where the
 * table allows them and where it forbids them, payment events told through `payment.notify`
 * (held, paid, failed), payments of invoices the system changed or withdrew (its check says
 * no), refused calls observed to change nothing, wrong amounts; every module reply and every
 * update-invoice judged against the model; a failing sequence shrinks and replays by seed
 * (src/properties/payment-sequences.ts). Without the trigger, the steps it would start are left out.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { PAYMENT_SEQUENCES } from '../../src/checks/payment/applications.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { paymentSequences, runPaymentSequence, sessionPaymentDriver } from '../../src/properties/payment-sequences.ts';
import { paymentContextOf } from '../../src/generators/payment/create.ts';


test.describe('payment sequences', () => {
  test('invoices through create, approve, cancel, refund and payment events in generated sequences over the invoice table; refused calls change nothing', { ...covers(propertyCovers(PAYMENT_SEQUENCES)), ...inArea('payment') }, async ({ session, conformance }) => {
    const checks = propertyChecks(PAYMENT_SEQUENCES, session.config.profile);
    const blocked =
      notRunFor(session, 'payment', [{ callback: 'payment.create', why: () => 'the module declares no create action: it issues no invoices (see ensurePaymentDeclaresCreate)' }]) ??
      (!session.config.profile ? { status: 'skipped' as const, why: 'the bodies of the payment callbacks and of update-invoice rest on the wire profile alone; the run uses the document alone' } : undefined);
    if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
    const gen = session.config.generation;
    test.setTimeout(gen.timeLimitMs + 60_000);
    const driver = sessionPaymentDriver(session, gen.seed);
    const spec: PropertySpec = {
      name: PAYMENT_SEQUENCES,
      id: 'payment-sequence',
      // Each sequence works on invoices of its own, and waits for their reports alone.
      independent: true,
      arbitrary: paymentSequences(paymentContextOf(session.registration!.module), driver.declares, driver.canNotify),
      checks,
      exec: (c, caseId) => runPaymentSequence(driver, c, caseId),
    };
    await runProperty(conformance, spec, gen);
  });
});
