/**
 * Judges the calls of the module to the system API: payload decoding, API key, the endpoint's
 * limit, and the payload's schema, each with the endpoint's requirement ids. Calls alike in
 * everything the judgement reads are judged once, with their number (a retry loop gone wild
 * makes one set of results, not thousands).
 */
import { contract } from '../contract/schemas.ts';
import { ensureMessageMatchesSchema, ownedBy } from '../checks/schema-rule.ts';
import { ensureSystemCallCarriesApiKey, ensureSystemCallPayloadDecodes, ensureTrackingSubcodeIsModuleCode } from '../checks/system-api/calls.ts';
import { ensureSystemCallsUseApiV5 } from '../checks/registration/edit-call.ts';
import { ENDPOINT_JUDGEMENTS, type EndpointJudgement } from '../checks/system-api/endpoints.ts';
import type { SchemaRule } from '../checks/schema-rule.ts';
import { SYSTEM_ENDPOINTS, type InboundCall } from '../simulators/system.ts';
import type { Conformance } from './conformance.ts';

/** True for the calls judged here (registration and reads have checks of their own). */
function judgedHere(call: InboundCall): boolean {
  return ENDPOINT_JUDGEMENTS[call.endpoint] !== undefined;
}

/** Whether a named rule of the endpoint reads the payload itself (a schema rule reads only its schema errors). */
const readsPayload = (j: EndpointJudgement): boolean => [j.limit, ...(j.rules ?? [])].some((r) => r !== undefined && (r.check as Partial<SchemaRule>).owns === undefined);

/** Everything the judgement of a call reads: two calls with the same signature get the same results. */
function signature(call: InboundCall): string {
  const req = call.exchange.request;
  const judgement = ENDPOINT_JUDGEMENTS[call.endpoint]!;
  return JSON.stringify([
    call.endpoint,
    req.method,
    new URL(req.url ?? '/', 'http://system.invalid').pathname,
    req.headers['content-type'] ?? null,
    call.exchange.response?.status ?? null,
    call.apiKeyVia,
    call.apiKeyValid,
    call.version,
    call.decodeError ?? null,
    // The payload itself where a named rule of the endpoint reads it; else (schema rules read only the errors) what its schema found in it.
    readsPayload(judgement) ? (call.payload ?? null) : call.payload === undefined ? null : call.schemaErrors.map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`),
  ]);
}

/** Judges calls, those alike once: the results of the first say how many more were alike, with some of their exchanges. */
export async function judgeSystemCalls(conformance: Conformance, calls: readonly InboundCall[]): Promise<void> {
  const groups = new Map<string, InboundCall[]>();
  for (const call of calls.filter(judgedHere)) {
    const key = signature(call);
    const group = groups.get(key);
    if (group) group.push(call);
    else groups.set(key, [call]);
  }
  for (const [first, ...alike] of groups.values()) {
    const before = conformance.results.length;
    await judgeSystemCall(conformance, first!);
    if (alike.length === 0) continue;
    for (const call of alike) conformance.session.judged.add(call.exchange.id);
    for (const result of conformance.results.slice(before)) {
      result.message += `\nThe same for ${alike.length} more call${alike.length === 1 ? '' : 's'} alike in everything judged (not judged again).`;
      result.evidence = [...result.evidence, ...alike.slice(0, 2).map((c) => c.exchange.id)];
    }
  }
}

async function judgeSystemCall(conformance: Conformance, call: InboundCall): Promise<void> {
  const judgement = ENDPOINT_JUDGEMENTS[call.endpoint];
  if (!judgement) return;
  conformance.session.judged.add(call.exchange.id);
  const ids = { requirements: judgement.payloadIds, severity: 'MUST' as const };
  await conformance.apply(ensureSystemCallPayloadDecodes, call, ids);
  await conformance.apply(ensureSystemCallCarriesApiKey, call, { requirements: ['WIRE-GEN-APIKEY-PARAM-OR-HEADER'], severity: 'MUST' });
  await conformance.apply(ensureSystemCallsUseApiV5, [call], { requirements: ['GEN-VERSION-SYSTEM-V5'], severity: 'MUST' });
  const code = conformance.session.registration?.code;
  if (call.endpoint === 'tracking' && code !== undefined) await conformance.apply(ensureTrackingSubcodeIsModuleCode, { call, code }, { requirements: ['DLV-TRACKING-SUBCODE-IS-CODE'], severity: 'MUST' });
  if (call.payload === undefined) return;
  const schema = SYSTEM_ENDPOINTS[call.endpoint].schema!;
  const subject = { schema, message: call.payload, errors: contract({ profile: conformance.session.config.profile }).validate(schema, call.payload).errors, evidence: [call.exchange.id] };
  if (judgement.limit) await conformance.apply(judgement.limit.check, subject, { requirements: judgement.limit.requirements, severity: 'MUST' });
  for (const rule of judgement.rules ?? []) await conformance.apply(rule.check, subject, { requirements: rule.requirements, severity: 'MUST' });
  // The whole payload, less what the endpoint's named rules (its limit, its rules) own.
  const owned = ownedBy([judgement.limit?.check, ...(judgement.rules ?? []).map((r) => r.check)]);
  await conformance.apply(ensureMessageMatchesSchema, { ...subject, region: /.*/, owned }, ids);
}
