/**
 * Wrong input (document, Errors 7): "For wrong input (for example a past delivery date or zero
 * weight) a module must return an error whose message names the incorrect field." Never a
 * success, never a 5xx; the error's form is judged by the error rules (callbacks/error-reply.ts).
 */
import { refusesTheMethod } from '../callbacks/method.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

/** Wrong input is refused: not a success, not a 5xx (no answer at all is `ensureCallbackIsAnswered`'s). */
export const ensureWrongInputIsRefused = defineCheck<CaseOutcome>({
  name: 'ensureWrongInputIsRefused',
  checks: 'wrong input is refused with an error, never answered as a success or with a 5xx',
  run(o) {
    if (o.case.intent.kind !== 'wrong') return notApplicable(notWrong(o));
    const evidence = [o.reply.exchange.id];
    const { why, source } = o.case.intent;
    // No answer at all is the answered rule's failure (one cause, one failure).
    if (o.reply.status === undefined) return notApplicable(`${why}: no answer to judge (${describeReply(o.reply)})`);
    if (claimsSuccess(o.reply)) return fail(`${why}: answered success, ${describeReply(o.reply)}`, `an error answer {"success": false, "errorMsg": ...} (document, Errors 7${source ? `; wrong by ${source}` : ''})`, evidence);
    if (o.reply.status >= 500) return fail(`${why}: ${describeReply(o.reply)}`, 'an error answer, not a server error (a 5xx is a failure: wire profile section 1)', evidence);
    return pass(`${why}: refused, HTTP ${o.reply.status}`, evidence);
  },
});

/** Why a case is not wrong input, for a not-applicable verdict. */
const notWrong = (o: CaseOutcome): string => (o.case.intent.kind === 'open' ? `the answer is open: ${o.case.intent.why}` : 'not wrong input');

/**
 * Letters and digits only, lower case: `shipmentDate`, `shipment_date`, `Shipment date` and
 * `shipment-date` read alike; so do the words of a key with any separators between them
 * (`payment id` for `paymentId`, `delivery / date` for `deliveryDate`).
 */
const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The names a person reads as the field: its whole path, and the last segment of it (`deliveryAddress.city`, `city`; `packages[0].weight`, `weight`). */
export function namesOfField(field: string): string[] {
  const segments = field.split(/[.[\]]+/).filter((x) => x !== '' && !/^\d+$/.test(x));
  return [...new Set([field, ...(segments.length > 1 ? [segments.at(-1)!] : [])].map(squash).filter((x) => x !== ''))];
}

const wordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** `text` stands in `msg` as a whole token (not inside a longer run of letters and digits). */
function hasToken(msg: string, text: string): boolean {
  for (let i = msg.indexOf(text); i >= 0; i = msg.indexOf(text, i + 1)) if (!wordChar(msg[i - 1]) && !wordChar(msg[i + text.length])) return true;
  return false;
}

/**
 * The wrong value as a message may quote it: its text (a date-time also by its day, `Y-m-d`), at
 * least two characters long so that a lone digit of the message is no quotation.
 */
export function quotesValue(msg: string, value: unknown): boolean {
  if (value === undefined || value === null || typeof value === 'object') return false;
  const text = String(value).trim();
  const texts = [text, ...(/^\d{4}-\d{2}-\d{2}[ T]/.test(text) ? [text.slice(0, 10)] : [])];
  const lower = msg.toLowerCase();
  return texts.some((t) => t.length >= 2 && hasToken(lower, t.toLowerCase()));
}

/** The error message of wrong input names the incorrect field. */
export const ensureErrorNamesTheIncorrectField = defineCheck<CaseOutcome>({
  name: 'ensureErrorNamesTheIncorrectField',
  checks: 'the error message of wrong input names the incorrect field (its key in any case and separators, its words, the last segment of its path, or the wrong value quoted)',
  run(o) {
    if (o.case.intent.kind !== 'wrong') return notApplicable(notWrong(o));
    const { field, why, value } = o.case.intent;
    // A form field that is not JSON at all has no member to name (the refusal rule judges it).
    if (field === o.case.callback.split('.').at(-1)) return notApplicable(`${why}: the whole field is unreadable`);
    const msg = (o.reply.json as { errorMsg?: unknown } | undefined)?.errorMsg;
    if (claimsSuccess(o.reply) || o.reply.status === undefined) return notApplicable('no error answer (the refusal rule judges it)');
    if (typeof msg !== 'string') return notApplicable('no error message text (the error-form rules judge it)');
    if (refusesTheMethod(o.reply)) return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
    const names = namesOfField(field);
    const named = names.some((n) => squash(msg).includes(n));
    if (!named && !quotesValue(msg, value)) {
      const quoted = value !== undefined && value !== null && String(value).trim().length >= 2 ? ` or quotes the wrong value ${show(value)}` : '';
      return fail(`${why}: errorMsg ${show(msg)}`, `a message that names the field ${show(field)} (in any case or separators, its words${names.length > 1 ? `, or ${show(field.split(/[.[\]]+/).filter((x) => x && !/^\d+$/.test(x)).at(-1))}` : ''})${quoted} (document, Errors 7)`, [o.reply.exchange.id]);
    }
    return pass(`${why}: ${show(msg)}${named ? '' : ' (quotes the wrong value)'}`, [o.reply.exchange.id]);
  },
});
