/** Checks of one reply applied to a property's cases: the same rule, read off a case's outcome. */
import type { Check } from '../checks/check.ts';
import type { ErrorReplySubject } from '../checks/callbacks/error-reply.ts';
import type { CaseOutcome } from './types.ts';
import type { Reply } from '../client/callback-client.ts';

/** An error-answer rule over the cases of a property (the reply and the run's reading). */
export function onErrorReply(check: Check<ErrorReplySubject>): Check<CaseOutcome> {
  return { name: check.name, checks: check.checks, run: (o) => check.run({ reply: o.reply, profile: o.profile }) };
}

/** A one-reply rule over the cases of a property. */
export function onReply(check: Check<Reply>): Check<CaseOutcome> {
  return { name: check.name, checks: check.checks, run: (o) => check.run(o.reply) };
}
