/**
 * The answer of a telephony module to `makeCallUrl` (document, Calls from the system to a
 * telephony module: "HTTP 200 means success; any other status is an initiation error reported to
 * the user; the body is ignored"; Errors 4). The status alone is the answer: a call the module
 * started is answered exactly 200 (a 201 or 204 is reported to the user as an initiation error),
 * and a call it cannot start (to a phone that is no number at all) is answered anything but 200
 * (a 200 tells the user that a call started that never did). A call from an extension code the
 * registration does not list, or to a phone of letters, may start or not (open cases). No answer at all is `ensureCallbackIsAnswered`'s: these rules do not apply to it.
 */
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

/** What the generated call was, for a message: `code "101" calling "+4915..."`. */
function describeCall(o: CaseOutcome): string {
  const p = (o.case.payload ?? {}) as Record<string, unknown>;
  const parts = [`code ${JSON.stringify(p.code)}`, `phone ${JSON.stringify(p.phone)}`, `userId ${JSON.stringify(p.userId)}`];
  if (p.externalPhone !== undefined) parts.push(`externalPhone ${JSON.stringify(p.externalPhone)}`);
  return parts.join(', ');
}

export const ensureStartedCallAnswers200 = defineCheck<CaseOutcome>({
  name: 'ensureStartedCallAnswers200',
  checks: 'a call the module can start (an extension code of its settings, a phone number) is answered HTTP 200, exactly',
  run(o) {
    if (o.case.intent.kind !== 'valid') return notApplicable('not a call the module can start');
    const reply = o.reply;
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return notApplicable('no answer (ensureCallbackIsAnswered judges it)');
    if (reply.status === 200) return pass(`HTTP 200 to a call from ${describeCall(o)}`, evidence);
    return fail(
      `${describeReply(reply)} to a call from ${describeCall(o)}`,
      'HTTP 200: the call started (any other status, 201 and 204 too, is an initiation error reported to the user)',
      evidence,
    );
  },
});

export const ensureUnstartableCallIsNot200 = defineCheck<CaseOutcome>({
  name: 'ensureUnstartableCallIsNot200',
  checks: 'a call the module cannot start (to a phone that is no number at all) is not answered HTTP 200',
  run(o) {
    if (o.case.intent.kind !== 'wrong') return notApplicable(o.case.intent.kind === 'open' ? `the answer is open: ${o.case.intent.why}` : 'not a call the module cannot start');
    const reply = o.reply;
    const evidence = [reply.exchange.id];
    if (reply.status === undefined) return notApplicable('no answer (ensureCallbackIsAnswered judges it)');
    const why = o.case.intent.why;
    if (reply.status !== 200) return pass(`HTTP ${reply.status} to a call from ${describeCall(o)} (${why})`, evidence);
    return fail(
      `${describeReply(reply)} to a call from ${describeCall(o)}, which cannot start: ${why}`,
      'any status but 200: HTTP 200 tells the user the call started; the module cannot start it',
      evidence,
    );
  },
});
