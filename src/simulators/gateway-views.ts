/**
 * How the gateway shows what it holds on the wire: one function per object of the Transport API
 * and the Bot API, each with the fields the official Go clients decode
 * (`retailcrm/mg-transport-api-client-go` and `retailcrm/mg-bot-api-client-go` `v1/types.go`,
 * `retailcrm/transport-api-client-go` and `retailcrm/bot-api-client-go` generated models).
 *
 * Both client generations must decode the same reply, so where they differ the view carries
 * the fields of both (a message deleted through the Transport API answers `message_id` for the
 * older client and the message for the newer). Times are RFC 3339; a time the newer clients
 * decode into a non-pointer field is never null. File ids are UUIDs (the newer clients decode
 * them as such), so attachments whose id is not one are left out of message views.
 */
import { posInt } from './gateway-routing.ts';
import { isObject, str } from './gateway-values.ts';
import type { CommandMeta, GatewayBot, GatewayChannel, GatewayChat, GatewayCustomer, GatewayDialog, GatewayMember, GatewayMessage, GatewayTemplate, GatewayUser } from './gateway-records.ts';
import type { GatewayFile } from './gateway-conversations.ts';
import type { GatewayState } from './gateway-state.ts';

type View = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** The file kind the clients know (`image`, `audio`, `video`, `file`) for a MIME type. */
export function fileKind(mime: string): 'image' | 'audio' | 'video' | 'file' {
  const top = mime.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}

/** A channel as the channel lists of both APIs show it. */
export function channelView(c: GatewayChannel): View {
  return {
    id: c.id,
    type: c.type,
    name: c.name ?? null,
    external_id: c.external_id,
    settings: c.settings,
    created_at: c.created_at,
    updated_at: c.updated_at ?? null,
    activated_at: c.activated_at,
    deactivated_at: c.deactivated_at ?? null,
    is_active: c.is_active,
  };
}

/** A template in `GET /templates`: the fields as received, with its id and state. */
export function templateView(state: GatewayState, t: GatewayTemplate): View {
  return {
    ...t.template,
    id: state.templateId(t),
    channel_id: t.channel_id,
    code: t.code,
    enabled: true,
    ...(t.verification_status ? { verification_status: t.verification_status } : {}),
    ...(t.rejection_reason ? { rejection_reason: t.rejection_reason } : {}),
  };
}

/** The reply to an upload (older clients: id, hash, type, meta, mime_type, size, source_url, created_at). */
export function uploadView(f: GatewayFile): View {
  return { id: f.id, hash: f.id, type: fileKind(f.mime_type), meta: {}, mime_type: f.mime_type, size: f.size, source_url: f.source_url ?? null, created_at: f.created_at, ...transcription(f) };
}

/** The reply to `GET /files/{id}`: id, type, size, url (the newer transport client spells it `Url`; Go matches it either way). */
export function fileInfoView(f: GatewayFile, url: string): View {
  return { id: f.id, type: fileKind(f.mime_type), size: f.size, url: f.source_url ?? url, mime_type: f.mime_type, ...transcription(f) };
}

function transcription(f: GatewayFile): View {
  return { ...(f.transcription !== undefined ? { transcription: f.transcription } : {}), ...(f.transcription_status ? { transcription_status: f.transcription_status } : {}) };
}

/** A chat actor for a customer. */
export function customerActor(c: GatewayCustomer): View {
  const f = c.fields;
  return {
    id: c.id,
    external_id: c.external_id,
    type: 'customer',
    name: str(f.nickname) ?? str(f.first_name) ?? c.external_id,
    ...pick(f, ['first_name', 'last_name', 'avatar', 'phone', 'email']),
  };
}

/** A chat actor for a bot. */
export function botActor(b: GatewayBot): View {
  return { id: b.id, external_id: b.clientId, type: 'bot', name: b.name, ...(b.avatar_url ? { avatar: b.avatar_url } : {}), is_system: false };
}

/** A message: the Transport API's message object and the Bot API's message. */
export function messageView(state: GatewayState, m: GatewayMessage): View {
  const fromBot = m.from === 'bot';
  const inner = fromBot ? m.body : isObject(m.body.message) ? m.body.message : {};
  const content = fromBot ? str(m.body.content) : str(inner.text);
  const items = attachments(state, inner.items);
  const customer = m.customerId !== undefined ? state.customers.get(m.customerId) : undefined;
  const bot = fromBot ? state.botInfo.get(m.token) : undefined;
  const from = bot ? botActor(bot) : customer ? customerActor(customer) : undefined;
  return {
    id: m.id,
    chat_id: m.chatId ?? (fromBot ? (posInt(m.body.chat_id) ?? 0) : 0),
    type: str(inner.type) ?? 'text',
    scope: fromBot ? (str(m.body.scope) ?? 'public') : 'public',
    status: fromBot ? 'sent' : 'received',
    time: m.receivedAt,
    is_read: m.readAt !== undefined,
    is_edit: m.editedAt !== undefined,
    actions: [],
    ...(content !== undefined ? { content } : {}),
    ...(str(inner.note) ? { note: inner.note } : {}),
    ...(items.length > 0 ? { items } : {}),
    ...(from ? { from } : {}),
    ...(m.dialogId !== undefined ? { dialog: { id: m.dialogId } } : {}),
  };
}

/** A message in the Bot API's `GET /messages`. */
export function messageListView(state: GatewayState, m: GatewayMessage): View {
  return { ...messageView(state, m), ...(m.channelId !== undefined ? { channel_id: m.channelId } : {}), created_at: m.receivedAt, updated_at: m.editedAt ?? null };
}

/** Attachments `[{id, caption}]` of a message, with what the gateway knows of each file. */
function attachments(state: GatewayState, items: unknown): View[] {
  if (!Array.isArray(items)) return [];
  return items
    .filter((i): i is Record<string, unknown> => isObject(i) && typeof i.id === 'string' && UUID.test(i.id))
    .map((i) => {
      const file = state.files.get(String(i.id));
      return { id: i.id, ...(str(i.caption) ? { caption: i.caption } : {}), ...(file ? { size: file.size, type: file.mime_type, kind: fileKind(file.mime_type) } : {}) };
    });
}

export function customerView(c: GatewayCustomer): View {
  const f = c.fields;
  return {
    id: c.id,
    channel_id: c.channelId,
    external_id: c.external_id,
    ...(str(f.nickname) ? { username: f.nickname } : {}),
    ...pick(f, ['first_name', 'last_name', 'avatar', 'profile_url', 'country', 'language', 'phone', 'email']),
    ...(str(f.avatar) ? { avatar_url: f.avatar } : {}),
    ...(isObject(f.utm) ? { utm: pick(f.utm, ['source', 'medium', 'campaign', 'term', 'content']) } : {}),
    is_blocked: false,
    created_at: c.created_at,
    updated_at: c.updated_at ?? null,
    revoked_at: null,
  };
}

/** The responsible of a dialog, with the fields of both a Responsible and an Actor. */
function responsibleView(d: GatewayDialog): View | null {
  return d.responsible ? { id: d.responsible.id, type: d.responsible.type, assigned_at: d.responsible.assigned_at } : null;
}

/** A dialog inside a chat (`last_dialog`). */
function dialogShortView(d: GatewayDialog): View {
  return {
    id: d.id,
    begin_message_id: d.beginMessageId ?? null,
    ending_message_id: d.endingMessageId ?? null,
    responsible: responsibleView(d),
    assigned_at: d.responsible?.assigned_at ?? null,
    created_at: d.created_at,
    closed_at: d.closed_at ?? null,
  };
}

/** A dialog in `GET /dialogs`. */
export function dialogView(d: GatewayDialog): View {
  const bot = d.responsible?.type === 'bot' ? d.responsible.id : null;
  const responsible = responsibleView(d);
  return {
    id: d.id,
    chat_id: d.chatId,
    begin_message_id: d.beginMessageId ?? null,
    ending_message_id: d.endingMessageId ?? null,
    bot_id: bot,
    ...(responsible ? { responsible } : {}),
    is_assigned: d.responsible !== undefined,
    is_active: d.closed_at === undefined,
    tags: d.tags,
    created_at: d.created_at,
    updated_at: d.updated_at ?? null,
    closed_at: d.closed_at ?? null,
  };
}

/** A chat in `GET /chats`: its channel, customer, last message and last dialog. */
export function chatView(state: GatewayState, chat: GatewayChat): View {
  const channel = state.channels.get(chat.channelId);
  const customer = chat.customerId !== undefined ? state.customers.get(chat.customerId) : undefined;
  const last = chat.lastMessageId !== undefined ? state.messages.get(chat.lastMessageId) : undefined;
  const lastCustomer = [...state.messages.values()].filter((m) => m.chatId === chat.id && m.from === 'transport').at(-1);
  const dialog = [...state.dialogs.values()].filter((d) => d.chatId === chat.id).at(-1);
  return {
    id: chat.id,
    name: customer ? customerActor(customer).name : chat.external_chat_id,
    ...(channel
      ? { channel: { id: channel.id, transport_id: state.transportId(channel.token), ...(channel.type ? { type: channel.type } : {}), ...(channel.name ? { name: channel.name } : {}), is_active: channel.is_active, settings: channel.settings } }
      : {}),
    customer: customer ? customerActor(customer) : null,
    ...(last ? { last_message: messageView(state, last) } : {}),
    ...(lastCustomer ? { last_user_message: { id: lastCustomer.id } } : {}),
    ...(dialog ? { last_dialog: dialogShortView(dialog) } : {}),
    last_activity: chat.last_activity,
    created_at: chat.created_at,
    updated_at: chat.updated_at ?? null,
  };
}

export function botView(b: GatewayBot, selfToken: string): View {
  return {
    id: b.id,
    name: b.name,
    client_id: b.clientId,
    ...(b.avatar_url ? { avatar_url: b.avatar_url } : {}),
    roles: b.roles,
    is_active: true,
    is_self: b.token === selfToken,
    is_system: false,
    created_at: b.created_at,
    updated_at: b.updated_at ?? null,
    deactivated_at: null,
  };
}

export function userView(u: GatewayUser): View {
  return {
    id: u.id,
    ...pick(u as unknown as Record<string, unknown>, ['external_id', 'username', 'first_name', 'last_name']),
    available: u.is_online,
    is_online: u.is_online,
    connected: u.is_online,
    is_active: u.is_active,
    is_technical_account: false,
    created_at: u.created_at,
    updated_at: null,
    revoked_at: null,
  };
}

export function memberView(m: GatewayMember): View {
  return { id: m.id, chat_id: m.chatId, user_id: m.userId, is_author: false, state: m.state, created_at: m.created_at, updated_at: m.updated_at ?? null };
}

export function commandView(name: string, body: Record<string, unknown>, meta: CommandMeta): View {
  return { id: meta.id, name, description: typeof body.description === 'string' ? body.description : '', created_at: meta.created_at, updated_at: meta.updated_at ?? null };
}

/** The string fields of `from` named in `keys`. */
function pick(from: Record<string, unknown>, keys: string[]): View {
  return Object.fromEntries(keys.filter((k) => typeof from[k] === 'string' && from[k] !== '').map((k) => [k, from[k]]));
}
