/**
 * Frames the gateway sends a bot on its WebSocket, generated from the run's seed (wire profile
 * section 6: `{type, meta{timestamp}, data}`; "A command reaches the bot as `message_new` with
 * `message.type = "command"`"). The data is shaped as the official bot client decodes it
 * (`retailcrm/mg-bot-api-client-go` `v1/types.go`: `WsEvent{type, meta{timestamp}, data}`,
 * `WsEventMessageNewData{message}`, `Message{id, time, type, scope, chat_id, is_read, is_edit,
 * status, chat, from, dialog, content, quote, actions}`, `Chat`, `Channel`, `UserRef`).
 *
 * Every event happens in a chat the gateway knows (`GatewayState.chats`, with its channel,
 * customer and open dialog): the chats transports opened, and chats the suite seeds when there
 * are too few (`seedBotChats`). Commands are those the bot registered (`GatewayState.commands`
 * of its token): `/name args`. A plain new message is a customer's text in a chat.
 */
import fc from 'fast-check';
import type { GatewaySimulator } from '../../simulators/gateway.ts';
import type { BotFrame } from '../../simulators/gateway-bot-ws.ts';
import type { GatewayState } from '../../simulators/gateway-state.ts';
import { words } from './words.ts';
import { matching } from '../matching.ts';

/** The suite's own transport token for the channel of seeded chats (never a module's). */
export const SUITE_CHANNEL_TOKEN = 'suite-bot-events-channel';

/** A chat an event can come from, as the frame shows it. */
export interface BotEventChat {
  id: number;
  channel: { id: number; transport_id: number; type: string; name: string };
  customer: { id: number; external_id: string; name: string; first_name?: string; last_name?: string };
  dialogId?: number;
}

export interface BotEventContext {
  chats: BotEventChat[];
  /** Names of the commands the bot registered. */
  commands: string[];
}

/** What a generated frame is: a command in a chat, or a customer's plain message. */
export type BotEventKind = 'command' | 'text';

/** A generated frame with what the suite knows of it. */
export interface BotEvent {
  kind: BotEventKind;
  /** The chat the event came from. */
  chatId: number;
  /** For a command: its name, without the slash. */
  command?: string;
  frame: BotFrame;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The chats and commands of the gateway's state, for a bot token. */
export function botEventContextOf(state: GatewayState, botToken: string): BotEventContext {
  const chats: BotEventChat[] = [];
  for (const chat of state.chats.values()) {
    const channel = state.channels.get(chat.channelId);
    const customer = chat.customerId !== undefined ? state.customers.get(chat.customerId) : undefined;
    if (!channel || !customer) continue;
    const first = text(customer.fields.first_name);
    const last = text(customer.fields.last_name);
    chats.push({
      id: chat.id,
      channel: { id: channel.id, transport_id: state.transportId(channel.token), type: channel.type ?? 'custom', name: channel.name ?? `channel ${channel.id}` },
      customer: { id: customer.id, external_id: customer.external_id, name: [first, last].filter(Boolean).join(' ') || text(customer.fields.nickname) || customer.external_id, ...(first ? { first_name: first } : {}), ...(last ? { last_name: last } : {}) },
      ...(state.activeDialog(chat.id) ? { dialogId: state.activeDialog(chat.id)!.id } : {}),
    });
  }
  return { chats, commands: [...(state.commands.get(botToken)?.keys() ?? [])] };
}

/** Customers of the seeded chats: a Cyrillic name, one with diacritics, one with an emoji (issue 31, item 8). */
const SEEDED_CUSTOMERS = [
  { external_id: 'suite-customer-1', first_name: 'Анна', last_name: 'Берг' },
  { external_id: 'suite-customer-2', first_name: 'Jürgen', last_name: 'Groß' },
  { external_id: 'suite-customer-3', first_name: 'Mia 🌸', last_name: 'Novák' },
];

/**
 * Makes at least `min` chats known to the gateway: when transports opened fewer, chats of a
 * channel of the suite's own (type `custom`) with a customer and an open dialog each.
 */
export function seedBotChats(gateway: GatewaySimulator, min = 3): void {
  const state = gateway.state;
  const known = [...state.chats.values()].filter((c) => c.customerId !== undefined && state.channels.has(c.channelId)).length;
  if (known >= min) return;
  let channel = [...state.channels.values()].find((c) => c.token === SUITE_CHANNEL_TOKEN);
  channel ??= gateway.seedChannel(SUITE_CHANNEL_TOKEN, { type: 'custom', name: 'Suite chats', external_id: 'suite-bot-events', settings: { text: { creating: 'both' } } });
  for (let i = 0; i < min - known; i++) {
    const customer = SEEDED_CUSTOMERS[i % SEEDED_CUSTOMERS.length]!;
    state.addChat(channel.id, `${customer.external_id}-chat-${i}`, { ...customer, external_id: `${customer.external_id}-${i}` });
  }
}

/** A word of a command's arguments: an order number, a track number, a word (Latin, Cyrillic, with diacritics). */
const argument = fc.oneof(matching(/^[A-Z]{1,3}-?\d{1,6}$/), matching(/^\d{1,8}$/), matching(/^[a-z]{1,10}$/), fc.constantFrom('заказ', 'доставка', 'número', 'größe'));

/**
 * A customer's plain message: set phrases in Latin, Cyrillic, with diacritics and emoji, words of
 * every class (`words.ts`), and free Latin text; never one that starts with a slash (a command).
 */
const plainText = fc.oneof(
  fc.constantFrom('Hello', 'Where is my order?', 'Thanks!', 'status', 'Can I change the address?', 'Где мой заказ?', 'Спасибо 🙏', '¿Dónde está mi pedido?', 'Grüße aus Köln 👋🏽'),
  words(1, 8),
  matching(/^[A-Za-z0-9 ,.?!]{1,80}$/),
).filter((s) => s.trim() !== '' && !s.trim().startsWith('/'));

/** The message of a `message_new` frame, as `v1.Message` decodes it. */
function message(chat: BotEventChat, id: number, type: 'command' | 'text', content: string, at: number): Record<string, unknown> {
  const customer = { id: chat.customer.id, external_id: chat.customer.external_id, avatar: '', type: 'customer', name: chat.customer.name, ...(chat.customer.first_name ? { first_name: chat.customer.first_name } : {}), ...(chat.customer.last_name ? { last_name: chat.customer.last_name } : {}), is_admin: false, available: true, is_technical_account: false, is_system: false };
  const time = new Date(at * 1000).toISOString();
  return {
    id,
    time,
    type,
    scope: 'public',
    chat_id: chat.id,
    is_read: false,
    is_edit: false,
    status: 'received',
    chat: {
      id: chat.id,
      avatar: '',
      name: chat.customer.name,
      channel: { ...chat.channel, supports: { messages: ['text'], statuses: [] } },
      members: [],
      customer,
      author_id: 0,
      last_activity: time,
    },
    from: customer,
    ...(chat.dialogId !== undefined ? { dialog: { id: chat.dialogId } } : {}),
    content,
    quote: null,
    actions: [],
  };
}

/** A base time (unix seconds) for generated messages: fixed, so that a case is the same on replay. */
const BASE_TIME = 1_767_225_600; // 2026-01-01T00:00:00Z

const messageId = fc.integer({ min: 1_000_000, max: 2_000_000_000 });
const offset = fc.integer({ min: 0, max: 86_400 });

/** A command the bot registered, sent in a known chat: `message_new` with `message.type = "command"` and content `/name args`. */
export function commandEvent(ctx: BotEventContext): fc.Arbitrary<BotEvent> {
  if (ctx.chats.length === 0 || ctx.commands.length === 0) throw new Error('commandEvent needs a known chat and a registered command');
  return fc.record({ chat: fc.constantFrom(...ctx.chats), name: fc.constantFrom(...ctx.commands), args: fc.array(argument, { maxLength: 3 }), id: messageId, at: offset }).map(({ chat, name, args, id, at }) => {
    const content = [`/${name}`, ...args].join(' ');
    const timestamp = BASE_TIME + at;
    return { kind: 'command' as const, chatId: chat.id, command: name, frame: { type: 'message_new', meta: { timestamp }, data: { message: message(chat, id, 'command', content, timestamp) } } };
  });
}

/** A customer's new text message in a known chat (`message_new`, `message.type = "text"`). */
export function textEvent(ctx: BotEventContext): fc.Arbitrary<BotEvent> {
  if (ctx.chats.length === 0) throw new Error('textEvent needs a known chat');
  return fc.record({ chat: fc.constantFrom(...ctx.chats), content: plainText, id: messageId, at: offset }).map(({ chat, content, id, at }) => {
    const timestamp = BASE_TIME + at;
    return { kind: 'text' as const, chatId: chat.id, frame: { type: 'message_new', meta: { timestamp }, data: { message: message(chat, id, 'text', content, timestamp) } } };
  });
}

/** Commands (three in four) and plain messages, in known chats. */
export function botEvent(ctx: BotEventContext): fc.Arbitrary<BotEvent> {
  return fc.oneof({ arbitrary: commandEvent(ctx), weight: 3 }, { arbitrary: textEvent(ctx), weight: 1 });
}

/** A command frame for a name the bot did not register (to learn whether a bot that registered none reacts to commands). */
export function probeCommand(chat: BotEventChat, name: string, id = 1_000_001): BotEvent {
  const timestamp = Math.floor(Date.now() / 1000);
  return { kind: 'command', chatId: chat.id, command: name, frame: { type: 'message_new', meta: { timestamp }, data: { message: message(chat, id, 'command', `/${name}`, timestamp) } } };
}
