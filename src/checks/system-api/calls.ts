import type { InboundCall } from '../../simulators/system.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { SYSTEM_ENDPOINTS } from '../../simulators/system.ts';

/** The module sends its system API key with the call (form or query `apiKey`, or `X-API-KEY`). */
export const ensureSystemCallCarriesApiKey = defineCheck<InboundCall>({
  name: 'ensureSystemCallCarriesApiKey',
  checks: 'a call to the system API carries the API key (apiKey parameter or X-API-KEY header)',
  run(call) {
    if (call.apiKeyVia.length > 0) return pass(`apiKey sent as ${call.apiKeyVia.join(' and ')}`, [call.exchange.id]);
    return fail(`${call.exchange.request.method} ${call.exchange.request.url} without apiKey`, 'apiKey as form or query parameter, or the X-API-KEY header', [call.exchange.id]);
  },
});

/** The payload travels as the endpoint's form field, holding JSON. */
export const ensureSystemCallPayloadDecodes = defineCheck<InboundCall>({
  name: 'ensureSystemCallPayloadDecodes',
  checks: 'the call carries its payload as the form field the endpoint names, holding JSON',
  run(call) {
    const field = SYSTEM_ENDPOINTS[call.endpoint].field;
    if (!call.decodeError) return pass(field ? `form field ${field} holds JSON` : undefined, [call.exchange.id]);
    const ct = call.exchange.request.headers['content-type'] ?? 'no content type';
    return fail(`${call.decodeError} (${ct})`, field ? `application/x-www-form-urlencoded with ${field}=<JSON>` : 'the documented parameters', [call.exchange.id]);
  },
});

/** After a trigger, the module makes the call the flow consists of. */
export const ensureTriggerLeadsToSystemCall = defineCheck<{ endpoint: string; calls: InboundCall[]; waitedMs: number; trigger: string; triggerEvidence: string[] }>({
  name: 'ensureTriggerLeadsToSystemCall',
  checks: 'the triggered flow reaches the system API',
  run(s) {
    if (s.calls.length > 0) return pass(`${s.calls.length} call(s) to ${s.endpoint}`, s.calls.map((c) => c.exchange.id));
    return fail(`no call to ${s.endpoint} within ${s.waitedMs} ms of trigger ${s.trigger}`, `the module calls ${s.endpoint}`, s.triggerEvidence);
  },
});
