/**
 * The gateway simulator enforces the template verification table (src/contract/template-machine.ts)
 * on the template calls of a transport: what the documents forbid is refused with 400 and the
 * error body, an unknown template with 404; what the official clients send passes; every call
 * carries the table's judgement for the checks.
 */
import { test, expect } from '@playwright/test';
import { afterWebhook } from '../../src/simulators/gateway-webhooks.ts';
import { activateChannel, call, startGateway, TRANSPORT, type Gateway } from './gateway-harness.ts';

const P = '/api/transport/v1';
let g: Gateway;
test.beforeEach(async () => {
  g = await startGateway();
});
test.afterEach(() => g.stop());

const report = { code: 'tpl_1', name: 'order_ready', type: 'text', body: 'Hello {{1}}', verification_status: 'pending', lang: 'en' };
/** A verdict as the official transport clients send it: every field, the optional ones as their zero values where a client sends them. */
const verdict = (status: string, extra: Record<string, unknown> = {}) => ({
  name: 'order_ready',
  body: 'Hello {{1}}',
  verification_status: status,
  rejection_reason: '',
  header: { content: { type: 'text', body: 'Order {{1}}' } },
  footer: '',
  buttons: { items: [{ type: 'plain', label: 'Yes' }, { type: 'url', label: 'Track', url: 'https://shop.example/t/{{1}}' }, { type: 'phone', label: 'Call', phone: '+4930123456' }] },
  ...extra,
});

async function created(): Promise<number> {
  const id = await activateChannel(g.base);
  expect((await call(g.base, 'POST', `${P}/channels/${id}/templates`, { transport: TRANSPORT, body: report })).status).toBe(200);
  return id;
}

test('verifying -> approved and verifying -> rejected are accepted, as the official clients send them; the calls carry the judgement', async () => {
  const id = await created();
  const res = await call(g.base, 'PUT', `/channels/${id}/templates/tpl_1`, { transport: TRANSPORT, body: verdict('rejected', { rejection_reason: 'invalid_format', quality: '' }) });
  expect(res.status).toBe(200);
  expect(g.gw.template(id, 'tpl_1')?.verification_status).toBe('rejected');
  const last = g.gw.calls.at(-1)!;
  expect(last.template).toEqual({ kind: 'update', channelId: id, code: 'tpl_1', from: 'pending', to: 'rejected', breaches: [] });
  // Another template of the channel, approved (no reason: it is optional).
  expect((await call(g.base, 'POST', `${P}/channels/${id}/templates`, { transport: TRANSPORT, body: { ...report, code: 'tpl_2' } })).status).toBe(200);
  expect((await call(g.base, 'PUT', `${P}/channels/${id}/templates/tpl_2`, { transport: TRANSPORT, body: verdict('approved', { quality: 'high' }) })).status).toBe(200);
  // Transition from approved to other states: not shown, so accepted.
  expect((await call(g.base, 'PUT', `${P}/channels/${id}/templates/tpl_2`, { transport: TRANSPORT, body: verdict('rejected', { rejection_reason: 'scam' }) })).status).toBe(200);
});

test('a rejected template is approved only after the user resubmits it (template_update); before, the verdict is refused with 400', async () => {
  const id = await created();
  expect((await call(g.base, 'PUT', `${P}/channels/${id}/templates/tpl_1`, { transport: TRANSPORT, body: verdict('rejected') })).status).toBe(200);
  const refused = await call(g.base, 'PUT', `${P}/channels/${id}/templates/tpl_1`, { transport: TRANSPORT, body: verdict('approved') });
  expect(refused.status).toBe(400);
  expect(refused.json).toEqual({ errors: [expect.stringContaining('rejected -> approved')] });
  expect(g.gw.calls.at(-1)!.template?.breaches.map((b) => b.rule)).toEqual(['table']);
  expect(g.gw.template(id, 'tpl_1')?.verification_status).toBe('rejected');
  // The user resubmits: the gateway's template_update (answered 200) makes it verifying again.
  afterWebhook(g.gw.state, 'template_update', { channel_id: id, code: 'tpl_1', name: 'order_ready', body: 'Hello again {{1}}' }, { status: 200 } as never);
  expect(g.gw.template(id, 'tpl_1')?.verification_status).toBe('pending');
  expect((await call(g.base, 'PUT', `${P}/channels/${id}/templates/tpl_1`, { transport: TRANSPORT, body: verdict('approved') })).status).toBe(200);
  // An edit of an approved template keeps it approved.
  afterWebhook(g.gw.state, 'template_update', { channel_id: id, code: 'tpl_1', examples: { body: ['Ann'] } }, { status: 200 } as never);
  expect(g.gw.template(id, 'tpl_1')?.verification_status).toBe('approved');
});

test('values outside the contract and content over the limits are refused with 400 and the error body; an unknown template with 404; quality is recorded only', async () => {
  const id = await created();
  const put = (body: unknown, code = 'tpl_1') => call(g.base, 'PUT', `${P}/channels/${id}/templates/${code}`, { transport: TRANSPORT, body });
  expect(await put(verdict('declined'))).toMatchObject({ status: 400, json: { errors: [expect.stringContaining('verification_status "declined"')] } });
  expect(await put(verdict('rejected', { rejection_reason: 'spam' }))).toMatchObject({ status: 400, json: { errors: [expect.stringContaining('rejection_reason "spam"')] } });
  expect((await put({ name: 'n', body: 'b' })).status).toBe(400);
  expect((await put(verdict('approved'), 'missing')).status).toBe(404);
  expect(g.gw.calls.at(-1)!.template).toMatchObject({ kind: 'update', from: 'new', breaches: [] });
  const quality = await put(verdict('approved', { quality: 'excellent' }), 'tpl_1');
  expect(quality.status).toBe(200);
  expect(g.gw.calls.at(-1)!.template?.breaches.map((b) => [b.rule, b.refuse])).toEqual([['quality', false]]);

  const post = (body: Record<string, unknown>) => call(g.base, 'POST', `/channels/${id}/templates`, { transport: TRANSPORT, body: { ...report, ...body } });
  const eleven = Array.from({ length: 11 }, (_, i) => ({ type: 'plain', label: `r${i}` }));
  expect(await post({ code: 'q', buttons: { items: eleven } })).toMatchObject({ status: 400, json: { errors: [expect.stringContaining('11 quick-reply')] } });
  expect((await post({ code: 'ten', buttons: { items: eleven.slice(1) } })).status).toBe(200);
  expect((await post({ code: 'a', attachments: { type: 'audio' } })).status).toBe(400);
  expect((await post({ code: 'b', buttons: { items: [{ type: 'link', label: 'l' }] } })).status).toBe(400);
  expect((await post({ code: 'u', buttons: { items: [{ type: 'url', label: 'l' }] } })).status).toBe(400);
  expect((await post({ code: '' })).status).toBe(400);
  // A header file the gateway knows: an image over 5 MB, or not an image type, is refused; a pdf document within 100 MB passes.
  g.gw.state.files.set('big', { id: 'big', token: TRANSPORT, size: 6 * 1024 * 1024, mime_type: 'image/png', created_at: '' });
  g.gw.state.files.set('doc', { id: 'doc', token: TRANSPORT, size: 1024, mime_type: 'application/pdf', created_at: '' });
  expect((await post({ code: 'img', type: 'media', attachments: { type: 'image' }, examples: { attachments: [{ id: 'big', caption: '' }] } })).status).toBe(400);
  expect((await post({ code: 'img2', type: 'media', attachments: { type: 'image', id: 'doc' } })).status).toBe(400);
  expect((await post({ code: 'pdf', type: 'media', attachments: { type: 'document' }, examples: { attachments: [{ id: 'doc', caption: 'Invoice' }] } })).status).toBe(200);
  // Header and attachments both: recorded with its schema error, not refused (the checks judge it).
  expect((await post({ code: 'both', header: { content: { type: 'text', body: 'h' } }, attachments: { type: 'image' } })).status).toBe(200);
  expect(g.gw.calls.at(-1)!.schemaErrors.some((e) => e.keyword === 'not')).toBe(true);
});
