/**
 * Judges the calls of the module to the system API: payload decoding, API key, the endpoint's
 * limit, and the payload's schema, each with the endpoint's rows (`ENDPOINT_ROWS`,
 * src/checks/system-api/applications.ts). Calls alike in
 * everything the judgement reads are judged once, with their number (a retry loop gone wild
 * makes one set of results, not thousands).
 */
import { contract } from '../contract/schemas.ts';
import { ownedBy } from '../checks/schema-rule.ts';
import { ENDPOINT_ROWS, type EndpointRows } from '../checks/system-api/applications.ts';
import type { SchemaRule } from '../checks/schema-rule.ts';
import { SYSTEM_ENDPOINTS, type InboundCall } from '../simulators/system-endpoints.ts';
import type { Conformance } from './conformance.ts';

/** True for the calls judged here (registration and reads have checks of their own). */
function judgedHere(call: InboundCall): boolean {
  return ENDPOINT_ROWS[call.endpoint] !== undefined;
}

/** Whether a named rule of the endpoint reads the payload itself (a schema rule reads only its schema errors). */
const readsPayload = (j: EndpointRows): boolean => [j.limit, ...j.rules].some((r) => r !== undefined && (r.check as Partial<SchemaRule>).owns === undefined);

/** Everything the judgement of a call reads: two calls with the same signature get the same results. */
function signature(call: InboundCall): string {
  const req = call.exchange.request;
  const judgement = ENDPOINT_ROWS[call.endpoint]!;
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
  const rows = ENDPOINT_ROWS[call.endpoint];
  if (!rows) return;
  conformance.session.judged.add(call.exchange.id);
  await conformance.apply(rows.decodes, call);
  await conformance.apply(rows.apiKey, call);
  await conformance.apply(rows.version, [call]);
  const code = conformance.session.registration?.code;
  if (rows.subcode && code !== undefined) await conformance.apply(rows.subcode, { call, code });
  if (call.payload === undefined) return;
  const schema = SYSTEM_ENDPOINTS[call.endpoint].schema!;
  const subject = { schema, message: call.payload, errors: contract({ profile: conformance.session.config.profile }).validate(schema, call.payload).errors, evidence: [call.exchange.id] };
  if (rows.limit) await conformance.apply(rows.limit, subject);
  for (const rule of rows.rules) await conformance.apply(rule, subject);
  // The whole payload, less what the endpoint's named rules (its limit, its rules) own.
  const owned = ownedBy([rows.limit?.check, ...rows.rules.map((r) => r.check)]);
  await conformance.apply(rows.schema, { ...subject, region: /.*/, owned });
}
