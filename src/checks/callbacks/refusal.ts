import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { claimsSuccess, describeReply } from './reply.ts';

/**
 * A callback with a missing or unknown clientId has no effect: the module does not answer it
 * as done. (The reply is what the suite can see of the effect.)
 */
export const ensureRefusedCallbackHasNoEffect = defineCheck<Reply>({
  name: 'ensureRefusedCallbackHasNoEffect',
  checks: 'a callback without a valid clientId is not acted on',
  run(reply) {
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return fail(describeReply(reply), 'a refusal (401 or 403 with the error body)', evidence);
    if (claimsSuccess(reply)) return fail(describeReply(reply), 'a refusal: the clientId is the only credential of a callback', evidence);
    return pass(describeReply(reply), evidence);
  },
});

/** The refusal of a missing or unknown clientId is HTTP 401 or 403. */
export const ensureRefusalUses401Or403 = defineCheck<Reply>({
  name: 'ensureRefusalUses401Or403',
  checks: 'a callback without a valid clientId is refused with HTTP 401 or 403',
  run(reply) {
    const evidence = [reply.exchange.id];
    if (reply.status === 401 || reply.status === 403) return pass(describeReply(reply), evidence);
    return fail(describeReply(reply), 'HTTP 401 or 403', evidence);
  },
});
