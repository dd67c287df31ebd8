import type { Reply } from '../../client/callback-client.ts';
import { contract, formatErrors } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { claimsSuccess, describeReply } from './reply.ts';

/** A module's error answer to a callback, and which reading judges its status. */
export interface ErrorReplySubject {
  reply: Reply;
  /**
   * With the wire profile, HTTP 200 and 4xx are accepted (real modules also answer 400/404 with
   * the error body); by the document alone, HTTP 200 only (Errors 1).
   */
  profile: boolean;
}

/** The statuses an error answer may have, per reading. */
export function acceptedErrorStatus(status: number, profile: boolean): boolean {
  return status === 200 || (profile && status >= 400 && status < 500);
}

/**
 * A module answers an error with the error body `{"success": false, "errorMsg": "<text>"}`,
 * with HTTP 200 (document), or 200 or 4xx (wire profile); a 5xx, a body that is not JSON or
 * lacks `errorMsg` is a failure.
 */
export const ensureErrorReplyIsWellFormed = defineCheck<ErrorReplySubject>({
  name: 'ensureErrorReplyIsWellFormed',
  checks: 'an error is answered with JSON {"success": false, "errorMsg": "<text>"} and an accepted status',
  run({ reply, profile }) {
    const evidence = [reply.exchange.id];
    const statuses = profile ? 'HTTP 200 or 4xx (wire profile section 1)' : 'HTTP 200 (document, Errors 1)';
    if (reply.status === undefined) return fail(describeReply(reply), `${statuses} with the error body`, evidence);
    // An answer that claims success is no error answer: the check of that case judges it.
    if (claimsSuccess(reply)) return notApplicable(`the module answered success, not an error (${describeReply(reply)})`);
    if (!acceptedErrorStatus(reply.status, profile)) return fail(describeReply(reply), `${statuses} with the error body`, evidence);
    if (reply.json === undefined) return fail(describeReply(reply), 'a JSON body {"success": false, "errorMsg": "<text>"}', evidence);
    const out = contract({ profile }).validate('common/error-reply.json', reply.json);
    if (!out.valid) return fail(describeReply(reply), `{"success": false, "errorMsg": "<text>"} (${formatErrors(out.errors)})`, evidence);
    return pass(describeReply(reply), evidence);
  },
});
