/**
 * The webhook checks on canned replies (src/checks/chat/webhooks.ts): template_create's {code}
 * (an extra verification_status accepted), codes unique within the channel (a copy of the same
 * name may share its code), acknowledgements, message_sent's reply forms (the official client's
 * `async` and error forms), and the ClientId probe: refused (4xx with any body, or 200 with an
 * error body) and no effect seen.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import {
  ensureMessageSentAnswersReply,
  ensureMessageSentErrorCodeKnown,
  ensureMessageWebhookAcknowledged,
  ensureRefusedWebhookLeftNoEffect,
  ensureTemplateCodeUniqueInChannel,
  ensureTemplateCreateAnswersCode,
  ensureTemplateDeleteAcknowledged,
  ensureWebhookWithoutClientIdRefused,
  type WebhookOutcome,
  type WebhookStepInfo,
} from '../../src/checks/chat/webhooks.ts';

const reply = (status: number | undefined, json?: unknown): Reply => ({
  exchange: { id: 'x1' } as Exchange,
  ...(status !== undefined ? { status } : { error: 'connection reset' }),
  headers: {},
  body: Buffer.from(json === undefined ? '' : JSON.stringify(json)),
  ...(json !== undefined ? { json } : {}),
});
const step = (type: string, r: Reply, extra: Partial<WebhookStepInfo> = {}, refused?: 'missing' | 'unknown'): WebhookOutcome => ({
  case: { callback: `transport.${type}` as never, payload: {}, intent: refused ? { kind: 'refused', clientId: refused } : { kind: 'valid' } },
  reply: r,
  module: {},
  profile: true,
  webhook: { type, channelId: 1, ...extra },
  // A probe: an authorised webhook of its type was accepted in the run (a refusal's credit rests on it).
  ...(refused ? { accepted: 'x0' } : {}),
});
const outcome = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => ((await check.run(o)) as { outcome: string }).outcome;

test('template_create: {code} a non-empty string, verification_status extra accepted; anything else fails', async () => {
  expect(await outcome(ensureTemplateCreateAnswersCode, step('template_create', reply(200, { code: 'tpl_1' })))).toBe('pass');
  expect(await outcome(ensureTemplateCreateAnswersCode, step('template_create', reply(200, { code: 'tpl_1', verification_status: 'pending' })))).toBe('pass');
  expect(await outcome(ensureTemplateCreateAnswersCode, step('template_create', reply(201, { code: 'x' })))).toBe('pass');
  for (const bad of [reply(200, {}), reply(200, { code: '' }), reply(200, { code: 17 }), reply(500, { code: 'a' }), reply(400, { errors: ['no'] }), reply(undefined)]) {
    expect(await outcome(ensureTemplateCreateAnswersCode, step('template_create', bad))).toBe('fail');
  }
  expect(await outcome(ensureTemplateCreateAnswersCode, step('template_update', reply(200, {})))).toBe('notApplicable');
  expect(await outcome(ensureTemplateCreateAnswersCode, step('template_create', reply(403, {}), {}, 'missing'))).toBe('notApplicable');
});

test('template codes: unique within the channel among live templates of other names', async () => {
  const earlier = [{ code: 'a', name: 'welcome' }];
  const batch = true;
  expect(await outcome(ensureTemplateCodeUniqueInChannel, step('template_create', reply(200, { code: 'b' }), { name: 'promo', earlier, batch }))).toBe('pass');
  expect(await outcome(ensureTemplateCodeUniqueInChannel, step('template_create', reply(200, { code: 'a' }), { name: 'promo', earlier, batch }))).toBe('fail');
  // A copy of the same template (same name, another language) may share its code.
  expect(await outcome(ensureTemplateCodeUniqueInChannel, step('template_create', reply(200, { code: 'a' }), { name: 'welcome', earlier, batch }))).toBe('pass');
  expect(await outcome(ensureTemplateCodeUniqueInChannel, step('template_create', reply(200, {}), { name: 'promo', earlier, batch }))).toBe('notApplicable');
});

test('acknowledgements: 2xx whatever the body; not judged when the template got no code', async () => {
  expect(await outcome(ensureTemplateDeleteAcknowledged, step('template_delete', reply(200, {})))).toBe('pass');
  expect(await outcome(ensureTemplateDeleteAcknowledged, step('template_delete', reply(204)))).toBe('pass');
  expect(await outcome(ensureTemplateDeleteAcknowledged, step('template_delete', reply(500, { errors: ['x'] })))).toBe('fail');
  expect(await outcome(ensureTemplateDeleteAcknowledged, step('template_delete', reply(500), { codeMissing: true }))).toBe('notApplicable');
  for (const t of ['message_updated', 'message_deleted', 'message_read']) {
    expect(await outcome(ensureMessageWebhookAcknowledged, step(t, reply(200, {})))).toBe('pass');
    expect(await outcome(ensureMessageWebhookAcknowledged, step(t, reply(404, { errors: ['unknown'] })))).toBe('fail');
  }
});

test('message_sent: external_message_id, the error form (200 or 4xx), or async (the official client\'s form); error codes from the profile', async () => {
  const ok = [
    reply(200, { external_message_id: 'm1' }),
    reply(200, { external_message_id: 'm1', async: false }),
    reply(200, { external_message_id: '', async: true }),
    reply(200, { async: true }),
    reply(200, { external_message_id: '', error: { code: 'general', message: 'x' }, async: false }),
    reply(400, { error: { code: 'customer_not_exists' } }),
  ];
  for (const r of ok) expect(await outcome(ensureMessageSentAnswersReply, step('message_sent', r))).toBe('pass');
  for (const r of [reply(200, {}), reply(200, { external_message_id: '' }), reply(500, { error: { code: 'general' } }), reply(400, { errors: ['x'] }), reply(undefined), reply(200, 'text')]) {
    expect(await outcome(ensureMessageSentAnswersReply, step('message_sent', r))).toBe('fail');
  }
  for (const code of ['general', 'customer_not_exists', 'reply_timed_out', 'spam_suspicion', 'access_restricted']) {
    expect(await outcome(ensureMessageSentErrorCodeKnown, step('message_sent', reply(200, { error: { code, message: 'm' } })))).toBe('pass');
  }
  expect(await outcome(ensureMessageSentErrorCodeKnown, step('message_sent', reply(200, { error: { code: 'delivery_failed' } })))).toBe('fail');
  expect(await outcome(ensureMessageSentErrorCodeKnown, step('message_sent', reply(200, { error: { message: 'no code' } })))).toBe('fail');
  expect(await outcome(ensureMessageSentErrorCodeKnown, step('message_sent', reply(200, { external_message_id: 'm' })))).toBe('notApplicable');
});

test('ClientId probe: refused by a 4xx (any body) or 200 with an error body; then no effect', async () => {
  for (const r of [reply(401, { errors: ['clientId is missing'] }), reply(403), reply(200, { success: false, errorMsg: 'unknown' }), reply(200, { errors: ['no'] })]) {
    expect(await outcome(ensureWebhookWithoutClientIdRefused, step('template_create', r, {}, 'missing'))).toBe('pass');
  }
  for (const r of [reply(200, { code: 'tpl' }), reply(200, {}), reply(500, { errors: ['x'] }), reply(undefined)]) {
    expect(await outcome(ensureWebhookWithoutClientIdRefused, step('template_create', r, {}, 'unknown'))).toBe('fail');
  }
  expect(await outcome(ensureWebhookWithoutClientIdRefused, step('template_create', reply(200, { code: 'a' })))).toBe('notApplicable');

  const refusedReply = reply(403, { errors: ['unknown'] });
  const trigger = (status: number) => reply(status, {});
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_create', refusedReply, { effects: [] }, 'missing'))).toBe('pass');
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_create', refusedReply, { effects: [{ route: 'transport.template.create', exchange: 'x2', status: 200 }] }, 'missing'))).toBe('fail');
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_delete', refusedReply, { verdict: { trigger: trigger(200), reported: true, code: 'a' } }, 'unknown'))).toBe('pass');
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_delete', refusedReply, { verdict: { trigger: trigger(404), reported: false, code: 'a' } }, 'unknown'))).toBe('fail');
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_delete', refusedReply, { verdict: { trigger: trigger(200), reported: false, code: 'a' } }, 'unknown'))).toBe('notApplicable');
  // Nothing the gateway could show (a refused message webhook), or not refused at all (the other check's).
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('message_read', refusedReply, {}, 'missing'))).toBe('notApplicable');
  expect(await outcome(ensureRefusedWebhookLeftNoEffect, step('template_create', reply(200, { code: 'x' }), { effects: [] }, 'missing'))).toBe('notApplicable');
});

test('template codes are judged on the cases of template_create alone (which replay alone)', async () => {
  const earlier = [{ code: 'a', name: 'welcome' }];
  expect(await outcome(ensureTemplateCodeUniqueInChannel, step('template_create', reply(200, { code: 'a' }), { name: 'promo', earlier }))).toBe('notApplicable');
});
