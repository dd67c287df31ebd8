/**
 * The application table of the payment area: which check is applied to which property's
 * generated cases or sequence steps, with its requirement ids and severity (`Row`,
 * `src/checks/apply.ts`). The error form, the wrong input, the methods and the refusal rules come
 * from the callbacks' table.
 */
import { forProperty, use, type Row, type Use } from '../apply.ts';
import { overSteps } from '../adapt.ts';
import type { CaseOutcome } from '../case.ts';
import { ERROR_FORM, REFUSAL_LEFT_NO_EFFECT, REFUSED_NOT_ACTED_ON, WRONG_INPUT, servedAtItsMethod, servedAtTheirMethod } from '../callbacks/applications.ts';
import {
  ensureActionIsReported,
  ensureCanceledInvoiceTakesNoPayment,
  ensureHoldFollowsPassedCheck,
  ensureInvoiceReportsFollowTable,
  ensureRefundReturnsAskedAmount,
  ensureRefundWithoutAmountIsFull,
  ensureSuccessFollowsPassedCheck,
} from './invoice-reports.ts';
import { ensureCreateReturnsPaymentLink, ensureRefundAnswersRefund } from './replies.ts';

/** Payment sequences: invoices created, the manager's actions, payment events, refused and wrong calls over the invoice table (`src/properties/payment-sequences.ts`). */
export const PAYMENT_SEQUENCES = 'payment: stateful sequences';
/** The three typical flows of the document (and payments the honest check refuses), each a fixed sequence judged by the same checks. */
export const PAYMENT_FLOWS = 'payment: typical flows';
/** `payment.create: valid requests`: the payment link answered, or an error of the right form. */
export const CREATE_VALID = 'payment.create: valid requests';
/** `payment.create: wrong input`: refused with the error form, the message naming the field. */
export const CREATE_WRONG = 'payment.create: wrong input';
/** `payment: unknown payment ids`: approve, cancel and refund of a paymentId the module never gave, refused naming it. */
export const UNKNOWN_PAYMENT = 'payment: unknown payment ids';

/** A payment step the system sent as a callback (not a trigger the suite fired). */
const callbackStep = (s: CaseOutcome): boolean => s.trigger === undefined;
const reportedFor = (because: string) => (s: CaseOutcome): boolean => s.invoice?.required?.because === because;
const toldOf = (event: string) => (s: CaseOutcome): boolean => s.invoice?.event === event;
/** A use over the steps `only` selects. */
const over = (u: Use<CaseOutcome>, only?: (s: CaseOutcome) => boolean): Use<CaseOutcome> => ({ ...u, check: overSteps(u.check, only) });

const CREATE_ANSWER = use(ensureCreateReturnsPaymentLink, ['PAY-CREATE-RETURNS-PAYMENT-LINK', 'WIRE-PAY-CREATE-RESULT', 'WIRE-GEN-SUCCESS-REPLY-SHAPE']);

/** The checks of a payment sequence (the generated ones, and the typical flows), each over every step. */
const SEQUENCE: ReadonlyArray<Use<CaseOutcome>> = [
  ...[
    CREATE_ANSWER,
    use(ensureRefundAnswersRefund, ['WIRE-PAY-REFUND-RESULT']),
    use(ensureRefundWithoutAmountIsFull, ['WIRE-PAY-REFUND-NO-AMOUNT-FULL']),
    use(ensureRefundReturnsAskedAmount, ['WIRE-PAY-REFUND-AMOUNT']),
    ...WRONG_INPUT,
    ...ERROR_FORM,
  ].map((u) => over(u, callbackStep)),
  over(use(ensureInvoiceReportsFollowTable, ['PAY-INVOICE-TABLE-TRANSITIONS'])),
  over(use(ensureHoldFollowsPassedCheck, ['PAY-PENDING-TO-WAITING-ON-HOLD'])),
  over(use(ensureSuccessFollowsPassedCheck, ['PAY-FLOW-AUTO-CAPTURE-CHECK'], 'SHOULD'), toldOf('held')),
  over(use(ensureSuccessFollowsPassedCheck, ['PAY-FLOW-NO-HOLD-CHECK'], 'SHOULD'), toldOf('paid')),
  over(use(ensureCanceledInvoiceTakesNoPayment, ['PAY-CANCELED-NO-MORE-PAYMENTS'])),
  // Each change is reported with update-invoice (PAY-UPDATE-INVOICE-ENDPOINT: "Changed invoice parameters").
  over(use(ensureActionIsReported, ['PAY-APPROVE-SETS-SUCCEEDED', 'PAY-UPDATE-INVOICE-ENDPOINT']), reportedFor('approve')),
  over(use(ensureActionIsReported, ['PAY-CANCEL-SETS-CANCELED', 'PAY-UPDATE-INVOICE-ENDPOINT']), reportedFor('cancel')),
  over(use(ensureActionIsReported, ['PAY-REFUND-SETS-REFUNDSUCCEEDED', 'PAY-UPDATE-INVOICE-ENDPOINT']), reportedFor('refund')),
  over(use(ensureActionIsReported, ['PAY-PENDING-TO-WAITING-ON-HOLD', 'PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT', 'PAY-UPDATE-INVOICE-ENDPOINT']), reportedFor('held')),
  over(use(ensureActionIsReported, ['PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT', 'PAY-UPDATE-INVOICE-ENDPOINT']), reportedFor('paid')),
  over(REFUSAL_LEFT_NO_EFFECT),
  REFUSED_NOT_ACTED_ON,
];

export const PAYMENT_ROWS: ReadonlyArray<Row<never>> = [
  ...forProperty(PAYMENT_SEQUENCES, SEQUENCE),
  // Flow 2 (hold with manual capture): after the check waitingForCapture; the manager approves; the module acts and reports.
  ...forProperty(PAYMENT_FLOWS, [
    ...SEQUENCE,
    over(use(ensureActionIsReported, ['PAY-FLOW-MANUAL-CAPTURE-WAITING'], 'SHOULD'), (s) => reportedFor('approve')(s) && s.invoice?.before === 'waitingForCapture'),
  ]),
  ...forProperty(CREATE_VALID, [CREATE_ANSWER, servedAtItsMethod('payment.create'), ...ERROR_FORM]),
  ...forProperty(CREATE_WRONG, [...WRONG_INPUT, ...ERROR_FORM]),
  ...forProperty(UNKNOWN_PAYMENT, [...WRONG_INPUT, servedAtTheirMethod(['payment.approve', 'payment.cancel', 'payment.refund']), ...ERROR_FORM]),
];
