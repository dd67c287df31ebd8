/**
 * Webhooks of the gateway to a transport (document, Events; wire profile section 6), drawn by
 * fast-check per active channel, only of the types the channel's settings enable
 * (`webhookTypesOf`): a case is a short sequence of webhooks as data, each step a webhook type
 * and its `data`, so that a case replays exactly (`src/properties/chat-webhooks.ts` runs them):
 *
 * - `message_sent` with every data field of the Events table (`external_user_id`,
 *   `external_chat_id`, `channel_id`, `type`, `content`, `quote_external_id`, `quote_content`,
 *   `in_app_id`, `user`, `customer`, `attachments.suggestions[]`, `items[]` for files), only of
 *   the message kinds the channel enables; a template message (`template.code` and
 *   `template.variables`) only where the channel sends templates and creates them: the case first
 *   creates the template through `template_create` and uses the code the module gave;
 * - `message_updated`, `message_deleted`, `message_read` of a message the case sent first (where
 *   the channel lets a message be sent), where the channel enables them; the runner names a
 *   message known in the chat (an edit or deletion the id the transport gave, a read the
 *   customer's last message) and sends none where there is no such message;
 * - `template_create` (two to five templates), `template_update` and `template_delete` of a
 *   template the case created first (with the `code` the module gave; a template's life: created,
 *   edited, perhaps deleted), only where `template.creation` is true;
 * - probes: one of these webhooks with a missing or unknown `ClientId` header, between
 *   authorised ones (`refusedCase`).
 *
 * What a step names exists on the gateway (wire profile section 6): its chat and customer, a
 * quoted message and its files are drawn as choices (`refs`) and bound to the gateway's state
 * when the step is sent (`references.ts`, where the way a case replays exactly is told); a quote
 * only where the channel enables quoting for the kind of message. Contents, captions, quotes and
 * the names of customers and managers are drawn in Latin, Cyrillic, with diacritics and with
 * emoji (`words.ts`).
 */
import fc from 'fast-check';
import type { GeneratedCase } from '../../checks/case.ts';
import type { CallbackName } from '../../callbacks/table.ts';
import { featureOn, type ChatChannel, type MessageKind, type WebhookType } from './context.ts';
import { templateData, templateDeleteData, templateParts, updatedTemplateContent, type TemplateParts } from './templates.ts';
import type { StepRefs } from './references.ts';
import { firstName, lastName, words } from './words.ts';
import { matching } from '../matching.ts';

/** One webhook of a case. */
export interface WebhookStep {
  kind: 'webhook';
  type: WebhookType;
  data: Record<string, unknown>;
  /** `data.code` (or `data.template.code`) is the code the module gave the case's last `template_create`. */
  useCode?: boolean;
  /** `data.external_message_id` is the id the module gave the case's last `message_sent`. */
  useMessage?: boolean;
  /** Sent with no `ClientId` header, or with one the module never gave: a probe. */
  clientId?: 'missing' | 'unknown';
  /** What the step names on the gateway (its conversation, a quoted message, files), as choices bound when it is sent (`references.ts`). */
  refs?: StepRefs;
}

/** The provider's verdict on the case's template (trigger `transport.templateVerdict`): the observer of a refused delete. */
export interface VerdictStep {
  kind: 'verdict';
}

export type CaseStep = WebhookStep | VerdictStep;

export interface WebhookCasePayload {
  channel_id: number;
  steps: CaseStep[];
}

/** The main type of a case's steps: the probed one, else the last webhook's. */
export function mainType(steps: readonly CaseStep[]): WebhookType {
  const webhooks = steps.filter((s): s is WebhookStep => s.kind === 'webhook');
  return (webhooks.find((s) => s.clientId !== undefined) ?? webhooks.at(-1))!.type;
}

const caseOf = (channel: ChatChannel, steps: CaseStep[]): GeneratedCase => ({
  callback: `transport.${mainType(steps)}` as CallbackName,
  payload: { channel_id: channel.id, steps } satisfies WebhookCasePayload,
  intent: { kind: 'sequence' },
});

// ---- message data ------------------------------------------------------------------------------

const text = words;
const digits = matching(/^[0-9]{1,12}$/);
const externalId = (prefix: string): fc.Arbitrary<string> => digits.map((d) => `${prefix}${d}`);
const avatar = matching(/^[a-z0-9]{4,10}$/).map((s) => `https://cdn.example/avatars/${s}.png`);
const person = fc.record({ first_name: firstName, last_name: lastName, avatar });
const user = fc.tuple(fc.integer({ min: 1, max: 100_000 }), person).map(([id, p]) => ({ id, ...p }));

/** Suggestions of a message (document: `attachments.suggestions[]` with `type`, `title`, `payload`). */
const suggestion = fc.oneof(
  text(1, 2).map((title) => ({ type: 'text', title })),
  fc.tuple(matching(/^\+[1-9][0-9]{9,11}$/), fc.constantFrom('Call us', 'Позвонить', 'Llámenos 📞')).map(([payload, title]) => ({ type: 'phone', title, payload })),
  fc.tuple(fc.constantFrom('a@shop.example', 'sales@shop.example'), fc.constantFrom('Write', 'Написать', 'Écrire')).map(([payload, title]) => ({ type: 'email', title, payload })),
  fc.tuple(matching(/^[a-z]{1,8}$/), fc.constantFrom('Open', 'Открыть', 'Öffnen')).map(([p, title]) => ({ type: 'url', title, payload: `https://shop.example/${p}` })),
);

/** Which held file a file slot names (`references.ts`): an index among the held files, a new file of the gateway's past them. */
const filePick = fc.nat(9);

/**
 * A file of a file, image or audio message (document: `items[]` with `id`, `size`, `caption`,
 * `height`, `width`), with the choice of the held file it names (its `id` and `size` bound when sent).
 */
const fileItem = (kind: MessageKind): fc.Arbitrary<{ item: Record<string, unknown>; pick: number }> =>
  fc
    .record({ pick: filePick, size: fc.integer({ min: 1, max: 20 * 1024 * 1024 }), caption: text(0, 3), height: fc.integer({ min: 1, max: 4000 }), width: fc.integer({ min: 1, max: 4000 }) })
    .map(({ pick, size, caption, height, width }) => ({ pick, item: kind === 'image' ? { id: '', size, caption, height, width } : { id: '', size, caption } }));

const cost = fc.record({ value: fc.integer({ min: 1, max: 100_000 }).map((v) => v / 100), currency: fc.constantFrom('USD', 'EUR', 'RUB') });
const product = fc.record({ id: fc.integer({ min: 1, max: 1_000_000 }), name: text(1, 3), article: matching(/^[A-Z0-9]{3,8}$/), url: fc.constant('https://shop.example/p/1'), img: fc.constant('https://shop.example/p/1.png'), cost });
const order = fc.record({
  external_id: fc.integer({ min: 1, max: 1_000_000 }),
  number: matching(/^[0-9]{3,8}A?$/),
  url: fc.constant('https://shop.example/orders/1'),
  date: fc.constant('2024-05-01T10:00:00Z'),
  cost,
  status: fc.constantFrom({ code: 'new', name: 'New' }, { code: 'delivery', name: 'Delivering' }),
  delivery: fc.record({ name: fc.constantFrom('Courier', 'Pickup'), price: cost, address: text(2, 4) }),
  payments: fc.constant([]),
  items: fc.array(fc.record({ name: text(1, 2), quantity: fc.record({ value: fc.integer({ min: 1, max: 5 }), unit: fc.constant('pcs') }), price: cost }), { maxLength: 2 }),
});

/** A message's data with the choices of what it names on the gateway. */
export interface DrawnMessage {
  data: Record<string, unknown>;
  refs: StepRefs;
}

/** The channel's `max_items_count` for a kind of message (wire profile 6: its settings), at least 1; unbounded when it gives none. */
const maxItems = (channel: ChatChannel, kind: MessageKind): number => {
  const max = (channel.settings[kind] as Record<string, unknown> | undefined)?.max_items_count;
  return typeof max === 'number' && max >= 1 ? Math.floor(max) : Number.MAX_SAFE_INTEGER;
};

/** Whether the channel lets a message of this kind quote another (its `quoting` feature; a template message is text). */
const quotes = (channel: ChatChannel, kind: MessageKind): boolean => featureOn((channel.settings[kind] as Record<string, unknown> | undefined)?.quoting);

/**
 * The fields every message of the channel carries: manager, customer, in-app id, perhaps
 * suggestions and (where the channel enables quoting) a quote; the chat, the customer's id and
 * the quoted id are choices (`refs`), bound when the step is sent.
 */
const messageBase = (channel: ChatChannel, kind: MessageKind): fc.Arbitrary<DrawnMessage> =>
  fc
    .record({
      conversation: fc.nat(7),
      in_app_id: fc.integer({ min: 1, max: 2_147_483_647 }),
      user,
      customer: person,
      quote: quotes(channel, kind) ? fc.option(fc.record({ index: fc.nat(7), content: text(1, 4) }), { nil: undefined, freq: 2 }) : fc.constant(undefined),
      suggestions: fc.option(fc.array(suggestion, { minLength: 1, maxLength: 3 }), { nil: undefined, freq: 3 }),
    })
    .map(({ conversation, quote, suggestions, ...rest }) => ({
      data: { ...rest, channel_id: channel.id, ...(quote ? { quote_content: quote.content } : {}), ...(suggestions ? { attachments: { suggestions } } : {}) },
      refs: { conversation, ...(quote ? { quote: quote.index } : {}) },
    }));

/** `data` of a `message_sent` of one kind (not a template message), with what it names. */
export function messageSentData(channel: ChatChannel, kind: MessageKind): fc.Arbitrary<DrawnMessage> {
  const specific: fc.Arbitrary<{ data: Record<string, unknown>; files?: number[] }> =
    kind === 'text'
      ? text(1, 8).map((content) => ({ data: { type: 'text', content } }))
      : kind === 'product'
        ? product.map((p) => ({ data: { type: 'product', content: p.name, product: p } }))
        : kind === 'order'
          ? order.map((o) => ({ data: { type: 'order', content: `Order ${o.number}`, order: o } }))
          : fc
              .tuple(fc.array(fileItem(kind), { minLength: 1, maxLength: Math.min(kind === 'audio' ? 1 : 3, maxItems(channel, kind)) }), text(0, 4))
              .map(([items, content]) => ({ data: { type: kind, content, items: items.map((i) => i.item) }, files: items.map((i) => i.pick) }));
  return fc.tuple(messageBase(channel, kind), specific).map(([base, s]) => ({ data: { ...base.data, ...s.data }, refs: { ...base.refs, ...(s.files ? { files: s.files } : {}) } }));
}

/** The variables of a template message for a template of these parts: header (text args, or the file), body args, buttons. */
function templateVariables(p: TemplateParts): fc.Arbitrary<Record<string, unknown>> {
  const arg = text(1, 2);
  const args = (n: number) => fc.array(arg, { minLength: n, maxLength: n });
  const header: fc.Arbitrary<Record<string, unknown> | undefined> =
    p.header.kind === 'text'
      ? args(p.header.vars).map((a) => ({ type: 'text', ...(a.length > 0 ? { args: a } : {}) }))
      : p.header.kind === 'file'
        ? text(0, 3).map((caption) => ({ type: (p.header as { type: string }).type, attachments: [{ id: '', caption }] }))
        : fc.constant(undefined);
  return fc.record({ header, body: args(p.bodyVars), buttons: fc.tuple(...p.buttons.map((b) => args(b.vars))) }).map(({ header, body, buttons }) => ({
    ...(header ? { header } : {}),
    body: { args: body },
    ...(p.buttons.length > 0 ? { buttons: p.buttons.map((b, i) => ({ type: b.button.type, title: b.button.label, ...((buttons as string[][])[i]!.length > 0 ? { args: (buttons as string[][])[i] } : {}) })) } : {}),
  }));
}

/** The body of a template with its variables filled, as the message's content. */
const rendered = (body: string, args: string[]): string => body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => args[Number(n) - 1] ?? '');

// ---- cases -------------------------------------------------------------------------------------

const hook = (type: WebhookType, data: Record<string, unknown>, extra: Partial<WebhookStep> = {}): WebhookStep => ({ kind: 'webhook', type, data, ...extra });

/** A template_create step of a template of these parts (a sample file of a media template: the first held file of its kind). */
const createStep = (channel: ChatChannel, p: TemplateParts): WebhookStep => hook('template_create', templateData(channel.id, p), { refs: {} });

/** A message of any kind the channel lets the system send (text first), or undefined when it lets none. */
function anyMessage(channel: ChatChannel): fc.Arbitrary<DrawnMessage> | undefined {
  if (channel.messageKinds.length === 0) return undefined;
  return fc.constantFrom(...channel.messageKinds).chain((k) => messageSentData(channel, k));
}

/**
 * The data of message_updated / message_deleted / message_read about the case's message `m`
 * (in its conversation: `refs.conversation` is `previous`), or, on a channel that sends no
 * message, about a message of one of its conversations.
 */
function messageEventData(channel: ChatChannel, type: 'message_updated' | 'message_deleted' | 'message_read', m: Record<string, unknown> | undefined): fc.Arbitrary<{ data: Record<string, unknown>; refs: StepRefs }> {
  return fc.record({ external_message_id: externalId('m'), conversation: fc.nat(7), content: text(1, 6), user }).map((r) => {
    const base = { external_message_id: r.external_message_id, channel_id: channel.id };
    const refs: StepRefs = { conversation: m ? 'previous' : r.conversation };
    if (type === 'message_updated') return { data: { ...base, type: 'text', content: r.content, user: r.user }, refs };
    if (type === 'message_deleted') return { data: { ...base, type: typeof m?.type === 'string' ? m.type : 'text', user: r.user }, refs };
    return { data: base, refs };
  });
}

const cache = new WeakMap<ChatChannel, Map<WebhookType, fc.Arbitrary<CaseStep[]>>>();

/** Steps of one authorised webhook of this type, with whatever it needs first (a template created, a message sent). */
export function stepsOf(channel: ChatChannel, type: WebhookType): fc.Arbitrary<CaseStep[]> {
  let byType = cache.get(channel);
  if (!byType) cache.set(channel, (byType = new Map()));
  let arb = byType.get(type);
  if (!arb) byType.set(type, (arb = buildSteps(channel, type)));
  return arb;
}

function buildSteps(channel: ChatChannel, type: WebhookType): fc.Arbitrary<CaseStep[]> {
  switch (type) {
    case 'message_sent': {
      const plain = anyMessage(channel)!.map((m) => [hook('message_sent', m.data, { refs: m.refs })]);
      if (!(channel.templateSending && channel.templateCreation)) return plain;
      const templated = templateParts.chain((p) =>
        fc.tuple(messageBase(channel, 'text'), templateVariables(p), filePick).map(([base, variables, pick]): CaseStep[] => {
          const body = (variables.body as { args: string[] }).args;
          const refs: StepRefs = { ...base.refs, ...(p.header.kind === 'file' ? { files: [pick] } : {}) };
          return [createStep(channel, p), hook('message_sent', { ...base.data, type: 'text', content: rendered(p.body, body), template: { code: '', variables } }, { useCode: true, refs })];
        }),
      );
      return fc.oneof({ arbitrary: plain, weight: 2 }, { arbitrary: templated, weight: 1 });
    }
    case 'message_updated':
    case 'message_deleted':
    case 'message_read': {
      const m = anyMessage(channel);
      if (!m) return messageEventData(channel, type, undefined).map((d) => [hook(type, d.data, { refs: d.refs })]);
      return m.chain((sent) => messageEventData(channel, type, sent.data).map((d) => [hook('message_sent', sent.data, { refs: sent.refs }), hook(type, d.data, { useMessage: true, refs: d.refs })]));
    }
    case 'template_create':
      // Several at once: a code given twice shows within one case, which replays alone.
      return fc.array(templateParts, { minLength: 2, maxLength: 5 }).map((ps) => ps.map((p) => createStep(channel, p)));
    case 'template_update':
      return templateParts.chain((p) => {
        const created = templateData(channel.id, p);
        // A template's life: created, edited once or twice, perhaps deleted at last.
        return fc
          .tuple(fc.array(updatedTemplateContent(channel, created, ''), { minLength: 1, maxLength: 2 }), fc.boolean())
          .map(([updates, deleted]) => [
            createStep(channel, p),
            ...updates.map((u) => hook('template_update', u, { useCode: true, refs: {} })),
            ...(deleted ? [hook('template_delete', templateDeleteData(channel, '', p.lang), { useCode: true })] : []),
          ]);
      });
    case 'template_delete':
      return templateParts.map((p) => [createStep(channel, p), hook('template_delete', templateDeleteData(channel, '', p.lang), { useCode: true })]);
  }
}

/** Authorised webhooks of the types the channel enables (none when it enables none). */
export function webhookCase(channel: ChatChannel, types: readonly WebhookType[] = channel.webhookTypes): fc.Arbitrary<GeneratedCase> | undefined {
  const usable = types.filter((t) => channel.webhookTypes.includes(t) && (t !== 'message_sent' || channel.messageKinds.length > 0));
  if (usable.length === 0) return undefined;
  // Cases of template_create weigh more: codes must be unique over many generated templates.
  return fc.oneof(...usable.map((t) => ({ arbitrary: stepsOf(channel, t).map((steps) => caseOf(channel, steps)), weight: t === 'template_create' ? 3 : 1 })));
}

/**
 * A probe: one webhook the channel enables sent with a missing or unknown `ClientId`, after
 * what it needs (a template, a message) and before an authorised observer: for a refused
 * `template_delete` the provider's verdict on the template (`verdict`: the transport still
 * reports it), else the same authorised webhook right after.
 */
export function refusedCase(channel: ChatChannel, options: { verdict: boolean }): fc.Arbitrary<GeneratedCase> | undefined {
  const usable = channel.webhookTypes.filter((t) => t !== 'message_sent' || channel.messageKinds.length > 0);
  if (usable.length === 0) return undefined;
  // A refused template_delete is the one the gateway can show an effect of (the verdict): drawn more often.
  const ofType = (t: WebhookType) =>
    fc.tuple(fc.constantFrom<'missing' | 'unknown'>('missing', 'unknown'), stepsOf(channel, t), stepsOf(channel, t)).map(([presented, steps, after]) => {
      const probed = steps.at(-1) as WebhookStep;
      const observer: CaseStep[] = t === 'template_delete' && options.verdict ? [{ kind: 'verdict' }] : [{ ...probed }];
      // The barrier of a refused template_create is another template; of a refused message_sent another message.
      if (t === 'template_create' || t === 'message_sent') observer.splice(0, 1, ...after);
      return caseOf(channel, [...steps.slice(0, -1), { ...probed, clientId: presented }, ...observer]);
    });
  return fc.oneof(...usable.map((t) => ({ arbitrary: ofType(t), weight: t === 'template_delete' && options.verdict ? 3 : 1 })));
}
