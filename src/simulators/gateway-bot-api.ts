/**
 * The Bot API (`/api/bot/v1`, header `X-Bot-Token`) as the gateway answers it. The table lists
 * every method of the official bot clients (`retailcrm/mg-bot-api-client-go` `v1/client.go`,
 * `retailcrm/bot-api-client-go` `mgnode_botapi_client.gen.go`); the WebSocket
 * (`/api/bot/v1/ws`) is in `gateway-bot-ws.ts`. Every success is HTTP 200 (the generated client
 * decodes nothing else); lists are JSON arrays. What the bot sees is the simulator's state:
 * the channels transports activated, the chats, customers and dialogs their messages opened,
 * the messages, the bot's commands; lists of what does not exist are empty.
 */
import { bot, BOT_PREFIX, errors, flag, listParam, ok, page, posInt, type RouteDef, type RouteHandler } from './gateway-routing.ts';
import { iso, isObject, str } from './gateway-values.ts';
import type { GatewayDialog, GatewayMessage } from './gateway-records.ts';
import { getFile, upload, uploadByUrl } from './gateway-files.ts';
import { botView, channelView, chatView, commandView, customerView, dialogView, memberView, messageListView, uploadView, userView } from './gateway-views.ts';

export const BOT_ROUTES = {
  'bot.bots.list': bot('GET', '/bots'),
  'bot.channels.list': bot('GET', '/channels'),
  'bot.chats.list': bot('GET', '/chats'),
  'bot.dialog.create': bot('POST', '/chats/{chat_id}/dialogs', 'json'),
  'bot.customers.list': bot('GET', '/customers'),
  'bot.dialogs.list': bot('GET', '/dialogs'),
  'bot.dialog.assign': bot('PATCH', '/dialogs/{dialog_id}/assign', 'json'),
  'bot.dialog.unassign': bot('PATCH', '/dialogs/{dialog_id}/unassign'),
  'bot.dialog.close': bot('DELETE', '/dialogs/{dialog_id}/close'),
  'bot.dialog.tags.add': bot('PATCH', '/dialogs/{dialog_id}/tags/add', 'json'),
  'bot.dialog.tags.delete': bot('PATCH', '/dialogs/{dialog_id}/tags/delete', 'json'),
  'bot.members.list': bot('GET', '/members'),
  'bot.messages.list': bot('GET', '/messages'),
  'bot.message.send': bot('POST', '/messages', 'json'),
  'bot.message.edit': bot('PATCH', '/messages/{message_id}', 'json'),
  'bot.message.delete': bot('DELETE', '/messages/{message_id}'),
  'bot.commands.list': bot('GET', '/my/commands'),
  'bot.command.set': bot('PUT', '/my/commands/{name}', 'json', { schema: 'chat/bot.command.request.json' }),
  'bot.command.delete': bot('DELETE', '/my/commands/{name}'),
  'bot.info.update': bot('PATCH', '/my/info', 'json'),
  'bot.users.list': bot('GET', '/users'),
  'bot.file.upload': bot('POST', '/files/upload', 'raw'),
  'bot.file.upload_by_url': bot('POST', '/files/upload_by_url', 'json'),
  'bot.file.get': bot('GET', '/files/{id}'),
  'bot.file.meta.update': bot('PUT', '/files/{id}/meta', 'json'),
} satisfies Record<string, RouteDef>;

export type BotRoute = keyof typeof BOT_ROUTES;

const dialogOf = (id: string | undefined, dialogs: Map<number, GatewayDialog>): GatewayDialog | undefined => dialogs.get(Number(id));
const noDialog = (id: string | undefined) => errors(404, `dialog ${id} not found`);

/** The bot's own message named by the path, or undefined. */
function ownMessage(id: string | undefined, token: string, messages: Map<number, GatewayMessage>): GatewayMessage | undefined {
  const msg = messages.get(Number(id));
  return msg && msg.from === 'bot' && msg.token === token && msg.deletedAt === undefined ? msg : undefined;
}

export const BOT_HANDLERS: Record<BotRoute, RouteHandler> = {
  'bot.bots.list': ({ req, token, state }) => {
    const self = flag(req, 'self');
    const list = [...state.botInfo.values()].filter((b) => self === undefined || (b.token === token) === self);
    return ok(page(req, list).map((b) => botView(b, token)));
  },

  'bot.channels.list': ({ req, state }) => {
    const active = flag(req, 'active');
    const types = listParam(req, 'types');
    const list = [...state.channels.values()]
      .filter((c) => active === undefined || c.is_active === active)
      .filter((c) => types.length === 0 || (c.type !== undefined && types.includes(c.type)));
    return ok(page(req, list).map(channelView));
  },

  'bot.chats.list': ({ req, state }) => {
    const q = req.url.searchParams;
    const channelId = posInt(q.get('channel_id'));
    const channelType = str(q.get('channel_type'));
    const customerId = posInt(q.get('customer_id'));
    const customerExternalId = str(q.get('customer_external_id'));
    const list = [...state.chats.values()].filter((c) => {
      const customer = c.customerId !== undefined ? state.customers.get(c.customerId) : undefined;
      return (
        (channelId === undefined || c.channelId === channelId) &&
        (channelType === undefined || state.channels.get(c.channelId)?.type === channelType) &&
        (customerId === undefined || c.customerId === customerId) &&
        (customerExternalId === undefined || customer?.external_id === customerExternalId)
      );
    });
    return ok(page(req, list).map((c) => chatView(state, c)));
  },

  'bot.dialog.create': ({ req, state }) => {
    const chat = state.chats.get(Number(req.params.chat_id));
    if (!chat) return errors(404, `chat ${req.params.chat_id} not found`);
    const dialog = state.openDialog(chat);
    return ok({ id: dialog.id, created_at: dialog.created_at });
  },

  'bot.customers.list': ({ req, state }) => {
    const q = req.url.searchParams;
    const channelId = posInt(q.get('channel_id'));
    const channelType = str(q.get('channel_type'));
    const externalId = str(q.get('external_id'));
    const list = [...state.customers.values()].filter(
      (c) => (channelId === undefined || c.channelId === channelId) && (channelType === undefined || state.channels.get(c.channelId)?.type === channelType) && (externalId === undefined || c.external_id === externalId),
    );
    return ok(page(req, list).map(customerView));
  },

  'bot.dialogs.list': ({ req, state }) => {
    const q = req.url.searchParams;
    const chatId = posInt(q.get('chat_id'));
    const userId = posInt(q.get('user_id'));
    const botId = posInt(q.get('bot_id'));
    const active = flag(req, 'active');
    const assigned = flag(req, 'assign');
    const list = [...state.dialogs.values()].filter(
      (d) =>
        (chatId === undefined || d.chatId === chatId) &&
        (userId === undefined || (d.responsible?.type === 'user' && d.responsible.id === userId)) &&
        (botId === undefined || (d.responsible?.type === 'bot' && d.responsible.id === botId)) &&
        (active === undefined || (d.closed_at === undefined) === active) &&
        (assigned === undefined || (d.responsible !== undefined) === assigned),
    );
    return ok(page(req, list).map(dialogView));
  },

  'bot.dialog.assign': ({ req, body, state }) => {
    const dialog = dialogOf(req.params.dialog_id, state.dialogs);
    if (!dialog) return noDialog(req.params.dialog_id);
    const userId = posInt(body.user_id);
    const botId = posInt(body.bot_id);
    if (userId === undefined && botId === undefined) return errors(400, 'user_id or bot_id is required');
    const previous = dialog.responsible;
    dialog.responsible = { id: (userId ?? botId)!, type: userId !== undefined ? 'user' : 'bot', assigned_at: iso() };
    dialog.updated_at = dialog.responsible.assigned_at;
    if (userId !== undefined) state.join(dialog.chatId, userId);
    return ok({ responsible: dialog.responsible, previous_responsible: previous ?? null, left_user_id: null, is_reassign: previous !== undefined });
  },

  'bot.dialog.unassign': ({ req, state }) => {
    const dialog = dialogOf(req.params.dialog_id, state.dialogs);
    if (!dialog) return noDialog(req.params.dialog_id);
    const previous = dialog.responsible;
    delete dialog.responsible;
    dialog.updated_at = iso();
    return ok(previous ? { previous_responsible: previous } : {});
  },

  'bot.dialog.close': ({ req, state }) => {
    const dialog = dialogOf(req.params.dialog_id, state.dialogs);
    if (!dialog) return noDialog(req.params.dialog_id);
    if (dialog.closed_at === undefined) {
      dialog.closed_at = dialog.updated_at = iso();
      const last = [...state.messages.values()].filter((m) => m.dialogId === dialog.id).at(-1);
      if (last) dialog.endingMessageId = last.id;
    }
    return ok();
  },

  'bot.dialog.tags.add': ({ req, body, state }) => {
    const dialog = dialogOf(req.params.dialog_id, state.dialogs);
    if (!dialog) return noDialog(req.params.dialog_id);
    for (const tag of Array.isArray(body.tags) ? body.tags.filter(isObject) : []) {
      if (typeof tag.name !== 'string' || dialog.tags.some((t) => t.name === tag.name)) continue;
      dialog.tags.push({ name: tag.name, ...(typeof tag.color_code === 'string' ? { color_code: tag.color_code } : {}) });
    }
    return ok();
  },

  'bot.dialog.tags.delete': ({ req, body, state }) => {
    const dialog = dialogOf(req.params.dialog_id, state.dialogs);
    if (!dialog) return noDialog(req.params.dialog_id);
    const names = new Set((Array.isArray(body.tags) ? body.tags.filter(isObject) : []).map((t) => t.name));
    dialog.tags = dialog.tags.filter((t) => !names.has(t.name));
    return ok();
  },

  'bot.members.list': ({ req, state }) => {
    const q = req.url.searchParams;
    const chatId = posInt(q.get('chat_id'));
    const userId = posInt(q.get('user_id'));
    const memberState = str(q.get('state'));
    const list = [...state.members.values()].filter((m) => (chatId === undefined || m.chatId === chatId) && (userId === undefined || m.userId === userId) && (memberState === undefined || m.state === memberState));
    return ok(page(req, list).map(memberView));
  },

  'bot.messages.list': ({ req, state }) => {
    const q = req.url.searchParams;
    const num = (name: string) => posInt(q.get(name));
    const [chatId, dialogId, channelId, customerId, botId] = [num('chat_id'), num('dialog_id'), num('channel_id'), num('customer_id'), num('bot_id')];
    const type = str(q.get('type'));
    const scope = str(q.get('scope'));
    const list = [...state.messages.values()].filter((m) => {
      const view = messageListView(state, m);
      return (
        m.deletedAt === undefined &&
        (chatId === undefined || m.chatId === chatId) &&
        (dialogId === undefined || m.dialogId === dialogId) &&
        (channelId === undefined || m.channelId === channelId) &&
        (customerId === undefined || m.customerId === customerId) &&
        (botId === undefined || (m.from === 'bot' && state.botInfo.get(m.token)?.id === botId)) &&
        (type === undefined || view.type === type) &&
        (scope === undefined || view.scope === scope)
      );
    });
    return ok(page(req, list).map((m) => messageListView(state, m)));
  },

  'bot.message.send': ({ token, body, state }) => {
    const msg = state.addBotMessage(token, body);
    return ok({ message_id: msg.id, time: msg.receivedAt });
  },

  'bot.message.edit': ({ req, token, body, state }) => {
    const msg = ownMessage(req.params.message_id, token, state.messages);
    if (!msg) return errors(404, `message ${req.params.message_id} not found`);
    const { ID: _id, ...changes } = body;
    msg.body = { ...msg.body, ...changes };
    msg.editedAt = iso();
    return ok();
  },

  'bot.message.delete': ({ req, token, state }) => {
    const msg = ownMessage(req.params.message_id, token, state.messages);
    if (!msg) return errors(404, `message ${req.params.message_id} not found`);
    msg.deletedAt = iso();
    return ok();
  },

  'bot.commands.list': ({ req, token, state }) => {
    const name = str(req.url.searchParams.get('name'));
    const metas = state.commandMeta.get(token);
    const list = [...(state.commands.get(token)?.entries() ?? [])]
      .filter(([n]) => name === undefined || n === name)
      .map(([n, body]) => ({ name: n, body, meta: metas?.get(n) ?? { id: 0, created_at: iso() } }))
      .map((c) => ({ ...c, id: c.meta.id }));
    return ok(page(req, list).map((c) => commandView(c.name, c.body, c.meta)));
  },

  'bot.command.set': ({ req, token, body, state }) => {
    const name = req.params.name!;
    return ok(commandView(name, body, state.setCommand(token, name, body)));
  },

  'bot.command.delete': ({ req, token, state }) => (state.deleteCommand(token, req.params.name!) ? ok() : errors(404, `command ${req.params.name} not found`)),

  'bot.info.update': ({ token, body, state }) => {
    const info = state.botInfo.get(token);
    if (info) {
      if (typeof body.name === 'string' && body.name !== '') info.name = body.name;
      if (typeof body.avatar_url === 'string') info.avatar_url = body.avatar_url;
      if (Array.isArray(body.roles)) info.roles = body.roles.filter((r): r is string => typeof r === 'string');
      info.updated_at = iso();
    }
    return ok();
  },

  'bot.users.list': ({ req, state }) => {
    const active = flag(req, 'active');
    const online = flag(req, 'online');
    const externalId = str(req.url.searchParams.get('external_id'));
    const list = [...state.users.values()].filter((u) => (active === undefined || u.is_active === active) && (online === undefined || u.is_online === online) && (externalId === undefined || u.external_id === externalId));
    return ok(page(req, list).map(userView));
  },

  'bot.file.upload': upload,
  'bot.file.upload_by_url': uploadByUrl,
  'bot.file.get': getFile(false, BOT_PREFIX),

  'bot.file.meta.update': ({ req, body, state }) => {
    const file = state.files.get(req.params.id!);
    if (!file) return errors(404, `file ${req.params.id} not found`);
    if (typeof body.transcription === 'string') file.transcription = body.transcription;
    if (typeof body.transcription_status === 'string') file.transcription_status = body.transcription_status;
    return ok(uploadView(file));
  },
};
