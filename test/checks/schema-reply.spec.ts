/** The schema reply rule factory on canned replies: what it passes, fails, leaves not applicable, and the region of errors it keeps. */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import { notApplicable, pass, fail } from '../../src/checks/check.ts';
import { defineSchemaReplyCheck, inRegion } from '../../src/checks/callbacks/schema-reply.ts';

function reply(status: number | undefined, json?: unknown): Reply {
  return { exchange: { id: 'x1' } as Exchange, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json) ?? 'oops'), ...(status !== undefined ? { status, ...(json !== undefined ? { json } : { jsonError: 'Unexpected token' }) } : { error: 'timeout' }) };
}
const outcome = (r: Reply, profile = true): CaseOutcome => ({ case: { callback: 'delivery.calculate', payload: {}, intent: { kind: 'valid' } }, reply: r, module: {}, profile });
const tariff = (over: Record<string, unknown> = {}) => ({ code: 'std', name: 'Standard', type: 'courier', cost: 5.4, description: 'two days', ...over });

/** The whole reply's schema, a success only. */
const whole = defineSchemaReplyCheck({
  name: 'ensureSchemaReplyFactoryWhole',
  checks: 'a canned rule over the whole calculate reply',
  schema: 'delivery/calculate.reply.json',
  expected: '{"success": true, "result": [tariffs]}',
  holds: (o, evidence) => pass('held', evidence),
});

const COST = /^\/result\/\d+\/cost(\/|$)/;
/** The cost region, and everything but it. */
const costOnly = defineSchemaReplyCheck({
  name: 'ensureSchemaReplyFactoryCostOnly',
  checks: 'a canned rule over the cost of each tariff',
  schema: 'delivery/calculate.reply.json',
  region: { only: COST },
  failure: (o, errors, evidence) => fail(`errors at ${errors.map((e) => e.instancePath).join(', ')}`, 'a number', evidence),
  holds: (o, evidence) => pass('costs held', evidence),
});
const allButCost = defineSchemaReplyCheck({
  name: 'ensureSchemaReplyFactoryAllButCost',
  checks: 'a canned rule over the calculate reply but the costs',
  schema: 'delivery/calculate.reply.json',
  region: { except: [COST] },
  expected: 'the rest',
  holds: (o, evidence) => pass('the rest held', evidence),
});

test('a reply of the schema passes with what holds says; one that breaks it fails naming the errors, with the reply as received', async () => {
  expect(await whole.run(outcome(reply(200, { success: true, result: [tariff()] })))).toEqual({ outcome: 'pass', detail: 'held', evidence: ['x1'] });
  const v = await whole.run(outcome(reply(200, { success: true, result: [{ name: 'no code' }] })));
  expect(v.outcome).toBe('fail');
  expect(v.received).toBe('HTTP 200 (application/json) {"success":true,"result":[{"name":"no code"}]}');
  expect(v.expected).toMatch(/^\{"success": true, "result": \[tariffs\]\} \(\/result\/0 required: must have required property 'code'/);
  expect(v.evidence).toEqual(['x1']);
});

test('by default a reply that is not a success is not applicable, whatever its body', async () => {
  for (const r of [reply(200, { success: false, errorMsg: 'no' }), reply(500, { success: true }), reply(200), reply(undefined)]) {
    const v = await whole.run(outcome(r));
    expect(v.outcome).toBe('notApplicable');
    expect(v.detail).toMatch(/^the module did not answer success \(/);
  }
});

test('a region keeps the errors it owns: the cost rule fails on a text cost, the rest passes it; a missing code is the other way round', async () => {
  const textCost = outcome(reply(200, { success: true, result: [tariff({ cost: 'free' })] }));
  expect(await costOnly.run(textCost)).toEqual({ outcome: 'fail', received: 'errors at /result/0/cost', expected: 'a number', evidence: ['x1'] });
  expect((await allButCost.run(textCost)).outcome).toBe('pass');
  const noCode = outcome(reply(200, { success: true, result: [{ name: 'x', cost: 3 }] }));
  expect((await costOnly.run(noCode)).outcome).toBe('pass');
  expect((await allButCost.run(noCode)).outcome).toBe('fail');
  const errors = [{ instancePath: '/result/0/cost' }, { instancePath: '/result/0' }, { instancePath: '/result/1/costs' }] as never[];
  expect(inRegion(errors, { only: COST })).toEqual([errors[0]]);
  expect(inRegion(errors, { except: [COST] })).toEqual([errors[1], errors[2]]);
  expect(inRegion(errors, undefined)).toEqual(errors);
});

test('the order of the tests: when, answer, notJson, before, the schema, holds; mustSucceed fails a reply that is not a success', async () => {
  const seen: string[] = [];
  const ordered = defineSchemaReplyCheck({
    name: 'ensureSchemaReplyFactoryOrder',
    checks: 'a canned rule with every test',
    schema: 'common/success-reply.json',
    when: (o) => (seen.push('when'), o.case.intent.kind !== 'valid' ? notApplicable('not valid') : undefined),
    answer: 'mustSucceed',
    notJson: (o, evidence) => (seen.push('notJson'), fail('not JSON', 'JSON', evidence)),
    before: (o) => (seen.push('before'), (o.reply.json as { stop?: boolean }).stop ? notApplicable('stopped') : undefined),
    received: () => 'the reply',
    expected: '{"success": true}',
    holds: (o, evidence) => (seen.push('holds'), pass('acknowledged', evidence)),
  });
  expect((await ordered.run({ ...outcome(reply(200, { success: true })), case: { callback: 'delivery.delete', payload: {}, intent: { kind: 'open', why: 'x' } } })).detail).toBe('not valid');
  expect(await ordered.run(outcome(reply(404, { success: false })))).toEqual({ outcome: 'fail', received: 'the reply', expected: '{"success": true}', evidence: ['x1'] });
  expect(await ordered.run(outcome(reply(undefined)))).toEqual({ outcome: 'fail', received: 'the reply', expected: '{"success": true}', evidence: ['x1'] });
  expect((await ordered.run(outcome(reply(200)))).received).toBe('not JSON');
  expect((await ordered.run(outcome(reply(200, { success: true, stop: true })))).detail).toBe('stopped');
  // A 2xx that breaks the schema names its errors; one of the schema that claims no success fails without them.
  expect((await ordered.run(outcome(reply(200, { success: 'yes' })))).expected).toMatch(/^\{"success": true\} \(\/success /);
  seen.length = 0;
  expect((await ordered.run(outcome(reply(200, { success: true })))).outcome).toBe('pass');
  expect(seen).toEqual(['when', 'before', 'holds']);
});

test('a subject that is a bare reply says how it is read; without a profile the contract\'s default view (the profile) judges it', async () => {
  const bare = defineSchemaReplyCheck<Reply>({
    name: 'ensureSchemaReplyFactoryBare',
    checks: 'a canned rule over a bare reply',
    schema: 'common/success-reply.json',
    read: (r) => ({ reply: r }),
    answer: (r) => (r.status !== 200 ? fail('status', 'HTTP 200', [r.exchange.id]) : undefined),
    expected: '{"success": true}',
    holds: (r, evidence) => pass('ok', evidence),
  });
  expect((await bare.run(reply(200, { success: true }))).outcome).toBe('pass');
  expect((await bare.run(reply(201, { success: true }))).received).toBe('status');
  expect((await bare.run(reply(200, { success: false }))).outcome).toBe('fail');
});

test('a rule that says neither what a failure expected nor its own failure is refused at definition', () => {
  expect(() => defineSchemaReplyCheck({ name: 'ensureSchemaReplyFactoryIncomplete', checks: 'x', schema: 'common/success-reply.json', holds: () => pass() })).toThrow(/expected or failure/);
});
