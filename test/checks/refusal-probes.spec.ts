/**
 * The clientId probed on every callback (issue 31, item 5): the table of where each callback of
 * the callback table is probed, and the probe (refused without a clientId, with an unknown one,
 * then the same with the clientId) judged on modules in memory: one that accepts any clientId,
 * one that refuses everything, a correct one, one whose refused shipmentSave takes effect, and
 * the telephony URLs' own readings (makeCall's 200, changeUserStatus's ignored answer).
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import { CALLBACK_NAMES, CALLBACKS, type CallbackName } from '../../src/callbacks/table.ts';
import { clientIdCases, probedHere, runClientIdProbe, type ClientIdCase, type ProbeDriver, type ProbeEffect } from '../../src/properties/client-id-probes.ts';
import { CLIENT_ID_PROBES, clientIdProperty } from '../../src/checks/callbacks/applications.ts';
import { PROPERTY_CHECKS, propertyChecks } from '../../src/properties/registry.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';

let n = 0;
function reply(status: number, json?: unknown): Reply {
  return { exchange: { id: `x${++n}` } as Exchange, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), ...(json !== undefined ? { json } : {}) };
}
const OK = (): Reply => reply(200, { success: true, result: [] });
const REFUSED = (): Reply => reply(403, { success: false, errorMsg: 'clientId is unknown' });

/** A module in memory: answers by the clientId presented. */
function driver(answer: (callback: CallbackName, clientId: string | undefined, payload: unknown) => Reply): ProbeDriver & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    clientId: 'right',
    module: {},
    profile: true,
    send: async (callback, payload, clientId) => {
      sent.push(`${callback.split('.')[1]}:${clientId ?? '-'}`);
      return answer(callback, clientId, payload);
    },
  };
}
const probe = (callback: CallbackName, payload: unknown = {}): ClientIdCase => fc.sample(clientIdCases(callback, fc.constant({ payload }), 'right'), { seed: 1, numRuns: 1 })[0]!;

/** Each check of the callback's client-id property, by name and id, on the outcome. */
async function verdicts(callback: CallbackName, o: CaseOutcome): Promise<string[]> {
  const out: string[] = [];
  for (const c of propertyChecks(clientIdProperty(callback), true)) out.push(`${c.check.name}${c.app.requirements.length ? ` ${c.app.requirements.join(',')}` : ''}: ${(await c.check.run(o)).outcome}`);
  return out;
}

test('every callback of the table has its clientId probes: here (the area client-id specs) or named elsewhere; the callbacks never probed before are probed here', () => {
  expect(Object.keys(CLIENT_ID_PROBES).sort()).toEqual([...CALLBACK_NAMES].sort());
  expect(probedHere('delivery')).toEqual(['delivery.calculate', 'delivery.get', 'delivery.print', 'delivery.shipmentPointList', 'delivery.shipmentSave', 'delivery.tariffList', 'delivery.autocomplete']);
  expect(probedHere('telephony')).toEqual(['telephony.makeCall', 'telephony.changeUserStatus']);
  for (const name of CALLBACK_NAMES) {
    const home = CLIENT_ID_PROBES[name];
    if ('here' in home) expect(PROPERTY_CHECKS[clientIdProperty(name)], name).toBeDefined();
    else expect(home.elsewhere.length, name).toBeGreaterThan(10);
    // The kinds probed here have an area client-id spec.
    if ('here' in home) expect(['delivery', 'telephony']).toContain(CALLBACKS[name].kind);
  }
});

test('a probe: without a clientId, with an unknown one, then the same with the clientId; a module that accepts any clientId on tariffList fails the no-action rule and the 401/403 rule', async () => {
  const any = driver(() => OK());
  const o = await runClientIdProbe(any, probe('delivery.tariffList'), 't');
  expect(any.sent).toEqual(['tariffList:-', `tariffList:${probe('delivery.tariffList').unknown}`, 'tariffList:right']);
  expect(o.steps!.map((s) => s.case.intent)).toEqual([{ kind: 'refused', clientId: 'missing' }, { kind: 'refused', clientId: 'unknown' }]);
  expect(await verdicts('delivery.tariffList', o)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: fail',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: fail',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: fail',
    'ensureCallbackIsAnswered: pass',
  ]);
});

test('a module that refuses tariffList with its clientId too: the refusals prove nothing (not applicable); a correct module passes', async () => {
  const none = await runClientIdProbe(driver(() => REFUSED()), probe('delivery.tariffList'), 't');
  expect(await verdicts('delivery.tariffList', none)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: notApplicable',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: notApplicable',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: notApplicable',
    'ensureCallbackIsAnswered: pass',
  ]);
  // Another error to every call (a method not served): nothing about the clientId, not a 401/403 finding.
  const notServed = await runClientIdProbe(driver(() => reply(405, { success: false, errorMsg: 'GET not allowed' })), probe('delivery.tariffList'), 't');
  expect(await verdicts('delivery.tariffList', notServed)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: notApplicable',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: notApplicable',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: notApplicable',
    'ensureCallbackIsAnswered: pass',
  ]);
  // The same 400 to a call the module accepts with its clientId: the 401/403 rule fails (SHOULD).
  const as400 = await runClientIdProbe(driver((_c, id) => (id === 'right' ? OK() : reply(400, { success: false, errorMsg: 'clientId' }))), probe('delivery.tariffList'), 't');
  expect((await verdicts('delivery.tariffList', as400)).slice(0, 3)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: pass',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: fail',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: fail',
  ]);
  const good = await runClientIdProbe(driver((_c, id) => (id === 'right' ? OK() : REFUSED())), probe('delivery.tariffList'), 't');
  expect(await verdicts('delivery.tariffList', good)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: pass',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: pass',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: pass',
    'ensureCallbackIsAnswered: pass',
  ]);
});

test('shipmentSave: a refused one that created the shipment is seen when the same with the clientId fails and the same on another delivery succeeds', async () => {
  const owned = new Set<string>();
  const acts = driver((_c, id, payload) => {
    const d = (payload as { orders: Array<{ deliveryId: string }> }).orders[0]!.deliveryId;
    if (owned.has(d)) return reply(400, { success: false, errorMsg: `orders[0].deliveryId ${d} already belongs to a shipment` });
    owned.add(d);
    return id === 'right' ? reply(200, { success: true, result: { shipmentId: 'S1' } }) : REFUSED();
  });
  const control = async () => ({ what: 'the same on D2', reply: await acts.send('delivery.shipmentSave', { orders: [{ deliveryId: 'D2' }] }, 'right', 'control', false) });
  const effect = { kind: 'stillPossible' as const, what: 'the same shipmentSave with the clientId', control };
  const o = await runClientIdProbe(acts, probe('delivery.shipmentSave', { orders: [{ deliveryId: 'D1' }] }), 't', effect);
  expect((await verdicts('delivery.shipmentSave', o))[1]).toBe('ensureRefusalLeftNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: fail');
  // A module that refuses and does not act: the same with the clientId succeeds.
  owned.clear();
  const good = driver((_c, id) => (id === 'right' ? reply(200, { success: true, result: { shipmentId: 'S1' } }) : REFUSED()));
  const g = await runClientIdProbe(good, probe('delivery.shipmentSave', { orders: [{ deliveryId: 'D1' }] }), 't', effect);
  expect((await verdicts('delivery.shipmentSave', g))[1]).toBe('ensureRefusalLeftNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: pass');
});

test('makeCall: a refused call answered 200 is a call started (fails); changeUserStatus: its answer is ignored, so only the 401/403 rule judges it', async () => {
  const starts = await runClientIdProbe(driver(() => reply(200)), probe('telephony.makeCall'), 't');
  expect((await verdicts('telephony.makeCall', starts))[0]).toBe('ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: fail');
  const refuses = await runClientIdProbe(driver((_c, id) => (id === 'right' ? reply(200) : reply(403, { success: false, errorMsg: 'no' }))), probe('telephony.makeCall'), 't');
  expect((await verdicts('telephony.makeCall', refuses))[0]).toBe('ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: pass');
  const ignores = await runClientIdProbe(driver(() => reply(200, { ok: true })), probe('telephony.changeUserStatus'), 't');
  expect(await verdicts('telephony.changeUserStatus', ignores)).toEqual([
    'ensureRefusedCallbackHasNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: notApplicable',
    'ensureRefusalUses401Or403 WIRE-GEN-MISSING-CLIENTID-401-403: fail',
    'ensureRefusalUses401Or403 WIRE-GEN-UNKNOWN-CLIENTID-401-403: fail',
    'ensureCallbackIsAnswered: pass',
  ]);
});

test('makeCall: a refused call that led to a call event of its phone fails; none where the authorised call led to one passes; no event at all is not applicable', async () => {
  const reported: string[] = [];
  const effect = (): ProbeEffect => ({ kind: 'quiet', what: 'call events of +4915100000001', mark: () => reported.length, reports: (mark) => reported.slice(mark), quietMs: 20, waitMs: 50 });
  const pbx = (actsOnRefused: boolean, reports: boolean) =>
    driver((_c, id) => {
      if ((id === 'right' || actsOnRefused) && reports) setTimeout(() => reported.push(`event${reported.length}`), 1);
      return id === 'right' ? reply(200) : reply(401, { success: false, errorMsg: 'clientId is missing' });
    });
  const leftNoEffect = async (d: ProbeDriver) => (await verdicts('telephony.makeCall', await runClientIdProbe(d, probe('telephony.makeCall', { phone: '+4915100000001' }), 't', effect())))[1];
  expect(await leftNoEffect(pbx(true, true))).toBe('ensureRefusalLeftNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: fail');
  expect(await leftNoEffect(pbx(false, true))).toBe('ensureRefusalLeftNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: pass');
  expect(await leftNoEffect(pbx(false, false))).toBe('ensureRefusalLeftNoEffect WIRE-GEN-BAD-CLIENTID-NO-ACTION: notApplicable');
});
