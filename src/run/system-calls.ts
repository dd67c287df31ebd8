/**
 * Judges one call of the module to the system API: payload decoding, API key, the endpoint's
 * limit, and the payload's schema, each with the endpoint's requirement ids.
 */
import { contract } from '../contract/schemas.ts';
import { ensureMessageMatchesSchema } from '../checks/schema-rule.ts';
import { ensureSystemCallCarriesApiKey, ensureSystemCallPayloadDecodes, ensureTrackingSubcodeIsModuleCode } from '../checks/system-api/calls.ts';
import { ensureSystemCallsUseApiV5 } from '../checks/registration/edit-call.ts';
import { ENDPOINT_JUDGEMENTS } from '../checks/system-api/endpoints.ts';
import { SYSTEM_ENDPOINTS, type InboundCall } from '../simulators/system.ts';
import type { Conformance } from './conformance.ts';

/** True for the calls judged here (registration and reads have checks of their own). */
export function judgedHere(call: InboundCall): boolean {
  return ENDPOINT_JUDGEMENTS[call.endpoint] !== undefined;
}

export async function judgeSystemCall(conformance: Conformance, call: InboundCall): Promise<void> {
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
  await conformance.apply(ensureMessageMatchesSchema, { ...subject, region: /.*/ }, ids);
}
