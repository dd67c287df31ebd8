/**
 * The document's three typical payment flows, each a fixed sequence over the invoice table,
 * judged by the checks of the generated sequences: (1) hold with automatic capture and (2) hold
 * with manual capture (funds held: the module checks the invoice with `payment/check`, then
 * reports succeeded, or waitingForCapture and, once approved, succeeded), (3) no hold (paid: the
 * module checks, then reports succeeded); then payments the system's honest check refuses (an
 * amount or currency that no longer matches the invoice, an invoice withdrawn: the module must
 * not report success), a payment of a canceled invoice, a cancel refused for its clientId (the
 * invoice stays payable), and an approve of a zero amount (wrong input). Each flow creates its own invoice.
 */
import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { PAYMENT_FLOWS } from '../../src/checks/payment/applications.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { fixedSequence, runPaymentSequence, sessionPaymentDriver } from '../../src/properties/payment-sequences.ts';
import type { PayStep } from '../../src/properties/payment-steps.ts';
import { createRequest, paymentContextOf } from '../../src/generators/payment/create.ts';
import { invent } from '../../src/generators/invented.ts';
import { NeedsTrigger } from '../../src/module/triggers.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';


interface Flow {
  title: string;
  id: string;
  /** The steps after the create; `second`: an invoice of its own for a second create. */
  steps: PayStep[] | ((second: Record<string, unknown>) => PayStep[]);
  needs: CallbackName[];
}

const FLOWS: Flow[] = [
  { title: 'funds held: checked, then captured automatically (succeeded) or held for the manager (waitingForCapture), who approves', id: 'flow-hold-approve', steps: [{ op: 'notify', target: 0, event: 'held' }, { op: 'action', action: 'approve', target: 0 }], needs: ['payment.approve'] },
  { title: 'funds held, then the manager cancels', id: 'flow-hold-cancel', steps: [{ op: 'notify', target: 0, event: 'held' }, { op: 'action', action: 'cancel', target: 0 }], needs: ['payment.cancel'] },
  { title: 'no hold: paid after the check (succeeded), then refunded', id: 'flow-paid-refund', steps: [{ op: 'notify', target: 0, event: 'paid' }, { op: 'action', action: 'refund', target: 0 }], needs: ['payment.refund'] },
  // refund={paymentId, amount?} (wire profile section 3): a part of the amount paid, which the answer and the report give back.
  { title: 'no hold: paid after the check (succeeded), then partly refunded (an amount below the amount paid)', id: 'flow-paid-partial-refund', steps: [{ op: 'notify', target: 0, event: 'paid' }, { op: 'action', action: 'refund', target: 0, share: 4000 }], needs: ['payment.refund'] },
  { title: 'a failed payment changes nothing; the invoice is then paid', id: 'flow-failed-paid', steps: [{ op: 'notify', target: 0, event: 'failed' }, { op: 'notify', target: 0, event: 'paid' }], needs: [] },
  { title: 'paid, but the system changed the amount of the invoice: its check says no, and success is not reported', id: 'flow-check-amount', steps: [{ op: 'dishonest', target: 0, how: 'amount', event: 'paid' }], needs: [] },
  { title: 'funds held, but the currency no longer matches the invoice: its check says no, and no hold is reported', id: 'flow-check-currency', steps: [{ op: 'dishonest', target: 0, how: 'currency', event: 'held' }], needs: [] },
  { title: 'funds held for an invoice the system withdrew: its check says no, and no hold is reported', id: 'flow-check-withdrawn', steps: [{ op: 'dishonest', target: 0, how: 'withdrawn', event: 'held' }], needs: [] },
  { title: 'canceled, then paid: the module accepts no more payments for the invoice', id: 'flow-cancel-paid', steps: [{ op: 'action', action: 'cancel', target: 0 }, { op: 'notify', target: 0, event: 'paid' }], needs: ['payment.cancel'] },
  { title: 'a cancel with an unknown clientId is refused and leaves the invoice payable: a payment told after it is reported', id: 'flow-refused-cancel', steps: [{ op: 'refused', action: 'cancel', target: 0, presented: 'unknown' }], needs: ['payment.cancel'] },
  { title: 'a create with a missing clientId is refused and creates nothing: an authorised create of the same invoice works', id: 'flow-refused-create', steps: (second) => [{ op: 'refusedCreate', request: second, presented: 'missing' }], needs: [] },
  { title: 'funds held, then an approve of zero is refused naming the amount; the approve of the whole is reported', id: 'flow-approve-zero', steps: [{ op: 'notify', target: 0, event: 'held' }, { op: 'wrong', action: 'approve', target: 0, amount: 0 }, { op: 'action', action: 'approve', target: 0 }], needs: ['payment.approve'] },
];

test.describe('payment flows', () => {
  for (const flow of FLOWS) {
    test(flow.title, { ...covers(propertyCovers(PAYMENT_FLOWS)), ...inArea('payment') }, async ({ session, conformance }) => {
      const checks = propertyChecks(PAYMENT_FLOWS, session.config.profile);
      const planned = checks;
      const blocked =
        notRunFor(session, 'payment', [{ callback: 'payment.create', why: () => 'the module declares no create action: it issues no invoices' }, ...flow.needs.map((callback) => ({ callback, why: () => `the module declares no ${callback.split('.')[1]} action (optional: document, payment configuration)` }))]) ??
        (!session.config.profile ? { status: 'skipped' as const, why: 'the bodies of the payment callbacks and of update-invoice rest on the wire profile alone; the run uses the document alone' } : undefined);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, planned);
      if (!session.triggers.declared('payment.notify')) return conformance.skipForTrigger(new NeedsTrigger('payment.notify'), planned);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 60_000);
      const driver = sessionPaymentDriver(session, gen.seed);
      const ctx = paymentContextOf(session.registration!.module);
      const request = invent(gen.seed, `payment flow ${flow.id}`, createRequest(ctx));
      const steps: PayStep[] = [{ op: 'create', request }, ...(typeof flow.steps === 'function' ? flow.steps(invent(gen.seed, `payment flow ${flow.id}: a second invoice`, createRequest(ctx))) : flow.steps)];
      const spec: PropertySpec = { name: PAYMENT_FLOWS, id: flow.id, arbitrary: fc.constant(fixedSequence(steps)), checks, exec: (c, caseId) => runPaymentSequence(driver, c, caseId) };
      await runProperty(conformance, spec, { ...gen, runs: 1 });
    });
  }
});
