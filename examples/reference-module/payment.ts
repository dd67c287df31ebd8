/**
 * Payment: invoices with the contract's state machine.
 *
 *   (new) --create--> pending --held (payment.notify)--> waitingForCapture --approve--> succeeded --refund--> refundSucceeded
 *                     pending --paid (payment.notify)--> succeeded
 *                     pending | waitingForCapture --cancel--> canceled
 *
 * After each change the module reports it to the system with
 * `POST /api/v5/payment/update-invoice` (form `updateInvoice` = JSON, wire-profile section 3);
 * before accepting funds it asks `POST /api/v5/payment/check` (form `check`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FaultSet } from './faults.ts';
import { VariationSet } from './variations.ts';
import { CallbackAuth, HttpError, afterReply, badRequest, getCallback, notFound, postCallback, presentedClientId, sendText, unknownIdMessage, success, type CallbackReply, type Ctx, type Payload, type RouteHandler, type Router } from './http.ts';
import { dateTime, isObj, optArray, optEnum, optNumber, optPositive, optString, reqString, round2 } from './input.ts';
import { PAYMENT_SERVED_PATHS, PAYMENT_SHOPS, paymentCurrencies } from './registration.ts';
import { describeFailure, systemOk, type SystemClient } from './outbound.ts';
import { log } from './log.ts';

export type InvoiceStatus = 'pending' | 'waitingForCapture' | 'succeeded' | 'canceled' | 'refundSucceeded';

export interface Refund {
  id: string;
  status: string;
  amount: number;
  comment: string | null;
}

export interface Invoice {
  paymentId: string;
  invoiceUuid: string;
  amount: number;
  currency: string;
  shopId?: string;
  orderNumber?: string;
  status: InvoiceStatus;
  invoiceUrl: string;
  createdAt: Date;
  expiresAt: Date;
  paidAt?: Date;
  capturedAmount?: number;
  refund?: Refund;
  /** Reports to the system run one after the other per invoice. */
  reporting: Promise<void>;
}

const cancellable = (s: InvoiceStatus): boolean => s === 'pending' || s === 'waitingForCapture';

/** The `updateInvoice` body for the invoice's current state. */
export function updateInvoiceBody(inv: Invoice): Record<string, unknown> {
  const body: Record<string, unknown> = {
    invoiceUuid: inv.invoiceUuid,
    paymentId: inv.paymentId,
    status: inv.status,
    amount: inv.capturedAmount ?? inv.amount,
    invoiceUrl: inv.invoiceUrl,
    expiredAt: dateTime(inv.expiresAt),
    cancellable: cancellable(inv.status),
    refundable: inv.status === 'succeeded',
  };
  if (inv.paidAt) body.paidAt = dateTime(inv.paidAt);
  if (inv.refund) body.refund = { ...inv.refund };
  return body;
}

export class PaymentService {
  readonly invoices = new Map<string, Invoice>();
  private refusedChecks = 0;
  /** Shops added in the module's settings since its first registration (variation `registers-again`): registered, so accepted. */
  readonly addedShops: Array<{ name: string; code: string; active: boolean }> = [];
  private readonly currencies: string[];

  constructor(
    private readonly system: SystemClient,
    private readonly publicUrl: () => string,
    readonly faults: FaultSet,
    private readonly variations: VariationSet = new VariationSet([]),
  ) {
    this.currencies = paymentCurrencies(faults);
  }

  invoice(paymentId: string): Invoice {
    const inv = this.invoices.get(paymentId);
    if (!inv) throw notFound(unknownIdMessage('payment', 'paymentId', paymentId));
    return inv;
  }

  /** Queues an `update-invoice` report of the invoice's current state. */
  report(inv: Invoice, override: Partial<Record<string, unknown>> = {}): Promise<void> {
    const full = { ...updateInvoiceBody(inv), ...override };
    // Variation `auto-capture`: only what names the invoice and its status.
    const body: Record<string, unknown> = this.variations.has('auto-capture') ? { invoiceUuid: full.invoiceUuid, paymentId: full.paymentId, status: full.status } : full;
    // Fault `update-invoice-status-unknown`: a success reported as `paid`, not one of the five values.
    if (this.faults.has('update-invoice-status-unknown') && body.status === 'succeeded') body.status = 'paid';
    // Fault `update-invoice-amount-as-text`: the amount written as text ("40.00").
    if (this.faults.has('update-invoice-amount-as-text') && typeof body.amount === 'number') body.amount = body.amount.toFixed(2);
    inv.reporting = inv.reporting.then(async () => {
      try {
        // Fault `update-invoice-put`: reported with PUT, not POST.
        const reply = this.faults.has('update-invoice-put')
          ? await this.system.postForm('/api/v5/payment/update-invoice', { updateInvoice: JSON.stringify(body) }, { method: 'PUT' })
          : await this.system.postForm('/api/v5/payment/update-invoice', { updateInvoice: JSON.stringify(body) });
        if (!systemOk(reply)) log('update-invoice refused', { paymentId: inv.paymentId, status: body.status, reply: describeFailure(reply) });
      } catch (e) {
        log('update-invoice failed', { paymentId: inv.paymentId, error: (e as Error).message });
      }
    });
    return inv.reporting;
  }

  private requireState(inv: Invoice, action: string, allowed: InvoiceStatus[]): void {
    if (!allowed.includes(inv.status)) {
      throw badRequest(`invoice ${inv.paymentId} is in state ${inv.status}; ${action} is possible only from ${allowed.join(' or ')}`);
    }
  }

  create(p: Payload, ctx: Ctx): CallbackReply {
    const invoiceUuid = reqString(p, 'invoiceUuid', 'invoiceUuid');
    // Fault `create-accepts-zero-amount`: an amount of zero taken as it comes.
    const amount = this.faults.has('create-accepts-zero-amount') && p.amount !== undefined && p.amount !== null && p.amount !== '' && Number(p.amount) === 0 ? 0 : optPositive(p, 'amount', 'amount');
    if (amount === undefined) throw badRequest('amount is required');
    // Fault `create-error-without-field`: a refused currency named nowhere in the message.
    const vague = this.faults.has('create-error-without-field');
    let currency: string;
    try {
      currency = reqString(p, 'currency', 'currency');
    } catch (e) {
      throw vague ? badRequest('invalid request') : e;
    }
    if (!this.currencies.includes(currency)) throw badRequest(vague ? 'invalid request' : `currency ${currency} is not accepted (accepted: ${this.currencies.join(', ')})`);
    optEnum(p, 'invoiceType', 'invoiceType', ['link'] as const);
    const shopId = optString(p, 'shopId', 'shopId');
    if (shopId !== undefined && shopId !== '') {
      const shop = [...PAYMENT_SHOPS, ...this.addedShops].find((s) => s.code === shopId);
      if (!shop) throw badRequest(`shopId ${JSON.stringify(shopId)} is not a shop of this account`);
      if (!shop.active) throw badRequest(`shopId ${shopId} is not active`);
    }
    (optArray(p, 'items', 'items') ?? []).forEach((item, i) => {
      if (!isObj(item)) throw badRequest(`items[${i}] must be an object`);
      optNumber(item, 'price', `items[${i}].price`);
      optPositive(item, 'quantity', `items[${i}].quantity`);
    });
    for (const key of ['returnUrl', 'siteUrl']) {
      const u = optString(p, key, key);
      if (u !== undefined && !/^https?:\/\//.test(u)) throw badRequest(`${key} must be an absolute http(s) URL`);
    }
    const paymentId = randomUUID();
    const now = new Date();
    const inv: Invoice = {
      paymentId,
      invoiceUuid,
      amount: round2(amount),
      currency,
      status: 'pending',
      invoiceUrl: `${this.publicUrl()}/pay/${paymentId}`,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 3 * 24 * 3600_000),
      reporting: Promise.resolve(),
    };
    if (shopId) inv.shopId = shopId;
    const orderNumber = optString(p, 'orderNumber', 'orderNumber');
    if (orderNumber) inv.orderNumber = orderNumber;
    this.invoices.set(paymentId, inv);
    afterReply(ctx, () => this.report(inv));
    // Fault `create-without-invoice-url`: the payment link left out of the answer.
    if (this.faults.has('create-without-invoice-url')) return success({ paymentId, cancellable: true });
    return success({ paymentId, invoiceUrl: inv.invoiceUrl, cancellable: true });
  }

  approve(p: Payload, ctx: Ctx): CallbackReply {
    const inv = this.invoice(reqString(p, 'paymentId', 'paymentId'));
    this.requireState(inv, 'approve', ['waitingForCapture']);
    // Fault `approve-accepts-zero-amount`: an amount of zero or below read as none (the whole held amount captured).
    const amount = this.faults.has('approve-accepts-zero-amount') && typeof p.amount === 'number' && p.amount <= 0 ? undefined : optPositive(p, 'amount', 'amount');
    if (amount !== undefined && amount > inv.amount) throw badRequest(`amount ${amount} exceeds the held amount ${inv.amount}`);
    // Variation `whole-amounts-only`: the payment system captures only the whole amount held.
    if (this.variations.has('whole-amounts-only') && amount !== undefined && amount < inv.amount) throw badRequest(`amount ${amount}: partial capture is not supported, only the whole ${inv.amount}`);
    inv.status = 'succeeded';
    inv.capturedAmount = round2(amount ?? inv.amount);
    inv.paidAt = new Date();
    // Fault `approve-reports-canceled`: the capture is reported as canceled.
    // Fault `approve-not-reported`: the capture is made and answered, never reported.
    if (!this.faults.has('approve-not-reported')) afterReply(ctx, () => this.report(inv, this.faults.has('approve-reports-canceled') ? { status: 'canceled', cancellable: false, refundable: false } : {}));
    return success();
  }

  cancel(p: Payload, ctx: Ctx): CallbackReply {
    const inv = this.invoice(reqString(p, 'paymentId', 'paymentId'));
    this.requireState(inv, 'cancel', ['pending', 'waitingForCapture']);
    inv.status = 'canceled';
    // Fault `cancel-not-reported`: the invoice is canceled and answered, never reported.
    if (!this.faults.has('cancel-not-reported')) afterReply(ctx, () => this.report(inv));
    return success();
  }

  refund(p: Payload, ctx: Ctx): CallbackReply {
    const inv = this.invoice(reqString(p, 'paymentId', 'paymentId'));
    this.requireState(inv, 'refund', ['succeeded']);
    const paid = inv.capturedAmount ?? inv.amount;
    const amount = optPositive(p, 'amount', 'amount');
    if (amount !== undefined && amount > paid) throw badRequest(`amount ${amount} exceeds the paid amount ${paid}`);
    // Variation `whole-amounts-only`: the payment system refunds only the whole amount paid.
    if (this.variations.has('whole-amounts-only') && amount !== undefined && amount < paid) throw badRequest(`amount ${amount}: partial refund is not supported, only the whole ${paid}`);
    const comment = optString(p, 'comment', 'comment') ?? null;
    inv.status = 'refundSucceeded';
    // Fault `refund-without-amount-partial`: a refund without an amount returns half the amount paid.
    const whole = this.faults.has('refund-without-amount-partial') ? round2(paid / 2) : paid;
    // Fault `partial-refund-refunds-all`: an amount below the amount paid is refunded as the whole.
    const asked = this.faults.has('partial-refund-refunds-all') && amount !== undefined && amount < paid ? paid : amount;
    inv.refund = { id: `rf_${randomBytes(8).toString('hex')}`, status: 'succeeded', amount: round2(asked ?? whole), comment };
    // Fault `refund-not-reported`: the refund is made and answered, never reported.
    if (!this.faults.has('refund-not-reported')) afterReply(ctx, () => this.report(inv));
    // Fault `refund-result-as-list`: the refund answered as a list of refunds.
    return success(this.faults.has('refund-result-as-list') ? [{ ...inv.refund }] : { ...inv.refund });
  }

  /**
   * The payment service told the module that the customer paid (`paid`) or that the funds
   * are held (`held`): check the invoice with the system, then move it on and report.
   */
  async notify(paymentId: string, event: 'held' | 'paid' | 'failed'): Promise<Record<string, unknown>> {
    const inv = this.invoice(paymentId);
    const f = this.faults;
    // Fault `canceled-still-paid`: a payment of a canceled invoice is taken.
    this.requireState(inv, `the ${event} notification`, f.has('canceled-still-paid') && event === 'paid' ? ['pending', 'canceled'] : ['pending']);
    // A failed payment changes nothing: the invoice stays payable.
    if (event === 'failed') return { success: true, paymentId, status: inv.status };
    // Faults `hold-skips-check` and `paid-skips-check`: the funds taken without asking the system.
    const skips = (event === 'held' && f.has('hold-skips-check')) || (event === 'paid' && f.has('paid-skips-check'));
    // Fault `check-amount-as-text`: the amount of the check written as text ("40.00").
    const check = { invoiceUuid: inv.invoiceUuid, amount: f.has('check-amount-as-text') ? inv.amount.toFixed(2) : inv.amount, currency: inv.currency };
    // Fault `check-by-get`: the check asked with GET (the payload in the query), not POST.
    const reply = skips ? undefined : f.has('check-by-get') ? await this.system.get('/api/v5/payment/check', { check: JSON.stringify(check) }) : await this.system.postForm('/api/v5/payment/check', { check: JSON.stringify(check) });
    const result = (reply?.json as { result?: { success?: unknown; errorMsg?: unknown } } | undefined)?.result;
    if (reply && (!systemOk(reply) || result?.success !== true)) {
      const why = typeof result?.errorMsg === 'string' ? result.errorMsg : describeFailure(reply);
      // The refusal is the trigger's answer; logged only the first times (the suite tells of many such payments).
      if (++this.refusedChecks <= 3) log('payment check refused; the funds are not accepted', { paymentId, why });
      return { success: false, errorMsg: `payment check refused: ${why}`, status: inv.status };
    }
    if (inv.status !== 'pending' && !(f.has('canceled-still-paid') && inv.status === 'canceled')) throw badRequest(`invoice ${inv.paymentId} changed to ${inv.status} during the check`);
    // Variation `auto-capture`: held funds captured at once (typical flow 1).
    inv.status = event === 'held' && !this.variations.has('auto-capture') ? 'waitingForCapture' : 'succeeded';
    if (inv.status === 'succeeded') {
      inv.paidAt = new Date();
      inv.capturedAmount = inv.amount;
    }
    // Fault `paid-not-reported`: a payment without a hold taken, never reported.
    if (!(event === 'paid' && f.has('paid-not-reported'))) await this.report(inv);
    return { success: true, paymentId, status: inv.status };
  }
}

/** Fault `refused-create-takes-effect`: a create whose clientId is missing or unknown creates the invoice (and reports it pending), and only then is refused. */
function createsBeforeAuth(auth: CallbackAuth, service: PaymentService, handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    if (!auth.judge(presentedClientId(ctx)).ok && ctx.form?.has('create')) {
      try {
        service.create(JSON.parse(ctx.form.get('create') ?? '{}') as Payload, ctx);
      } catch {
        // The refusal follows anyway.
      }
    }
    return handler(ctx);
  };
}

/** Fault `refused-cancel-takes-effect`: a cancel whose clientId is missing or unknown cancels the invoice (and reports it), and only then is refused. */
function cancelsBeforeAuth(auth: CallbackAuth, service: PaymentService, handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    if (!auth.judge(presentedClientId(ctx)).ok && ctx.form?.has('cancel')) {
      try {
        const inv = service.invoice(String((JSON.parse(ctx.form.get('cancel') ?? '{}') as { paymentId?: unknown }).paymentId));
        if (inv.status === 'pending' || inv.status === 'waitingForCapture') {
          inv.status = 'canceled';
          void service.report(inv);
        }
      } catch {
        // The refusal follows anyway.
      }
    }
    return handler(ctx);
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function mountPayment(router: Router, auth: CallbackAuth, service: PaymentService): void {
  // Fault `payment-create-on-get`: create served at GET (the invoice's JSON in the query's `create`); the POST the platform sends is answered 405 by the router.
  if (service.faults.has('payment-create-on-get')) router.add('GET', PAYMENT_SERVED_PATHS.create, getCallback(auth, (q, ctx) => service.create(queryJson(q, 'create'), ctx)));
  else {
    const create = postCallback(auth, { create: (p, ctx) => service.create(p, ctx) });
    router.add('POST', PAYMENT_SERVED_PATHS.create, service.faults.has('refused-create-takes-effect') ? createsBeforeAuth(auth, service, create) : create);
  }
  router.add('POST', PAYMENT_SERVED_PATHS.approve, postCallback(auth, { approve: (p, ctx) => service.approve(p, ctx) }));
  const cancel = postCallback(auth, { cancel: (p, ctx) => service.cancel(p, ctx) });
  router.add('POST', PAYMENT_SERVED_PATHS.cancel, service.faults.has('refused-cancel-takes-effect') ? cancelsBeforeAuth(auth, service, cancel) : cancel);
  router.add('POST', PAYMENT_SERVED_PATHS.refund, postCallback(auth, { refund: (p, ctx) => service.refund(p, ctx) }));
  // The payment link the customer opens (not a callback: no clientId).
  router.add('GET', '/pay/{paymentId}', (ctx) => {
    const inv = service.invoices.get(ctx.params.paymentId ?? '');
    if (!inv) throw new HttpError(404, 'unknown payment link');
    sendText(
      ctx.res,
      200,
      'text/html; charset=utf-8',
      `<!doctype html><title>Invoice ${escapeHtml(inv.invoiceUuid)}</title><h1>Pay ${inv.amount.toFixed(2)} ${escapeHtml(inv.currency)}</h1><p>Invoice ${escapeHtml(inv.invoiceUuid)}: ${inv.status}</p>`,
    );
  });
}

/** A JSON object held by query parameter `field` (fault `payment-create-on-get`); errors name the field. */
function queryJson(q: Record<string, string>, field: string): Payload {
  let value: unknown;
  try {
    value = JSON.parse(q[field] ?? '');
  } catch {
    throw badRequest(`${field} is missing or not valid JSON`);
  }
  if (!isObj(value)) throw badRequest(`${field} must be a JSON object`);
  return value;
}

/** Reads the `payment.notify` trigger's event. */
export function notifyEvent(p: Payload): 'held' | 'paid' | 'failed' {
  const e = optEnum(p, 'event', 'event', ['held', 'paid', 'failed'] as const);
  if (!e) throw badRequest('event is required (held, paid or failed)');
  return e;
}

