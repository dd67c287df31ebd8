/**
 * The system's invoices: what the system issued (every `create` the suite sends), what the
 * module answered and reported, and the invoice state machine of the contract enforced on every
 * `update-invoice` (`src/contract/invoice-machine.ts`, the one model the payment sequences use
 * too). The check (`payment/check`) is answered honestly: no for an unknown invoice, or for an
 * amount or currency that does not match the invoice as the system holds it (the suite can change
 * an invoice on the system's side, or withdraw it, as an edited or deleted order would).
 *
 * Invoices the suite issued are kept for the whole run (never evicted: a sequence may still use
 * them); the module cannot add any (a report of an unknown invoice is refused and not kept).
 */
import { EventEmitter } from 'node:events';
import { afterCallback, judgeReport, type Breach, type InvoiceContext, type InvoiceStatus, type PaymentEvent, type SystemAction } from '../contract/invoice-machine.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One update-invoice the module sent about an invoice, as the system judged it. */
export interface InvoiceReport {
  /** Position in the book's order of events (`InvoiceBook.mark()`). */
  seq: number;
  uuid: string;
  status: unknown;
  /** The state the invoice was in when it arrived. */
  from: InvoiceStatus | 'new';
  accepted: boolean;
  /** The rule it breaks, if any (a `success-without-check` report is accepted all the same). */
  breach?: Breach;
  /** The exchange of the call (set once the exchange is recorded). */
  exchange?: string;
  /** `refund.amount` of the report, when it gives one. */
  refundAmount?: number;
}

/** One payment/check of an invoice, as the system answered it. */
export interface InvoiceCheck {
  seq: number;
  passed: boolean;
  why?: string;
  exchange?: string;
}

export interface HeldInvoice {
  uuid: string;
  amount?: number;
  currency?: string;
  paymentId?: string;
  /** `new` until the module acknowledged create (or reported the invoice pending). */
  state: InvoiceStatus | 'new';
  /** A callback sent (or acknowledged) from `state` whose report is due. */
  awaiting?: SystemAction;
  /** The last payment event the module was told of, and when. */
  event?: { event: PaymentEvent; seq: number };
  /** Withdrawn by the system (an order deleted): the check says no. */
  withdrawn?: boolean;
  reports: InvoiceReport[];
  checks: InvoiceCheck[];
}

const same = (a: number, b: number): boolean => Math.abs(a - b) < 0.005;
/** An amount as the PHP system reads it: a number, or a numeric string ("40.00"). */
const amountOf = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined);

export class InvoiceBook extends EventEmitter {
  private readonly byUuid = new Map<string, HeldInvoice>();
  private readonly uuidByPayment = new Map<string, string>();
  private seq = 0;
  /**
   * Reports the module was seen to leave out in this session, by kind (`approve`, `paid`...): a
   * report that must follow is waited for in full until one is missed, briefly from then on.
   */
  readonly missed = new Set<string>();

  /** The current position: reports and checks after it have a higher `seq`. */
  mark(): number {
    return this.seq;
  }

  get(uuid: string): HeldInvoice | undefined {
    return this.byUuid.get(uuid);
  }

  /** The invoice a paymentId names (the module's id, from create or a report). */
  byPaymentId(paymentId: string): HeldInvoice | undefined {
    const uuid = this.uuidByPayment.get(paymentId);
    return uuid === undefined ? undefined : this.byUuid.get(uuid);
  }

  size(): number {
    return this.byUuid.size;
  }

  /** The system issues an invoice (before it sends create). */
  issue(invoice: Json): void {
    const uuid = invoice.invoiceUuid;
    if (typeof uuid !== 'string' || uuid === '') return;
    this.byUuid.set(uuid, {
      uuid,
      ...(typeof invoice.amount === 'number' ? { amount: invoice.amount } : {}),
      ...(typeof invoice.currency === 'string' ? { currency: invoice.currency } : {}),
      state: 'new',
      reports: [],
      checks: [],
    });
  }

  /** The module answered create: with success and (maybe) its paymentId, the invoice is pending. */
  created(uuid: string, success: boolean, paymentId?: string): void {
    const inv = this.byUuid.get(uuid);
    if (!inv) return;
    if (success && inv.state === 'new') inv.state = 'pending';
    if (success && paymentId !== undefined) this.bind(inv, paymentId);
  }

  private bind(inv: HeldInvoice, paymentId: string): void {
    inv.paymentId ??= paymentId;
    this.uuidByPayment.set(paymentId, inv.uuid);
  }

  /**
   * The system is about to send a manager's action: where the table allows it, its report is
   * due from now on (a module may report before the suite has read its answer). Returns what
   * to call with the answer: a refusal cancels the due report.
   */
  sending(paymentId: string, action: SystemAction): (acknowledged: boolean) => void {
    const inv = this.byPaymentId(paymentId);
    if (!inv || inv.state === 'new' || afterCallback(inv.state, action) === undefined) return () => {};
    inv.awaiting = action;
    const from = inv.state;
    return (acknowledged) => {
      if (!acknowledged && inv.awaiting === action && inv.state === from) delete inv.awaiting;
    };
  }

  /** The payment system tells the module of an event (the `payment.notify` trigger is about to fire). */
  notified(paymentId: string, event: PaymentEvent): void {
    const inv = this.byPaymentId(paymentId);
    if (inv) inv.event = { event, seq: ++this.seq };
  }

  /** The system's side of the invoice changes (an order edited): the check compares with this from now on. */
  amend(uuid: string, change: { amount?: number; currency?: string; withdrawn?: boolean }): void {
    const inv = this.byUuid.get(uuid);
    if (!inv) return;
    if (change.amount !== undefined) inv.amount = change.amount;
    if (change.currency !== undefined) inv.currency = change.currency;
    if (change.withdrawn) inv.withdrawn = true;
  }

  /** What a report is judged in: the state, the due report, the last event and the check since it. */
  context(inv: HeldInvoice): InvoiceContext {
    const state: InvoiceStatus = inv.state === 'new' ? 'pending' : inv.state;
    const ctx: InvoiceContext = { state, ...(inv.awaiting ? { awaiting: inv.awaiting } : {}) };
    if (inv.event) {
      const since = inv.checks.filter((c) => c.seq > inv.event!.seq);
      ctx.event = inv.event.event;
      ctx.check = since.length === 0 ? 'none' : since.at(-1)!.passed ? 'passed' : 'refused';
    }
    return ctx;
  }

  /** `payment/check`: the honest answer, recorded on the invoice. */
  check(payload: unknown): { record?: InvoiceCheck; result: { success: boolean; errorMsg?: string } } {
    const p = isObj(payload) ? payload : {};
    const inv = typeof p.invoiceUuid === 'string' ? this.byUuid.get(p.invoiceUuid) : undefined;
    const no = (errorMsg: string, record?: InvoiceCheck): { record?: InvoiceCheck; result: { success: boolean; errorMsg: string } } => ({ ...(record ? { record } : {}), result: { success: false, errorMsg } });
    if (!inv) return no(`invoice ${JSON.stringify(p.invoiceUuid ?? null)} not found`);
    const record: InvoiceCheck = { seq: ++this.seq, passed: false };
    inv.checks.push(record);
    if (inv.withdrawn) return no((record.why = 'the order of the invoice no longer exists'), record);
    const amount = amountOf(p.amount);
    if (inv.amount !== undefined && !(amount !== undefined && same(amount, inv.amount))) return no((record.why = `amount ${JSON.stringify(p.amount ?? null)} does not match the invoice (${inv.amount})`), record);
    if (inv.currency !== undefined && p.currency !== undefined && p.currency !== inv.currency) return no((record.why = `currency ${JSON.stringify(p.currency)} does not match the invoice (${inv.currency})`), record);
    record.passed = true;
    return { record, result: { success: true } };
  }

  /** `update-invoice`: judged against the table; the state moves on an accepted report. */
  report(payload: unknown): { record?: InvoiceReport; accepted: boolean; status: number; errorMsg?: string } {
    const p = isObj(payload) ? payload : {};
    const byUuid = typeof p.invoiceUuid === 'string' ? this.byUuid.get(p.invoiceUuid) : undefined;
    const byPayment = typeof p.paymentId === 'string' || typeof p.paymentId === 'number' ? this.byPaymentId(String(p.paymentId)) : undefined;
    const inv = byUuid ?? byPayment;
    if (!inv) return { accepted: false, status: 404, errorMsg: `invoice not found (invoiceUuid ${JSON.stringify(p.invoiceUuid ?? null)}, paymentId ${JSON.stringify(p.paymentId ?? null)})` };
    if (byUuid && (typeof p.paymentId === 'string' || typeof p.paymentId === 'number')) this.bind(byUuid, String(p.paymentId));
    const from = inv.state;
    const record: InvoiceReport = { seq: ++this.seq, uuid: inv.uuid, status: p.status, from, accepted: false };
    const refundAmount = isObj(p.refund) ? amountOf(p.refund.amount) : undefined;
    if (refundAmount !== undefined) record.refundAmount = refundAmount;
    inv.reports.push(record);
    if (p.status === undefined) {
      // Changed parameters without a status: no transition.
      record.accepted = true;
      return { record, accepted: true, status: 200 };
    }
    const ctx = this.context(inv);
    const verdict = from === 'new' && p.status === 'pending' ? { legal: true, to: 'pending' as const } : judgeReport(ctx, p.status);
    if (verdict.breach) record.breach = verdict.breach;
    if (!verdict.legal) return { record, accepted: false, status: 400, errorMsg: `update-invoice refused: ${verdict.breach!.why}` };
    record.accepted = true;
    if (verdict.to !== ctx.state || from === 'new') {
      inv.state = verdict.to!;
      delete inv.awaiting;
    }
    return { record, accepted: true, status: 200 };
  }

  /** The exchange of a report or check is recorded: announced to waiters. */
  attach(record: InvoiceReport | InvoiceCheck, exchange: string): void {
    record.exchange = exchange;
    this.emit('record', record);
  }

  /** Reports of an invoice after `since` whose exchange is recorded. */
  reportsSince(uuid: string, since: number): InvoiceReport[] {
    return (this.byUuid.get(uuid)?.reports ?? []).filter((r) => r.seq > since && r.exchange !== undefined);
  }

  /** Checks of an invoice after `since` whose exchange is recorded. */
  checksSince(uuid: string, since: number): InvoiceCheck[] {
    return (this.byUuid.get(uuid)?.checks ?? []).filter((c) => c.seq > since && c.exchange !== undefined);
  }

  /** Waits until a report of the invoice after `since` satisfies `done`, or the timeout; resolves to the reports since. */
  async waitForReport(uuid: string, since: number, done: (r: InvoiceReport) => boolean, timeoutMs: number): Promise<InvoiceReport[]> {
    if (this.reportsSince(uuid, since).some(done)) return this.reportsSince(uuid, since);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      const onRecord = (r: InvoiceReport | InvoiceCheck): void => {
        if ('uuid' in r && r.uuid === uuid && r.seq > since && done(r)) finish();
      };
      function finish(): void {
        clearTimeout(timer);
        book.off('record', onRecord);
        resolve();
      }
      const book = this.on('record', onRecord);
    });
    return this.reportsSince(uuid, since);
  }
}
