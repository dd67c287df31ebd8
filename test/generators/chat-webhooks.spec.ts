/**
 * The chat webhook generators (src/generators/chat/templates.ts, webhooks.ts): template content
 * as the system creates it, valid by the template_create data schema; and per channel settings
 * only the webhook types and message kinds the channel enables (wire profile section 6): a
 * channel without template creation and with only text gets no template_* and no image
 * webhook; every generated data valid by its schema.
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { chatChannelOf, webhookTypesOf, type ChatChannel } from '../../src/generators/chat/context.ts';
import { MAX_QUICK_REPLIES, templateContent, updatedTemplateContent } from '../../src/generators/chat/templates.ts';
import { refusedCase, webhookCase, type WebhookCasePayload, type WebhookStep } from '../../src/generators/chat/webhooks.ts';
import type { GatewayChannel } from '../../src/simulators/gateway.ts';

const channel = (id: number, settings: Record<string, unknown>): ChatChannel => chatChannelOf({ id, settings, token: 't', is_active: true } as unknown as GatewayChannel);

/** The reference module's channel: text (editing, deleting), status read, templates created and sent. */
const REFERENCE = channel(1, {
  status: { delivered: 'both', read: 'both' },
  text: { creating: 'both', editing: 'both', quoting: 'both', deleting: 'receive' },
  sending_policy: { new_customer: 'template', after_reply_timeout: 'template' },
  template: { creation: true },
});
/** Only text, no template creation, no edits, no read status. */
const TEXT_ONLY = channel(2, { text: { creating: 'both', editing: 'none', deleting: 'none' }, status: { read: 'none' }, image: { creating: 'none' }, template: { creation: false } });
/** Images and files, read status, no text, templates created but not sendable. */
const MEDIA = channel(3, { image: { creating: 'send' }, file: { creating: 'both' }, status: { read: 'receive' }, template: { creation: true }, sending_policy: { new_customer: 'text', after_reply_timeout: 'no' } });

const valid = (schema: string, data: unknown): void => {
  const out = contract().validate(schema, data);
  expect(out.valid, `${schema}: ${formatErrors(out.errors)} in ${JSON.stringify(data)}`).toBe(true);
};
const webhooksOf = (c: { payload: unknown }): WebhookStep[] => (c.payload as WebhookCasePayload).steps.filter((s): s is WebhookStep => s.kind === 'webhook');
const SCHEMA: Record<string, string> = {
  template_create: 'chat/webhook.template-create.data.json',
  template_update: 'chat/webhook.template-update.data.json',
  template_delete: 'chat/webhook.template-delete.data.json',
  message_sent: 'chat/webhook.message-sent.data.json',
};

test('webhookTypesOf: the types each setting enables (wire profile 6)', () => {
  expect(REFERENCE.webhookTypes).toEqual(['message_sent', 'message_updated', 'message_deleted', 'message_read', 'template_create', 'template_update', 'template_delete']);
  expect(TEXT_ONLY.webhookTypes).toEqual(['message_sent']);
  expect(MEDIA.webhookTypes).toEqual(['message_sent', 'message_read', 'template_create', 'template_update', 'template_delete']);
  expect(webhookTypesOf({})).toEqual([]);
  expect(webhookTypesOf({ template: { creation: 'true' } })).toEqual([]);
});

test('template content as the system creates it: valid data, header or attachments never both, at most 10 quick replies, numbered variables with their samples', () => {
  const kinds = new Set<string>();
  for (const d of fc.sample(templateContent({ id: 7 }), { seed: 5, numRuns: 300 })) {
    valid('chat/webhook.template-create.data.json', d);
    expect(d.channel_id).toBe(7);
    expect(d).not.toHaveProperty('code');
    expect(d.header !== undefined && d.attachments !== undefined).toBe(false);
    if (d.attachments) expect(d.type).toBe('media');
    const items = ((d.buttons as { items?: Array<{ type: string; url?: string }> } | undefined)?.items ?? []);
    expect(items.filter((b) => b.type === 'plain').length).toBeLessThanOrEqual(MAX_QUICK_REPLIES);
    const vars = [...String(d.body).matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
    expect(vars).toEqual(vars.map((_, i) => i + 1));
    const ex = (d.example ?? d.examples) as { body?: string[]; buttons?: string[][] } | undefined;
    if (ex && vars.length > 0) expect(ex.body).toHaveLength(vars.length);
    if (ex && items.length > 0) expect(ex.buttons).toHaveLength(items.length);
    kinds.add(d.attachments ? `file:${(d.attachments as { type: string }).type}` : d.header ? 'text header' : 'no header');
    for (const b of items) if (b.url?.includes('{{1}}')) kinds.add('url variable');
  }
  expect([...kinds].sort()).toEqual(['file:document', 'file:image', 'file:video', 'no header', 'text header', 'url variable']);
  for (const d of fc.sample(templateContent({ id: 7 }), { seed: 6, numRuns: 40 })) {
    for (const u of fc.sample(updatedTemplateContent({ id: 7 }, d, 'tpl_1'), { seed: 7, numRuns: 3 })) {
      valid('chat/webhook.template-update.data.json', u);
      expect(u.code).toBe('tpl_1');
      expect(u.name).toBe(d.name);
    }
  }
});

test('a channel without template creation and with only text gets no template_* and no image webhook', () => {
  const arb = webhookCase(TEXT_ONLY)!;
  for (const c of fc.sample(arb, { seed: 11, numRuns: 200 })) {
    for (const s of webhooksOf(c)) {
      expect(s.type).toBe('message_sent');
      expect(s.data.type).toBe('text');
      expect(s.data).not.toHaveProperty('template');
      valid(SCHEMA.message_sent!, s.data);
    }
  }
  const probes = refusedCase(TEXT_ONLY, { verdict: true })!;
  for (const c of fc.sample(probes, { seed: 12, numRuns: 100 })) for (const s of webhooksOf(c)) expect(s.type).toBe('message_sent');
  // A channel that enables nothing the suite sends gets no case at all.
  expect(webhookCase(channel(4, { text: { creating: 'none' } }))).toBeUndefined();
});

test('the reference channel: every type it enables, every data field of message_sent, template messages with the code of a template the case created', () => {
  const types = new Set<string>();
  const fields = new Set<string>();
  let templated = 0;
  for (const c of fc.sample(webhookCase(REFERENCE)!, { seed: 13, numRuns: 400 })) {
    const steps = webhooksOf(c);
    for (const [i, s] of steps.entries()) {
      types.add(s.type);
      expect(REFERENCE.webhookTypes).toContain(s.type);
      if (SCHEMA[s.type] && !(s.useCode && s.type !== 'message_sent')) valid(SCHEMA[s.type]!, s.type === 'message_sent' && s.useCode ? { ...s.data, template: { ...(s.data.template as object), code: 'tpl' } } : s.data);
      if (s.type === 'message_sent') {
        for (const k of Object.keys(s.data)) fields.add(k);
        expect(s.data.type).toBe('text');
        if (s.data.template) {
          templated += 1;
          expect(s.useCode).toBe(true);
          expect(steps.slice(0, i).some((p) => p.type === 'template_create')).toBe(true);
        }
      }
      if (s.type === 'template_update' || s.type === 'template_delete') {
        expect(s.useCode).toBe(true);
        expect(steps[0]!.type).toBe('template_create');
      }
      if (s.type === 'message_read' || s.type === 'message_updated' || s.type === 'message_deleted') expect(s.useMessage).toBe(true);
    }
  }
  expect([...types].sort()).toEqual([...REFERENCE.webhookTypes].sort());
  for (const f of ['external_user_id', 'external_chat_id', 'channel_id', 'type', 'content', 'quote_external_id', 'quote_content', 'in_app_id', 'user', 'customer', 'template', 'attachments']) expect(fields).toContain(f);
  expect(templated).toBeGreaterThan(0);
});

test('media channel: image and file messages with items, no template message (the channel cannot send templates), no message_updated/deleted', () => {
  const kinds = new Set<string>();
  for (const c of fc.sample(webhookCase(MEDIA)!, { seed: 14, numRuns: 300 })) {
    for (const s of webhooksOf(c)) {
      expect(MEDIA.webhookTypes).toContain(s.type);
      if (s.type !== 'message_sent') continue;
      kinds.add(String(s.data.type));
      expect(s.data).not.toHaveProperty('template');
      const items = s.data.items as Array<Record<string, unknown>>;
      expect(items.length).toBeGreaterThan(0);
      for (const it of items) {
        expect(typeof it.id).toBe('string');
        expect(typeof it.size).toBe('number');
        if (s.data.type === 'image') expect(typeof it.width).toBe('number');
      }
      valid(SCHEMA.message_sent!, s.data);
    }
  }
  expect([...kinds].sort()).toEqual(['file', 'image']);
});
