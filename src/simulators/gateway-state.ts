/**
 * What the gateway simulator holds: the tokens it accepts, the channels transports activated,
 * templates with their verification history, messages, files, bot commands, and the chats,
 * customers and dialogs that customer messages open. Both APIs read and change this one state,
 * so what a transport did is what a bot sees. What a module's requests add one by one (messages,
 * files, customers, chats, dialogs; channels, templates per channel, users, members, commands per
 * bot) is held up to `MAX_HELD` of each, the oldest evicted first and counted (`evicted()` for
 * those a flow makes by the hundred): a reference to an evicted one (a chat's last message, a
 * message's customer) then reads as unknown. The tokens are the run's own, a handful. The shape of
 * each record is in `gateway-records.ts`.
 */
import { BoundedMap } from '../evidence/bounded.ts';
import { iso, isObject, str } from './gateway-values.ts';
import { Conversations, type GatewayFile } from './gateway-conversations.ts';
import type {
  BotRegistration,
  CommandMeta,
  GatewayBot,
  GatewayChannel,
  GatewayChat,
  GatewayCustomer,
  GatewayDialog,
  GatewayMember,
  GatewayMessage,
  GatewayTemplate,
  GatewayUser,
  TemplateStatusChange,
  TransportRegistration,
} from './gateway-records.ts';

type SeqKind = 'channel' | 'message' | 'template' | 'bot' | 'transport' | 'customer' | 'chat' | 'dialog' | 'user' | 'member' | 'command';

export class GatewayState {
  readonly transports = new Map<string, TransportRegistration>();
  readonly bots = new Map<string, BotRegistration>();
  readonly botInfo = new Map<string, GatewayBot>();
  readonly channels = new BoundedMap<number, GatewayChannel>();
  /** Templates by channel id, then by code. */
  readonly templates = new BoundedMap<number, Map<string, GatewayTemplate>>();
  readonly messages = new BoundedMap<number, GatewayMessage>();
  readonly files = new BoundedMap<string, GatewayFile>();
  /** Bot commands by bot token, then by name (the body as received). */
  readonly commands = new Map<string, Map<string, Record<string, unknown>>>();
  /** Ids and times of the bot commands, by bot token then name. */
  readonly commandMeta = new Map<string, Map<string, CommandMeta>>();
  readonly customers = new BoundedMap<number, GatewayCustomer>();
  readonly chats = new BoundedMap<number, GatewayChat>();
  readonly dialogs = new BoundedMap<number, GatewayDialog>();
  readonly users = new BoundedMap<number, GatewayUser>();
  readonly members = new BoundedMap<number, GatewayMember>();
  /** What a webhook may name, per channel: conversations, the ids the transport knows (`gateway-conversations.ts`). */
  readonly conversations = new Conversations();
  /** Numeric ids of the transports (a channel's `transport_id`), by token. */
  private readonly transportIds = new Map<string, number>();
  private readonly seq: Record<SeqKind, number> = { channel: 1, message: 1, template: 1, bot: 1, transport: 1, customer: 1, chat: 1, dialog: 1, user: 1, member: 1, command: 1 };

  private next(kind: SeqKind): number {
    return this.seq[kind]++;
  }

  /** How many of each bounded kind were evicted (oldest first) to stay within `MAX_HELD`. */
  evicted(): { messages: number; files: number; customers: number; chats: number; dialogs: number } {
    return { messages: this.messages.evicted, files: this.files.evicted, customers: this.customers.evicted, chats: this.chats.evicted, dialogs: this.dialogs.evicted };
  }

  // ---- credentials ---------------------------------------------------------------------------

  addTransport(reg: TransportRegistration): void {
    this.transports.set(reg.token, { ...reg });
    if (!this.transportIds.has(reg.token)) this.transportIds.set(reg.token, this.next('transport'));
  }

  addBot(reg: BotRegistration): void {
    this.bots.set(reg.token, { ...reg });
    if (!this.botInfo.has(reg.token)) {
      const id = this.next('bot');
      this.botInfo.set(reg.token, { id, token: reg.token, clientId: reg.clientId, name: `Bot ${id}`, roles: ['responsible'], created_at: iso() });
    }
  }

  transportId(token: string): number {
    return this.transportIds.get(token) ?? 0;
  }

  // ---- channels and templates ----------------------------------------------------------------

  /** Adds a channel of a transport as if it had activated it. */
  addChannel(token: string, body: Record<string, unknown>): GatewayChannel {
    const now = iso();
    const channel: GatewayChannel = {
      id: this.next('channel'),
      token,
      ...(typeof body.type === 'string' ? { type: body.type } : {}),
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      ...(typeof body.external_id === 'string' ? { external_id: body.external_id } : {}),
      settings: isObject(body.settings) ? body.settings : {},
      created_at: now,
      activated_at: now,
      is_active: true,
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  /** A channel of the token (active or not). */
  ownChannel(id: unknown, token: string): GatewayChannel | undefined {
    const channel = this.channels.get(Number(id));
    return channel && channel.token === token ? channel : undefined;
  }

  /** An active channel of the token. */
  activeChannel(id: unknown, token: string): GatewayChannel | undefined {
    const channel = this.ownChannel(id, token);
    return channel?.is_active ? channel : undefined;
  }

  template(channelId: number, code: string): GatewayTemplate | undefined {
    return this.templates.get(channelId)?.get(code);
  }

  channelTemplates(channelId: number): Map<string, GatewayTemplate> {
    let byCode = this.templates.get(channelId);
    if (!byCode) this.templates.set(channelId, (byCode = new BoundedMap()));
    return byCode;
  }

  /** Records a reported verification status (`verification_status`, `rejection_reason`) of a template. */
  applyStatus(tpl: GatewayTemplate, body: Record<string, unknown>, via: TemplateStatusChange['via']): void {
    const status = body.verification_status;
    if (typeof status !== 'string') return;
    const reason = typeof body.rejection_reason === 'string' ? body.rejection_reason : undefined;
    tpl.verification_status = status;
    if (reason !== undefined) tpl.rejection_reason = reason;
    else delete tpl.rejection_reason;
    tpl.history.push({ status, ...(reason !== undefined ? { rejection_reason: reason } : {}), at: iso(), via });
  }

  /** A stable numeric id of a template (the clients decode one). */
  templateId(tpl: GatewayTemplate): number {
    return (tpl.id ??= this.next('template'));
  }

  // ---- messages, customers, chats, dialogs ---------------------------------------------------

  /**
   * Records a customer message reported by a transport. With a channel it makes the customer
   * (`customer`, or the older `user`) and the chat (`external_chat_id`, else the customer's id)
   * known and opens a dialog in the chat when none is open.
   */
  addTransportMessage(token: string, body: Record<string, unknown>, channel?: GatewayChannel, history = false): GatewayMessage {
    const msg: GatewayMessage = { id: this.next('message'), from: 'transport', token, body, receivedAt: iso(), ...(history ? { history } : {}) };
    this.messages.set(msg.id, msg);
    if (!channel) return msg;
    msg.channelId = channel.id;
    const who = isObject(body.customer) ? body.customer : isObject(body.user) ? body.user : undefined;
    const customer = who && str(who.external_id) ? this.upsertCustomer(channel.id, who) : undefined;
    if (customer) msg.customerId = customer.id;
    const externalChatId = str(body.external_chat_id) ?? customer?.external_id;
    if (externalChatId === undefined) return msg;
    const chat = this.upsertChat(channel.id, externalChatId, customer);
    const dialog = this.openDialog(chat, msg.id);
    msg.chatId = chat.id;
    msg.dialogId = dialog.id;
    chat.lastMessageId = msg.id;
    chat.last_activity = msg.receivedAt;
    return msg;
  }

  /** Records a bot's message; linked to its chat and the chat's open dialog when the chat is known. */
  addBotMessage(token: string, body: Record<string, unknown>): GatewayMessage {
    const msg: GatewayMessage = { id: this.next('message'), from: 'bot', token, body, receivedAt: iso() };
    this.messages.set(msg.id, msg);
    const chat = this.chats.get(Number(body.chat_id));
    if (chat) {
      msg.chatId = chat.id;
      msg.channelId = chat.channelId;
      const dialog = this.activeDialog(chat.id);
      if (dialog) msg.dialogId = dialog.id;
      chat.lastMessageId = msg.id;
      chat.last_activity = msg.receivedAt;
    }
    return msg;
  }

  /** A message of a transport token by `{id}` or `{external_id}`, optionally in one channel. */
  transportMessage(token: string, ref: unknown, channelId?: number): GatewayMessage | undefined {
    if (!isObject(ref)) return undefined;
    const id = Number(ref.id);
    const externalId = ref.external_id;
    return [...this.messages.values()].find(
      (m) =>
        m.from === 'transport' &&
        m.token === token &&
        (channelId === undefined || m.channelId === undefined || m.channelId === channelId) &&
        ((ref.id !== undefined && ref.id !== null && m.id === id) || (typeof externalId === 'string' && isObject(m.body.message) && m.body.message.external_id === externalId)),
    );
  }

  private upsertCustomer(channelId: number, fields: Record<string, unknown>): GatewayCustomer {
    const externalId = String(fields.external_id);
    const known = [...this.customers.values()].find((c) => c.channelId === channelId && c.external_id === externalId);
    if (known) {
      known.fields = { ...known.fields, ...fields };
      known.updated_at = iso();
      return known;
    }
    const customer: GatewayCustomer = { id: this.next('customer'), channelId, external_id: externalId, fields, created_at: iso() };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private upsertChat(channelId: number, externalChatId: string, customer?: GatewayCustomer): GatewayChat {
    let chat = [...this.chats.values()].find((c) => c.channelId === channelId && c.external_chat_id === externalChatId);
    if (!chat) {
      const now = iso();
      chat = { id: this.next('chat'), channelId, external_chat_id: externalChatId, last_activity: now, created_at: now };
      this.chats.set(chat.id, chat);
    }
    if (customer) chat.customerId = customer.id;
    return chat;
  }

  /**
   * Makes a chat of a channel known, with its customer and an open dialog, as a customer's first
   * message would (the suite seeds chats for the bot's events when no transport opened one).
   */
  addChat(channelId: number, externalChatId: string, customer: Record<string, unknown> & { external_id: string }): GatewayChat {
    const chat = this.upsertChat(channelId, externalChatId, this.upsertCustomer(channelId, customer));
    this.openDialog(chat);
    return chat;
  }

  /** The open dialog of a chat. */
  activeDialog(chatId: number): GatewayDialog | undefined {
    return [...this.dialogs.values()].find((d) => d.chatId === chatId && d.closed_at === undefined);
  }

  /** The open dialog of a chat, or a new one beginning with `beginMessageId`. */
  openDialog(chat: GatewayChat, beginMessageId?: number): GatewayDialog {
    const open = this.activeDialog(chat.id);
    if (open) return open;
    const dialog: GatewayDialog = { id: this.next('dialog'), chatId: chat.id, tags: [], created_at: iso(), ...(beginMessageId !== undefined ? { beginMessageId } : {}) };
    this.dialogs.set(dialog.id, dialog);
    return dialog;
  }

  /** Makes a user a member of a chat (assigning a dialog to a user does). */
  join(chatId: number, userId: number): void {
    if ([...this.members.values()].some((m) => m.chatId === chatId && m.userId === userId)) return;
    const member: GatewayMember = { id: this.next('member'), chatId, userId, state: 'active', created_at: iso() };
    this.members.set(member.id, member);
  }

  /** Adds a manager the Bot API lists (`GET /users`); tests and specs seed them. */
  addUser(fields: Partial<Omit<GatewayUser, 'id' | 'created_at'>> = {}): GatewayUser {
    const user: GatewayUser = { is_active: true, is_online: false, ...fields, id: this.next('user'), created_at: iso() };
    this.users.set(user.id, user);
    return user;
  }

  // ---- bot commands --------------------------------------------------------------------------

  /** Creates or replaces a command of a bot; returns its id and times. */
  setCommand(token: string, name: string, body: Record<string, unknown>): CommandMeta {
    const byName = this.commands.get(token) ?? new BoundedMap<string, Record<string, unknown>>();
    byName.set(name, body);
    this.commands.set(token, byName);
    const metas = this.commandMeta.get(token) ?? new BoundedMap<string, CommandMeta>();
    this.commandMeta.set(token, metas);
    const known = metas.get(name);
    if (known) {
      known.updated_at = iso();
      return known;
    }
    const meta: CommandMeta = { id: this.next('command'), created_at: iso() };
    metas.set(name, meta);
    return meta;
  }

  /** Deletes a command; false when the bot has none of that name. */
  deleteCommand(token: string, name: string): boolean {
    this.commandMeta.get(token)?.delete(name);
    return this.commands.get(token)?.delete(name) ?? false;
  }
}
