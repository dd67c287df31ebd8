/**
 * The invoice reports of a payment step, judged against the invoice state machine
 * (`src/contract/invoice-machine.ts`): what the model allowed and required for the step, and
 * what the system simulator made of each `update-invoice` (`src/simulators/invoices.ts`). Each
 * breach belongs to exactly one check: a report that skips or ignores the invoice check, a
 * payment of a canceled invoice, any other transition outside the table; a refused step's
 * reports belong to the refusal probe (`ensureRefusalLeftNoEffect`), and a status outside the
 * five values to the payload's schema rule.
 */
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import { refusesTheMethod } from '../callbacks/method.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import type { CaseOutcome, InvoiceView } from '../case.ts';
import type { InvoiceReport } from '../../simulators/invoices.ts';

/** Breaches judged by a check of their own (the rest are the table's). */
const OWNED = new Set(['hold-without-check', 'success-without-check', 'canceled-paid', 'status']);

const refused = (o: CaseOutcome): boolean => o.case.intent.kind === 'refused';
const ids = (reports: readonly InvoiceReport[]): string[] => reports.flatMap((r) => (r.exchange ? [r.exchange] : []));
const stepWords = (o: CaseOutcome, v: InvoiceView): string => `${o.trigger ?? o.case.callback} on invoice ${v.uuid} (${v.before})`;

/** Reports of the step that break the table and no rule of their own: refused by the system, or outside what the step allows. */
function tableBreaches(v: InvoiceView): InvoiceReport[] {
  return v.reports.filter((r) => {
    // A success without a passed check is that rule's only in a step that told of a payment; elsewhere it left what the step allows.
    if (r.breach && OWNED.has(r.breach.rule) && (r.breach.rule !== 'success-without-check' || v.event === 'held' || v.event === 'paid')) return false;
    if (!r.accepted) return true;
    return r.status !== undefined && r.status !== r.from && !v.allowed.includes(r.status as never);
  });
}

/** Reports owned by some check (any breach, a refusal, or a status the step does not allow). */
const troubled = (v: InvoiceView): boolean => v.reports.some((r) => !r.accepted || (r.breach !== undefined && r.breach.rule !== 'success-without-check')) || tableBreaches(v).length > 0;

/** Every update-invoice of a step follows a row of the table, from the invoice's state, for what the step did. */
export const ensureInvoiceReportsFollowTable = defineCheck<CaseOutcome>({
  name: 'ensureInvoiceReportsFollowTable',
  checks: 'an update-invoice moves the invoice only along the invoice status table, for what the system or the payment system did',
  run(o) {
    const v = o.invoice;
    if (!v || refused(o)) return notApplicable('not a payment step of its own');
    if (v.reports.length === 0) return notApplicable('nothing reported in the step');
    if (o.case.intent.kind === 'wrong' && claimsSuccess(o.reply)) return notApplicable('the module acted on wrong input: judged by ensureWrongInputIsRefused');
    const bad = tableBreaches(v);
    if (bad.length > 0) {
      const words = bad.map((r) => (r.breach ? r.breach.why : `${r.from} -> ${show(r.status)} after ${o.trigger ?? o.case.callback}, where the table allows ${v.allowed.length > 0 ? v.allowed.join(' or ') : 'no change'}`));
      return fail(`${stepWords(o, v)}: ${words.join('; ')}`, `only the table's transitions (integration-interface.md, Invoice status): ${v.allowed.length > 0 ? `${v.before} -> ${v.allowed.join(' or ')}` : `${v.before} unchanged`}`, ids(bad));
    }
    return pass(`${v.reports.length} report(s) along the table`, ids(v.reports));
  },
});

/** waitingForCapture only after the funds were held and the system answered the module's check with yes (the table's condition). */
export const ensureHoldFollowsPassedCheck = defineCheck<CaseOutcome>({
  name: 'ensureHoldFollowsPassedCheck',
  checks: 'waitingForCapture is reported only after the system answered the invoice check with yes',
  run(o) {
    const v = o.invoice;
    if (!v || refused(o)) return notApplicable('not a payment step of its own');
    const bad = v.reports.filter((r) => r.breach?.rule === 'hold-without-check');
    if (bad.length > 0) return fail(`${stepWords(o, v)}: ${bad.map((r) => r.breach!.why).join('; ')}`, 'payment/check of the invoice answered with yes, then waitingForCapture (funds held and invoice check passed)', ids(bad));
    const held = v.reports.filter((r) => r.status === 'waitingForCapture' && r.from === 'pending' && r.accepted);
    if (held.length > 0) return pass('waitingForCapture after a passed check', ids(held));
    return notApplicable('no hold reported in the step');
  },
});

/** succeeded after a payment event only once the invoice check passed (the typical flows: the module checks, then captures or charges). */
export const ensureSuccessFollowsPassedCheck = defineCheck<CaseOutcome>({
  name: 'ensureSuccessFollowsPassedCheck',
  checks: 'a payment is reported succeeded only after the system answered the invoice check with yes',
  run(o) {
    const v = o.invoice;
    if (!v || refused(o) || v.event === undefined || v.event === 'failed') return notApplicable('no payment told in the step');
    const bad = v.reports.filter((r) => r.breach?.rule === 'success-without-check');
    if (bad.length > 0) return fail(`${stepWords(o, v)}: succeeded reported ${bad[0]!.breach!.why}`, 'payment/check of the invoice answered with yes before the payment is accepted and reported succeeded', ids(bad));
    const ok = v.reports.filter((r) => r.status === 'succeeded' && r.from === 'pending' && r.accepted);
    if (ok.length > 0) return pass(`succeeded after a passed check (${v.event})`, [...ids(ok), ...v.checks.flatMap((c) => (c.exchange ? [c.exchange] : []))]);
    return notApplicable('no payment reported succeeded in the step');
  },
});

/** After a cancel, the module accepts no more payments for the invoice. */
export const ensureCanceledInvoiceTakesNoPayment = defineCheck<CaseOutcome>({
  name: 'ensureCanceledInvoiceTakesNoPayment',
  checks: 'a canceled invoice takes no more payments (none is reported)',
  run(o) {
    const v = o.invoice;
    if (!v || refused(o)) return notApplicable('not a payment step of its own');
    const bad = v.reports.filter((r) => r.breach?.rule === 'canceled-paid');
    if (bad.length > 0) return fail(`${stepWords(o, v)}: ${bad.map((r) => r.breach!.why).join('; ')}`, 'no payment accepted for a canceled invoice (integration-interface.md, Invoice status: the module accepts no more payments)', ids(bad));
    if (v.before === 'canceled' && (v.event === 'held' || v.event === 'paid')) return pass(`a payment (${v.event}) of the canceled invoice was not reported`, [o.reply.exchange.id]);
    return notApplicable('no payment of a canceled invoice in the step');
  },
});

/** The amounts a refund's answer (`result.amount`) and its refundSucceeded reports (`refund.amount`) give, each with its evidence. */
function refundedAmounts(o: CaseOutcome, v: InvoiceView): Array<{ where: string; amount: number; evidence?: string }> {
  return [
    { where: 'the answer\'s result.amount', amount: (o.reply.json as { result?: { amount?: unknown } } | undefined)?.result?.amount, evidence: o.reply.exchange.id },
    ...v.reports.map((r) => ({ where: 'the refundSucceeded report\'s refund.amount', amount: r.refundAmount as unknown, evidence: r.exchange })),
  ].filter((x): x is { where: string; amount: number; evidence: string } => typeof x.amount === 'number');
}

/** A refund without an amount returns the whole amount paid (wire profile section 3: "no amount: full"): the invoice's amount, or what an approve of an amount captured. */
export const ensureRefundWithoutAmountIsFull = defineCheck<CaseOutcome>({
  name: 'ensureRefundWithoutAmountIsFull',
  checks: 'a refund sent without an amount refunds the whole invoice (its answer and its report say the amount paid)',
  run(o) {
    const v = o.invoice;
    const payload = o.case.payload as { amount?: unknown } | undefined;
    if (o.case.callback !== 'payment.refund' || o.trigger || !v || refused(o) || payload?.amount !== undefined || v.amount === undefined) return notApplicable('not a refund without an amount');
    if (!claimsSuccess(o.reply)) return notApplicable('the refund was not acknowledged');
    const paid = v.paid ?? v.amount;
    const said = refundedAmounts(o, v);
    if (said.length === 0) return notApplicable('neither the answer nor the report gives the amount refunded');
    const short = said.filter((x) => Math.abs(x.amount - paid) >= 0.005);
    const whole = v.paid !== undefined ? `what the approve captured, ${paid}` : `${paid}`;
    if (short.length > 0) return fail(`refund without an amount of an invoice of ${paid} paid: ${short.map((x) => `${x.where} ${show(x.amount)}`).join(', ')}`, `the whole amount paid, ${whole} (wire profile section 3: "refund={paymentId, amount?} (no amount: full)")`, short.flatMap((x) => (x.evidence ? [x.evidence] : [])));
    return pass(`${said.length} amount(s) of ${paid}: the whole amount paid`, said.flatMap((x) => (x.evidence ? [x.evidence] : [])));
  },
});

/**
 * A refund of an amount returns that amount (wire profile section 3: `refund={paymentId,
 * amount?}`, the amount to refund; no amount: full): its answer and its refundSucceeded report
 * say the amount asked, not the whole amount paid or another.
 */
export const ensureRefundReturnsAskedAmount = defineCheck<CaseOutcome>({
  name: 'ensureRefundReturnsAskedAmount',
  checks: 'a refund sent with an amount refunds that amount (its answer and its report say the amount asked)',
  run(o) {
    const v = o.invoice;
    const asked = (o.case.payload as { amount?: unknown } | undefined)?.amount;
    if (o.case.callback !== 'payment.refund' || o.trigger || !v || refused(o) || typeof asked !== 'number' || asked <= 0) return notApplicable('not a refund of an amount');
    if (o.case.intent.kind === 'wrong') return notApplicable('a wrong amount: judged by the wrong-input rules');
    if (!claimsSuccess(o.reply)) return notApplicable('the refund was not acknowledged');
    const said = refundedAmounts(o, v);
    if (said.length === 0) return notApplicable('neither the answer nor the report gives the amount refunded');
    const off = said.filter((x) => Math.abs(x.amount - asked) >= 0.005);
    const paid = v.paid ?? v.amount;
    if (off.length > 0) return fail(`refund of ${asked}${paid !== undefined ? ` (of ${paid} paid)` : ''}: ${off.map((x) => `${x.where} ${show(x.amount)}`).join(', ')}`, `the amount asked, ${asked} (wire profile section 3: "refund={paymentId, amount?}")`, off.flatMap((x) => (x.evidence ? [x.evidence] : [])));
    return pass(`${said.length} amount(s) of ${asked}: the amount asked${paid !== undefined && asked < paid ? ` (a part of ${paid} paid)` : ''}`, said.flatMap((x) => (x.evidence ? [x.evidence] : [])));
  },
});

/** A manager's action the table allows is acknowledged and its state reported; a payment told is reported. */
export const ensureActionIsReported = defineCheck<CaseOutcome>({
  name: 'ensureActionIsReported',
  checks: "the manager's action is acknowledged and the invoice's next state reported with update-invoice (a payment told, reported)",
  run(o) {
    const v = o.invoice;
    const need = v?.required;
    if (!v || !need || refused(o)) return notApplicable('no report required by the step');
    if (v.elsewhere) return notApplicable('the module does not call this system (remote mode, its registration given): its reports go elsewhere');
    const what = o.trigger ?? `${o.case.callback.split('.')[1]} of a ${v.before} invoice`;
    if (o.trigger) {
      if (o.reply.status === undefined || o.reply.status >= 300 || (o.reply.json as { success?: unknown } | undefined)?.success === false) return notApplicable(`the trigger failed: ${describeReply(o.reply)}`);
    } else if (refusesTheMethod(o.reply)) {
      return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
    } else if (!claimsSuccess(o.reply)) {
      return fail(`${what} answered ${describeReply(o.reply)}`, `{success: true}, then update-invoice with ${need.statuses.join(' or ')} (the table allows ${need.because} from ${v.before})`, [o.reply.exchange.id]);
    }
    if (troubled(v)) return notApplicable('a report of the step breaks the table: judged by that rule');
    if (v.offRoute?.length) return notApplicable(`the module called update-invoice's or check's path with another method during the step (${v.offRoute.length} call(s)): judged by ensureSystemCallUsesDocumentedMethod`);
    const done = v.reports.filter((r) => r.accepted && need.statuses.includes(r.status as never));
    if (done.length > 0) return pass(`${need.statuses.join(' or ')} reported after ${need.because}`, [o.reply.exchange.id, ...ids(done)]);
    const got = v.reports.length > 0 ? `only ${v.reports.map((r) => show(r.status)).join(', ')} reported` : 'no update-invoice';
    return fail(`${what}: ${got} within ${v.waitedMs} ms${v.brief ? ' (a brief wait: a report was already missed in the run after the full wait, the smaller of flowTimeoutMs and 5 s)' : ''}`, `update-invoice with status ${need.statuses.join(' or ')} (${need.because} -> ${need.statuses.join(' or ')})`, [o.reply.exchange.id]);
  },
});


