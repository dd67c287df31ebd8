/**
 * Stateful payment sequences: fast-check commands over the invoice state machine
 * (`src/contract/invoice-machine.ts`, the model the system simulator enforces too). A sequence
 * creates invoices of its own, then mixes the manager's actions (approve, cancel, refund: where
 * the table allows them and where it forbids them), events of the payment system told through
 * the `payment.notify` trigger (funds held, paid, failed), payments of invoices the system changed
 * or withdrew meanwhile (its `payment/check` then says no), the manager's actions with a missing
 * or unknown clientId (refused, and observed to change nothing: a refused cancel leaves the
 * invoice payable), and wrong amounts.
 *
 * For each step the model says which reports may follow (`allowed`) and which must
 * (`required`); every module reply and every `update-invoice` of the step is recorded with it
 * (`CaseOutcome.invoice`) for the checks of `src/checks/payment/invoice-reports.ts`. A step is
 * data (`PayStep`, with the model and the step arbitraries in `payment-steps.ts`): a saved
 * failure replays step by step (`conformance replay`).
 */
import fc from 'fast-check';
import { SequencePayload, StepCommand } from './step-commands.ts';
import { amountOf, candidates, canRun, managed, pick, stepArbitraries, type ModelInvoice, type PaymentModel, type PayStep } from './payment-steps.ts';
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import { claimsSuccess } from '../checks/callbacks/reply.ts';
import { afterCallback, afterEvent, allows, type InvoiceStatus, type PaymentEvent, type SystemAction } from '../contract/invoice-machine.ts';
import type { InvoiceBook, InvoiceReport } from '../simulators/invoices.ts';
import { AMOUNT_SOURCE, createRequest, type PaymentContext } from '../generators/payment/create.ts';
import { inventedHex } from '../generators/invented.ts';
import { presentedClientId } from './refusal-probe.ts';
import type { CaseIntent, CaseOutcome, GeneratedCase, InvoiceView } from '../checks/case.ts';
import type { RunSession } from '../run/session.ts';

type Json = Record<string, unknown>;

/** How a sequence reaches the module and the system: the run's session, or a replay's. */
export interface PaymentDriver {
  send(callback: CallbackName, payload: unknown, clientId: string | undefined, label: string, probe?: boolean): Promise<Reply>;
  /** Tells the module of a payment event (the `payment.notify` trigger), the system knowing it first. */
  notify(paymentId: string, event: PaymentEvent): Promise<Reply>;
  canNotify: boolean;
  book: InvoiceBook;
  clientId: string;
  unknownClientId: string;
  module: Json;
  profile: boolean;
  declares(callback: CallbackName): boolean;
  /** How long a report that must follow is waited for. */
  reportTimeoutMs: number;
  /** Whether the module talks to this system (it registered here, or called it): else its reports go elsewhere (remote mode, registration given). */
  reportsHere(): boolean;
  /** A position in the calls to the system's paths it does not serve that way, and the calls to update-invoice's or check's path (another method) since one. */
  offRouteMark(): number;
  offRouteSince(mark: number): string[];
  /** The kinds of report the module was seen to leave out in this session (the system's record): every later one is waited for briefly. */
  missed: Set<string>;
}

/** The paths of update-invoice and payment/check, any API version. */
export const INVOICE_PATHS = /^\/api\/v\d+\/payment\/(update-invoice|check)\/?$/;

/** How long a step that requires no report waits for one (an effect that should not be there). */
const SETTLE_MS = 20;
/** How long a refused call is given to show an effect before the follow-up (a report it set off). */
const REFUSED_SETTLE_MS = 100;
/** Once the module left a report out in the session, the wait for any later one (it already fails; shrinking stays fast). */
const BRIEF_MS = 60;

export function sessionPaymentDriver(session: RunSession, seed: number): PaymentDriver {
  return {
    send: (callback, payload, clientId, label, probe) => session.send(callback, payload, { clientId, case: label, ...(probe ? { probe: true } : {}) }),
    notify: (paymentId, event) => {
      session.system.invoices.notified(paymentId, event);
      return session.triggers.fire('payment.notify', { paymentId, event });
    },
    canNotify: session.triggers.declared('payment.notify'),
    book: session.system.invoices,
    clientId: session.clientId()!,
    unknownClientId: `unknown-${inventedHex(seed, 'payment sequences: an unknown clientId', 16)}`,
    module: session.registration!.module,
    profile: session.config.profile,
    declares: (c) => {
      const actions = (session.registration?.module.integrations as { payment?: { actions?: Record<string, unknown> } } | undefined)?.payment?.actions;
      return typeof actions?.[c.slice('payment.'.length)] === 'string';
    },
    reportTimeoutMs: Math.min(session.config.flowTimeoutMs, 5000),
    reportsHere: () => session.registration?.call !== undefined || session.system.callCount() > 0,
    offRouteMark: () => session.system.unsimulatedCount(),
    offRouteSince: (mark) => session.system.unsimulatedSince(mark).filter((x) => INVOICE_PATHS.test(new URL(x.request.url ?? '/', 'http://system.invalid').pathname)).map((x) => x.id),
    missed: session.system.invoices.missed,
  };
}

interface Real {
  driver: PaymentDriver;
  caseId: string;
  steps: CaseOutcome[];
}

const VALID: CaseIntent = { kind: 'valid' };

const success = (reply: Reply): boolean => claimsSuccess(reply);
/** An answer in the error form (`{success: false, errorMsg}`, HTTP 200 or 4xx: wire profile section 1). */
const refusedWithError = (reply: Reply): boolean =>
  reply.status !== undefined && reply.status < 500 && typeof reply.json === 'object' && reply.json !== null && (reply.json as { success?: unknown }).success === false && typeof (reply.json as { errorMsg?: unknown }).errorMsg === 'string';
/** A trigger's answer that does not say it failed: 2xx, not `{success: false}`. */
const triggerWorked = (reply: Reply): boolean => reply.status !== undefined && reply.status < 300 && (reply.json as { success?: unknown } | undefined)?.success !== false;

/** The reports and checks of the invoice since `since`, as the step's view. */
function view(book: InvoiceBook, inv: ModelInvoice, since: number, v: Omit<InvoiceView, 'uuid' | 'reports' | 'checks'>): InvoiceView {
  return { uuid: inv.uuid, amount: inv.amount, ...(inv.captured !== undefined ? { paid: inv.captured } : {}), ...v, reports: book.reportsSince(inv.uuid, since).map(plain), checks: book.checksSince(inv.uuid, since).map((c) => ({ ...c })) };
}
const plain = (r: InvoiceReport): InvoiceReport => ({ ...r, ...(r.breach ? { breach: { ...r.breach } } : {}) });

/** A report that ends a wait: one of the statuses waited for, or one the system refused or found breaking a rule. */
const ends = (statuses: readonly InvoiceStatus[]) => (r: InvoiceReport): boolean => statuses.includes(r.status as InvoiceStatus) || !r.accepted || (r.breach !== undefined && r.breach.rule !== 'success-without-check');

/** Waits for a report that must follow (`kind` names it for the brief waits after a miss). */
async function awaitReport(d: PaymentDriver, inv: ModelInvoice, since: number, statuses: readonly InvoiceStatus[], kind: string): Promise<{ waitedMs: number; brief?: boolean }> {
  if (!d.reportsHere()) return { waitedMs: 0 };
  const started = Date.now();
  const timeout = d.missed.size > 0 ? BRIEF_MS : d.reportTimeoutMs;
  const reports = await d.book.waitForReport(inv.uuid, since, ends(statuses), timeout);
  if (!reports.some(ends(statuses))) d.missed.add(kind);
  return { waitedMs: Date.now() - started, ...(timeout === BRIEF_MS ? { brief: true } : {}) };
}

/** The model follows the system: the invoice's state as the accepted reports left it. */
function sync(d: PaymentDriver, inv: ModelInvoice): void {
  const held = d.book.get(inv.uuid);
  if (held && held.state !== 'new') inv.state = held.state;
  if (held?.paymentId !== undefined) inv.paymentId ??= held.paymentId;
}

const label = (r: Real, what?: string): string => `${r.caseId}.${r.steps.length + 1}${what ? `.${what}` : ''}`;

async function record(r: Real, callback: CallbackName, payload: unknown, intent: CaseIntent, extra: Partial<CaseOutcome> = {}, clientId: string | undefined = r.driver.clientId): Promise<Reply> {
  const reply = await r.driver.send(callback, payload, clientId, label(r));
  r.steps.push({ case: { callback, payload, intent }, reply, module: r.driver.module, profile: r.driver.profile, ...extra });
  return reply;
}

/** Runs one step against the module and the model; an invoice a report broke a rule about is left alone from then on. */
export async function runStep(step: PayStep, m: PaymentModel, r: Real): Promise<void> {
  const from = r.steps.length;
  const offRoute = r.driver.offRouteMark();
  await runOne(step, m, r);
  const off = r.driver.offRouteSince(offRoute);
  if (off.length > 0) for (const s of r.steps.slice(from)) if (s.invoice) s.invoice.offRoute = off;
  if (!r.driver.reportsHere()) for (const s of r.steps.slice(from)) if (s.invoice) s.invoice.elsewhere = true;
  for (const s of r.steps.slice(from)) {
    const broken = s.invoice?.reports.some((x) => !x.accepted || (x.breach !== undefined && x.breach.rule !== 'success-without-check') || (x.status !== x.from && !s.invoice!.allowed.includes(x.status as InvoiceStatus)));
    const o = s.observation;
    const changed = o?.kind === 'reported' && (o.during.some((x) => x.status !== x.from) || (o.expected === undefined ? !o.acknowledged : !o.reportedAfter.some((x) => x.accepted && x.status === o.expected)));
    // A report the step required and did not get: the module and the system disagree from then on too.
    const need = s.invoice?.required;
    const missing = need !== undefined && !s.invoice!.reports.some((x) => x.accepted && need.statuses.includes(x.status as InvoiceStatus));
    if (broken || changed || missing) for (const inv of m.invoices) if (inv.uuid === s.invoice!.uuid) inv.tainted = true;
  }
}

async function runOne(step: PayStep, m: PaymentModel, r: Real): Promise<void> {
  const d = r.driver;
  const book = d.book;
  const since = book.mark();
  if (step.op === 'create' || step.op === 'refusedCreate') {
    // Each invoice of the session its own uuid (shrinking makes generated ones alike): the generated one, or a fresh one when the system already issued it.
    const request = d.book.get(String(step.request.invoiceUuid)) ? { ...step.request, invoiceUuid: freshUuid(String(step.request.invoiceUuid), d.book.size()) } : step.request;
    let refused: CaseOutcome | undefined;
    if (step.op === 'refusedCreate') {
      // The system issued the invoice (a probe is not what the system does with it: issued here, not by the sender).
      d.book.issue(request);
      const probe = await d.send('payment.create', request, presentedClientId(step.presented, d.unknownClientId), label(r, 'refused'), true);
      await book.waitForReport(String(request.invoiceUuid), since, () => true, REFUSED_SETTLE_MS);
      const during = book.reportsSince(String(request.invoiceUuid), since).map(plain);
      refused = { case: { callback: 'payment.create', payload: request, intent: { kind: 'refused', clientId: step.presented } }, reply: probe, module: d.module, profile: d.profile, invoice: { uuid: String(request.invoiceUuid), before: 'pending', allowed: [], reports: during, checks: [], waitedMs: 0 } };
    }
    const reply = await d.send('payment.create', request, d.clientId, label(r, refused ? 'authorised' : undefined));
    if (refused) {
      const during = refused.invoice!.reports;
      refused.observation = { kind: 'reported', what: 'an authorised create of the same invoice after it', during, trigger: reply, reportedAfter: [], waitedMs: 0, acknowledged: success(reply) };
      r.steps.push(refused);
    }
    const uuid = String(request.invoiceUuid);
    const inv: ModelInvoice = { uuid, amount: Number(request.amount), currency: String(request.currency), state: 'pending' };
    const id = (reply.json as { result?: { paymentId?: unknown } } | undefined)?.result?.paymentId;
    if (success(reply)) {
      if (typeof id === 'string' || typeof id === 'number') inv.paymentId = String(id);
      // No paymentId in the answer: the module may name it in its report of the new invoice.
      else await book.waitForReport(uuid, since, (x) => x.status !== undefined, 1000);
      sync(d, inv);
      m.invoices.push(inv);
    }
    r.steps.push({ case: { callback: 'payment.create', payload: request, intent: VALID }, reply, module: d.module, profile: d.profile, invoice: view(book, inv, since, { before: 'pending', allowed: ['pending'], waitedMs: 0 }) });
    return;
  }
  const inv = pick(candidates(step, m, m.declared), step.target)!;
  const before = inv.state;
  const paymentId = inv.paymentId!;
  switch (step.op) {
    case 'manage':
    case 'action': {
      const action = step.op === 'action' ? step.action : pick(managed(inv, m.declared), step.n)!;
      const to = afterCallback(before, action);
      // approve={paymentId, amount?}, refund={paymentId, amount?} (wire profile section 3): a share of the amount held or paid, or none (the whole).
      const whole = inv.captured ?? inv.amount;
      const amount = action === 'approve' || action === 'refund' ? amountOf(whole, step.share) : undefined;
      const payload = { paymentId, ...(amount !== undefined ? { amount } : {}) };
      const intent: CaseIntent = to ? VALID : { kind: 'open', why: `${action} of a ${before} invoice, which the table forbids (${action} only from ${fromStates(action)})` };
      const reply = await d.send(`payment.${action}`, payload, d.clientId, label(r));
      let waited: { waitedMs: number; brief?: boolean } = { waitedMs: 0 };
      if (to && success(reply)) waited = await awaitReport(d, inv, since, [to], action);
      else await book.waitForReport(inv.uuid, since, (x) => x.status !== before, SETTLE_MS);
      // An approve of an amount captures that amount: what a later refund without one returns in whole.
      if (action === 'approve' && to && amount !== undefined && success(reply)) inv.captured = amount;
      // A part of the amount refused with the error form: no sentence binds a module to partial captures or refunds (the
      // profile only says the system may send `amount`); its payment system may take whole amounts only. Nothing is required
      // of the step then (the error rules judge the answer's form; a report it still makes is judged by the table).
      const partRefused = amount !== undefined && amount < whole && refusedWithError(reply);
      sync(d, inv);
      r.steps.push({
        case: { callback: `payment.${action}`, payload, intent },
        reply,
        module: d.module,
        profile: d.profile,
        invoice: view(book, inv, since, { before, allowed: to ? [to] : [], ...(to && !partRefused ? { required: { statuses: [to], because: action } } : {}), ...waited }),
      });
      return;
    }
    case 'notify':
    case 'dishonest': {
      if (step.op === 'dishonest') {
        book.amend(inv.uuid, step.how === 'amount' ? { amount: Math.round((inv.amount + 1) * 100) / 100 } : step.how === 'currency' ? { currency: inv.currency === 'XTS' ? 'XXX' : 'XTS' } : { withdrawn: true });
        inv.amended = true;
      }
      const allowed = inv.amended ? [] : afterEvent(before, step.event, true);
      const required = !inv.amended && allowed.length > 0 ? { statuses: allowed, because: step.event } : undefined;
      const reply = await d.notify(paymentId, step.event);
      let waited: { waitedMs: number; brief?: boolean } = { waitedMs: 0 };
      if (required && triggerWorked(reply)) waited = await awaitReport(d, inv, since, allowed, step.event);
      else {
        // A payment the module must not report: its check of the invoice, then a moment for a report that should not come.
        await book.waitForReport(inv.uuid, since, (x) => x.status !== before, SETTLE_MS);
      }
      sync(d, inv);
      const what = step.op === 'dishonest' ? `${step.event} after the system ${step.how === 'withdrawn' ? 'withdrew the invoice' : `changed its ${step.how}`}` : step.event;
      r.steps.push({
        case: { callback: 'payment.create', payload: { paymentId, event: step.event, ...(step.op === 'dishonest' ? { changed: step.how } : {}) }, intent: { kind: 'open', why: 'a trigger' } },
        reply,
        module: d.module,
        profile: d.profile,
        trigger: `payment.notify (${what})`,
        invoice: view(book, inv, since, { before, allowed, ...(required ? { required } : {}), event: step.event, ...waited }),
      });
      return;
    }
    case 'wrong': {
      const payload = { paymentId, amount: step.amount };
      const reply = await d.send(`payment.${step.action}`, payload, d.clientId, label(r));
      await book.waitForReport(inv.uuid, since, (x) => x.status !== before, SETTLE_MS);
      sync(d, inv);
      r.steps.push({
        // Wrong by AMOUNT_SOURCE (create.ts): amounts of zero or below.
        case: { callback: `payment.${step.action}`, payload, intent: { kind: 'wrong', field: 'amount', why: `an amount of ${step.amount} (zero or below)`, value: step.amount, source: AMOUNT_SOURCE } },
        reply,
        module: d.module,
        profile: d.profile,
        invoice: view(book, inv, since, { before, allowed: [], waitedMs: 0 }),
      });
      return;
    }
    case 'refused': {
      const payload = { paymentId };
      const callback: CallbackName = `payment.${step.action}`;
      const reply = await d.send(callback, payload, presentedClientId(step.presented, d.unknownClientId), label(r, 'refused'), true);
      await book.waitForReport(inv.uuid, since, (x) => x.status !== before, REFUSED_SETTLE_MS);
      const mid = book.mark();
      // Observed by the system: a refused cancel leaves the invoice payable (a later payment is still reported); any other refused action can still be made.
      const byPayment = step.action === 'cancel' && before === 'pending' && d.canNotify && !inv.amended;
      const expected = byPayment ? 'succeeded' : afterCallback(before, step.action)!;
      const follow = byPayment ? await d.notify(paymentId, 'paid') : await d.send(callback, payload, d.clientId, label(r, 'authorised'));
      const followed = byPayment ? triggerWorked(follow) : success(follow);
      let waited: { waitedMs: number; brief?: boolean } = { waitedMs: 0 };
      if (followed) waited = await awaitReport(d, inv, mid, [expected], byPayment ? 'paid' : step.action);
      const waitedMs = waited.waitedMs;
      sync(d, inv);
      const what = byPayment ? 'a payment of the invoice told after it' : `an authorised ${step.action} after it`;
      // What the refused call set off came before the follow-up (a module acts on a request before it answers it, or at once after).
      const during = book.reportsSince(inv.uuid, since).filter((x) => x.seq <= mid).map(plain);
      const followUps = book.reportsSince(inv.uuid, mid).map(plain);
      r.steps.push({
        case: { callback, payload, intent: { kind: 'refused', clientId: step.presented } },
        reply,
        module: d.module,
        profile: d.profile,
        observation: { kind: 'reported', what, expected, during, trigger: follow, reportedAfter: followUps, waitedMs, acknowledged: followed },
        invoice: { uuid: inv.uuid, before, allowed: [], reports: during, checks: [], waitedMs: 0 },
      });
      // The follow-up is a step of its own (its reply judged; its report owned by the observation).
      r.steps.push({
        case: byPayment ? { callback: 'payment.create', payload: { paymentId, event: 'paid' }, intent: { kind: 'open', why: 'a trigger' } } : { callback, payload, intent: VALID },
        reply: follow,
        module: d.module,
        profile: d.profile,
        ...(byPayment ? { trigger: 'payment.notify (paid, after a refused cancel)' } : {}),
        invoice: { ...view(book, inv, mid, { before, allowed: [expected], ...waited, ...(byPayment ? { event: 'paid' as const } : {}) }), reports: followUps },
      });
      return;
    }
  }
}

/** A uuid of the generated one's form whose last group counts the invoices the system issued. */
const freshUuid = (generated: string, n: number): string => `${/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-/i.test(generated) ? generated.slice(0, 24) : '00000000-0000-4000-8000-'}${(n + 1).toString(16).padStart(12, '0')}`;

const fromStates = (action: SystemAction): string => (['pending', 'waitingForCapture', 'succeeded', 'canceled', 'refundSucceeded'] as const).filter((s) => allows(s, action)).join(' or ');

/** A step as a fast-check command over this model. */
const command = (step: PayStep): StepCommand<PayStep, PaymentModel, Real> => new StepCommand(step, canRun, runStep);

/** The generated sequences: a create, then up to `maxCommands` steps the model allows. */
export function paymentSequences(ctx: PaymentContext, declares: (c: CallbackName) => boolean, canNotify: boolean, maxCommands = 10): fc.Arbitrary<GeneratedCase> {
  const commands = stepArbitraries(ctx, declares, canNotify).map((a) => a.map((s) => command(s)));
  return fc
    .tuple(createRequest(ctx), fc.commands(commands, { maxCommands }))
    .map(([request, cmds]) => ({ callback: 'payment.create' as const, payload: new SequencePayload<PayStep, PaymentModel, Real>({ op: 'create', request }, cmds), intent: { kind: 'sequence' as const } }));
}

/** A fixed sequence (a typical flow, or steps read back from a saved failure) as a case. */
export const fixedSequence = (steps: PayStep[]): GeneratedCase => ({ callback: 'payment.create', payload: { steps }, intent: { kind: 'sequence' } });

/** Runs a payment sequence case and returns its outcome, every step in `steps`. */
export async function runPaymentSequence(driver: PaymentDriver, c: GeneratedCase, caseId: string): Promise<CaseOutcome> {
  const payload = c.payload instanceof SequencePayload ? (c.payload as SequencePayload<PayStep, PaymentModel, Real>) : undefined;
  const steps = payload ? [payload.first] : ((c.payload as { steps?: PayStep[] } | undefined)?.steps ?? []);
  const real: Real = { driver, caseId, steps: [] };
  const model: PaymentModel = { invoices: [], declared: (['approve', 'cancel', 'refund'] as const).filter((a) => driver.declares(`payment.${a}`)) };
  const commands: Iterable<fc.AsyncCommand<PaymentModel, Real>> = payload ? payload.commands : steps.slice(1).map((s) => command(s));
  await runStep(steps[0] ?? { op: 'create', request: {} }, model, real);
  await fc.asyncModelRun(() => ({ model, real }), commands);
  const last = real.steps[real.steps.length - 1]!;
  return { case: c, reply: last.reply, module: driver.module, profile: driver.profile, steps: real.steps };
}
