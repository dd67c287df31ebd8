import type { Exchange } from '../../evidence/exchange.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';

/**
 * No silent passes: a run in which nothing reached the module, or in which the module refused
 * every callback made with its own clientId, is a failure whatever the other checks say.
 * Deliberate probes (unknown clientId), triggers and the frames sent on a bot's WebSocket do not count.
 */
export const ensureModuleWasReached = defineCheck<{ exchanges: readonly Exchange[]; narrowed?: string }>({
  name: 'ensureModuleWasReached',
  checks: 'callbacks reached the module and it did not refuse them all',
  run({ exchanges, narrowed }) {
    // Frames and closes on the bot's WebSocket are not requests: no reply is due to them.
    const callbacks = exchanges.filter((x) => (x.direction === 'system->module' || x.direction === 'gateway->module') && !x.probe && !x.label.startsWith('trigger ') && !x.label.startsWith('bot websocket '));
    // A run narrowed to specs that send no callback judges what it selected; it never claims the module answers.
    if (callbacks.length === 0 && narrowed) return notApplicable(`the selection (${narrowed}) sent no callback to the module`);
    if (callbacks.length === 0) return fail('no callback was sent to the module', 'at least one callback answered by the module');
    const answered = callbacks.filter((x) => x.response !== undefined);
    if (answered.length === 0) {
      const errors = [...new Set(callbacks.map((x) => x.error ?? 'no reply'))].slice(0, 3).join('; ');
      return fail(`none of ${callbacks.length} callback(s) got a reply (${errors})`, 'the module answers its callbacks', callbacks.slice(0, 3).map((x) => x.id));
    }
    const refused = answered.filter((x) => x.response!.status === 401 || x.response!.status === 403);
    if (refused.length === answered.length) {
      return fail(`all ${answered.length} callback(s) made with the module's own clientId were refused (HTTP 401/403)`, 'the module accepts callbacks carrying its clientId', refused.slice(0, 3).map((x) => x.id));
    }
    return pass(`${answered.length} of ${callbacks.length} callback(s) answered, ${answered.length - refused.length} not refused`);
  },
});
