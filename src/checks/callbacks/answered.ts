/**
 * A callback is answered: a complete HTTP reply within the suite's per-request timeout (setting
 * `callbacks.timeoutMs`) and body cap (`callbacks.maxBodyBytes`). No answer (a timeout, a reset
 * connection, a body cut short or too large) is never a pass of a rule that speaks of the answer:
 * this rule fails it, and the others are not applicable to it.
 */
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { describeReply } from './reply.ts';

export const ensureCallbackIsAnswered = defineCheck<Reply>({
  name: 'ensureCallbackIsAnswered',
  checks: 'the module answers the callback: a complete HTTP reply within the per-request timeout and body cap',
  run(reply) {
    if (reply.status === undefined || reply.error !== undefined) return fail(describeReply(reply), 'a complete HTTP reply (the success reply or the error form)', [reply.exchange.id]);
    return pass(`HTTP ${reply.status}`, [reply.exchange.id]);
  },
});
