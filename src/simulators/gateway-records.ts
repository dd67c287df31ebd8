/**
 * The records the gateway simulator holds, one shape each (tokens, bots, channels, templates with
 * their verification history, messages, files, customers, chats, dialogs, users, members, bot
 * commands), and its two APIs' names. The state that holds them is `gateway-state.ts`; how the
 * APIs show them, `gateway-views.ts`.
 */

/** The gateway's two APIs, and so the token header a call needs. */
export type Api = 'transport' | 'bot';

export interface TransportRegistration {
  token: string;
  clientId: string;
  webhookUrl?: string;
}

export interface BotRegistration {
  token: string;
  clientId: string;
}

/** A bot as the Bot API shows it (`GET /bots`, `PATCH /my/info`). */
export interface GatewayBot {
  id: number;
  token: string;
  clientId: string;
  name: string;
  avatar_url?: string;
  roles: string[];
  created_at: string;
  updated_at?: string;
}

export interface GatewayChannel {
  id: number;
  /** The transport token that activated it. */
  token: string;
  type?: string;
  name?: string;
  external_id?: string;
  /** Settings as last received, `sending_policy` and `template.creation` included. */
  settings: Record<string, unknown>;
  created_at: string;
  updated_at?: string;
  activated_at: string;
  deactivated_at?: string;
  is_active: boolean;
}

export interface TemplateStatusChange {
  status: string;
  rejection_reason?: string;
  at: string;
  /** What reported the status: the module's create or update call, or a webhook reply. */
  via: 'transport.template.create' | 'transport.template.update' | 'webhook template_create' | 'webhook template_update';
}

export interface GatewayTemplate {
  /** The gateway's numeric id of the template, given when a list first shows it. */
  id?: number;
  channel_id: number;
  code: string;
  /** The template fields as last received. */
  template: Record<string, unknown>;
  verification_status?: string;
  rejection_reason?: string;
  history: TemplateStatusChange[];
}

export interface GatewayMessage {
  id: number;
  /** `transport` for a customer message reported by a transport module, `bot` for a bot's message. */
  from: Api;
  token: string;
  body: Record<string, unknown>;
  receivedAt: string;
  editedAt?: string;
  deletedAt?: string;
  readAt?: string;
  /** Reported through `POST /messages/history`. */
  history?: boolean;
  channelId?: number;
  chatId?: number;
  dialogId?: number;
  customerId?: number;
  reactions?: string[];
}

/** A file the gateway holds (its shape lives beside the files the gateway makes itself). */

/** A customer of a channel, made known by the transport's messages. */
export interface GatewayCustomer {
  id: number;
  channelId: number;
  external_id: string;
  /** The customer object as last received (`nickname`, `first_name`, `avatar`, `utm`...). */
  fields: Record<string, unknown>;
  created_at: string;
  updated_at?: string;
}

export interface GatewayChat {
  id: number;
  channelId: number;
  external_chat_id: string;
  customerId?: number;
  lastMessageId?: number;
  last_activity: string;
  created_at: string;
  updated_at?: string;
}

export interface Responsible {
  id: number;
  type: 'user' | 'bot';
  assigned_at: string;
}

export interface GatewayDialog {
  id: number;
  chatId: number;
  beginMessageId?: number;
  endingMessageId?: number;
  responsible?: Responsible;
  tags: Array<{ name: string; color_code?: string }>;
  created_at: string;
  updated_at?: string;
  closed_at?: string;
}

/** A manager (a user of the chats) as the Bot API lists it; the gateway knows none unless seeded. */
export interface GatewayUser {
  id: number;
  external_id?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
  is_active: boolean;
  is_online: boolean;
  created_at: string;
}

export interface GatewayMember {
  id: number;
  chatId: number;
  userId: number;
  state: 'active' | 'kicked' | 'leaved';
  created_at: string;
  updated_at?: string;
}

/** When a bot command was first set and last changed. */
export interface CommandMeta {
  id: number;
  created_at: string;
  updated_at?: string;
}
