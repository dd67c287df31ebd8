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
import { ensureSystemCallCarriesApiKey, ensureSystemCallPayloadDecodes, ensureTriggerLeadsToSystemCall } from '../../src/checks/system-api/calls.ts';
import { ENDPOINT_JUDGEMENTS } from '../../src/checks/system-api/endpoints.ts';
import { SYSTEM_ENDPOINTS, type InboundCall, type SystemEndpoint } from '../../src/simulators/system.ts';
import { judgeSystemCall } from '../../src/run/system-calls.ts';
import type { RunSession } from '../../src/run/session.ts';

interface Flow {
  title: string;
  kind: string;
  trigger: TriggerName;
  params: Record<string, string | number | string[]>;
  endpoint: SystemEndpoint;
}

const FLOWS: Flow[] = [
  { title: 'delivery statuses pushed through tracking (120 orders: more than one request)', kind: 'delivery', trigger: 'delivery.tracking', params: { count: 120 }, endpoint: 'tracking' },
  { title: 'call history uploaded (60 calls: more than one request)', kind: 'telephony', trigger: 'telephony.callsUpload', params: { count: 60 }, endpoint: 'calls.upload' },
  { title: 'an incoming call reported as a call event', kind: 'telephony', trigger: 'telephony.callEvent', params: { phone: '+15550100200', type: 'in', codes: ['101'] }, endpoint: 'call.event' },
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
      const judgement = ENDPOINT_JUDGEMENTS[flow.endpoint]!;
      const payload: Application = { requirements: judgement.payloadIds, severity: 'MUST' };
      const planned: Array<{ check: Check<never>; app: Application }> = [
        { check: ensureTriggerLeadsToSystemCall as Check<never>, app: payload },
        { check: ensureSystemCallPayloadDecodes as Check<never>, app: payload },
        { check: ensureSystemCallCarriesApiKey as Check<never>, app: { requirements: ['WIRE-GEN-APIKEY-PARAM-OR-HEADER'], severity: 'MUST' } },
        ...(judgement.limit ? [{ check: judgement.limit.check as Check<never>, app: { requirements: judgement.limit.requirements, severity: 'MUST' as const } }] : []),
        { check: ensureMessageMatchesSchema as Check<never>, app: payload },
      ];
      if (!session.registration.kinds.includes(flow.kind)) {
        conformance.notRun('notApplicable', `the module declares no ${flow.kind} integration`, planned);
        return;
      }
      const since = session.system.calls.length;
      let triggerEvidence: string[] = [];
      try {
        const reply = await session.triggers.fire(flow.trigger, flow.params);
        triggerEvidence = [reply.exchange.id];
      } catch (e) {
        if (e instanceof NeedsTrigger) return conformance.skipForTrigger(e, planned);
        throw e;
      }
      const calls = await collect(session, flow.endpoint, since, session.config.flowTimeoutMs);
      await conformance.apply(
        ensureTriggerLeadsToSystemCall,
        { endpoint: SYSTEM_ENDPOINTS[flow.endpoint].route, calls, waitedMs: session.config.flowTimeoutMs, trigger: flow.trigger, triggerEvidence },
        payload,
      );
      for (const call of calls) await judgeSystemCall(conformance, call);
    });
  }
});
