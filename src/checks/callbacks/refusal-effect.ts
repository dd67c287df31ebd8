/**
 * A refused call left no effect an authorised observer can see (wire profile section 1: a module
 * answers a callback with a missing or unknown clientId with a refusal "and must not act on the
 * request"). The observations are made by the probes of `src/properties/refusal-probe.ts`; the
 * rule that judges them, and the state readers it compares with, are here.
 */
import { claimsSuccess, describeReply } from './reply.ts';
import { refusesTheMethod } from './method.ts';
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import { credited } from './acceptance.ts';
import type { CaseOutcome, Observation } from '../case.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The state an observer's answer shows, by reader name: what a refused call must leave as it
 * was. Members a module may recompute on every read (timestamps of the read itself) are left out.
 */
export const STATE_READERS: Readonly<Record<string, (json: unknown) => unknown>> = {
  /** A delivery as get shows it: its track number, cost, dates, status code and data-field values. */
  'delivery.get': (json) => {
    const r = isObj(json) && isObj(json.result) ? json.result : {};
    const status = isObj(r.status) ? r.status.code : r.status;
    return { trackNumber: r.trackNumber, cost: r.cost, shipmentDate: r.shipmentDate, deliveryDate: r.deliveryDate, status, extraData: r.extraData };
  },
  /** Any answer: its `result` as a whole. */
  result: (json) => (isObj(json) ? json.result : json),
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether an observation shows a state changed by the refused call: readable before, and unreadable or different after. */
export function observedChange(obs: Observation): boolean {
  if (obs.kind === 'quiet') return obs.during.length > 0;
  if (obs.kind === 'reported') return obs.during.some((r) => r.status !== r.from) || (!obs.acknowledged && (obs.expected === undefined || !obs.reportedAfter.some((r) => r.status === obs.expected && r.accepted)));
  if (obs.kind !== 'unchanged' || !claimsSuccess(obs.before)) return false;
  const read = STATE_READERS[obs.reader] ?? STATE_READERS.result!;
  return !claimsSuccess(obs.after) || !same(read(obs.before.json), read(obs.after.json));
}

/**
 * A refused call left no effect an authorised observer can see: the state the observer shows is
 * the same before and after it, or the call it would have made pointless still succeeds (when
 * that call fails, its own rule judges it: the two readings cannot be told apart). Judged
 * only when the module did refuse (a success answer is ensureRefusedCallbackHasNoEffect's) and
 * the observer could see the state before.
 */
export const ensureRefusalLeftNoEffect = defineCheck<CaseOutcome>({
  name: 'ensureRefusalLeftNoEffect',
  checks: 'a callback refused for its clientId has no effect an authorised call can observe',
  run(o) {
    return judgeRefusal(o).then((v) => credited(o, v));
  },
});

async function judgeRefusal(o: CaseOutcome): Promise<Verdict> {
  {
    const obs = o.observation;
    if (o.case.intent.kind !== 'refused' || !obs) return notApplicable('not a refused call');
    if (o.reply.status === undefined || claimsSuccess(o.reply)) return notApplicable(`the call was not refused (${describeReply(o.reply)}): ensureRefusedCallbackHasNoEffect's`);
    const presented = `a ${o.case.intent.clientId} clientId`;
    if (obs.kind === 'reported') {
      // A report about it between the refused call and the follow-up that changes its state is an effect.
      const changed = obs.during.filter((r) => r.exchange !== undefined && r.status !== r.from);
      if (changed.length > 0) {
        return fail(`after ${o.case.callback} with ${presented} was refused, the module reported ${changed.map((r) => `${show(r.status)} (from ${r.from})`).join(', ')} to the system`, 'no effect: nothing about it reported (wire profile section 1)', [o.reply.exchange.id, ...changed.map((r) => r.exchange!)]);
      }
      const all = [o.reply.exchange.id, obs.trigger.exchange.id, ...obs.reportedAfter.flatMap((r) => (r.exchange ? [r.exchange] : []))];
      if (refusesTheMethod(obs.trigger)) return notApplicable(`${obs.what} answered ${describeReply(obs.trigger)}: the method is not served (ensureActionServedAtItsMethod's)`);
      if (obs.expected === undefined) {
        if (obs.acknowledged) return pass(`refused (HTTP ${o.reply.status}); nothing reported about it, and ${obs.what} was acknowledged`, all);
        // Nothing was reported: a refusal of the authorised call cannot tell an effect from a module that refuses that call anyway (its own rules judge it).
        return notApplicable(`nothing was reported about it; ${obs.what} was refused (${describeReply(obs.trigger)}): judged by that call's own rules`);
      }
      if (obs.reportedAfter.some((r) => r.status === obs.expected && r.accepted)) return pass(`refused (HTTP ${o.reply.status}); ${obs.what}: ${obs.expected} reported`, all);
      if (o.invoice?.elsewhere) return notApplicable('the module does not call this system (remote mode, its registration given): what it reports cannot be seen');
      // The module called the invoice endpoints with another method meanwhile: what it reported or took cannot be told (that rule's).
      if (o.invoice?.offRoute?.length) return notApplicable(`the module called update-invoice's or check's path with another method (${o.invoice.offRoute.length} call(s)): judged by ensureSystemCallUsesDocumentedMethod`);
      // Acknowledged but not reported: that call's own rule (ensureActionIsReported) judges it.
      if (obs.acknowledged) return notApplicable(`${obs.what} was acknowledged but ${obs.expected} was not reported within ${obs.waitedMs} ms: judged by that call's own rule`);
      return fail(`after ${o.case.callback} with ${presented} was refused, ${obs.what} was refused too: ${describeReply(obs.trigger)}`, `${obs.what} goes through as if the refused call had not been made, and ${obs.expected} is reported (wire profile section 1)`, all);
    }
    if (obs.kind === 'quiet') {
      if (obs.during.length > 0) return fail(`after ${o.case.callback} with ${presented} was refused, the module reported ${obs.what} to the system (${obs.during.length} call(s))`, `nothing reported of it: a refused call is not acted on (wire profile section 1)`, [o.reply.exchange.id, ...obs.during]);
      if (obs.after.length === 0) return notApplicable(`no ${obs.what} reported after the same call with the clientId either: the platform sees nothing to tell an effect by`);
      return pass(`refused (HTTP ${o.reply.status}); no ${obs.what} reported after it within ${obs.waitedMs} ms, while the same call with the clientId led to one`, [o.reply.exchange.id, ...obs.after.slice(0, 1)]);
    }
    const evidence = [o.reply.exchange.id, obs.after.exchange.id];
    if (obs.kind === 'stillPossible') {
      if (obs.after.status === undefined) return notApplicable(`the observer got no answer (${describeReply(obs.after)})`);
      // The same authorised call on an object no refused call touched succeeded: the failure is the refused call's effect.
      if (!claimsSuccess(obs.after) && obs.control && claimsSuccess(obs.control.reply)) {
        return fail(`after ${o.case.callback} with ${presented} was refused, ${obs.what} failed (${describeReply(obs.after)}), while ${obs.control.what} succeeded`, `${obs.what} succeeds as if the refused call had not been made (wire profile section 1: a module must not act on it)`, [...evidence, obs.control.reply.exchange.id]);
      }
      // An authorised call that fails cannot tell a refused call that acted from a module that fails that call anyway: it is judged by that call's own rule.
      if (!claimsSuccess(obs.after)) return notApplicable(`${obs.what} failed after the refused call (${describeReply(obs.after)}): judged by that call's own rule`);
      return pass(`refused (HTTP ${o.reply.status}); ${obs.what} still succeeded`, evidence);
    }
    if (!claimsSuccess(obs.before)) return notApplicable(`the observer could not see the state before (${describeReply(obs.before)})`);
    if (!claimsSuccess(obs.after)) return fail(`after ${o.case.callback} with ${presented} was refused, ${obs.what} answered ${describeReply(obs.after)}`, `${obs.what} unchanged: the refused call did nothing (wire profile section 1)`, [obs.before.exchange.id, ...evidence]);
    const read = STATE_READERS[obs.reader] ?? STATE_READERS.result!;
    const before = read(obs.before.json);
    const after = read(obs.after.json);
    if (!same(before, after)) return fail(`after ${o.case.callback} with ${presented} was refused, ${obs.what} changed from ${show(before, 200)} to ${show(after, 200)}`, `${obs.what} unchanged: the refused call did nothing (wire profile section 1)`, [obs.before.exchange.id, ...evidence]);
    return pass(`refused (HTTP ${o.reply.status}); ${obs.what} unchanged`, evidence);
  }
}
