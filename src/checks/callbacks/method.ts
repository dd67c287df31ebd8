/**
 * The module serves each action at the method the document gives it (document, Calls from the
 * system to a delivery module: `calculate` POST, `get` GET, ...; table `src/callbacks/table.ts`,
 * the `transport` ids): the platform calls it so, and a module that answers that method with
 * HTTP 405 (Method Not Allowed) or 501 (Not Implemented) does not serve the action at all. Any
 * other answer, success or error, shows the method served; no answer is ensureCallbackIsAnswered's.
 */
import { CALLBACKS } from '../../callbacks/table.ts';
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { describeReply } from './reply.ts';
import type { CaseOutcome } from '../case.ts';

/** An answer that says the method is not served (405, 501): ensureActionServedAtItsMethod's, and no other rule's (one cause, one failure). */
export const refusesTheMethod = (reply: Reply): boolean => reply.status === 405 || reply.status === 501;

export const ensureActionServedAtItsMethod = defineCheck<CaseOutcome>({
  name: 'ensureActionServedAtItsMethod',
  checks: 'the module serves the action at the method the document gives it: no 405 or 501',
  run(o) {
    const spec = CALLBACKS[o.case.callback];
    const evidence = [o.reply.exchange.id];
    const method = o.reply.exchange.request?.method ?? spec.method;
    if (o.reply.status === undefined) return notApplicable(`no answer (ensureCallbackIsAnswered's): ${describeReply(o.reply)}`);
    if (refusesTheMethod(o.reply)) return fail(`${method} ${o.case.callback.split('.')[1]}: ${describeReply(o.reply)}`, `the action served at ${spec.method}, as the platform calls it (document)`, evidence);
    return pass(`${method} answered HTTP ${o.reply.status}`, evidence);
  },
});
