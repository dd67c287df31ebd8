/**
 * The chat webhook generators (src/generators/chat/templates.ts, webhooks.ts): template content
 * as the system creates it, valid by the template_create data schema; and per channel settings
 * only the webhook types and message kinds the channel enables (wire profile section 6): a
 * channel without template creation and with only text gets no template_* and no image
 * webhook; every generated data valid by its schema. What a sent webhook names exists on the
 * gateway (wire profile 6; issue 31, item 3): its chat and customer are those of a conversation
 * on that channel, a quoted id is one the transport knows there, a file is one the gateway serves
 * (through the runner, `runWebhookCase`, against a gateway on loopback). Contents and names come
 * in Latin, Cyrillic, with diacritics and with emoji (issue 31, item 8).
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { chatChannelOf, webhookTypesOf, type ChatChannel } from '../../src/generators/chat/context.ts';
import { MAX_QUICK_REPLIES, templateContent, updatedTemplateContent } from '../../src/generators/chat/templates.ts';
import { refusedCase, webhookCase, type WebhookCasePayload, type WebhookStep } from '../../src/generators/chat/webhooks.ts';
import type { GatewayChannel } from '../../src/simulators/gateway-records.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import { afterWebhook } from '../../src/simulators/gateway-webhooks.ts';
import { runWebhookCase, type WebhookDriver } from '../../src/properties/chat-webhooks.ts';
import type { ReferenceScope } from '../../src/generators/chat/references.ts';
import { botEvent, botEventContextOf, seedBotChats } from '../../src/generators/chat/bot-events.ts';
import { activateChannel, call, customerMessage, startGateway, TRANSPORT, type Gateway } from '../simulators/gateway-harness.ts';

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
/** Every setting by which a webhook names something: text, images and files quoted; edits, deletions, reads; templates created and sent. */
const NAMING = {
  status: { delivered: 'both', read: 'both' },
  text: { creating: 'both', editing: 'both', quoting: 'both', deleting: 'both' },
  image: { creating: 'both', quoting: 'both' },
  file: { creating: 'both', quoting: 'both' },
  sending_policy: { new_customer: 'template', after_reply_timeout: 'template' },
  template: { creation: true },
};

/** One webhook as the runner sent it, judged when it was sent against what existed then. */
interface Sent {
  type: string;
  data: Record<string, unknown>;
  /** Its chat is one a customer opened on the channel, with that customer. */
  chatKnown: boolean;
  customerRight: boolean;
  /** Its quoted id (if any) is one the transport knew in that chat. */
  quoteKnown: boolean;
  /** The chat of the case's message_sent (for the message events that name it). */
  caseChat?: unknown;
  /** The message an event names (`external_message_id`) is known in its chat. */
  messageKnown: boolean;
}

/**
 * Runs generated cases of a channel through the runner (`runWebhookCase`) against a gateway on
 * loopback, the module answering as a transport does (each message_sent with an id of its own,
 * each template_create with a code); before them `customers` customers wrote to the channel
 * (`POST /messages`) and the module uploaded one image. Each webhook is judged as it is sent.
 */
async function sendThrough(g: Gateway, settings: Record<string, unknown>, cases: number, seed: number, customers = 2) {
  const channelId = await activateChannel(g.base, TRANSPORT, { type: 'custom', name: 'Chats', external_id: 'chats', settings });
  const chats = new Map<string, { customer: string; ids: Set<string> }>();
  for (let i = 1; i <= customers; i++) {
    const customer = `cust-${i}`;
    expect((await call(g.base, 'POST', '/api/transport/v1/messages', { transport: TRANSPORT, body: customerMessage(channelId, `in-${i}`, 'Здравствуйте', customer) })).status).toBe(200);
    chats.set(`chat-${customer}`, { customer, ids: new Set([`in-${i}`]) });
  }
  const uploaded = (await call(g.base, 'POST', '/api/transport/v1/files/upload', { transport: TRANSPORT, raw: { type: 'image/png', data: Buffer.alloc(100, 1) } })).json.id as string;
  const sent: Sent[] = [];
  let answers = 0;
  let codes = 0;
  let caseChat: unknown;
  const reply = (type: string): Reply => {
    const json = type === 'message_sent' ? { external_message_id: `tg-${++answers}` } : type === 'template_create' ? { code: `tpl_${++codes}` } : {};
    return { status: 200, json, headers: {}, body: Buffer.from(JSON.stringify(json)), exchange: { id: 'x' } as Reply['exchange'] };
  };
  const judge = (type: string, data: Record<string, unknown>): void => {
    if (!['message_sent', 'message_updated', 'message_deleted', 'message_read'].includes(type)) return void sent.push({ type, data, chatKnown: true, customerRight: true, quoteKnown: true, messageKnown: true });
    const chat = chats.get(String(data.external_chat_id));
    const messageKnown = type === 'message_sent' || chat?.ids.has(String(data.external_message_id)) === true;
    sent.push({ type, data, chatKnown: chat !== undefined, customerRight: chat?.customer === data.external_user_id, quoteKnown: data.quote_external_id === undefined || chat?.ids.has(String(data.quote_external_id)) === true, caseChat, messageKnown });
  };
  const driver = gatewayDriver(g.gw.state, {
    send: async (type, data) => {
      const d = data as Record<string, unknown>;
      judge(type, d);
      if (type === 'message_sent') caseChat = d.external_chat_id;
      const r = reply(type);
      const ids = chats.get(String(d.external_chat_id))?.ids;
      if (type === 'message_sent') ids?.add(String((r.json as { external_message_id: string }).external_message_id));
      if (type === 'message_deleted') ids?.delete(String(d.external_message_id));
      afterWebhook(g.gw.state, type, d, r);
      return r;
    },
    sendAs: async (type, data) => {
      judge(type, data as Record<string, unknown>);
      return { ...reply('refused'), status: 403 };
    },
  });
  const channel = chatChannelOf(g.gw.channels.get(channelId)!);
  for (const [i, c] of fc.sample(webhookCase(channel)!, { seed, numRuns: cases }).entries()) {
    caseChat = undefined;
    await runWebhookCase(driver, c, `case-${i}`);
  }
  return { channelId, sent, uploaded };
}

/** The file ids a webhook's data names: items, a template message's header attachments, a template's sample attachments. */
function filesOf(data: Record<string, unknown>): string[] {
  const ids = (list: unknown): string[] => (Array.isArray(list) ? list.map((x) => String((x as { id?: unknown }).id)) : []);
  const t = data.template as { variables?: { header?: { attachments?: unknown } } } | undefined;
  return [...ids(data.items), ...ids(t?.variables?.header?.attachments), ...ids((data.example as { attachments?: unknown } | undefined)?.attachments), ...ids((data.examples as { attachments?: unknown } | undefined)?.attachments)];
}

/** The value classes of a text (issue 31, item 8). */
function classesOf(text: string): string[] {
  const out: string[] = [];
  if (/[A-Za-z]/.test(text)) out.push('latin');
  if (/[\u0400-\u04FF]/.test(text)) out.push('cyrillic');
  if (/[\u00C0-\u024F\u1E00-\u1EFF]/.test(text)) out.push('diacritics');
  if (/\p{Extended_Pictographic}/u.test(text)) out.push('emoji');
  return out;
}

const webhooksOf = (c: { payload: unknown }): WebhookStep[] => (c.payload as WebhookCasePayload).steps.filter((s): s is WebhookStep => s.kind === 'webhook');
const SCHEMA: Record<string, string> = {
  template_create: 'chat/webhook.template-create.data.json',
  template_update: 'chat/webhook.template-update.data.json',
  template_delete: 'chat/webhook.template-delete.data.json',
  message_sent: 'chat/webhook.message-sent.data.json',
};

/** A webhook driver over a gateway's state on loopback: the test gives how webhooks are sent; the rest is inert. */
function gatewayDriver(state: ReferenceScope['state'], send: Pick<WebhookDriver, 'send' | 'sendAs'>): WebhookDriver {
  return {
    ...send,
    mark: () => 0,
    callsSince: () => [],
    awaitVerdict: async () => true,
    unknownClientId: 'unknown-client',
    module: {},
    profile: true,
    codes: new Map(),
    sent: new Map(),
    references: { state, token: TRANSPORT },
  };
}

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

test('the reference channel: every type it enables, every data field of message_sent, template messages with the code of a template the case created', async () => {
  const types = new Set<string>();
  let templated = 0;
  for (const c of fc.sample(webhookCase(REFERENCE)!, { seed: 13, numRuns: 400 })) {
    const steps = webhooksOf(c);
    for (const [i, s] of steps.entries()) {
      types.add(s.type);
      expect(REFERENCE.webhookTypes).toContain(s.type);
      if (SCHEMA[s.type] && !(s.useCode && s.type !== 'message_sent')) valid(SCHEMA[s.type]!, s.type === 'message_sent' && s.useCode ? { ...s.data, template: { ...(s.data.template as object), code: 'tpl' } } : s.data);
      if (s.type === 'message_sent') {
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
  expect(templated).toBeGreaterThan(0);
  // Every data field, as sent (the references bound to the gateway's state).
  const g = await startGateway();
  try {
    const run = await sendThrough(g, REFERENCE.settings, 120, 13);
    const fields = new Set(run.sent.filter((x) => x.type === 'message_sent').flatMap((x) => Object.keys(x.data)));
    for (const f of ['external_user_id', 'external_chat_id', 'channel_id', 'type', 'content', 'quote_external_id', 'quote_content', 'in_app_id', 'user', 'customer', 'template', 'attachments']) expect(fields).toContain(f);
    for (const x of run.sent) if (SCHEMA[x.type]) valid(SCHEMA[x.type]!, x.data);
  } finally {
    await g.stop();
  }
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

test('every reference a sent webhook makes exists on the gateway: a chat a customer opened on that channel with its customer, a quoted id the transport knew there, files the gateway serves (wire profile 6)', async () => {
  const g = await startGateway();
  try {
    const run = await sendThrough(g, NAMING, 150, 21);
    const messages = run.sent.filter((x) => x.type.startsWith('message_'));
    expect(messages.length).toBeGreaterThan(100);
    const wrong = messages.filter((x) => !x.chatKnown || !x.customerRight || !x.quoteKnown).map((x) => `${x.type} chat ${String(x.data.external_chat_id)} user ${String(x.data.external_user_id)} quote ${String(x.data.quote_external_id)}`);
    expect(wrong.slice(0, 5)).toEqual([]);
    // A message event names the chat of the case's message, and a message known there: a read the customer's, an edit or a deletion the transport's answer.
    const events = messages.filter((x) => x.type !== 'message_sent');
    expect(events.length).toBeGreaterThan(20);
    for (const x of events) {
      if (x.caseChat !== undefined) expect(x.data.external_chat_id).toBe(x.caseChat);
      expect(x.messageKnown, `${x.type} of ${String(x.data.external_message_id)}`).toBe(true);
      expect(String(x.data.external_message_id)).toMatch(x.type === 'message_read' ? /^in-/ : /^tg-/);
    }
    // Quotes were made, of customer messages and of the transport's own answers.
    const quoted = messages.map((x) => x.data.quote_external_id).filter((q): q is string => typeof q === 'string');
    expect(quoted.some((q) => q.startsWith('in-'))).toBe(true);
    expect(quoted.some((q) => q.startsWith('tg-'))).toBe(true);
    // Every file named is served to the transport, the module's upload among them.
    const files = [...new Set(run.sent.flatMap((x) => filesOf(x.data)))];
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain(run.uploaded);
    for (const id of files) expect((await call(g.base, 'GET', `/api/transport/v1/files/${id}`, { transport: TRANSPORT })).status, `file ${id}`).toBe(200);
    // An item's size is its file's.
    for (const x of run.sent) for (const it of (x.data.items as Array<{ id: string; size: number }> | undefined) ?? []) expect(it.size).toBe(g.gw.files.get(it.id)!.size);
  } finally {
    await g.stop();
  }
});

test('a channel no customer wrote to: the gateway starts a conversation of its own and every webhook names it; quotes only of what the transport answered there', async () => {
  const g = await startGateway();
  try {
    const run = await sendThrough(g, NAMING, 40, 22, 0);
    const conversations = g.gw.state.conversations.of(run.channelId);
    expect(conversations.map((c) => c.origin)).toEqual(['gateway']);
    const only = conversations[0]!;
    const messages = run.sent.filter((x) => x.type.startsWith('message_'));
    for (const x of messages) {
      expect(x.data.external_chat_id).toBe(only.external_chat_id);
      expect(x.data.external_user_id).toBe(only.customer.external_id);
      if (x.data.quote_external_id !== undefined) expect(String(x.data.quote_external_id)).toMatch(/^tg-/);
    }
    // The gateway's chat is one state: the bot's side sees it too.
    expect([...g.gw.state.chats.values()].some((c) => c.external_chat_id === only.external_chat_id)).toBe(true);
  } finally {
    await g.stop();
  }
});

test('a channel that does not enable quoting gets no quote', async () => {
  const g = await startGateway();
  try {
    const run = await sendThrough(g, { ...NAMING, text: { creating: 'both', quoting: 'none' }, image: { creating: 'both' }, file: { creating: 'both', quoting: 'none' } }, 60, 23);
    expect(run.sent.filter((x) => x.data.quote_external_id !== undefined || x.data.quote_content !== undefined)).toEqual([]);
  } finally {
    await g.stop();
  }
});

test('contents, captions, quotes and the names of customers and managers come in Latin, Cyrillic, with diacritics and with emoji, in webhooks and bot events (issue 31, item 8)', async () => {
  const g = await startGateway();
  try {
    const run = await sendThrough(g, NAMING, 150, 24);
    const seen: Record<string, Set<string>> = { content: new Set(), customer: new Set(), user: new Set(), botContent: new Set(), botCustomer: new Set() };
    const add = (k: string, v: unknown) => {
      if (typeof v === 'string') for (const c of classesOf(v)) seen[k]!.add(c);
    };
    for (const x of run.sent.filter((s) => s.type === 'message_sent')) {
      add('content', x.data.content);
      add('content', x.data.quote_content);
      for (const it of (x.data.items as Array<{ caption?: string }> | undefined) ?? []) add('content', it.caption);
      const customer = x.data.customer as { first_name?: string; last_name?: string };
      add('customer', `${customer.first_name} ${customer.last_name}`);
      const user = x.data.user as { first_name?: string; last_name?: string };
      add('user', `${user.first_name} ${user.last_name}`);
    }
    // Bot events in the chats the suite seeds for a bot when no transport opened any.
    const b = await startGateway();
    seedBotChats(b.gw);
    b.gw.state.setCommand('bot-token-0123456789', 'status', { name: 'status', description: 'Order status' });
    const events = fc.sample(botEvent(botEventContextOf(b.gw.state, 'bot-token-0123456789')), { seed: 25, numRuns: 300 });
    await b.stop();
    for (const e of events) {
      const m = (e.frame.data as { message: { content: string; from: { name: string } } }).message;
      add('botContent', m.content);
      add('botCustomer', m.from.name);
    }
    const all = ['cyrillic', 'diacritics', 'emoji', 'latin'];
    expect(Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, [...v].sort()]))).toEqual({ content: all, customer: all, user: all, botContent: all, botCustomer: all });
  } finally {
    await g.stop();
  }
});

test('a message the transport gave no id is never named: its edit and deletion are not sent (or name an earlier answer of the chat), its read names the customer\'s message', async () => {
  const g = await startGateway();
  try {
    const channelId = await activateChannel(g.base, TRANSPORT, { type: 'custom', name: 'Chats', external_id: 'chats', settings: NAMING });
    await call(g.base, 'POST', '/api/transport/v1/messages', { transport: TRANSPORT, body: customerMessage(channelId, 'in-1', 'Привет', 'cust-1') });
    const sent: Array<{ type: string; data: Record<string, unknown> }> = [];
    const empty: Reply = { status: 200, json: {}, headers: {}, body: Buffer.from('{}'), exchange: { id: 'x' } as Reply['exchange'] };
    const driver = gatewayDriver(g.gw.state, {
      send: async (type, data) => (sent.push({ type, data: data as Record<string, unknown> }), empty),
      sendAs: async () => ({ ...empty, status: 403 }),
    });
    const channel = chatChannelOf(g.gw.channels.get(channelId)!);
    for (const [i, c] of fc.sample(webhookCase(channel, ['message_updated', 'message_deleted', 'message_read'])!, { seed: 26, numRuns: 60 }).entries()) await runWebhookCase(driver, c, `case-${i}`);
    expect(sent.filter((x) => x.type === 'message_updated' || x.type === 'message_deleted')).toEqual([]);
    const reads = sent.filter((x) => x.type === 'message_read');
    expect(reads.length).toBeGreaterThan(5);
    for (const r of reads) expect(r.data.external_message_id).toBe('in-1');
  } finally {
    await g.stop();
  }
});

test('files within what the channel and the template allow: items no more than max_items_count and no larger than max_item_size; a media template\'s header and samples are files of its kind within its limits', async () => {
  const g = await startGateway();
  try {
    // A held image too large for the channel, and a held PDF: neither may stand for an image of this channel.
    await call(g.base, 'POST', '/api/transport/v1/files/upload', { transport: TRANSPORT, raw: { type: 'image/png', data: Buffer.alloc(9000, 1) } });
    await call(g.base, 'POST', '/api/transport/v1/files/upload', { transport: TRANSPORT, raw: { type: 'application/pdf', data: Buffer.alloc(100, 1) } });
    const settings = { ...NAMING, image: { creating: 'both', max_item_size: 5000, max_items_count: 1 }, file: { creating: 'none' } };
    const run = await sendThrough(g, settings, 120, 27);
    const images = run.sent.filter((x) => x.type === 'message_sent' && x.data.type === 'image');
    expect(images.length).toBeGreaterThan(5);
    for (const x of images) {
      const items = x.data.items as Array<{ id: string; size: number }>;
      expect(items).toHaveLength(1);
      const file = g.gw.files.get(items[0]!.id)!;
      expect(file.mime_type).toMatch(/^image\//);
      expect(file.size).toBeLessThanOrEqual(5000);
    }
    const MIMES: Record<string, string[]> = { image: ['image/jpeg', 'image/jpg', 'image/png'], document: ['application/pdf'], video: ['video/mp4'] };
    let samples = 0;
    for (const x of run.sent.filter((s) => s.type === 'template_create' && s.data.attachments)) {
      const kind = (x.data.attachments as { type: string }).type;
      for (const id of filesOf(x.data)) {
        samples += 1;
        expect(MIMES[kind]).toContain(g.gw.files.get(id)!.mime_type);
      }
    }
    expect(samples).toBeGreaterThan(3);
  } finally {
    await g.stop();
  }
});
