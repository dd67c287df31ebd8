/**
 * What a property is made of: generated cases sent to the module, each judged by the same
 * checks. A case's outcome is all a property check reads, so that a saved failure can be judged
 * again exactly (`conformance replay`).
 */
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import type { InvoiceStatus, PaymentEvent } from '../contract/invoice-machine.ts';
import type { InvoiceCheck, InvoiceReport } from '../simulators/invoices.ts';

/** What a generated request is meant to be. */
export type CaseIntent =
  /** A request the contract allows: the module answers it (success, or an error of the right form). */
  | { kind: 'valid' }
  /**
   * Wrong input: the module refuses it with the error form, and its message names `field` (or
   * quotes `value`, the wrong value sent, when there is one). `source`: the sentence of the
   * document or the profile that makes it wrong, quoted.
   */
  | { kind: 'wrong'; field: string; why: string; value?: unknown; source?: string }
  /** The documents leave the answer open (e.g. a second delete): a success or an error of the right form, never a 5xx or a malformed reply. */
  | { kind: 'open'; why: string }
  /** Sent with a missing or unknown clientId: refused, and observed to have had no effect. */
  | { kind: 'refused'; clientId: 'missing' | 'unknown' }
  /** A sequence of steps (payload `{steps}`): each step's outcome is judged, in `CaseOutcome.steps`. */
  | { kind: 'sequence' };

/** One generated request. */
export interface GeneratedCase {
  callback: CallbackName;
  /** The payload as the sender takes it (the action's JSON, or `{raw}` for a malformed JSON string). */
  payload: unknown;
  intent: CaseIntent;
  /** The address, for a callback whose address comes with each request (a call's `recordUrl`). */
  url?: string;
}

/** A case sent, and what the module answered. */
export interface CaseOutcome {
  case: GeneratedCase;
  reply: Reply;
  /** The module as registered when the case was sent (codes it declared: data fields, stores, currencies). */
  module: Record<string, unknown>;
  /** The run's reading: with the wire profile, or the document alone. */
  profile: boolean;
  /** A sequence's steps, each with its own case and reply, in the order sent. */
  steps?: CaseOutcome[];
  /** A refused step: what an authorised observer saw of the state it would have changed (`refusal-probe.ts`). */
  observation?: Observation;
  /**
   * A refused call: the exchange of an authorised call of the same callback the module accepted in
   * the run; a refusal is credited only with one (`src/checks/callbacks/acceptance.ts`). Null: the
   * same request was asked again with the clientId (a clientId probe) and not accepted.
   */
  accepted?: string | null;
  /** A step that is no callback (a trigger the suite fired): its name in messages; its reply is not judged as a callback's. */
  trigger?: string;
  /** A payment step: the invoice it acted on, what the model allowed and required, and what the module reported. */
  invoice?: InvoiceView;
  /** A chat template step: the template it acted on, what it asked of the module, and the module's template calls (`template-sequences.ts`). */
  template?: import('./chat/template-views.ts').TemplateStepView;
}

/** What a payment step did to its invoice, as the model expected it and the system saw it (`payment-sequences.ts`). */
export interface InvoiceView {
  uuid: string;
  /** The invoice's amount, as the system issued it. */
  amount?: number;
  /** What an approve of an amount captured (`approve={paymentId, amount?}`): the amount paid, where it is not the invoice's amount. */
  paid?: number;
  /** The invoice's state before the step. */
  before: InvoiceStatus;
  /** States a report of this step may move it to (a report of `before` is always allowed). */
  allowed: InvoiceStatus[];
  /** A report of one of these must arrive: the manager's action was acknowledged, or the payment system told of a payment. */
  required?: { statuses: InvoiceStatus[]; because: 'approve' | 'cancel' | 'refund' | PaymentEvent };
  /** The payment event told in the step, if any. */
  event?: PaymentEvent;
  /** The update-invoice calls about the invoice during the step, as the system judged them. */
  reports: InvoiceReport[];
  /** The module's payment/check calls of the invoice during the step, as the system answered them. */
  checks: InvoiceCheck[];
  /** How long the step waited for a required report. */
  waitedMs: number;
  /** The wait was brief: a report was already missed in the session after the full wait. */
  brief?: boolean;
  /** The module does not call this system (remote mode, its registration given, and no call of it here): no report can be required. */
  elsewhere?: boolean;
  /** Calls the module made during the step to update-invoice's or check's path with another method (answered 405): their own rule's. */
  offRoute?: string[];
}

/** What an authorised call showed around a refused one: the state before and after, or a follow-up that must still work. */
export type Observation =
  | { kind: 'unchanged'; what: string; before: Reply; after: Reply; /** The state reader of `refusal-probe.ts` that compares them. */ reader: string }
  | { kind: 'stillPossible'; what: string; after: Reply; /** When `after` failed: the same authorised call on an object no refused call touched; its success shows the failure was the refused call's effect. */ control?: { what: string; reply: Reply } }
  /**
   * What the module reported to the system about the call's object (a makeCall's phone: call
   * events) within `waitedMs` of the refused call (`during`: none may come), and of the same call
   * with the clientId (`after`: one shows the module reports what it does, so that none after the
   * refused call is seen, not assumed).
   */
  | { kind: 'quiet'; what: string; during: string[]; after: string[]; waitedMs: number }
  /**
   * What the system was told after the refused call: reports about the object between the call and
   * the follow-up (none may change it), and after the follow-up (`trigger`), a report of `expected`.
   */
  | { kind: 'reported'; what: string; /** The state the follow-up must lead to; absent: its acknowledgement is the observation. */ expected?: string; during: InvoiceReport[]; trigger: Reply; reportedAfter: InvoiceReport[]; waitedMs: number; /** The follow-up was acknowledged (a trigger that worked, a callback answered with success). */ acknowledged: boolean };

/** A saved failure (`failures/<check>.json`): enough to send the same request again and judge it the same way. */
export interface SavedFailure {
  check: string;
  requirements: string[];
  severity: 'MUST' | 'SHOULD';
  property: string;
  seed: number;
  path: string;
  case: GeneratedCase;
  /** The request as sent (secrets as placeholders) and the module's reply. */
  request: { method: string; url: string; body?: string };
  reply: { status?: number; body?: string; error?: string };
  /** What the check said: received and expected. */
  verdict: { outcome: string; received?: string; expected?: string };
}
