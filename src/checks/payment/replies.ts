/**
 * The success replies of a payment module: `create` returns the payment link (document, Invoice
 * status and Calls from the system to a payment module: "Create the invoice and return a
 * payment link"), written `{success: true, result: {paymentId, invoiceUrl, cancellable}}` (wire
 * profile sections 1 and 3; schema payment/create.reply.json); `refund` answers the refund
 * `{success: true, result: {id, status, amount, comment}}` (wire profile section 3, no field of
 * it marked required; schema payment/refund.reply.json). An error answer is the error rules'.
 *
 * Required: `invoiceUrl` of create (the payment link), and `success` and `result`. Optional:
 * create's `paymentId` (the profile marks none of its members required, and the module may name
 * the payment in its update-invoice `{invoiceUuid, paymentId, ...}`) and `cancellable`; every
 * member of the refund. A pass names the optional members it did not see ("absent, not judged");
 * a refund result with none of them is not applicable, never a pass.
 */
import { fail, notApplicable, pass, show } from '../check.ts';
import { absentMembers, describeReply, notJudged } from '../callbacks/reply.ts';
import { defineSchemaReplyCheck } from '../callbacks/schema-reply.ts';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An absolute http(s) URL with a host, if `v` is one. */
export function absoluteHttpUrl(v: unknown): URL | undefined {
  if (typeof v !== 'string' || !/^https?:\/\//i.test(v)) return undefined;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** An id as the system keeps it: a text, or an integer. */
const isId = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** The paymentId of a create success answer, as later callbacks send it (a text), if it has one. */
export function paymentIdOf(json: unknown): string | undefined {
  const id = isObj(json) && isObj(json.result) ? json.result.paymentId : undefined;
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isInteger(id)) ? String(id) : undefined;
}

const CREATE_EXPECTED = '{"success": true, "result": {"invoiceUrl": <absolute http(s) URL>, "paymentId": <text or integer>, "cancellable": <boolean>}} (document: create returns a payment link; wire profile section 3)';

/** A success answer to create returns the payment link: `{success: true, result: {invoiceUrl, paymentId?, cancellable?}}`. */
export const ensureCreateReturnsPaymentLink = defineSchemaReplyCheck({
  name: 'ensureCreateReturnsPaymentLink',
  checks: 'a success answer to payment create returns the payment link: {"success": true, "result": {"invoiceUrl": <absolute http(s) URL>, "paymentId"?, "cancellable"?}}',
  // The rest of the profile's shape (cancellable a boolean, ...), in the run's view, once the link and the id hold.
  schema: 'payment/create.reply.json',
  when: (o) => (o.case.callback !== 'payment.create' ? notApplicable('not a create answer') : undefined),
  before(o, evidence) {
    const result = (o.reply.json as Json).result;
    if (!isObj(result)) return fail(`result ${show(result)}: ${describeReply(o.reply)}`, CREATE_EXPECTED, evidence);
    if (result.invoiceUrl === undefined || result.invoiceUrl === null) return fail(`no payment link (result.invoiceUrl absent): ${describeReply(o.reply)}`, CREATE_EXPECTED, evidence);
    if (!absoluteHttpUrl(result.invoiceUrl)) return fail(`result.invoiceUrl ${show(result.invoiceUrl)}`, `the payment link as an absolute http(s) URL; ${CREATE_EXPECTED}`, evidence);
    if (result.paymentId !== undefined && !isId(result.paymentId)) return fail(`result.paymentId ${show(result.paymentId)}`, `paymentId a text or an integer, when present; ${CREATE_EXPECTED}`, evidence);
    return undefined;
  },
  expected: CREATE_EXPECTED,
  holds(o, evidence) {
    const result = (o.reply.json as Json).result as Json;
    const absent = absentMembers(result, ['paymentId', 'cancellable']).map((m) => (m === 'paymentId' ? 'paymentId (the module may name the payment in update-invoice)' : m));
    return pass(`payment link ${show(result.invoiceUrl)}${result.paymentId !== undefined && result.paymentId !== null ? `, paymentId ${show(result.paymentId)}` : ''}${notJudged(absent)}`, evidence);
  },
});

const REFUND_EXPECTED = '{"success": true, "result": {"id": <text or integer>, "status": <text>, "amount": <number>, "comment": <text or null>}} (wire profile section 3)';

/** A success answer to refund carries the refund: `{success: true, result: {id?, status?, amount?, comment?}}`, each field of its type. */
export const ensureRefundAnswersRefund = defineSchemaReplyCheck({
  name: 'ensureRefundAnswersRefund',
  checks: 'a success answer to payment refund carries the refund: {"success": true, "result": {"id", "status", "amount", "comment"}} with each field present of its type',
  schema: 'payment/refund.reply.json',
  when: (o) => (o.case.callback !== 'payment.refund' ? notApplicable('not a refund answer') : undefined),
  before(o, evidence) {
    const result = (o.reply.json as Json).result;
    if (!isObj(result)) return fail(`result ${show(result)}: ${describeReply(o.reply)}`, REFUND_EXPECTED, evidence);
    const wrong: string[] = [];
    if (result.id !== undefined && !isId(result.id)) wrong.push(`id ${show(result.id)}`);
    if (result.status !== undefined && typeof result.status !== 'string') wrong.push(`status ${show(result.status)}`);
    if (result.amount !== undefined && (typeof result.amount !== 'number' || !Number.isFinite(result.amount))) wrong.push(`amount ${show(result.amount)}`);
    if (result.comment !== undefined && result.comment !== null && typeof result.comment !== 'string') wrong.push(`comment ${show(result.comment)}`);
    if (wrong.length > 0) return fail(`result.${wrong.join(', result.')}`, REFUND_EXPECTED, evidence);
    return undefined;
  },
  expected: REFUND_EXPECTED,
  holds(o, evidence) {
    const result = (o.reply.json as Json).result as Json;
    const absent = absentMembers(result, ['id', 'status', 'amount', 'comment']);
    if (absent.length === 4) return notApplicable(`a refund result with none of id, status, amount, comment (${show(result)}): nothing of the refund to judge, and the profile marks none of them required`);
    return pass(`refund ${show(result)}${notJudged(absent)}`, evidence);
  },
});
