import type { CaseOutcome } from '../case.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { describeReply } from './reply.ts';
import { answeredAsDone, credited, noAcceptance, noAcceptanceAgain } from './acceptance.ts';

const presentedWords = (o: CaseOutcome): string => (o.case.intent.kind === 'refused' ? (o.case.intent.clientId === 'missing' ? 'without a clientId' : 'with a clientId the module never gave') : '');

/**
 * A callback with a missing or unknown clientId has no effect: the module does not answer it
 * as done, by the reply form of its callback (`answeredAsDone`: a JSON success, print's document,
 * makeCall's HTTP 200). The reply is what the suite can see of the effect; for changeUserStatus
 * ("Status and body are ignored") it shows nothing, and the rule is not applicable. Credited only
 * when the same callback with the clientId was accepted in the run (`credited`).
 */
export const ensureRefusedCallbackHasNoEffect = defineCheck<CaseOutcome>({
  name: 'ensureRefusedCallbackHasNoEffect',
  checks: 'a callback without a valid clientId is not acted on',
  run(o) {
    if (o.case.intent.kind !== 'refused') return notApplicable('a call with the clientId');
    const reply = o.reply;
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return fail(describeReply(reply), 'a refusal (401 or 403 with the error body)', evidence);
    const done = answeredAsDone(o.case.callback, reply);
    if (done === undefined) return notApplicable(`${describeReply(reply)}: the status and body of ${o.case.callback.split('.')[1]} are ignored (document), so its answer does not show whether the module acted, and no effect of it can be seen (ensureRefusalUses401Or403 judges the status)`);
    if (done) return fail(`${describeReply(reply)} ${presentedWords(o)}: answered as done`, 'a refusal: the clientId is the only credential of a callback, and a module must not act on a request without a valid one (wire profile section 1)', evidence);
    return credited(o, pass(`${describeReply(reply)} ${presentedWords(o)}`, evidence));
  },
});

/**
 * The refusal of a missing or unknown clientId is HTTP 401 or 403; credited only when the same
 * callback with the clientId was accepted in the run. Another error status fails it only then:
 * a module that answers the call with the clientId with the same error (a method it does not
 * serve, a request it cannot take) shows nothing of how it treats the clientId.
 */
export const ensureRefusalUses401Or403 = defineCheck<CaseOutcome>({
  name: 'ensureRefusalUses401Or403',
  checks: 'a callback without a valid clientId is refused with HTTP 401 or 403',
  run(o) {
    if (o.case.intent.kind !== 'refused') return notApplicable('a call with the clientId');
    const reply = o.reply;
    const evidence = [reply.exchange.id];
    if (reply.status === 401 || reply.status === 403) return credited(o, pass(describeReply(reply), evidence));
    // Another error, while the same call with the clientId was not accepted either: the answer need not be about the clientId at all.
    if (reply.status !== undefined && answeredAsDone(o.case.callback, reply) === false && (o.accepted === undefined || o.accepted === null)) return notApplicable(`${describeReply(reply)} ${presentedWords(o)}; ${o.accepted === null ? noAcceptanceAgain(o.case.callback) : noAcceptance(o.case.callback)}`);
    return fail(`${describeReply(reply)} ${presentedWords(o)}`, 'HTTP 401 or 403 (wire profile section 1: real modules answer 401 or 403 when the clientId is missing or unknown)', evidence);
  },
});
