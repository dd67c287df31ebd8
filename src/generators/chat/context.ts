/**
 * What the chat specs know of the module under test: the transport and bot tokens the system
 * handed out at its accepted registration, the transport's `webhookUrl`, and the channels the
 * transport activated at the gateway, each with the webhook types its settings enable (wire
 * profile section 6: the gateway sends a channel's transport only the webhooks its settings
 * enable). Every chat spec reads the module through here.
 */
import type { RunSession } from '../../run/session.ts';
import type { GatewayChannel } from '../../simulators/gateway-records.ts';

/** The webhook types the suite sends (wire profile section 6; reactions are left out: the profile ties them to no setting). */
export const WEBHOOK_TYPES = ['message_sent', 'message_updated', 'message_deleted', 'message_read', 'template_create', 'template_update', 'template_delete'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** The kinds of message the system can send through a channel, each named after its settings member. */
export const MESSAGE_KINDS = ['text', 'image', 'file', 'audio', 'product', 'order'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export interface ChatChannel {
  id: number;
  external_id?: string;
  type?: string;
  /** The settings as the transport last sent them. */
  settings: Record<string, unknown>;
  /** `settings.template.creation` is true. */
  templateCreation: boolean;
  /** `sending_policy` lets a manager send templates (`after_reply_timeout` or `new_customer` is `template`). */
  templateSending: boolean;
  /** The kinds of message `message_sent` may carry here: those whose `creating` feature is not `none`. */
  messageKinds: MessageKind[];
  /** The webhook types the gateway sends for this channel. */
  webhookTypes: WebhookType[];
}

export interface TransportContext {
  token: string;
  clientId: string;
  webhookUrl?: string;
  /** The channels of the transport that are active now, oldest first. */
  channels: ChatChannel[];
}

export interface BotContext {
  token: string;
  clientId: string;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A feature is on unless it is absent, null or `none` (values of wire profile 6: none, receive, send, both). */
export function featureOn(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value !== 'none';
}

/** The webhook types a channel's settings enable (wire profile section 6). */
export function webhookTypesOf(settings: Record<string, unknown>): WebhookType[] {
  const kinds = messageKindsOf(settings);
  const text = obj(settings.text);
  const types: WebhookType[] = [];
  if (kinds.length > 0) types.push('message_sent');
  if (featureOn(text.editing)) types.push('message_updated');
  if (featureOn(text.deleting)) types.push('message_deleted');
  if (featureOn(obj(settings.status).read)) types.push('message_read');
  if (obj(settings.template).creation === true) types.push('template_create', 'template_update', 'template_delete');
  return types;
}

export function messageKindsOf(settings: Record<string, unknown>): MessageKind[] {
  return MESSAGE_KINDS.filter((k) => featureOn(obj(settings[k]).creating));
}

export function chatChannelOf(c: GatewayChannel): ChatChannel {
  const policy = obj(c.settings.sending_policy);
  return {
    id: c.id,
    ...(c.external_id !== undefined ? { external_id: c.external_id } : {}),
    ...(c.type !== undefined ? { type: c.type } : {}),
    settings: c.settings,
    templateCreation: obj(c.settings.template).creation === true,
    templateSending: policy.after_reply_timeout === 'template' || policy.new_customer === 'template',
    messageKinds: messageKindsOf(c.settings),
    webhookTypes: webhookTypesOf(c.settings),
  };
}

function clientIdOf(session: RunSession): string | undefined {
  const id = session.registration?.module.clientId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The session module's transport at the gateway (undefined when it registered no `mgTransport`). */
export function transportOf(session: RunSession): TransportContext | undefined {
  const clientId = clientIdOf(session);
  if (clientId === undefined) return undefined;
  const reg = [...session.gateway.transports.values()].filter((t) => t.clientId === clientId).at(-1);
  if (!reg) return undefined;
  const channels = [...session.gateway.channels.values()].filter((c) => c.token === reg.token && c.is_active).map(chatChannelOf);
  return { token: reg.token, clientId, ...(reg.webhookUrl !== undefined ? { webhookUrl: reg.webhookUrl } : {}), channels };
}

/** The session module's bot at the gateway (undefined when it registered no `mgBot`). */
export function botOf(session: RunSession): BotContext | undefined {
  const clientId = clientIdOf(session);
  if (clientId === undefined) return undefined;
  const reg = [...session.gateway.bots.values()].filter((b) => b.clientId === clientId).at(-1);
  return reg ? { token: reg.token, clientId } : undefined;
}

/**
 * The transport once it has an active channel: a transport activates its channels on its own
 * after its registration (the document's flow), so the specs wait for the first one, up to
 * `timeoutMs`. The context as it is at the timeout (perhaps with no channel). Each active channel
 * then gets its first customer message (`openConversation`) before any spec drives the transport.
 */
export async function awaitChannels(session: RunSession, timeoutMs: number): Promise<TransportContext | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = transportOf(session);
    if (!t || t.channels.length > 0 || Date.now() >= deadline) {
      for (const c of t?.channels ?? []) await openConversation(session, c.id);
      return t;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The customer's first message: Cyrillic, diacritics and an emoji, as the platform's customers write. */
export const FIRST_CUSTOMER_MESSAGE = 'Здравствуйте! Où est ma commande? 📦';

/** The channels of a session asked for their first customer message. */
const asked = new WeakMap<RunSession, Set<number>>();

/**
 * A channel's first customer message (issue 31, item 3): where the module declares
 * `transport.inboundMessage`, it is fired once per channel with `count` 1 before the transport is
 * driven (the first chat spec that waits for the channels, or a replayed webhook case), and the
 * gateway waits (up to the flow timeout, at most 5 s) for the conversation the message opens
 * (`POST /messages`), so that a transport that opens its channel on a customer's first message
 * is reached, and webhooks name a chat it knows. A channel that already has a conversation a
 * customer started gets none; one whose transport sends none gets a conversation the gateway
 * starts itself when a webhook needs one (`references.ts`).
 */
export async function openConversation(session: RunSession, channelId: number): Promise<void> {
  const opened = (): boolean => session.gateway.state.conversations.of(channelId).some((c) => c.origin === 'transport');
  let done = asked.get(session);
  if (!done) asked.set(session, (done = new Set()));
  if (done.has(channelId) || opened() || !session.triggers.declared('transport.inboundMessage')) return;
  done.add(channelId);
  const reply = await session.triggers.fire('transport.inboundMessage', { channelId, text: FIRST_CUSTOMER_MESSAGE, count: 1 });
  if (reply.status === undefined || reply.status >= 400) return;
  const deadline = Date.now() + Math.min(session.config.flowTimeoutMs, 5000);
  while (!opened() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
