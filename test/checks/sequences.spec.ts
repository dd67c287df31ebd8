/**
 * The shipment, live-delivery and refusal rules on canned replies, and the delivery sequences'
 * model on a module in memory: which answers each step may get, and what a refused call's
 * observation decides.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { CaseIntent, CaseOutcome, Observation } from '../../src/checks/case.ts';
import { ensureShipmentDeleteAcknowledged, ensureShipmentSaveAnswersShipment, shipmentIdOf } from '../../src/checks/delivery/shipment-reply.ts';
import { ensureLiveDeliveryIsServed } from '../../src/checks/delivery/get-reply.ts';
import { ensureRefusalLeftNoEffect, observedChange } from '../../src/checks/callbacks/refusal-effect.ts';
import { AcceptedCalls, fillAcceptance } from '../../src/checks/callbacks/acceptance.ts';
import { runSequence, type SequenceDriver } from '../../src/properties/delivery-sequences.ts';
import type { Step } from '../../src/properties/delivery-steps.ts';
import { overSteps } from '../../src/checks/adapt.ts';
import fc from 'fast-check';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { Conformance, type RecordSink } from '../../src/run/conformance.ts';
import type { RunSession } from '../../src/run/session.ts';
import { runProperty } from '../../src/properties/run.ts';

let n = 0;
function reply(status: number | undefined, json?: unknown): Reply {
  const id = `x${++n}`;
  return { exchange: { id } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), ...(status !== undefined ? { status, json } : { error: 'timeout' }) };
}
function outcome(callback: CallbackName, r: Reply, intent: CaseIntent = { kind: 'valid' }, observation?: Observation): CaseOutcome {
  // A refused call: an authorised call of its callback was accepted in the run (a refusal's credit rests on it).
  return { case: { callback, payload: { deliveryId: 'D1', shipmentId: 'S1' }, intent }, reply: r, module: {}, profile: true, ...(observation ? { observation } : {}), ...(intent.kind === 'refused' ? { accepted: 'x0' } : {}) };
}
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => ((await check.run(o)) as { outcome: string }).outcome;
const got = (code: string) => reply(200, { success: true, result: { trackNumber: 'T1', cost: 4, status: { code, updatedAt: '2027-03-01T10:00:00Z' } } });

test('shipmentSave: a result {shipmentId, extraData} passes; without shipmentId it fails where shipmentDelete is declared, and without it is no pass of the id (rule 5: never sent back); an id of the wrong type fails; an error is not its to judge', async () => {
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(200, { success: true, result: { shipmentId: 'S1', extraData: {} } })))).toBe('pass');
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(200, { success: true, result: { shipmentId: 7, extraData: [] } })))).toBe('pass');
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(200, { success: true, result: {} })))).toBe('notApplicable');
  const editable = { integrations: { delivery: { actions: { shipmentSave: '/s', shipmentDelete: '/d' } } } };
  expect(await run(ensureShipmentSaveAnswersShipment, { ...outcome('delivery.shipmentSave', reply(200, { success: true, result: { extraData: {} } })), module: editable })).toBe('fail');
  expect(await run(ensureShipmentSaveAnswersShipment, { ...outcome('delivery.shipmentSave', reply(200, { success: true, result: { shipmentId: 'S1' } })), module: editable })).toBe('pass');
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(200, { success: true, result: { shipmentId: { id: 'S1' } } })))).toBe('fail');
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(200, { success: true })))).toBe('fail');
  expect(await run(ensureShipmentSaveAnswersShipment, outcome('delivery.shipmentSave', reply(400, { success: false, errorMsg: 'date' })))).toBe('notApplicable');
  expect(shipmentIdOf({ success: true, result: { shipmentId: 12 } })).toBe('12');
  expect(shipmentIdOf({ success: true, result: { shipmentId: { id: 'S1' } } })).toBeUndefined();
});

test('shipmentDelete: {success: true} of a live shipment passes; an error fails; an open case (a second delete) is not judged', async () => {
  expect(await run(ensureShipmentDeleteAcknowledged, outcome('delivery.shipmentDelete', reply(200, { success: true })))).toBe('pass');
  expect(await run(ensureShipmentDeleteAcknowledged, outcome('delivery.shipmentDelete', reply(400, { success: false, errorMsg: 'not yet' })))).toBe('fail');
  expect(await run(ensureShipmentDeleteAcknowledged, outcome('delivery.shipmentDelete', reply(400, { success: false, errorMsg: 'already' }), { kind: 'open', why: 'a second shipmentDelete' }))).toBe('notApplicable');
});

test('a live delivery is served: a success passes, an error fails, an open get or no answer is not its to judge', async () => {
  expect(await run(ensureLiveDeliveryIsServed, outcome('delivery.get', got('created')))).toBe('pass');
  expect(await run(ensureLiveDeliveryIsServed, outcome('delivery.get', reply(404, { success: false, errorMsg: 'unknown' })))).toBe('fail');
  expect(await run(ensureLiveDeliveryIsServed, outcome('delivery.get', reply(404, { success: false, errorMsg: 'gone' }), { kind: 'open', why: 'deleted' }))).toBe('notApplicable');
  expect(await run(ensureLiveDeliveryIsServed, outcome('delivery.get', reply(undefined)))).toBe('notApplicable');
  // A 405 is the method rule's (one cause, one failure).
  expect(await run(ensureLiveDeliveryIsServed, outcome('delivery.get', reply(405, { success: false, errorMsg: 'GET not allowed' })))).toBe('notApplicable');
});

test('a refusal leaves no effect: unchanged state passes, a changed or vanished one fails; a failing follow-up is the follow-up\'s rule; an accepted call is not its to judge', async () => {
  const refused: CaseIntent = { kind: 'refused', clientId: 'unknown' };
  const unchanged = (before: Reply, after: Reply): Observation => ({ kind: 'unchanged', what: 'the delivery', reader: 'delivery.get', before, after });
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.delete', reply(403, { success: false, errorMsg: 'no' }), refused, unchanged(got('created'), got('created'))))).toBe('pass');
  const changed = unchanged(got('created'), got('cancelled'));
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.delete', reply(403, { success: false, errorMsg: 'no' }), refused, changed))).toBe('fail');
  expect(observedChange(changed)).toBe(true);
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.delete', reply(401, { success: false, errorMsg: 'no' }), refused, unchanged(got('created'), reply(404, { success: false, errorMsg: 'unknown' }))))).toBe('fail');
  // Members a read may recompute (updatedAt of the status) are not the state.
  const later = reply(200, { success: true, result: { trackNumber: 'T1', cost: 4, status: { code: 'created', updatedAt: '2027-03-01T10:00:05Z' } } });
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.delete', reply(403, { success: false, errorMsg: 'no' }), refused, unchanged(got('created'), later)))).toBe('pass');
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.delete', reply(200, { success: true }), refused, unchanged(got('created'), got('cancelled'))))).toBe('notApplicable');
  const still = (after: Reply): Observation => ({ kind: 'stillPossible', what: 'an authorised shipmentDelete', after });
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.shipmentDelete', reply(403, { success: false, errorMsg: 'no' }), refused, still(reply(200, { success: true }))))).toBe('pass');
  expect(await run(ensureRefusalLeftNoEffect, outcome('delivery.shipmentDelete', reply(403, { success: false, errorMsg: 'no' }), refused, still(reply(400, { success: false, errorMsg: 'already' }))))).toBe('notApplicable');
});

test('overSteps: fails on the first step that breaks the rule and names it; passes when a step exercised it; otherwise not applicable', async () => {
  const seq = (steps: CaseOutcome[]): CaseOutcome => ({ ...steps[0]!, steps });
  const check = overSteps(ensureLiveDeliveryIsServed);
  expect(await run(check, seq([outcome('delivery.get', got('created')), outcome('delivery.get', got('created'))]))).toBe('pass');
  const v = (await check.run(seq([outcome('delivery.get', got('created')), outcome('delivery.get', reply(404, { success: false, errorMsg: 'x' }))]))) as { outcome: string; received: string };
  expect(v.outcome).toBe('fail');
  expect(v.received).toMatch(/^step 2 of 2, get: /);
  expect(await run(check, seq([outcome('delivery.save', reply(200, { success: true, result: { deliveryId: 'D1' } }))]))).toBe('notApplicable');
});

/** A delivery module in memory: deliveries and shipments; `refusedActs`: a refused delete still cancels (the fault the probe catches). */
function memoryModule(options: { refusedActs?: boolean } = {}) {
  const deliveries = new Map<string, string>();
  const shipments = new Map<string, boolean>();
  const sent: string[] = [];
  let next = 0;
  const ok = (result?: unknown) => reply(200, { success: true, ...(result !== undefined ? { result } : {}) });
  const err = (status: number, msg: string) => reply(status, { success: false, errorMsg: msg });
  const driver: SequenceDriver = {
    clientId: 'good',
    unknownClientId: 'bad',
    module: {},
    profile: true,
    declares: () => true,
    async send(callback, payload, clientId) {
      const p = payload as Record<string, unknown>;
      sent.push(`${callback.split('.')[1]}${clientId === 'good' ? '' : '!'}`);
      if (clientId !== 'good') {
        if (options.refusedActs && callback === 'delivery.delete') deliveries.set(String(p.deliveryId), 'cancelled');
        return err(clientId === undefined ? 401 : 403, 'clientId');
      }
      switch (callback) {
        case 'delivery.save': {
          const id = typeof p.deliveryId === 'string' ? p.deliveryId : `D${++next}`;
          if (deliveries.get(id) === 'cancelled') return err(400, 'cancelled');
          deliveries.set(id, 'created');
          return ok({ deliveryId: id });
        }
        case 'delivery.get': {
          const s = deliveries.get(String(p.deliveryId));
          return s ? got(s) : err(404, 'unknown');
        }
        case 'delivery.delete': {
          if (deliveries.get(String(p.deliveryId)) !== 'created') return err(400, 'not live');
          deliveries.set(String(p.deliveryId), 'cancelled');
          return ok();
        }
        case 'delivery.shipmentSave': {
          const id = typeof p.shipmentId === 'string' ? p.shipmentId : `S${++next}`;
          shipments.set(id, true);
          return ok({ shipmentId: id, extraData: {} });
        }
        case 'delivery.shipmentDelete': {
          if (!shipments.get(String(p.shipmentId))) return err(400, 'not live');
          shipments.set(String(p.shipmentId), false);
          return ok();
        }
        default:
          return err(404, 'no such action');
      }
    },
  };
  return { driver, sent };
}

const save: Step = { op: 'save', request: { packages: [] } };
const sequence = (steps: Step[]) => ({ callback: 'delivery.save' as const, payload: { steps }, intent: { kind: 'sequence' as const } });

test('the model: a second delete and a get after delete are open; an edit is followed by a get; steps the model cannot run are skipped', async () => {
  const { driver, sent } = memoryModule();
  const o = await runSequence(driver, sequence([save, { op: 'edit', target: 0, request: {} }, { op: 'delete', target: 0 }, { op: 'delete', target: 0 }, { op: 'get', target: 0 }, { op: 'shipmentDelete', shipment: 0 }]), 't');
  expect(sent).toEqual(['save', 'save', 'get', 'delete', 'delete', 'get']);
  expect(o.steps!.map((s) => s.case.intent.kind)).toEqual(['valid', 'valid', 'valid', 'valid', 'open', 'open']);
  expect(o.reply).toBe(o.steps![5]!.reply);
});

test('the model: a refused delete is observed by get before and after; the fault that acts on it is seen, and the delivery leaves the model', async () => {
  const steps: Step[] = [save, { op: 'refusedDelete', target: 0, presented: 'unknown' }, { op: 'delete', target: 0 }];
  const good = memoryModule();
  const clean = await runSequence(good.driver, sequence(steps), 't');
  expect(good.sent).toEqual(['save', 'get', 'delete!', 'get', 'delete']);
  // The sequence's authorised delete was accepted: the refusal is credited (`acceptance.ts`).
  const record = new AcceptedCalls();
  for (const s of clean.steps!) if (s.case.intent.kind !== 'refused') record.note(s.case.callback, s.reply);
  expect(await run(overSteps(ensureRefusalLeftNoEffect), fillAcceptance(clean, record))).toBe('pass');
  const bad = memoryModule({ refusedActs: true });
  const faulty = await runSequence(bad.driver, sequence(steps), 't');
  expect(await run(overSteps(ensureRefusalLeftNoEffect), faulty)).toBe('fail');
  // The delete that follows is open: the refused call already changed the delivery.
  expect(faulty.steps![2]!.case.intent).toEqual({ kind: 'open', why: 'a delete of a delivery changed by a refused call' });
});

test('the model: a shipment of saved deliveries, edited with its shipmentId, deleted; a refused shipmentDelete is followed by an authorised one', async () => {
  const { driver, sent } = memoryModule();
  const o = await runSequence(
    driver,
    sequence([save, { op: 'shipmentSave', targets: [0], fields: { store: 'w1' }, packages: [{ weight: 1 }] }, { op: 'shipmentEdit', shipment: 0, fields: { store: 'w1' }, packages: [] }, { op: 'refusedShipmentDelete', shipment: 0, presented: 'missing' }, { op: 'shipmentDelete', shipment: 0 }]),
    't',
  );
  expect(sent).toEqual(['save', 'shipmentSave', 'shipmentSave', 'shipmentDelete!', 'shipmentDelete', 'shipmentDelete']);
  const edit = o.steps![2]!.case.payload as { shipmentId?: string; orders: Array<{ deliveryId: string }> };
  expect(edit.shipmentId).toBe('S2');
  expect(edit.orders.map((x) => x.deliveryId)).toEqual(['D1']);
  expect(o.steps!.map((s) => s.case.intent.kind)).toEqual(['valid', 'valid', 'valid', 'refused', 'valid', 'open']);
});

test('an action served at its method: any answer but 405 or 501 passes; 405 and 501 fail; no answer is the answered rule\'s', async () => {
  const { ensureActionServedAtItsMethod } = await import('../../src/checks/callbacks/method.ts');
  expect(await run(ensureActionServedAtItsMethod, outcome('delivery.tariffList', reply(200, { success: true, result: [] })))).toBe('pass');
  expect(await run(ensureActionServedAtItsMethod, outcome('delivery.get', reply(404, { success: false, errorMsg: 'unknown id' })))).toBe('pass');
  expect(await run(ensureActionServedAtItsMethod, outcome('delivery.tariffList', reply(405, { success: false, errorMsg: 'GET not allowed' })))).toBe('fail');
  expect(await run(ensureActionServedAtItsMethod, outcome('delivery.save', reply(501, { success: false, errorMsg: 'no' })))).toBe('fail');
  expect(await run(ensureActionServedAtItsMethod, outcome('delivery.save', reply(undefined)))).toBe('notApplicable');
});

test('the model: wrong input of delete and shipmentSave is sent with the field it breaks; a module that acts on it leaves the delivery out of the model', async () => {
  const { driver, sent } = memoryModule();
  const o = await runSequence(
    driver,
    sequence([save, { op: 'wrong', action: 'delete', kind: 0, n: 1, target: 0, fields: {}, packages: [] }, { op: 'wrong', action: 'shipmentSave', kind: 1, n: 1, target: 0, fields: { store: 'w1' }, packages: [{ weight: 1 }] }, { op: 'get', target: 0 }]),
    't',
  );
  expect(sent).toEqual(['save', 'delete', 'shipmentSave', 'get']);
  expect(o.steps![1]!.case.intent).toEqual({ kind: 'wrong', field: 'deliveryId', why: 'a delete without its deliveryId', source: 'wire profile section 2: delete "`{deliveryId}`"' });
  expect(o.steps![1]!.case.payload).toEqual({});
  expect(o.steps![2]!.case.intent).toMatchObject({ kind: 'wrong', field: 'orders' });
  expect((o.steps![2]!.case.payload as { orders: unknown }).orders).toBe('none');
  // The in-memory module saves any shipment (it acted on the wrong input): the delivery's state is no longer the model's.
  expect(o.steps![3]!.case.intent).toEqual({ kind: 'open', why: 'a get of a delivery changed by wrong input it acted on: an error, or the delivery shown cancelled' });
});

test('a sequence whose middle step fails: the result\'s curl line and first evidence are that step\'s, not the last step\'s (issue 31, item 9)', async () => {
  const log = new EvidenceLog();
  const session = { log, judged: new Set<string>(), registration: { code: 'm' }, config: { profile: true }, system: { calls: [], unsimulated: [] }, gateway: { calls: [], unknown: [] } } as unknown as RunSession;
  const sink: RecordSink = { spec: 'test', annotate: () => undefined, write: async () => undefined };
  const conformance = new Conformance(session, sink);
  const sendStep = (callback: CallbackName, path: string, form: string, json: unknown): CaseOutcome => {
    const exchange = log.record({ direction: 'system->module', label: callback, startedAt: new Date(), durationMs: 1, request: { method: 'POST', url: `http://127.0.0.1:9${path}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } });
    return { case: { callback, payload: { form }, intent: { kind: 'valid' } }, reply: { exchange, status: 200, headers: {}, body: Buffer.from(JSON.stringify(json)), json }, module: {}, profile: true };
  };
  const results = await runProperty(
    conformance,
    {
      name: 'delivery sequences',
      id: 'seq',
      arbitrary: fc.constant({ callback: 'delivery.save' as CallbackName, payload: { steps: [] }, intent: { kind: 'sequence' as const } }),
      checks: [{ check: overSteps(ensureShipmentSaveAnswersShipment), app: { requirements: ['WIRE-DLV-SHIPMENTSAVE-RESULT'], severity: 'MUST' } }],
      exec: async (c) => {
        // save, then a shipmentSave answered with an id of the wrong type (fails), then a delete: the last reply is the delete's.
        const steps = [
          sendStep('delivery.save', '/delivery/save', 'save=%7B%22order%22%3A%22A1%22%7D', { success: true, result: { deliveryId: 'D1' } }),
          sendStep('delivery.shipmentSave', '/delivery/shipment/save', 'shipmentSave=%7B%22orders%22%3A%5B%5D%7D', { success: true, result: { shipmentId: { id: 'S1' } } }),
          sendStep('delivery.delete', '/delivery/delete', 'delete=%7B%22deliveryId%22%3A%22D1%22%7D', { success: true }),
        ];
        return { case: c, reply: steps[2]!.reply, module: {}, profile: true, steps };
      },
    },
    { seed: 1, runs: 1, timeLimitMs: 10_000 },
  );
  const r = results[0]!;
  expect(r.status).toBe('failed');
  expect(r.message).toMatch(/step 2 of 3, shipmentSave/);
  expect(r.reproduce).toContain('/delivery/shipment/save');
  expect(r.reproduce).not.toContain('/delivery/delete');
  expect(log.get(r.evidence[0]!)!.request.url).toContain('/delivery/shipment/save');
});

test('the model: the edit of a save with a past delivery date is wrong input (its value carried); a past shipment date of an edit or a shipment is open, and a module that takes it keeps its delivery in the model', async () => {
  const { driver, sent } = memoryModule();
  const o = await runSequence(
    driver,
    sequence([
      save,
      save,
      { op: 'wrong', action: 'edit', kind: 1, n: 3, target: 0, fields: {}, packages: [], request: { delivery: { deliveryDate: '2031-01-05 10:00:00' } } },
      { op: 'wrong', action: 'shipmentSave', kind: 0, n: 3, target: 0, fields: { store: 'w1' }, packages: [{ weight: 1 }] },
      { op: 'wrong', action: 'edit', kind: 0, n: 3, target: 0, fields: {}, packages: [], request: { delivery: { shipmentDate: '2031-01-02 10:00:00' } } },
      { op: 'wrong', action: 'edit', kind: 0, n: 3, target: 0, fields: {}, packages: [], request: { delivery: {} } },
    ]),
    't',
  );
  // The open ones the in-memory module took leave the delivery live (the pickup saved puts the first in a shipment):
  // the wrong edit goes to the delivery outside any shipment; with none left, no wrong edit runs.
  expect(sent).toEqual(['save', 'save', 'save', 'shipmentSave', 'save']);
  expect(o.steps![2]!.case.intent).toMatchObject({ kind: 'open' });
  expect((o.steps![2]!.case.payload as { delivery: Record<string, unknown> }).delivery).toEqual({ shipmentDate: '2020-04-04 10:00:00' });
  expect(o.steps![3]!.case.intent).toMatchObject({ kind: 'open' });
  expect((o.steps![3]!.case.payload as { date: string }).date).toBe('2020-04-04 09:00:00');
  expect((o.steps![3]!.case.payload as { orders: Array<{ deliveryId: string }> }).orders[0]!.deliveryId).toBe((o.steps![2]!.case.payload as { deliveryId: string }).deliveryId);
  const edit = o.steps![4]!;
  expect(edit.case.payload).toMatchObject({ deliveryId: (o.steps![1]!.reply.json as { result: { deliveryId: string } }).result.deliveryId });
  expect(edit.case.intent).toMatchObject({ kind: 'wrong', field: 'deliveryDate', value: '2020-04-04 12:00:00', source: expect.stringContaining('Errors 7') });
  expect(edit.case.payload).toMatchObject({ deliveryId: expect.any(String), delivery: { deliveryDate: '2020-04-04 12:00:00', shipmentDate: '2031-01-02 10:00:00' } });
});
