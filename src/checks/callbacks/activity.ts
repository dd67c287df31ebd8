import { contract, formatErrors } from '../../contract/schemas.ts';
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { describeReply } from './reply.ts';

/** The module acknowledges the activity callback with HTTP 200 `{success: true}`. */
export const ensureActivityAcknowledged = defineCheck<Reply>({
  name: 'ensureActivityAcknowledged',
  checks: 'the activity callback is answered with HTTP 200 and JSON {"success": true}',
  run(reply) {
    const evidence = [reply.exchange.id];
    if (reply.status !== 200 || reply.json === undefined) return fail(describeReply(reply), 'HTTP 200 with JSON {"success": true}', evidence);
    const out = contract().validate('common/success-reply.json', reply.json);
    if (!out.valid) return fail(describeReply(reply), `{"success": true} (${formatErrors(out.errors)})`, evidence);
    return pass(describeReply(reply), evidence);
  },
});
