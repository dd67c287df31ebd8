/**
 * The invoice state machine of the contract (integration-interface.md, States and transitions >
 * Invoice status), written once as data: the system simulator enforces it on every
 * `update-invoice` (`src/simulators/invoices.ts`), and the generated payment sequences
 * (`src/properties/payment-sequences.ts`) use it to know what each step may and must lead to.
 *
 * A row reads: from a state, a trigger (a callback the system sent and the module acknowledged,
 * or the module's own `update-invoice` after an event of the payment system), under a condition,
 * to the next state. The callback rows' next state is set by the module: it acknowledges the
 * callback, then reports the state ("Capture the held funds, then set `succeeded`").
 */

/** The document's five values (a closed list). */
export const INVOICE_STATUSES = ['pending', 'waitingForCapture', 'succeeded', 'canceled', 'refundSucceeded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Callbacks the manager's actions send (document: Calls from the system to a payment module). */
export const SYSTEM_ACTIONS = ['approve', 'cancel', 'refund'] as const;
export type SystemAction = (typeof SYSTEM_ACTIONS)[number];

/** What the payment system tells the module (the `payment.notify` trigger): funds held, paid (no hold), the payment failed. */
export const PAYMENT_EVENTS = ['held', 'paid', 'failed'] as const;
export type PaymentEvent = (typeof PAYMENT_EVENTS)[number];

export const isInvoiceStatus = (v: unknown): v is InvoiceStatus => typeof v === 'string' && (INVOICE_STATUSES as readonly string[]).includes(v);

export interface Transition {
  from: InvoiceStatus | 'new';
  /** A callback acknowledged by the module; or `report`: the module's update-invoice after a payment event. */
  trigger: 'create' | SystemAction | 'report';
  /** For `report` rows: the payment events that lead to it. */
  events?: readonly PaymentEvent[];
  condition: string;
  to: InvoiceStatus;
  /** The system must have answered the module's `payment/check` of the invoice with yes (the row's condition). */
  needsPassedCheck?: boolean;
  /** The requirement the row states. */
  ids: readonly string[];
}

/** The table, row by row. */
export const INVOICE_TABLE: readonly Transition[] = [
  { from: 'new', trigger: 'create', condition: 'invoice issued', to: 'pending', ids: ['PAY-NEW-INVOICE-PENDING'] },
  { from: 'pending', trigger: 'report', events: ['held'], condition: 'funds held and invoice check passed', to: 'waitingForCapture', needsPassedCheck: true, ids: ['PAY-PENDING-TO-WAITING-ON-HOLD'] },
  { from: 'pending', trigger: 'report', events: ['held', 'paid'], condition: 'payment completed (automatic confirmation or no hold)', to: 'succeeded', ids: ['PAY-PENDING-TO-SUCCEEDED-ON-PAYMENT'] },
  { from: 'pending', trigger: 'cancel', condition: 'manager presses cancel', to: 'canceled', ids: ['PAY-CANCEL-SETS-CANCELED'] },
  { from: 'waitingForCapture', trigger: 'approve', condition: 'manager presses confirm', to: 'succeeded', ids: ['PAY-APPROVE-SETS-SUCCEEDED'] },
  { from: 'waitingForCapture', trigger: 'cancel', condition: 'manager presses cancel', to: 'canceled', ids: ['PAY-CANCEL-SETS-CANCELED'] },
  { from: 'succeeded', trigger: 'refund', condition: 'manager presses refund', to: 'refundSucceeded', ids: ['PAY-REFUND-SETS-REFUNDSUCCEEDED'] },
];

/** The state a callback acknowledged in `from` leads to (the module then reports it); undefined where the table forbids the callback. */
export function afterCallback(from: InvoiceStatus, action: SystemAction): InvoiceStatus | undefined {
  return INVOICE_TABLE.find((t) => t.from === from && t.trigger === action)?.to;
}

/** Whether the table lets the system send the callback from this state ("Cancel is possible only from pending and waitingForCapture", ...). */
export const allows = (from: InvoiceStatus, action: SystemAction): boolean => afterCallback(from, action) !== undefined;

/** The states a payment event may lead to from `from` by the module's report (none: the event changes nothing). */
export function afterEvent(from: InvoiceStatus, event: PaymentEvent, checkPassed: boolean): InvoiceStatus[] {
  return INVOICE_TABLE.filter((t) => t.from === from && t.trigger === 'report' && t.events!.includes(event) && (!t.needsPassedCheck || checkPassed)).map((t) => t.to);
}

/** What the invoice's record says when a report arrives: its state, the callback awaiting its report, the last payment event and check. */
export interface InvoiceContext {
  state: InvoiceStatus;
  /** A callback the module acknowledged from `state`, whose report is due. */
  awaiting?: SystemAction;
  /** The last payment event told to the module about this invoice, and whether a check since then passed, was refused, or was not made. */
  event?: PaymentEvent;
  check?: 'passed' | 'refused' | 'none';
}

/** Why a reported status breaks the table; `rule` names the statement (one check owns each). */
export interface Breach {
  rule: 'status' | 'hold-without-check' | 'success-without-check' | 'canceled-paid' | 'table';
  why: string;
}

/**
 * Judges a reported status against the table. A report of the state the invoice is in is no
 * transition (changed parameters): always legal. `success-without-check` is returned for a
 * succeeded report after a payment event with no passed check: legal by the table (the typical
 * flows, a SHOULD, ask for the check), so the simulator accepts it and the flows judge it.
 */
export function judgeReport(ctx: InvoiceContext, reported: unknown): { legal: boolean; to?: InvoiceStatus; breach?: Breach } {
  if (!isInvoiceStatus(reported)) return { legal: false, breach: { rule: 'status', why: `status ${JSON.stringify(reported)} is not one of the document's five values (${INVOICE_STATUSES.join(', ')})` } };
  if (reported === ctx.state) return { legal: true, to: reported };
  if (ctx.awaiting && afterCallback(ctx.state, ctx.awaiting) === reported) return { legal: true, to: reported };
  const passed = ctx.check === 'passed';
  // A cancel sent counts as done for payments (the module accepts no more payments for the invoice).
  if ((ctx.state === 'canceled' || ctx.awaiting === 'cancel') && (reported === 'succeeded' || reported === 'waitingForCapture')) {
    return { legal: false, breach: { rule: 'canceled-paid', why: `${reported} reported for a canceled invoice (the module accepts no more payments for it)` } };
  }
  if (ctx.event && afterEvent(ctx.state, ctx.event, true).includes(reported)) {
    if (afterEvent(ctx.state, ctx.event, passed).includes(reported)) {
      if (reported === 'succeeded' && !passed) return { legal: true, to: reported, breach: { rule: 'success-without-check', why: checkWords(ctx) } };
      return { legal: true, to: reported };
    }
    return { legal: false, breach: { rule: 'hold-without-check', why: `waitingForCapture reported ${checkWords(ctx)} (the table's condition: funds held and invoice check passed)` } };
  }
  const row = INVOICE_TABLE.find((t) => t.from === ctx.state && t.to === reported);
  const how = row ? (row.trigger === 'report' ? `after a payment event (${row.events!.join(' or ')}), none told` : `after an acknowledged ${row.trigger}, none sent`) : 'by no row of the table';
  return { legal: false, breach: { rule: 'table', why: `${ctx.state} -> ${reported}: reachable ${how}${ctx.awaiting ? ` (awaiting the report of ${ctx.awaiting}: ${afterCallback(ctx.state, ctx.awaiting) ?? 'none'})` : ''}` } };
}

function checkWords(ctx: InvoiceContext): string {
  if (ctx.check === 'refused') return `after the system answered the invoice check with no (${ctx.event} event)`;
  return `without a payment/check of the invoice since the ${ctx.event} event`;
}
