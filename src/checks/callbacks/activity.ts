import type { Reply } from '../../client/callback-client.ts';
import { fail, pass } from '../check.ts';
import { describeReply } from './reply.ts';
import { defineSchemaReplyCheck } from './schema-reply.ts';

const notAcknowledged = (reply: Reply) => fail(describeReply(reply), 'HTTP 200 with JSON {"success": true}', [reply.exchange.id]);

/** The module acknowledges the activity callback with HTTP 200 `{success: true}` (the schema in the contract's default view, the profile). */
export const ensureActivityAcknowledged = defineSchemaReplyCheck<Reply>({
  name: 'ensureActivityAcknowledged',
  checks: 'the activity callback is answered with HTTP 200 and JSON {"success": true}',
  schema: 'common/success-reply.json',
  read: (reply) => ({ reply }),
  answer: (reply) => (reply.status !== 200 ? notAcknowledged(reply) : undefined),
  notJson: notAcknowledged,
  expected: '{"success": true}',
  holds: (reply, evidence) => pass(describeReply(reply), evidence),
});
