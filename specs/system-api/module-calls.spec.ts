/**
 * Calls the module makes to the system API. Each flow is started by its trigger; every call
 * that follows is decoded, validated against its schema and judged with requirement ids, and
 * the system's answer is part of the verdict. A flow whose trigger is not declared is skipped
 * ("needs trigger X"), and one whose trigger answered with an error is skipped at once with
 * that answer as evidence ("the trigger failed"); neither is ever passed.
 *
 * Tracking is given the deliveries the run created: when the module declares `save` (and the
 * run uses the profile, on which save's deliveryId and the tracking item's rest, and the trigger
 * passes `deliveryIds` on), the flow first saves 120 deliveries through the module's own `save`
 * (valid generated requests) and names the ids it answered in the trigger; those are the items
 * asked for. Otherwise it asks for a `count`.
 *
 * The telephony flows (the calls upload named by the calls' `externalIds`, a call event of each
 * kind judged against its trigger, the manager lookup answered with a manager and without) are
 * described and built in telephony-flows.ts; a flow's own checks ride on `extra`.
 */
import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { NeedsTrigger, triggerFailure } from '../../src/module/triggers.ts';
import { idsOfRows, type Row } from '../../src/checks/apply.ts';
import { ENDPOINT_ROWS, FLOW_ROWS } from '../../src/checks/system-api/applications.ts';
import { SYSTEM_ENDPOINTS, type InboundCall, type SystemEndpoint } from '../../src/simulators/system-endpoints.ts';
import { judgeSystemCalls } from '../../src/run/system-calls.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import { declares, saveContextOf } from '../../src/properties/delivery-save-context.ts';
import { validSave } from '../../src/generators/delivery/save.ts';
import { invent } from '../../src/generators/invented.ts';
import { deliveryIdOf } from '../../src/checks/delivery/save-reply.ts';
import { covers } from '../covers.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import { askedCalls, CALL_EVENT_AND_MANAGER_FLOWS } from './telephony-flows.ts';
import type { Asked, Flow } from './flow.ts';
import { inArea, type AreaName } from '../../src/run/areas.ts';

/** Deliveries the tracking flow creates through the module's `save` (more than one request's worth). */
const DELIVERIES_TO_TRACK = 120;

/**
 * The deliveries tracking is asked about: 120 created through the module's own `save` (valid
 * generated requests, tariffs of its own calculate or tariffList), named by the deliveryIds it
 * answered. Only when the module declares save, the run uses the profile (save's deliveryId and
 * the tracking item's rest on it alone) and the trigger passes `deliveryIds` on; otherwise the
 * flow asks for a count. A save answered without an id is the save properties' to judge: its
 * delivery is not asked about.
 */
async function savedDeliveries(session: RunSession): Promise<Asked | undefined> {
  if (!session.config.profile || !declares(session, 'delivery.save') || !session.triggers.takes('delivery.tracking', 'deliveryIds')) return undefined;
  const gen = session.config.generation;
  const ctx = await saveContextOf(session, gen.seed, true);
  const cases = invent(gen.seed, 'tracking: deliveries to save', fc.array(validSave(ctx), { minLength: DELIVERIES_TO_TRACK, maxLength: DELIVERIES_TO_TRACK }));
  const clientId = session.clientId();
  const ids: string[] = [];
  const evidence: string[] = [];
  // A slow module gets the property time budget for its saves; the deliveries saved by then are asked about.
  const until = Date.now() + gen.timeLimitMs;
  let sent = 0;
  for (const [i, c] of cases.entries()) {
    if (Date.now() > until) break;
    sent++;
    const reply = await session.send('delivery.save', c.payload, { clientId, case: `tracking-save-${i + 1}` });
    const id = deliveryIdOf(reply.json);
    if (id === undefined) evidence.push(reply.exchange.id);
    else if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) return { skip: `none of the ${sent} deliveries saved for it was answered with a deliveryId (save is judged by its own properties)`, evidence: evidence.slice(0, 3) };
  return { params: { count: ids.length, deliveryIds: ids }, items: ids };
}

const field = (name: string) => (item: unknown): string => {
  const v = item && typeof item === 'object' ? (item as Record<string, unknown>)[name] : undefined;
  return v === undefined ? JSON.stringify(item) : String(v);
};

const FLOWS: Flow[] = [
  {
    title: 'delivery statuses pushed through tracking (120 orders: more than one request)',
    kind: 'delivery',
    trigger: 'delivery.tracking',
    params: { count: 120 },
    endpoint: 'tracking',
    reached: FLOW_ROWS.tracking.reached,
    items: { limit: 100, noun: 'orders', row: FLOW_ROWS.tracking.items, key: field('deliveryId') },
    ask: savedDeliveries,
  },
  {
    title: 'call history uploaded (60 calls: more than one request)',
    kind: 'telephony',
    trigger: 'telephony.callsUpload',
    params: { count: 60 },
    endpoint: 'calls.upload',
    reached: FLOW_ROWS.callsUpload.reached,
    items: { limit: 50, noun: 'calls', row: FLOW_ROWS.callsUpload.items, key: field('externalId') },
    // Named by the trigger (`externalIds`), as tracking names its deliveries (telephony-flows.ts).
    ask: askedCalls,
  },
  // A call event of each kind, the manager lookup answered both ways (telephony-flows.ts).
  ...CALL_EVENT_AND_MANAGER_FLOWS,
];

/** The path of an endpoint as a pattern, any value in its parameters. */
const pathPattern = (endpoint: SystemEndpoint): RegExp =>
  new RegExp(`^${SYSTEM_ENDPOINTS[endpoint].route.split(' ')[1]!.replace(/\{\w+\}/g, '[^/]+')}/?$`);
const pathOf = (x: Exchange): string => new URL(x.request.url ?? '/', 'http://system.invalid').pathname;

/** After a flow's first call, it is over once this long passes without another (a module sends its requests one after the other). */
const QUIET_MS = 500;

/** Waits for the calls of a flow: the first within the flow timeout, then until QUIET_MS pass without another. */
async function collect(session: RunSession, endpoint: SystemEndpoint, since: { calls: number; unsimulated: number }, timeoutMs: number): Promise<{ calls: InboundCall[]; elsewhere: Exchange[] }> {
  const pattern = pathPattern(endpoint);
  const elsewhere = (): Exchange[] => session.system.unsimulatedSince(since.unsimulated);
  const deadline = Date.now() + timeoutMs;
  // A call to the endpoint (any method, any version), or nothing within the flow timeout.
  while (Date.now() < deadline && !session.system.callsSince(since.calls).some((c) => c.endpoint === endpoint) && !elsewhere().some((x) => pattern.test(pathOf(x)))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  let count = -1;
  while (Date.now() < deadline + 60_000 && count !== session.system.callCount() + session.system.unsimulatedCount()) {
    count = session.system.callCount() + session.system.unsimulatedCount();
    await new Promise((r) => setTimeout(r, QUIET_MS));
  }
  return { calls: session.system.callsSince(since.calls).filter((c) => c.endpoint === endpoint), elsewhere: elsewhere() };
}

/** The checks a flow plans, with their applications (also what the test declares it covers): its rows and its endpoint's. */
function plannedOf(flow: Flow): { planned: Array<Row<never>>; also: string[] } {
  const e = ENDPOINT_ROWS[flow.endpoint]!;
  const planned = [flow.reached, e.method, ...(flow.items ? [flow.items.row] : []), e.decodes, e.apiKey, ...(e.limit ? [e.limit] : []), ...e.rules, e.schema, ...(flow.extra?.rows ?? [])] as Array<Row<never>>;
  // What judging the calls also credits (see src/run/system-calls.ts).
  const also = idsOfRows([e.version, ...(e.subcode ? [e.subcode] : [])]);
  return { planned, also };
}

test.describe('module calls to the system API', () => {
  for (const flow of FLOWS) {
    const { planned: declared, also } = plannedOf(flow);
    test(flow.title, { ...covers([...idsOfRows(declared), ...also]), ...inArea(flow.kind as AreaName) }, async ({ session, conformance }) => {
      const { planned } = plannedOf(flow);
      if (!session.registration) return conformance.notRun('skipped', session.notRegistered ?? 'the module is not registered', planned);
      if (!session.registration.kinds.includes(flow.kind)) return conformance.notRun('notApplicable', `the module declares no ${flow.kind} integration`, planned);
      if (!session.triggers.declared(flow.trigger)) return conformance.skipForTrigger(new NeedsTrigger(flow.trigger), planned);
      if (flow.ask) test.setTimeout(session.config.generation.timeLimitMs + session.config.flowTimeoutMs + 90_000);
      const asked = flow.ask ? await flow.ask(session) : undefined;
      if (asked && 'skip' in asked) return conformance.notRun('skipped', asked.skip, planned, asked.evidence);
      const since = { calls: session.system.callCount(), unsimulated: session.system.unsimulatedCount() };
      let triggerEvidence: string[] = [];
      let triggerReply: Reply | undefined;
      try {
        const reply = await session.triggers.fire(flow.trigger, asked?.params ?? flow.params);
        triggerReply = reply;
        triggerEvidence = [reply.exchange.id];
        // A trigger that answers with an error and led to no call failed: skipped at once. One
        // that reports the error of a call the module made (the system refused it) is judged.
        const failed = triggerFailure(reply);
        const called = session.system.callCount() > since.calls || session.system.unsimulatedCount() > since.unsimulated;
        if (failed && !called) return conformance.notRun('skipped', `the trigger failed: ${failed}`, planned, triggerEvidence);
      } catch (e) {
        if (e instanceof NeedsTrigger) return conformance.skipForTrigger(e, planned);
        throw e;
      }
      const { calls, elsewhere } = await collect(session, flow.endpoint, since, session.config.flowTimeoutMs);
      const pattern = pathPattern(flow.endpoint);
      await conformance.apply(
        flow.reached,
        {
          endpoint: SYSTEM_ENDPOINTS[flow.endpoint].route,
          calls,
          wrongMethod: elsewhere.filter((x) => pattern.test(pathOf(x))),
          elsewhere: elsewhere.filter((x) => !pattern.test(pathOf(x))),
          waitedMs: session.config.flowTimeoutMs,
          trigger: flow.trigger,
          triggerEvidence,
        },
      );
      const wrongMethod = elsewhere.filter((x) => pattern.test(pathOf(x)));
      if (calls.length + wrongMethod.length > 0) {
        for (const x of wrongMethod) session.judged.add(x.id);
        await conformance.apply(ENDPOINT_ROWS[flow.endpoint]!.method, { endpoint: SYSTEM_ENDPOINTS[flow.endpoint].route, refused: wrongMethod });
      }
      if (flow.items) {
        await conformance.apply(flow.items.row, { requested: asked?.items ?? Number(flow.params.count), limit: flow.items.limit, noun: flow.items.noun, calls: calls.filter((c) => c.accepted), key: flow.items.key });
      }
      await judgeSystemCalls(conformance, calls);
      if (flow.extra) await flow.extra.judge({ session, conformance, calls, params: asked?.params ?? flow.params, reply: triggerReply });
    });
  }
});
