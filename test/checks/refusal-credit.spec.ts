/**
 * A refusal counts only when acceptance was shown (issue 31, item 4): every refusal check of the
 * suite (a callback, a sequence's refused step, a webhook, a record URL), on canned outcomes.
 * A probe with a missing or unknown clientId that was refused is credited (pass) only when the
 * same call with the right clientId was accepted in the run (`CaseOutcome.accepted`, filled from
 * the session's record of accepted authorised calls); without one it is not applicable and says
 * why. A probe the module acted on fails either way: acceptance is what a pass needs, not a failure.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { CaseOutcome, Observation } from '../../src/checks/case.ts';
import type { Check, Verdict } from '../../src/checks/check.ts';
import { ensureRefusedCallbackHasNoEffect, ensureRefusalUses401Or403 } from '../../src/checks/callbacks/refusal.ts';
import { ensureRefusalLeftNoEffect } from '../../src/checks/callbacks/refusal-effect.ts';
import { AcceptedCalls, acceptedAnswer, answeredAsDone, fillAcceptance } from '../../src/checks/callbacks/acceptance.ts';
import { ensureRefusedWebhookLeftNoEffect, ensureWebhookWithoutClientIdRefused, type WebhookOutcome } from '../../src/checks/chat/webhooks.ts';
import { ensureRefusedRecordGivesNoAudio } from '../../src/checks/telephony/record.ts';

let n = 0;
function reply(status: number | undefined, json?: unknown, contentType = 'application/json', raw?: Buffer): Reply {
  const id = `x${++n}`;
  return {
    exchange: { id } as Exchange,
    headers: { 'content-type': contentType },
    body: raw ?? Buffer.from(JSON.stringify(json) ?? ''),
    ...(status !== undefined ? { status, ...(json !== undefined ? { json } : {}) } : { error: 'timeout' }),
  };
}
const refused = (callback: CallbackName, r: Reply, extra: Partial<WebhookOutcome> = {}): WebhookOutcome => ({
  case: { callback, payload: {}, intent: { kind: 'refused', clientId: 'unknown' } },
  reply: r,
  module: {},
  profile: true,
  ...extra,
});
const run = async (check: Check<CaseOutcome>, o: CaseOutcome): Promise<Verdict> => check.run(o);
const REFUSAL = () => reply(403, { success: false, errorMsg: 'clientId is unknown' });

const cases: Array<{ title: string; check: Check<CaseOutcome>; outcome: () => WebhookOutcome }> = [
  { title: 'a callback (tariffList)', check: ensureRefusedCallbackHasNoEffect, outcome: () => refused('delivery.tariffList', REFUSAL()) },
  { title: 'a callback refused with 401 or 403', check: ensureRefusalUses401Or403, outcome: () => refused('activity', REFUSAL()) },
  {
    title: 'a sequence step (delete, observed)',
    check: ensureRefusalLeftNoEffect,
    outcome: () => refused('delivery.delete', REFUSAL(), { observation: { kind: 'stillPossible', what: 'an authorised delete of D1', after: reply(200, { success: true }) } satisfies Observation }),
  },
  { title: 'a webhook (ClientId)', check: ensureWebhookWithoutClientIdRefused, outcome: () => refused('transport.template_create', reply(403, { errors: ['no'] }), { webhook: { type: 'template_create', channelId: 1 } }) },
  {
    title: 'a webhook, no effect seen',
    check: ensureRefusedWebhookLeftNoEffect,
    outcome: () => refused('transport.template_create', reply(403, { errors: ['no'] }), { webhook: { type: 'template_create', channelId: 1, effects: [] } }),
  },
  { title: 'a record URL', check: ensureRefusedRecordGivesNoAudio, outcome: () => refused('telephony.record', reply(403, { success: false, errorMsg: 'no' })) },
];

for (const c of cases) {
  test(`${c.title}: a refusal without an accepted authorised call is not applicable, and says why; with one it passes`, async () => {
    const without = await run(c.check, c.outcome());
    expect(without.outcome).toBe('notApplicable');
    expect(without.detail).toMatch(/with the right clientId was accepted in the run: a refusal proves nothing/);
    const withIt = await run(c.check, { ...c.outcome(), accepted: 'x0' });
    expect(withIt.outcome).toBe('pass');
    expect(withIt.evidence).toContain('x0');
  });
}

test('a probe the module acted on fails whether or not an authorised call was accepted', async () => {
  const acted = refused('delivery.tariffList', reply(200, { success: true, result: [] }));
  expect((await run(ensureRefusedCallbackHasNoEffect, acted)).outcome).toBe('fail');
  expect((await run(ensureRefusedCallbackHasNoEffect, { ...acted, accepted: 'x0' })).outcome).toBe('fail');
  const webhook = refused('transport.message_sent', reply(200, { external_message_id: 'm1' }), { webhook: { type: 'message_sent', channelId: 1 } });
  expect((await run(ensureWebhookWithoutClientIdRefused, webhook)).outcome).toBe('fail');
});

test('answered as done, by the reply form of the callback table: JSON success, a print document, makeCall 200; changeUserStatus cannot tell', () => {
  expect(answeredAsDone('delivery.tariffList', reply(200, { success: true, result: [] }))).toBe(true);
  expect(answeredAsDone('delivery.tariffList', reply(403, { success: false, errorMsg: 'no' }))).toBe(false);
  expect(answeredAsDone('delivery.print', reply(200, undefined, 'application/pdf', Buffer.from('%PDF-1.4')))).toBe(true);
  expect(answeredAsDone('delivery.print', reply(400, { success: false, errorMsg: 'no' }))).toBe(false);
  expect(answeredAsDone('telephony.makeCall', reply(200, undefined, 'text/plain', Buffer.from('')))).toBe(true);
  expect(answeredAsDone('telephony.makeCall', reply(201, { success: true }))).toBe(false);
  expect(answeredAsDone('telephony.changeUserStatus', reply(200, { success: true }))).toBeUndefined();
  expect(answeredAsDone('transport.message_sent', reply(200, { external_message_id: 'm1' }))).toBe(true);
  expect(answeredAsDone('transport.message_sent', reply(200, { error: { code: 'general', message: 'x' } }))).toBe(false);
  // Accepted: an authorised call answered as done; changeUserStatus (status ignored) by a 2xx.
  expect(acceptedAnswer('telephony.changeUserStatus', reply(204, undefined, 'text/plain', Buffer.from('')))).toBe(true);
  expect(acceptedAnswer('telephony.changeUserStatus', reply(403, { success: false, errorMsg: 'no' }))).toBe(false);
  expect(acceptedAnswer('telephony.record', reply(200, undefined, 'audio/wav', Buffer.from('RIFF')))).toBe(true);
});

test('the record of accepted authorised calls: the first accepted call per callback, read into the refused outcomes and steps of a case', async () => {
  const record = new AcceptedCalls();
  record.note('delivery.tariffList', reply(403, { success: false, errorMsg: 'no' }));
  expect(record.of('delivery.tariffList')).toBeUndefined();
  const ok = reply(200, { success: true, result: [] });
  record.note('delivery.tariffList', ok);
  record.note('delivery.tariffList', reply(200, { success: true, result: [] }));
  expect(record.of('delivery.tariffList')).toBe(ok.exchange.id);
  const step = refused('delivery.tariffList', REFUSAL());
  const other = refused('delivery.get', REFUSAL());
  const o: CaseOutcome = { ...refused('delivery.tariffList', REFUSAL()), steps: [step, other] };
  fillAcceptance(o, record);
  expect(o.accepted).toBe(ok.exchange.id);
  expect(o.steps![0]!.accepted).toBe(ok.exchange.id);
  expect(o.steps![1]!.accepted).toBeUndefined();
  // A probe that asked the same request again, not accepted (null): the record does not stand in for it.
  const again: CaseOutcome = { ...refused('delivery.tariffList', REFUSAL()), accepted: null };
  fillAcceptance(again, record);
  expect(again.accepted).toBeNull();
  const v = await run(ensureRefusedCallbackHasNoEffect, again);
  expect([v.outcome, v.detail]).toEqual(['notApplicable', expect.stringMatching(/the same tariffList with the right clientId was not accepted either: a refusal proves nothing/)]);
});
