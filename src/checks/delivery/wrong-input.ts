/**
 * Wrong input (document, Errors 7): "For wrong input (for example a past delivery date or zero
 * weight) a module must return an error whose message names the incorrect field." Never a
 * success, never a 5xx; the error's form is judged by the error rules (callbacks/error-reply.ts).
 */
import { refusesTheMethod } from '../callbacks/method.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../../properties/types.ts';

/** Wrong input is refused: not a success, not a 5xx (no answer at all is `ensureCallbackIsAnswered`'s). */
export const ensureWrongInputIsRefused = defineCheck<CaseOutcome>({
  name: 'ensureWrongInputIsRefused',
  checks: 'wrong input is refused with an error, never answered as a success or with a 5xx',
  run(o) {
    if (o.case.intent.kind !== 'wrong') return notApplicable('the request is valid');
    const evidence = [o.reply.exchange.id];
    const { why } = o.case.intent;
    // No answer at all is the answered rule's failure (one cause, one failure).
    if (o.reply.status === undefined) return notApplicable(`${why}: no answer to judge (${describeReply(o.reply)})`);
    if (claimsSuccess(o.reply)) return fail(`${why}: answered success, ${describeReply(o.reply)}`, 'an error answer {"success": false, "errorMsg": ...} (document, Errors 7)', evidence);
    if (o.reply.status >= 500) return fail(`${why}: ${describeReply(o.reply)}`, 'an error answer, not a server error (a 5xx is a failure: wire profile section 1)', evidence);
    return pass(`${why}: refused, HTTP ${o.reply.status}`, evidence);
  },
});

/** Letters and digits only, lower case: `shipmentDate`, `shipment_date` and `Shipment date` read alike. */
const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The error message of wrong input names the incorrect field. */
export const ensureErrorNamesTheIncorrectField = defineCheck<CaseOutcome>({
  name: 'ensureErrorNamesTheIncorrectField',
  checks: 'the error message of wrong input names the incorrect field',
  run(o) {
    if (o.case.intent.kind !== 'wrong') return notApplicable('the request is valid');
    const { field, why } = o.case.intent;
    // A form field that is not JSON at all has no member to name (the refusal rule judges it).
    if (field === o.case.callback.split('.').at(-1)) return notApplicable(`${why}: the whole field is unreadable`);
    const msg = (o.reply.json as { errorMsg?: unknown } | undefined)?.errorMsg;
    if (claimsSuccess(o.reply) || o.reply.status === undefined) return notApplicable('no error answer (the refusal rule judges it)');
    if (typeof msg !== 'string') return notApplicable('no error message text (the error-form rules judge it)');
    if (refusesTheMethod(o.reply)) return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
    if (!squash(msg).includes(squash(field))) return fail(`${why}: errorMsg ${show(msg)}`, `a message that names the field ${show(field)} (document, Errors 7)`, [o.reply.exchange.id]);
    return pass(`${why}: ${show(msg)}`, [o.reply.exchange.id]);
  },
});
