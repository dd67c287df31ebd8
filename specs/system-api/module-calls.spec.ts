/**
 * Calls the module makes to the system API. Each flow is started by its trigger; every call
 * that follows is decoded, validated against its schema and judged with requirement ids.
 * A flow whose trigger is not declared is skipped ("needs trigger X"), never passed.
 */
import { test } from '../fixtures.ts';
import { NeedsTrigger, type TriggerName } from '../../src/module/triggers.ts';
import type { Check } from '../../src/checks/check.ts';
import type { Application } from '../../src/checks/apply.ts';
import { ensureMessageMatchesSchema } from '../../src/checks/schema-rule.ts';
import { ensureCallsUploadHoldsAtMost50, ensureTrackingHoldsAtMost100 } from '../../src/checks/system-api/limits.ts';
import { ensureSystemCallCarriesApiKey, ensureSystemCallPayloadDecodes, ensureTriggerLeadsToSystemCall } from '../../src/checks/system-api/calls.ts';
import { SYSTEM_ENDPOINTS, type InboundCall, type SystemEndpoint } from '../../src/simulators/system.ts';
import { contract } from '../../src/contract/schemas.ts';
import type { RunSession } from '../../src/run/session.ts';

interface Flow {
  title: string;
  kind: string;
  trigger: TriggerName;
  params: (s: RunSession) => Record<string, string | number | string[]>;
  endpoint: SystemEndpoint;
  /** Ids of the payload's form field and shape. */
  payloadIds: string[];
  limit?: { check: Check<never>; requirements: string[] };
}

const FLOWS: Flow[] = [
  {
    title: 'delivery statuses pushed through tracking (120 orders: more than one request)',
    kind: 'delivery',
    trigger: 'delivery.tracking',
    params: () => ({ count: 120 }),
    endpoint: 'tracking',
    payloadIds: ['WIRE-DLV-TRACKING-STATUSUPDATE-FIELD', 'WIRE-DLV-TRACKING-UPDATEDAT-ISO8601'],
    limit: { check: ensureTrackingHoldsAtMost100 as Check<never>, requirements: ['DLV-TRACKING-MAX-100'] },
  },
  {
    title: 'call history uploaded (60 calls: more than one request)',
    kind: 'telephony',
    trigger: 'telephony.callsUpload',
    params: () => ({ count: 60 }),
    endpoint: 'calls.upload',
    payloadIds: ['WIRE-TEL-UPLOAD-CALLS-FIELD'],
    limit: { check: ensureCallsUploadHoldsAtMost50 as Check<never>, requirements: ['TEL-UPLOAD-MAX-50'] },
  },
  {
    title: 'an incoming call reported as a call event',
    kind: 'telephony',
    trigger: 'telephony.callEvent',
    params: () => ({ phone: '+15550100200', type: 'in', codes: ['101'] }),
    endpoint: 'call.event',
    payloadIds: ['TEL-EVENT-PARAM-JSON', 'TEL-EVENT-PHONE', 'TEL-EVENT-CODES-STRINGS', 'WIRE-TEL-EVENT-FIELD', 'WIRE-TEL-EVENT-TYPE-VALUES'],
  },
];

/** Waits for the calls of a flow: the first within the flow timeout, then until 1 s passes without another. */
async function collect(session: RunSession, endpoint: SystemEndpoint, since: number, timeoutMs: number): Promise<InboundCall[]> {
  const first = await session.system.waitFor(endpoint, timeoutMs, () => true, since);
  if (!first) return [];
  let count = -1;
  while (count !== session.system.calls.length) {
    count = session.system.calls.length;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return session.system.calls.slice(since).filter((c) => c.endpoint === endpoint);
}

test.describe('module calls to the system API', () => {
  for (const flow of FLOWS) {
    test(flow.title, async ({ session, conformance }) => {
      const schema = SYSTEM_ENDPOINTS[flow.endpoint].schema!;
      const planned: Array<{ check: Check<never>; app: Application }> = [
        { check: ensureTriggerLeadsToSystemCall as Check<never>, app: { requirements: flow.payloadIds, severity: 'MUST' } },
        { check: ensureSystemCallPayloadDecodes as Check<never>, app: { requirements: flow.payloadIds, severity: 'MUST' } },
        { check: ensureSystemCallCarriesApiKey as Check<never>, app: { requirements: ['WIRE-GEN-APIKEY-PARAM-OR-HEADER'], severity: 'MUST' } },
        ...(flow.limit ? [{ check: flow.limit.check, app: { requirements: flow.limit.requirements, severity: 'MUST' as const } }] : []),
        { check: ensureMessageMatchesSchema as Check<never>, app: { requirements: flow.payloadIds, severity: 'MUST' } },
      ];
      if (!session.registration.kinds.includes(flow.kind)) {
        conformance.notRun('notApplicable', `the module declares no ${flow.kind} integration`, planned);
        return;
      }
      const since = session.system.calls.length;
      let triggerEvidence: string[] = [];
      try {
        const reply = await session.triggers.fire(flow.trigger, flow.params(session));
        triggerEvidence = [reply.exchange.id];
      } catch (e) {
        if (e instanceof NeedsTrigger) return conformance.skipForTrigger(e, planned);
        throw e;
      }
      const calls = await collect(session, flow.endpoint, since, session.config.flowTimeoutMs);
      await conformance.apply(
        ensureTriggerLeadsToSystemCall,
        { endpoint: SYSTEM_ENDPOINTS[flow.endpoint].route, calls, waitedMs: session.config.flowTimeoutMs, trigger: flow.trigger, triggerEvidence },
        planned[0]!.app,
      );
      for (const call of calls) {
        await conformance.apply(ensureSystemCallPayloadDecodes, call, planned[1]!.app);
        await conformance.apply(ensureSystemCallCarriesApiKey, call, planned[2]!.app);
        if (call.payload === undefined) continue;
        const subject = { schema, message: call.payload, errors: contract().validate(schema, call.payload).errors, evidence: [call.exchange.id] };
        if (flow.limit) await conformance.apply(flow.limit.check as never, subject as never, { requirements: flow.limit.requirements, severity: 'MUST' });
        await conformance.apply(ensureMessageMatchesSchema, { ...subject, region: /.*/ }, { requirements: flow.payloadIds, severity: 'MUST' });
      }
    });
  }
});
