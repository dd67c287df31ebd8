/**
 * Payment `create`, generated: valid invoices for the module's registration (its currencies,
 * its active shops, invoice type link; the payment link answered), and wrong input (amounts of
 * zero and below, a currency it does not list: refused, the message naming the field); and
 * approve, cancel and refund of a paymentId the module never gave (refused naming it; only the
 * actions it declares: all three are optional). Every `create` the suite sends is an invoice the
 * system issued first (the run session). The bodies and replies of the payment callbacks rest on
 * the wire profile alone: these properties run in the profile's view only.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, sendAsIs, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { CREATE_VALID, CREATE_WRONG, UNKNOWN_PAYMENT } from '../../src/checks/payment/applications.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { declares } from '../../src/properties/delivery-save-context.ts';
import { PAYMENT_ID_ACTIONS, paymentContextOf, unknownPaymentAction, validCreate, wrongCreate, type PaymentContext, type PaymentIdAction } from '../../src/generators/payment/create.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import type fc from 'fast-check';


/** The actions on a paymentId the module declares (approve, cancel, refund: optional). */
const declaredActions = (session: RunSession): PaymentIdAction[] => PAYMENT_ID_ACTIONS.filter((a) => declares(session, a));

interface Property {
  title: string;
  id: string;
  name: string;
  /** Why it cannot run for this module, if it cannot (registered, of the payment kind, with a clientId). */
  notRun: (session: RunSession) => NotRun | undefined;
  arbitrary: (ctx: PaymentContext, session: RunSession) => fc.Arbitrary<GeneratedCase>;
}

const needsCreate = (session: RunSession): NotRun | undefined =>
  notRunFor(session, 'payment', [{ callback: 'payment.create', why: () => 'the module declares no create action: it issues no invoices (see ensurePaymentDeclaresCreate)' }]);

const needsAnAction = (session: RunSession): NotRun | undefined =>
  notRunFor(session, 'payment') ??
  (declaredActions(session).length === 0 ? { status: 'notApplicable', why: 'the module declares none of approve, cancel, refund (optional: document, payment configuration)' } : undefined);

const PROPERTIES: Property[] = [
  { title: 'create: generated valid invoices, the payment link answered', id: 'create-valid', name: CREATE_VALID, notRun: needsCreate, arbitrary: (ctx) => validCreate(ctx) },
  { title: 'create: generated wrong input, refused naming the field', id: 'create-wrong', name: CREATE_WRONG, notRun: needsCreate, arbitrary: (ctx) => wrongCreate(ctx) },
  { title: 'approve, cancel, refund: a paymentId the module never gave, refused naming it', id: 'payment-unknown', name: UNKNOWN_PAYMENT, notRun: needsAnAction, arbitrary: (_ctx, session) => unknownPaymentAction(declaredActions(session)) },
];

test.describe('payment create and unknown payment ids', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers(propertyCovers(p.name)), ...inArea('payment') }, async ({ session, conformance }) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const blocked =
        p.notRun(session) ??
        // The document shows none of the payment bodies and replies (create's fields, the paymentId the others carry, the payment link's member): the wire profile's alone.
        (!session.config.profile ? { status: 'skipped' as const, why: 'the bodies and replies of the payment callbacks rest on the wire profile alone; the run uses the document alone' } : undefined);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 30_000);
      const spec: PropertySpec = {
        name: p.name,
        id: p.id,
        // Each case is one callback about an invoice of its own, judged on its reply.
        independent: true,
        // Scoped by the property: its invoices are never those of another property drawn from the same seed.
        arbitrary: p.arbitrary(paymentContextOf(session.registration!.module, p.id), session),
        checks,
        exec: sendAsIs(session),
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
