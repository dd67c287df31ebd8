/**
 * The error answer of a module to a callback (wire profile section 1): "Error reply: JSON
 * `{"success": false, "errorMsg": "<text>"}`. [...] Accept 200 and 4xx with that body; a 5xx, a
 * non-JSON body or a missing `errorMsg` is a failure." (by the document alone, Errors 1: HTTP 200).
 *
 * One rule, one check: an answer fails only the rules it breaks. Every rule is not applicable
 * to no answer at all, and to an answer that claims success (no error answer: the check of that
 * case judges it); the errorMsg rule is not applicable to a body that is not JSON (the JSON
 * rule judges it).
 */
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass, type Verdict } from '../check.ts';
import { claimsSuccess, describeReply } from './reply.ts';
import { defineSchemaReplyCheck } from './schema-reply.ts';

/** A module's error answer to a callback, and which reading judges it. */
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

/** Not applicable when there is no error answer to judge: none at all, or one that claims success. */
function noErrorAnswer(reply: Reply): Verdict | undefined {
  if (reply.status === undefined) return notApplicable(`no answer to judge (${describeReply(reply)})`);
  if (claimsSuccess(reply)) return notApplicable(`the module answered success, not an error (${describeReply(reply)})`);
  return undefined;
}

/** An error answer has HTTP 200, or (wire profile) a 4xx. */
export const ensureErrorStatusIsAccepted = defineCheck<ErrorReplySubject>({
  name: 'ensureErrorStatusIsAccepted',
  checks: 'an error is answered with an accepted status (HTTP 200; with the wire profile, also 4xx)',
  run({ reply, profile }) {
    const none = noErrorAnswer(reply);
    if (none) return none;
    const evidence = [reply.exchange.id];
    if (acceptedErrorStatus(reply.status!, profile)) return pass(describeReply(reply), evidence);
    return fail(describeReply(reply), profile ? 'HTTP 200 or 4xx (wire profile section 1)' : 'HTTP 200 (document, Errors 1)', evidence);
  },
});

/** An error answer is never a 5xx. */
export const ensureErrorStatusIsNot5xx = defineCheck<Reply>({
  name: 'ensureErrorStatusIsNot5xx',
  checks: 'an error is not answered with a 5xx status',
  run(reply) {
    const none = noErrorAnswer(reply);
    if (none) return none;
    const evidence = [reply.exchange.id];
    if (reply.status! >= 500 && reply.status! < 600) return fail(describeReply(reply), 'not a 5xx: the error body with HTTP 200 or 4xx', evidence);
    return pass(describeReply(reply), evidence);
  },
});

/** The body of an error answer is JSON. */
export const ensureErrorBodyIsJson = defineCheck<Reply>({
  name: 'ensureErrorBodyIsJson',
  checks: 'the body of an error answer is JSON',
  run(reply) {
    const none = noErrorAnswer(reply);
    if (none) return none;
    const evidence = [reply.exchange.id];
    if (reply.json === undefined) return fail(`${describeReply(reply)} (not JSON: ${reply.jsonError ?? 'unreadable'})`, 'a JSON body {"success": false, "errorMsg": "<text>"}', evidence);
    return pass(describeReply(reply), evidence);
  },
});

/** The JSON body of an error answer carries `errorMsg` (null read as absent). */
export const ensureErrorBodyCarriesErrorMsg = defineCheck<Reply>({
  name: 'ensureErrorBodyCarriesErrorMsg',
  checks: 'the JSON body of an error answer carries errorMsg',
  run(reply) {
    const none = noErrorAnswer(reply);
    if (none) return none;
    if (reply.json === undefined) return notApplicable(`the body is not JSON, so it carries no field to look for (${describeReply(reply)})`);
    const evidence = [reply.exchange.id];
    const body = reply.json;
    const has = body !== null && typeof body === 'object' && !Array.isArray(body) && (body as Record<string, unknown>).errorMsg != null;
    if (!has) return fail(describeReply(reply), 'a body with errorMsg: {"success": false, "errorMsg": "<text>"}', evidence);
    return pass(describeReply(reply), evidence);
  },
});

/**
 * The body of an error answer is `{"success": false, "errorMsg": "<text>"}` (schema
 * `common/error-reply.json`): JSON, an object, `success` false, `errorMsg` a string.
 */
export const ensureErrorBodyMatchesErrorShape = defineSchemaReplyCheck<ErrorReplySubject>({
  name: 'ensureErrorBodyMatchesErrorShape',
  checks: 'the body of an error answer is {"success": false, "errorMsg": "<text>"}',
  schema: 'common/error-reply.json',
  answer: noErrorAnswer,
  notJson: ({ reply }, evidence) => fail(`${describeReply(reply)} (not JSON: ${reply.jsonError ?? 'unreadable'})`, 'a JSON body {"success": false, "errorMsg": "<text>"}', evidence),
  expected: '{"success": false, "errorMsg": "<text>"}',
  holds: ({ reply }, evidence) => pass(describeReply(reply), evidence),
});
