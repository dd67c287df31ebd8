/** The calculate rules on canned replies: what each passes, fails and leaves to another rule. */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome, CaseIntent } from '../../src/checks/case.ts';
import {
  ensureCalculateAnswersTariffList,
  ensureExtraDataAvailableAreDeclaredFields,
  ensureTariffCostIsNumberOrAbsent,
  ensureTariffTypeIsKnown,
} from '../../src/checks/delivery/calculate-reply.ts';
import { ensureErrorNamesTheIncorrectField, ensureWrongInputIsRefused } from '../../src/checks/delivery/wrong-input.ts';

const MODULE = { integrations: { delivery: { deliveryDataFieldList: [{ code: 'insurance' }, { code: 'places' }] } } };

function outcome(status: number | undefined, json: unknown, intent: CaseIntent = { kind: 'valid' }): CaseOutcome {
  const reply: Reply = { exchange: { id: 'x1' } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? ""), ...(status !== undefined ? { status, json } : { error: 'timeout' }) };
  return { case: { callback: 'delivery.calculate', payload: {}, intent }, reply, module: MODULE, profile: true };
}

const tariff = (over: Record<string, unknown> = {}) => ({ code: 'std', name: 'Standard', type: 'courier', cost: 5.4, description: 'two days', minTerm: 1, maxTerm: 2, extraDataAvailable: ['insurance'], ...over });
const ok = (tariffs: unknown, extra: Record<string, unknown> = {}) => outcome(200, { success: true, result: tariffs, ...extra });
const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => (await check.run(o)) as { outcome: string; received?: string };

test('a tariff list passes every rule; an empty list passes the list rule and leaves the tariff rules not applicable', async () => {
  for (const check of [ensureCalculateAnswersTariffList, ensureTariffTypeIsKnown, ensureTariffCostIsNumberOrAbsent, ensureExtraDataAvailableAreDeclaredFields]) expect((await run(check, ok([tariff()]))).outcome).toBe('pass');
  expect((await run(ensureCalculateAnswersTariffList, ok([]))).outcome).toBe('pass');
  expect((await run(ensureTariffTypeIsKnown, ok([]))).outcome).toBe('notApplicable');
  expect((await run(ensureTariffCostIsNumberOrAbsent, ok([]))).outcome).toBe('notApplicable');
});

test('the list rule: result not an array, or a tariff member of the wrong type, fails; unknown members do not', async () => {
  expect((await run(ensureCalculateAnswersTariffList, ok({ tariffs: [tariff()] }))).outcome).toBe('fail');
  expect((await run(ensureCalculateAnswersTariffList, ok([tariff({ code: 5 })]))).outcome).toBe('fail');
  expect((await run(ensureCalculateAnswersTariffList, ok([tariff({ carrierNote: 'x' })]))).outcome).toBe('pass');
  // The type, cost and description are the other rules': one cause, one failure.
  expect((await run(ensureCalculateAnswersTariffList, ok([tariff({ type: 'express', cost: '5' })]))).outcome).toBe('pass');
});

test('the type rule; the cost rule (absent and null are no cost: shown, not chosen)', async () => {
  expect((await run(ensureTariffTypeIsKnown, ok([tariff({ type: 'express' })]))).outcome).toBe('fail');
  expect((await run(ensureTariffTypeIsKnown, ok([tariff({ type: 'selfDelivery' })]))).outcome).toBe('pass');
  expect((await run(ensureTariffTypeIsKnown, ok([{ code: 'a' }]))).outcome).toBe('notApplicable');
  expect((await run(ensureTariffCostIsNumberOrAbsent, ok([tariff({ cost: '5.40' })]))).outcome).toBe('fail');
  expect((await run(ensureTariffCostIsNumberOrAbsent, ok([tariff({ cost: undefined }), tariff({ cost: null })]))).outcome).toBe('pass');
  expect((await run(ensureTariffCostIsNumberOrAbsent, ok([tariff({ description: 7 })]))).outcome).toBe('fail');
});

test('extraDataAvailable: codes of the registration\'s data fields, at the reply and per tariff', async () => {
  expect((await run(ensureExtraDataAvailableAreDeclaredFields, ok([tariff({ extraDataAvailable: ['giftWrap'] })]))).outcome).toBe('fail');
  expect((await run(ensureExtraDataAvailableAreDeclaredFields, ok([tariff({ extraDataAvailable: [] })], { extraDataAvailable: ['places'] }))).outcome).toBe('pass');
  expect((await run(ensureExtraDataAvailableAreDeclaredFields, ok([tariff({ extraDataAvailable: [] })], { extraDataAvailable: ['nope'] }))).received).toContain('"nope"');
  expect((await run(ensureExtraDataAvailableAreDeclaredFields, ok([tariff({ extraDataAvailable: undefined })]))).outcome).toBe('notApplicable');
});

test('the reply rules judge success answers only: an error answer is the error rules\'', async () => {
  const error = outcome(400, { success: false, errorMsg: 'weight must be above zero' });
  for (const check of [ensureCalculateAnswersTariffList, ensureTariffTypeIsKnown, ensureTariffCostIsNumberOrAbsent, ensureExtraDataAvailableAreDeclaredFields]) expect((await run(check, error)).outcome).toBe('notApplicable');
});

const wrong: CaseIntent = { kind: 'wrong', field: 'weight', why: 'a zero weight' };

test('wrong input: refused passes; success or a 5xx fails; no answer and a valid request are other rules\' business', async () => {
  expect((await run(ensureWrongInputIsRefused, outcome(400, { success: false, errorMsg: 'packages[0].weight must be above 0' }, wrong))).outcome).toBe('pass');
  expect((await run(ensureWrongInputIsRefused, outcome(200, { success: false, errorMsg: 'x' }, wrong))).outcome).toBe('pass');
  expect((await run(ensureWrongInputIsRefused, outcome(200, { success: true, result: [] }, wrong))).outcome).toBe('fail');
  expect((await run(ensureWrongInputIsRefused, outcome(500, { success: false, errorMsg: 'x' }, wrong))).outcome).toBe('fail');
  // No answer at all is the answered rule's failure, not this one's.
  expect((await run(ensureWrongInputIsRefused, outcome(undefined, undefined, wrong))).outcome).toBe('notApplicable');
  expect((await run(ensureWrongInputIsRefused, outcome(200, { success: true, result: [] }))).outcome).toBe('notApplicable');
});

test('the message names the field, however it is written; a message naming another field fails', async () => {
  const named = async (msg: unknown, intent: CaseIntent = wrong) => (await run(ensureErrorNamesTheIncorrectField, outcome(400, { success: false, errorMsg: msg }, intent))).outcome;
  expect(await named('packages[0].weight must be greater than 0')).toBe('pass');
  expect(await named('Weight: must be positive')).toBe('pass');
  expect(await named('invalid request')).toBe('fail');
  expect(await named('shipment date is in the past', { kind: 'wrong', field: 'shipmentDate', why: 'past' })).toBe('pass');
  expect(await named({ code: 1 })).toBe('notApplicable');
  expect(await named('bad JSON', { kind: 'wrong', field: 'calculate', why: 'not JSON' })).toBe('notApplicable');
});

test('a callback is answered: a complete reply passes, a timeout or a reset fails', async () => {
  const { ensureCallbackIsAnswered } = await import('../../src/checks/callbacks/answered.ts');
  expect((await ensureCallbackIsAnswered.run(outcome(400, { success: false, errorMsg: 'x' }).reply)).outcome).toBe('pass');
  expect((await ensureCallbackIsAnswered.run(outcome(undefined, undefined).reply)).outcome).toBe('fail');
});
