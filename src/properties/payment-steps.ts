/**
 * The steps of the payment sequences and the model they run over (`payment-sequences.ts` runs
 * them): a step as data (`PayStep`, what a saved failure keeps), the sequence's own invoices as
 * the model knows them, which invoices a step may act on (`canRun`: fast-check skips a step that
 * has none), the amount of an approve or a refund, and the steps a module's declared actions and
 * triggers allow, as arbitraries.
 */
import fc from 'fast-check';
import type { CallbackName } from '../callbacks/table.ts';
import { allows, type InvoiceStatus, type PaymentEvent, type SystemAction } from '../contract/invoice-machine.ts';
import { createRequest, type PaymentContext } from '../generators/payment/create.ts';
import type { Presented } from './refusal-probe.ts';

type Json = Record<string, unknown>;

/** One step; targets are indices into the sequence's own invoices that qualify, taken modulo their number. */
export type PayStep =
  | { op: 'create'; request: Json }
  /** `share`: approve and refund only, an amount of that share of what is held or paid (`amountOf`); absent: no amount (the whole). */
  | { op: 'action'; action: SystemAction; target: number; share?: number }
  /** The manager does what the table allows for an invoice in its state (the `n`th of the declared actions it allows); `share` as for `action`. */
  | { op: 'manage'; target: number; n: number; share?: number }
  /** `pending`: told about an invoice still payable (so that payments are told often enough to reach the later states). */
  | { op: 'notify'; target: number; event: PaymentEvent; pending?: boolean }
  /** The system changes the invoice (amount or currency of the order edited) or withdraws it (the order deleted), then the payment system reports a payment: the check says no. */
  | { op: 'dishonest'; target: number; how: 'amount' | 'currency' | 'withdrawn'; event: 'held' | 'paid' }
  | { op: 'refused'; action: SystemAction; target: number; presented: Presented }
  /** A create with a missing or unknown clientId: refused, nothing reported about the invoice, and an authorised create of it still works. */
  | { op: 'refusedCreate'; request: Json; presented: Presented }
  /** approve or refund with an amount of zero or below (wrong input). */
  | { op: 'wrong'; action: 'approve' | 'refund'; target: number; amount: number };

export interface ModelInvoice {
  uuid: string;
  paymentId?: string;
  amount: number;
  currency: string;
  state: InvoiceStatus;
  /** What was captured, when an approve named an amount: the amount paid from then on (else the invoice's amount). */
  captured?: number;
  /** Changed or withdrawn on the system's side: its check says no from then on. */
  amended?: boolean;
  /**
   * A report about it broke a rule (the system refused it, or it left what the step allows): the
   * module and the system no longer agree on it, so no later step uses it (its breach is judged once).
   */
  tainted?: boolean;
}

export interface PaymentModel {
  invoices: ModelInvoice[];
  /** The manager's actions the module declares. */
  declared: SystemAction[];
}

const named = (m: PaymentModel): ModelInvoice[] => m.invoices.filter((i) => i.paymentId !== undefined && !i.tainted);
export const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
/** Invoices a step may act on. */
export function candidates(step: PayStep, m: PaymentModel, declared: readonly SystemAction[]): ModelInvoice[] {
  switch (step.op) {
    case 'create':
    case 'refusedCreate':
      return [];
    case 'action':
      return named(m);
    case 'notify':
      return step.pending ? named(m).filter((i) => i.state === 'pending' && !i.amended) : named(m);
    case 'manage':
      return named(m).filter((i) => managed(i, declared).length > 0);
    case 'dishonest':
      return named(m).filter((i) => i.state === 'pending' && !i.amended);
    case 'refused':
      return named(m).filter((i) => allows(i.state, step.action));
    case 'wrong':
      return named(m).filter((i) => allows(i.state, step.action));
  }
}

/** The declared actions the table allows for the invoice in its state. */
export const managed = (inv: ModelInvoice, declared: readonly SystemAction[]): SystemAction[] => declared.filter((a) => allows(inv.state, a));

/** Whether a step can run on the model as it is (fast-check skips a step that cannot). */
export function canRun(step: PayStep, m: PaymentModel): boolean {
  return step.op === 'create' || step.op === 'refusedCreate' || candidates(step, m, m.declared).length > 0;
}

/**
 * The amount of an approve or a refund: `share` ten-thousandths of `whole` (the amount held or
 * paid), in cents, at least a cent; a share below 10000 stays below the whole (a partial capture
 * or refund), 10000 is the whole named; none (or a whole of a cent, which has no part): no amount.
 */
export function amountOf(whole: number, share: number | undefined): number | undefined {
  if (share === undefined) return undefined;
  const cents = Math.round(whole * 100);
  if (share >= 10_000) return cents / 100;
  if (cents < 2) return undefined;
  return Math.min(cents - 1, Math.max(1, Math.floor((cents * share) / 10_000))) / 100;
}

/** The share of an approve or a refund: none (the whole, half the cases), a part (1 to 9999 ten-thousandths), or the whole named (10000). */
export const amountShare: fc.Arbitrary<number | undefined> = fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 9999 }) }, { weight: 1, arbitrary: fc.constant(10_000) }), { nil: undefined, freq: 2 });

/** The steps a module's declared actions and triggers allow. */
export function stepArbitraries(ctx: PaymentContext, declares: (c: CallbackName) => boolean, canNotify: boolean): Array<fc.Arbitrary<PayStep>> {
  const target = fc.nat({ max: 7 });
  const actions = (['approve', 'cancel', 'refund'] as const).filter((a) => declares(`payment.${a}`));
  const out: Array<fc.Arbitrary<PayStep>> = [createRequest(ctx).map((request) => ({ op: 'create' as const, request }))];
  out.push(fc.record({ request: createRequest(ctx), presented: fc.constantFrom<Presented>('missing', 'unknown') }).map((g) => ({ op: 'refusedCreate' as const, ...g })));
  if (actions.length > 0) {
    const action = fc.constantFrom(...actions);
    out.push(fc.record({ action, target, share: amountShare }).map(({ share, ...g }) => ({ op: 'action' as const, ...g, ...(share !== undefined ? { share } : {}) })));
    out.push(fc.record({ target, n: fc.nat({ max: 3 }), share: amountShare }).map(({ share, ...g }) => ({ op: 'manage' as const, ...g, ...(share !== undefined ? { share } : {}) })));
    out.push(fc.record({ target, n: fc.nat({ max: 3 }), share: amountShare }).map(({ share, ...g }) => ({ op: 'manage' as const, ...g, ...(share !== undefined ? { share } : {}) })));
    out.push(fc.record({ action, target, presented: fc.constantFrom<Presented>('missing', 'unknown') }).map((g) => ({ op: 'refused' as const, ...g })));
    const amounts = (['approve', 'refund'] as const).filter((a) => declares(`payment.${a}`));
    if (amounts.length > 0) out.push(fc.record({ action: fc.constantFrom(...amounts), target, amount: fc.oneof(fc.constant(0), fc.integer({ min: -100000, max: -1 }).map((c) => c / 100)) }).map((g) => ({ op: 'wrong' as const, ...g })));
  }
  if (canNotify) {
    const event = fc.constantFrom<PaymentEvent>('held', 'held', 'paid', 'paid', 'failed');
    out.push(fc.record({ target, event }).map((g) => ({ op: 'notify' as const, ...g })));
    out.push(fc.record({ target, event: fc.constantFrom<PaymentEvent>('held', 'paid') }).map((g) => ({ op: 'notify' as const, ...g, pending: true })));
    out.push(fc.record({ target, event: fc.constantFrom<PaymentEvent>('held', 'paid') }).map((g) => ({ op: 'notify' as const, ...g, pending: true })));
    out.push(fc.record({ target, how: fc.constantFrom('amount' as const, 'currency' as const, 'withdrawn' as const), event: fc.constantFrom('held' as const, 'paid' as const) }).map((g) => ({ op: 'dishonest' as const, ...g })));
  }
  return out;
}
