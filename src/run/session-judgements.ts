/**
 * What is judged once, when the session ends, into the session's record (`sessionSink`): every
 * call the module made to the system that no spec judged (calls it made on its own), a repeated
 * accepted registration, the calls to endpoints the suite does not simulate (information), every
 * call to the gateway and the template calls no template step judged, and how the module's
 * traffic met the suite's limits and the gateway's rate (information). The rows applied are in
 * `src/checks/run/applications.ts` and the tables of the calls' judges.
 */
import type { Conformance } from './conformance.ts';
import { judgeSystemCalls } from './system-calls.ts';
import { judgeGatewayCalls } from './gateway-calls.ts';
import { judgeTemplateCalls } from './template-calls.ts';
import { SESSION_ROWS } from '../checks/run/applications.ts';
import { ACCEPTED_REGISTRATION_NOT_REPEATED } from '../checks/registration/applications.ts';

/**
 * Judges every call the module made to the system that no spec judged (calls the module made
 * on its own), so that no call goes unchecked. Run once, when the session ends.
 */
export async function judgeSession(conformance: Conformance): Promise<void> {
  const { session } = conformance;
  await judgeSystemCalls(conformance, session.system.calls.filter((call) => !session.judged.has(call.exchange.id)));
  // A registration the system accepted is taken as done: the same one is not sent again and again (updates are fine).
  const accepted = session.system.calls.filter((c) => c.endpoint === 'edit' && c.accepted);
  if (accepted.length > 0) {
    const prompted = session.triggers.fired.filter((f) => f.name === 'registration.repeat').length;
    await conformance.apply(ACCEPTED_REGISTRATION_NOT_REPEATED, { accepted, prompted });
  }
  // Calls to endpoints the suite does not simulate: information beside the checks.
  const { system } = session;
  const unsimulated = system.unsimulated.filter((x) => !session.judged.has(x.id));
  // Every such call ever made, but those a spec judged (a flow's call by the wrong method).
  const total = system.unsimulatedCount() - (system.unsimulated.length - unsimulated.length);
  if (unsimulated.length > 0) await conformance.apply(SESSION_ROWS.unsimulated, { unsimulated, total });
  // Every call to the gateway (the channel activation right after registering included), and the requests to no gateway endpoint.
  await judgeGatewayCalls(conformance);
  // Template calls no template step judged (src/run/template-calls.ts).
  await judgeTemplateCalls(conformance);
  await judgeTraffic(conformance);
}

/** How the module's traffic met the suite's limits and the gateway's rate: information beside the checks. */
async function judgeTraffic(conformance: Conformance): Promise<void> {
  const { log, system, gateway } = conformance.session;
  const exchanges = log.all();
  const anomalies = system.calls.flatMap((c) => (c.anomalies ?? []).map((anomaly) => ({ exchange: c.exchange.id, endpoint: `${c.exchange.direction} ${c.exchange.label}`, anomaly })));
  const stalled = [
    { server: 'system', ...system.connectionTrouble() },
    { server: 'gateway', ...gateway.connectionTrouble() },
  ];
  await conformance.apply(SESSION_ROWS.readWhole, { endpoints: log.summary(), exchanges, anomalies, stalled });
  const tokens = gateway.tokenRates();
  if (tokens.length > 0) {
    const tooMany = exchanges.filter((x) => x.direction === 'module->gateway' && x.response?.status === 429);
    await conformance.apply(SESSION_ROWS.gatewayRate, { tokens, tooMany });
  }
}
