/**
 * What a webhook may name (wire profile section 6, "What a webhook's `data` names exists on the
 * gateway"), per channel: the conversations of the channel, each with its chat and customer, the
 * message ids the transport knows in it, and the files the gateway holds for a transport.
 *
 * - A conversation is started by a customer's message the transport sent (`POST /messages`, or
 *   `POST /messages/history`: its `external_chat_id`, else the customer's `external_id`, and the
 *   customer `customer` or the older `user`), or by the gateway itself (`start`: a manager who
 *   writes first, as the suite does when no customer wrote).
 * - The message ids the transport knows in a conversation: the `external_id` of every message it
 *   sent there, and its `external_message_id` answers to `message_sent` webhooks of that chat
 *   (`answered`); a message a successful `message_deleted` removed is no longer quoted (`deleted`).
 * - Files: those the module uploaded (`/files/upload`, `/files/upload_by_url`) and those the
 *   gateway put there itself (`putFile`), all served at `GET /files/{id}` to the transport whose
 *   token they carry (`gateway-files.ts`).
 *
 * Bounded like the rest of the state: at most `MAX_CONVERSATIONS` conversations per channel and
 * `MAX_IDS` known ids per conversation, the oldest forgotten first.
 */
import { randomUUID } from 'node:crypto';
import { isObject, iso, str } from './gateway-values.ts';

/** A file the gateway holds: uploaded by the module, or put there by the gateway itself. */
export interface GatewayFile {
  id: string;
  token: string;
  size: number;
  mime_type: string;
  source_url?: string;
  created_at: string;
  transcription?: string;
  transcription_status?: string;
  /** Who put it there: the module (an upload; the default) or the gateway itself (`gateway-conversations.ts`). */
  origin?: 'module' | 'gateway';
}

export const MAX_CONVERSATIONS = 200;
export const MAX_IDS = 200;

export interface ConversationCustomer {
  external_id: string;
  /** The customer as the transport last sent it (`nickname`, `first_name`, `last_name`, `avatar`...), or as the gateway made it. */
  fields: Record<string, unknown>;
}

export interface Conversation {
  channelId: number;
  external_chat_id: string;
  customer: ConversationCustomer;
  /** Who started it: a customer's message the transport sent, or the gateway. */
  origin: 'transport' | 'gateway';
  /** Ids of the messages the transport sent in it (`message.external_id`), oldest first. */
  transportMessages: string[];
  /** The transport's `external_message_id` answers to `message_sent` webhooks of this chat, oldest first. */
  answers: string[];
  started_at: string;
}

const pushBounded = (list: string[], id: string): void => {
  if (list.includes(id)) return;
  list.push(id);
  if (list.length > MAX_IDS) list.shift();
};

export class Conversations {
  /** Conversations by channel, then by external chat id (insertion order: oldest first). */
  private readonly byChannel = new Map<number, Map<string, Conversation>>();

  /** The conversations of a channel, oldest first. */
  of(channelId: number): Conversation[] {
    return [...(this.byChannel.get(channelId)?.values() ?? [])];
  }

  /** A conversation of a channel by its external chat id. */
  get(channelId: number, externalChatId: string): Conversation | undefined {
    return this.byChannel.get(channelId)?.get(externalChatId);
  }

  /** Every message id the transport knows in a conversation: its own messages', then its answers. */
  knownIds(c: Conversation): string[] {
    return [...c.transportMessages, ...c.answers.filter((a) => !c.transportMessages.includes(a))];
  }

  private add(c: Conversation): Conversation {
    let chats = this.byChannel.get(c.channelId);
    if (!chats) this.byChannel.set(c.channelId, (chats = new Map()));
    chats.set(c.external_chat_id, c);
    if (chats.size > MAX_CONVERSATIONS) chats.delete(chats.keys().next().value!);
    return c;
  }

  /**
   * Records a message the transport sent (`POST /messages`, `/messages/history`) in an active
   * channel of its own: the conversation it starts or continues, and its `external_id`. A body
   * with no customer and no chat names no conversation and is left out.
   */
  fromTransportMessage(channelId: number, body: Record<string, unknown>): Conversation | undefined {
    const who = isObject(body.customer) ? body.customer : isObject(body.user) ? body.user : undefined;
    const customerId = who ? str(who.external_id) : undefined;
    const chatId = str(body.external_chat_id) ?? customerId;
    if (chatId === undefined) return undefined;
    let c = this.get(channelId, chatId);
    if (!c) {
      if (customerId === undefined) return undefined;
      c = this.add({ channelId, external_chat_id: chatId, customer: { external_id: customerId, fields: { ...who } }, origin: 'transport', transportMessages: [], answers: [], started_at: iso() });
    } else if (who && customerId !== undefined) {
      c.customer = { external_id: customerId, fields: { ...c.customer.fields, ...who } };
    }
    const message = isObject(body.message) ? body.message : undefined;
    const externalId = message ? str(message.external_id) : undefined;
    if (externalId !== undefined) pushBounded(c.transportMessages, externalId);
    return c;
  }

  /** A conversation the gateway starts itself (a manager writes first), with a customer it knows. */
  start(channelId: number, externalChatId: string, customer: ConversationCustomer): Conversation {
    return this.get(channelId, externalChatId) ?? this.add({ channelId, external_chat_id: externalChatId, customer, origin: 'gateway', transportMessages: [], answers: [], started_at: iso() });
  }

  /** The transport answered a `message_sent` of this chat with its `external_message_id`. */
  answered(channelId: number, externalChatId: string, externalMessageId: string): void {
    const c = this.get(channelId, externalChatId);
    if (c) pushBounded(c.answers, externalMessageId);
  }

  /** A message of this chat was deleted (a successful `message_deleted`): it is quoted no more. */
  deleted(channelId: number, externalChatId: string, externalMessageId: string): void {
    const c = this.get(channelId, externalChatId);
    if (!c) return;
    c.transportMessages = c.transportMessages.filter((id) => id !== externalMessageId);
    c.answers = c.answers.filter((id) => id !== externalMessageId);
  }

  /** How many conversations each channel has, by who started them. */
  counts(): Record<string, { transport: number; gateway: number }> {
    return Object.fromEntries(
      [...this.byChannel].map(([channel, chats]) => {
        const all = [...chats.values()];
        return [String(channel), { transport: all.filter((c) => c.origin === 'transport').length, gateway: all.filter((c) => c.origin === 'gateway').length }];
      }),
    );
  }
}

/** A file of the gateway's own (a manager's upload in the system), for the transport of `token`. */
export function gatewayFile(token: string, kind: string, size: number): GatewayFile {
  const mime = kind === 'image' ? 'image/jpeg' : kind === 'audio' ? 'audio/ogg' : kind === 'video' ? 'video/mp4' : 'application/pdf';
  return { id: randomUUID(), token, size, mime_type: mime, created_at: iso(), origin: 'gateway' };
}
