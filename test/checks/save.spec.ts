/** The save, get and delete rules on canned replies: what each passes, fails and leaves to another rule. */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { CaseOutcome, CaseIntent } from '../../src/checks/case.ts';
import { deliveryIdOf, ensureSaveReturnsDeliveryId } from '../../src/checks/delivery/save-reply.ts';
import { ensureDeleteAcknowledged, ensureGetAnswersDelivery, ensureGetDatesAreYmd, ensureGetStatusUpdatedAtIsIso8601, ensureUnknownDeliveryIdIsRefused } from '../../src/checks/delivery/get-reply.ts';
import { tariffsOfAnswer } from '../../src/generators/delivery/save.ts';

function outcome(callback: CallbackName, status: number | undefined, json: unknown, intent: CaseIntent = { kind: 'valid' }): CaseOutcome {
  const reply: Reply = { exchange: { id: 'x1' } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ''), ...(status !== undefined ? { status, json } : { error: 'timeout' }) };
  return { case: { callback, payload: { deliveryId: 'D1' }, intent }, reply, module: {}, profile: true };
}
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => ((await check.run(o)) as { outcome: string }).outcome;
const unknownIntent: CaseIntent = { kind: 'wrong', field: 'deliveryId', why: 'a deliveryId the module never gave' };
const delivery = (over: Record<string, unknown> = {}) => ({ trackNumber: 'T1', cost: 4.5, shipmentDate: '2027-03-05', deliveryDate: '2027-03-07', status: { code: 'created', updatedAt: '2027-03-01T10:00:00.000Z', comment: 'ok' }, extraData: {}, ...over });

test('save: a deliveryId passes (string or number); none, an empty one or a result of the wrong shape fails; an error is not its to judge', async () => {
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true, result: { deliveryId: 'D1', trackNumber: 'T1', cost: 3, status: 'created' } }))).toBe('pass');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true, result: { deliveryId: 7 } }))).toBe('pass');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true, result: { trackNumber: 'T1' } }))).toBe('fail');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true, result: { deliveryId: '' } }))).toBe('fail');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true }))).toBe('fail');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 200, { success: true, result: { deliveryId: 'D1', cost: '3' } }))).toBe('fail');
  expect(await run(ensureSaveReturnsDeliveryId, outcome('delivery.save', 400, { success: false, errorMsg: 'weight' }))).toBe('notApplicable');
  expect(deliveryIdOf({ success: true, result: { deliveryId: 12 } })).toBe('12');
  expect(deliveryIdOf({ success: true, result: {} })).toBeUndefined();
});

test('get: the shape rule leaves the dates to the date rule and updatedAt to its rule; updatedAt must be ISO 8601, and is not applicable when absent', async () => {
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.get', 200, { success: true, result: delivery() }))).toBe('pass');
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.get', 200, { success: true, result: delivery({ shipmentDate: '05.03.2027' }) }))).toBe('pass');
  const ymdTime = outcome('delivery.get', 200, { success: true, result: delivery({ status: { code: 'created', updatedAt: '2027-03-01 10:00:00' } }) });
  expect(await run(ensureGetAnswersDelivery, ymdTime)).toBe('pass');
  expect(await run(ensureGetStatusUpdatedAtIsIso8601, ymdTime)).toBe('fail');
  expect(await run(ensureGetStatusUpdatedAtIsIso8601, outcome('delivery.get', 200, { success: true, result: delivery() }))).toBe('pass');
  expect(await run(ensureGetStatusUpdatedAtIsIso8601, outcome('delivery.get', 200, { success: true, result: delivery({ status: { code: 'created' } }) }))).toBe('notApplicable');
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.get', 200, { success: true, result: delivery({ cost: 'free' }) }))).toBe('fail');
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.get', 200, { success: true }))).toBe('fail');
  // A save that gave no id leaves get unexercised.
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.save', 200, { success: true, result: {} }))).toBe('notApplicable');
  expect(await run(ensureGetAnswersDelivery, outcome('delivery.get', 404, { success: false, errorMsg: 'unknown' }))).toBe('notApplicable');
});

test('get: dates Y-m-d (a time part accepted), anything else fails, no date is not applicable', async () => {
  expect(await run(ensureGetDatesAreYmd, outcome('delivery.get', 200, { success: true, result: delivery() }))).toBe('pass');
  expect(await run(ensureGetDatesAreYmd, outcome('delivery.get', 200, { success: true, result: delivery({ deliveryDate: '2027-03-07 12:00:00' }) }))).toBe('pass');
  expect(await run(ensureGetDatesAreYmd, outcome('delivery.get', 200, { success: true, result: delivery({ shipmentDate: '05.03.2027' }) }))).toBe('fail');
  expect(await run(ensureGetDatesAreYmd, outcome('delivery.get', 200, { success: true, result: delivery({ deliveryDate: '2027-03-07T12:00:00Z' }) }))).toBe('fail');
  expect(await run(ensureGetDatesAreYmd, outcome('delivery.get', 200, { success: true, result: { trackNumber: 'T1' } }))).toBe('notApplicable');
});

test('get of an unknown id: an error passes; a success, a 5xx or no answer fails', async () => {
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', 404, { success: false, errorMsg: 'unknown deliveryId' }, unknownIntent))).toBe('pass');
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', 200, { success: false, errorMsg: 'unknown deliveryId' }, unknownIntent))).toBe('pass');
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', 200, { success: true, result: {} }, unknownIntent))).toBe('fail');
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', 500, { success: false, errorMsg: 'boom' }, unknownIntent))).toBe('fail');
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', undefined, undefined, unknownIntent))).toBe('fail');
  expect(await run(ensureUnknownDeliveryIdIsRefused, outcome('delivery.get', 200, { success: true, result: {} }))).toBe('notApplicable');
});

test('delete: {success: true} passes; an error, a refusal or a body without success fails', async () => {
  expect(await run(ensureDeleteAcknowledged, outcome('delivery.delete', 200, { success: true }))).toBe('pass');
  expect(await run(ensureDeleteAcknowledged, outcome('delivery.delete', 400, { success: false, errorMsg: 'cannot be cancelled' }))).toBe('fail');
  expect(await run(ensureDeleteAcknowledged, outcome('delivery.delete', 200, { deleted: true }))).toBe('fail');
  expect(await run(ensureDeleteAcknowledged, outcome('delivery.delete', undefined, undefined))).toBe('fail');
  expect(await run(ensureDeleteAcknowledged, outcome('delivery.save', 200, { success: true, result: {} }))).toBe('notApplicable');
});

test('tariff codes come from the module\'s answer only: pickup tariffs only with a point code', () => {
  const answer = { success: true, result: [{ code: 'std', type: 'courier' }, { code: 'pp', type: 'selfDelivery', pickuppointList: [{ code: 'T-1' }] }, { code: 'pp2', type: 'selfDelivery' }, { name: 'no code' }] };
  expect(tariffsOfAnswer(answer)).toEqual([{ code: 'std', type: 'courier', terminals: [] }, { code: 'pp', type: 'selfDelivery', terminals: ['T-1'] }]);
  expect(tariffsOfAnswer({ success: false, errorMsg: 'x' })).toEqual([]);
});

test('vatRate none: accepted passes; refused naming the VAT rate fails; refused for another reason, no none in the request, or wrong input is not its to judge', async () => {
  const { ensureVatRateNoneIsAccepted, vatNonePaths } = await import('../../src/checks/delivery/vat-rate.ts');
  const withNone = (status: number, json: unknown, intent: CaseIntent = { kind: 'valid' }, vat = 'none'): CaseOutcome => ({ ...outcome('delivery.save', status, json, intent), case: { callback: 'delivery.save', payload: { delivery: { vatRate: vat }, packages: [{ items: [{ vatRate: '20' }] }] }, intent } });
  expect(await run(ensureVatRateNoneIsAccepted, withNone(200, { success: true, result: { deliveryId: 'D1' } }))).toBe('pass');
  expect(await run(ensureVatRateNoneIsAccepted, withNone(400, { success: false, errorMsg: 'delivery.vatRate must be a number' }))).toBe('fail');
  expect(await run(ensureVatRateNoneIsAccepted, withNone(400, { success: false, errorMsg: 'city is not served' }))).toBe('notApplicable');
  expect(await run(ensureVatRateNoneIsAccepted, withNone(400, { success: false, errorMsg: 'VAT unknown' }, { kind: 'valid' }, '20'))).toBe('notApplicable');
  expect(await run(ensureVatRateNoneIsAccepted, withNone(400, { success: false, errorMsg: 'weight' }, unknownIntent))).toBe('notApplicable');
  expect(vatNonePaths({ packages: [{ items: [{ vatRate: '10' }, { vatRate: 'none' }] }] })).toEqual(['packages[0].items[1].vatRate']);
});
