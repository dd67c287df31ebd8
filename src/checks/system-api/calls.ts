import type { InboundCall } from '../../simulators/system-endpoints.ts';
import type { Exchange } from '../../evidence/exchange.ts';
import { defineCheck, fail, pass } from '../check.ts';
import { SYSTEM_ENDPOINTS } from '../../simulators/system-endpoints.ts';

/** The module sends the run's system API key with the call (form or query `apiKey`, or `X-API-KEY`). */
export const ensureSystemCallCarriesApiKey = defineCheck<InboundCall>({
  name: 'ensureSystemCallCarriesApiKey',
  checks: 'a call to the system API carries the API key the user gave (apiKey parameter or X-API-KEY header)',
  run(call) {
    const what = `${call.exchange.request.method} ${new URL(call.exchange.request.url ?? '/', 'http://system.invalid').pathname}`;
    if (call.apiKeyVia.length === 0) return fail(`${what} without apiKey`, 'apiKey as form or query parameter, or the X-API-KEY header', [call.exchange.id]);
    if (!call.apiKeyValid) return fail(`${what} with an API key that is not the run's (HTTP ${call.exchange.response?.status})`, 'the API key the user supplied (the run gave it as {apiKey})', [call.exchange.id]);
    return pass(`the run's apiKey sent as ${call.apiKeyVia.join(' and ')}`, [call.exchange.id]);
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

/** What a triggered flow led to: calls to the endpoint, to its path with another method, elsewhere. */
export interface FlowCalls {
  endpoint: string;
  calls: InboundCall[];
  /** Requests to the endpoint's path with a method it does not take (answered 405). */
  wrongMethod: Exchange[];
  /** Requests to paths the system does not have, made during the flow. */
  elsewhere: Exchange[];
  waitedMs: number;
  trigger: string;
  triggerEvidence: string[];
}

const requestLine = (x: Exchange): string => `${x.request.method} ${new URL(x.request.url ?? '/', 'http://system.invalid').pathname} -> HTTP ${x.response?.status ?? '?'}`;

/** After a trigger, the module makes the call the flow consists of (how it makes it is judged by the other checks). */
export const ensureTriggerLeadsToSystemCall = defineCheck<FlowCalls>({
  name: 'ensureTriggerLeadsToSystemCall',
  checks: 'the triggered flow reaches the system API',
  run(s) {
    if (s.calls.length > 0) return pass(`${s.calls.length} call(s) to ${s.endpoint}`, s.calls.map((c) => c.exchange.id));
    if (s.wrongMethod.length > 0) return pass(`${s.wrongMethod.length} call(s) to the path of ${s.endpoint} (with another method: judged by its own check)`, s.wrongMethod.map((x) => x.id));
    const instead = s.elsewhere.length > 0 ? `; instead it called ${[...new Set(s.elsewhere.map(requestLine))].slice(0, 3).join(', ')}, not endpoints of the system` : '';
    return fail(`no call to ${s.endpoint} within ${s.waitedMs} ms of trigger ${s.trigger}${instead}`, `the module calls ${s.endpoint}`, [...s.triggerEvidence, ...s.elsewhere.slice(0, 3).map((x) => x.id)]);
  },
});

/** The module calls an endpoint with the method the contract gives it. */
export const ensureSystemCallUsesDocumentedMethod = defineCheck<{ endpoint: string; refused: Exchange[] }>({
  name: 'ensureSystemCallUsesDocumentedMethod',
  checks: 'a call to the system API uses the method of its endpoint',
  run(s) {
    if (s.refused.length === 0) return pass(`every call used ${s.endpoint.split(' ')[0]}`);
    return fail(`${s.refused.length} call(s) with another method: ${[...new Set(s.refused.map(requestLine))].slice(0, 3).join(', ')}`, s.endpoint, s.refused.map((x) => x.id));
  },
});

/** Tracking goes to the module's own code as `subcode`. */
export const ensureTrackingSubcodeIsModuleCode = defineCheck<{ call: InboundCall; code: string }>({
  name: 'ensureTrackingSubcodeIsModuleCode',
  checks: 'tracking is sent to /api/v5/delivery/generic/{subcode}/tracking with the module\'s code as subcode',
  run({ call, code }) {
    const subcode = call.params.subcode;
    if (subcode === code) return pass(`subcode ${JSON.stringify(subcode)}`, [call.exchange.id]);
    return fail(`subcode ${JSON.stringify(subcode)} (HTTP ${call.exchange.response?.status})`, `the module's integrationModule code ${JSON.stringify(code)}`, [call.exchange.id]);
  },
});
