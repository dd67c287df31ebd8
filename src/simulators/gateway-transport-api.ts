/**
 * The Transport API (`/api/transport/v1`, header `X-Transport-Token`) as the gateway answers it.
 * The table is the wire profile's list of endpoints (section 6); every method of the official
 * transport clients (`retailcrm/mg-transport-api-client-go` `v1/client.go`,
 * `retailcrm/transport-api-client-go` `mgnode_transportapi_client.gen.go`) is in it. Every
 * success answers with the reply fields the clients decode: HTTP 201 for the channel activation
 * (the generated client decodes 200 or 201 there; the official transport
 * `retailcrm/mg-transport-telegram` takes anything but 201 as a failed activation), HTTP 200 for
 * every other call. A channel the gateway cannot read (a member of the wrong type) is refused
 * with 400 and the error body, as bad JSON is (wire profile section 6).
 */
import { json } from './http.ts';
import { errors, listParam, ok, page, transport, flag, type RouteContext, type RouteHandler, type RouteDef, TRANSPORT_PREFIX } from './gateway-routing.ts';
import { iso, isObject } from './gateway-values.ts';
import type { GatewayMessage, GatewayTemplate } from './gateway-records.ts';
import { getFile, upload, uploadByUrl } from './gateway-files.ts';
import { channelView, messageView, templateView } from './gateway-views.ts';
import type { InboundRequest } from './http.ts';
import { isVerificationStatus as isStatus, judgeReport, judgeUpdate, type KnownFile, type TemplateBreach, type TemplateJudgement } from '../contract/template-machine.ts';

export const TRANSPORT_ROUTES = {
  // channels
  'transport.channels.list': transport('GET', '/channels'),
  'transport.channel.activate': transport('POST', '/channels', 'json', { schema: 'chat/channel.json' }),
  'transport.channel.update': transport('PUT', '/channels/{id}', 'json', { schema: 'chat/channel.json' }),
  'transport.channel.deactivate': transport('DELETE', '/channels/{id}'),
  // templates (the document writes these paths without the prefix: both are routed)
  'transport.template.create': transport('POST', '/channels/{channel_id}/templates', 'json', { schema: 'chat/transport.template-create.request.json', bare: true }),
  'transport.template.update': transport('PUT', '/channels/{channel_id}/templates/{code}', 'json', { schema: 'chat/transport.template-update.request.json', bare: true }),
  'transport.template.delete': transport('DELETE', '/channels/{channel_id}/templates/{code}', 'none', { bare: true }),
  'transport.templates.list': transport('GET', '/templates', 'none', { bare: true }),
  // messages
  'transport.message.send': transport('POST', '/messages', 'json'),
  'transport.message.edit': transport('PUT', '/messages', 'json'),
  'transport.message.delete': transport('DELETE', '/messages', 'json'),
  'transport.messages.history': transport('POST', '/messages/history', 'json'),
  'transport.messages.ack': transport('POST', '/messages/ack', 'json'),
  'transport.messages.read': transport('POST', '/messages/read', 'json'),
  'transport.messages.read_until': transport('POST', '/messages/read_until', 'json'),
  'transport.messages.restore': transport('POST', '/messages/restore', 'json'),
  'transport.reaction.add': transport('POST', '/messages/reaction', 'json'),
  'transport.reaction.delete': transport('DELETE', '/messages/reaction', 'json'),
  // files
  'transport.file.upload': transport('POST', '/files/upload', 'raw'),
  'transport.file.upload_by_url': transport('POST', '/files/upload_by_url', 'json'),
  'transport.file.get': transport('GET', '/files/{id}'),
} satisfies Record<string, RouteDef>;

export type TransportRoute = keyof typeof TRANSPORT_ROUTES;

/** 404 when the body names a channel (`channel` or `channel_id`) that is not an active channel of the token. */
function unknownChannel({ body, token, state }: RouteContext) {
  const id = body.channel ?? body.channel_id;
  if (id === undefined) return undefined;
  return state.activeChannel(id, token) ? undefined : errors(404, `channel ${String(id)} not found`);
}

/** The transport's message named by the body's `message` (`{id}` or `{external_id}`), in the body's channel. */
function namedMessage(ctx: RouteContext): GatewayMessage | undefined {
  const channel = ctx.body.channel ?? ctx.body.channel_id;
  return ctx.state.transportMessage(ctx.token, ctx.body.message, channel === undefined ? undefined : Number(channel));
}

const messageRef = (body: Record<string, unknown>): string => {
  const m = isObject(body.message) ? body.message : {};
  return String(m.external_id ?? m.id);
};

/**
 * The shape of a channel as the gateway reads it (`retailcrm/transport-api-client-go`
 * `ActivateChannelRequest` / `UpdateChannelRequest` and `ChannelSettings`; the older
 * `retailcrm/mg-transport-api-client-go` `v1/types.go` types the members both have alike, and
 * its own, such as `spam_allowed`, are unknown to the newer one). Only the JSON type of a member is
 * judged, as the gateway's JSON decoding does: unknown members are ignored, an absent member or
 * JSON null is taken as not given (wire profile section 9), and the values of the feature lists
 * (`none`, `receive`, `send`, `both`, the sending policies) are left to the schema checks.
 */
type Shape = 'string' | 'boolean' | 'integer' | 'uint16' | 'unsigned' | { array: Shape } | { object: Record<string, Shape> };

const feature = (...names: string[]): Record<string, Shape> => Object.fromEntries(names.map((n) => [n, 'string' as const]));
const MESSAGE_FEATURES = ['creating', 'editing', 'quoting', 'deleting', 'reaction'];
const MEDIA: Record<string, Shape> = { ...feature(...MESSAGE_FEATURES), max_item_size: 'integer', max_items_count: 'integer', note_max_chars_count: 'uint16' };

const CHANNEL_SETTINGS: Shape = {
  object: {
    status: { object: feature('delivered', 'read') },
    text: { object: { ...feature(...MESSAGE_FEATURES), max_chars_count: 'uint16' } },
    product: { object: feature(...MESSAGE_FEATURES) },
    order: { object: feature(...MESSAGE_FEATURES) },
    file: { object: MEDIA },
    image: { object: MEDIA },
    audio: { object: { ...feature('creating', 'quoting', 'deleting', 'reaction'), max_item_size: 'integer', max_items_count: 'integer' } },
    suggestions: { object: feature('text', 'email', 'phone', 'url') },
    reactions: { object: { dictionary: { array: 'string' }, max_count: 'integer' } },
    sending_policy: { object: feature('new_customer', 'after_reply_timeout', 'outgoing') },
    template: { object: { creation: 'boolean' } },
    customer_external_id: 'string',
    whatsapp: { object: { channel_quality: 'string', channel_status: 'string', tier: 'unsigned' } },
  },
};

const CHANNEL_MEMBERS: Record<string, Shape> = { type: 'string', name: 'string', external_id: 'string', avatar_url: 'string', settings: CHANNEL_SETTINGS };
/** Activation also takes the `id` of a channel to activate again; an update names it in the path. */
const ACTIVATION: Shape = { object: { ...CHANNEL_MEMBERS, id: 'unsigned' } };
const UPDATE: Shape = { object: CHANNEL_MEMBERS };

const SHAPE_NAMES: Record<string, string> = { string: 'a string', boolean: 'a boolean', integer: 'an integer', uint16: 'an integer from 0 to 65535', unsigned: 'an integer of at least 0' };

function kindOf(v: unknown): string {
  return Array.isArray(v) ? 'an array' : typeof v === 'number' ? 'a number' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Why `value` does not have `shape` (one message per wrong member, with its path); empty when it has it. */
function shapeErrors(value: unknown, shape: Shape, path: string): string[] {
  if (value === null || value === undefined) return [];
  const wrong = (expected: string) => [`${path} must be ${expected}, not ${kindOf(value)}`];
  if (typeof shape === 'string') {
    const fits =
      shape === 'string' ? typeof value === 'string'
      : shape === 'boolean' ? typeof value === 'boolean'
      : Number.isInteger(value) && (shape === 'integer' || ((value as number) >= 0 && (shape === 'unsigned' || (value as number) <= 65535)));
    return fits ? [] : wrong(SHAPE_NAMES[shape]!);
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) return wrong('an array');
    return value.flatMap((item, i) => shapeErrors(item, shape.array, `${path}[${i}]`));
  }
  if (!isObject(value)) return wrong('an object');
  return Object.entries(shape.object).flatMap(([name, member]) => shapeErrors(value[name], member, path === '' ? name : `${path}.${name}`));
}

/** The 400 answer for a channel of the wrong shape, or undefined when the gateway can read it. */
function wrongChannel(body: Record<string, unknown>, shape: Shape) {
  const wrong = shapeErrors(body, shape, '');
  return wrong.length > 0 ? errors(400, ...wrong.map((w) => `channel ${w}`)) : undefined;
}

/**
 * The judgement of each template call against the template table (`src/contract/template-machine.ts`),
 * by request: the facade (`gateway.ts`) copies it onto the recorded call for the checks.
 */
export const TEMPLATE_JUDGEMENTS = new WeakMap<InboundRequest, TemplateJudgement>();

/** What the gateway knows of a file by id (its size and type), for the limits of header files. */
const knownFile = (state: RouteContext['state']) => (id: string): KnownFile | undefined => {
  const f = state.files.get(id);
  return f ? { size: f.size, mime: f.mime_type } : undefined;
};

/**
 * The refusal of a template call that breaks the table or the document's values and limits:
 * HTTP 400 with the error body, for every such breach, an illegal transition included. 400, not
 * 409: wire profile section 6 gives 400 with `{errors}` as the gateway's answer to a request it
 * cannot accept, and no source shows the gateway answering 409; both official clients read any
 * status but 200 as an error with that body, so the choice changes nothing for a correct module.
 */
function refusal(breaches: TemplateBreach[]) {
  const refused = breaches.filter((b) => b.refuse);
  return refused.length > 0 ? errors(400, ...refused.map((b) => b.why)) : undefined;
}

function ownTemplate({ req, token, state }: RouteContext): GatewayTemplate | undefined {
  const channel = state.activeChannel(req.params.channel_id, token);
  return channel ? state.template(channel.id, req.params.code!) : undefined;
}

export const TRANSPORT_HANDLERS: Record<TransportRoute, RouteHandler> = {
  'transport.channels.list': ({ req, token, state }) => {
    const active = flag(req, 'active');
    const types = listParam(req, 'types');
    const list = [...state.channels.values()]
      .filter((c) => c.token === token)
      .filter((c) => active === undefined || c.is_active === active)
      .filter((c) => types.length === 0 || (c.type !== undefined && types.includes(c.type)));
    return ok(page(req, list).map(channelView));
  },

  'transport.channel.activate': ({ body, token, state }) => {
    const wrong = wrongChannel(body, ACTIVATION);
    if (wrong) return wrong;
    // An `id` of a channel of this transport activates that channel again.
    const known = body.id ? state.ownChannel(body.id, token) : undefined;
    if (known) {
      Object.assign(known, { is_active: true, activated_at: iso(), ...(isObject(body.settings) ? { settings: body.settings } : {}) });
      delete known.deactivated_at;
      return json(201, { id: known.id, external_id: known.external_id, activated_at: known.activated_at });
    }
    const channel = state.addChannel(token, body);
    return json(201, { id: channel.id, external_id: channel.external_id, activated_at: channel.activated_at });
  },

  'transport.channel.update': ({ req, body, token, state }) => {
    const wrong = wrongChannel(body, UPDATE);
    if (wrong) return wrong;
    const channel = state.ownChannel(req.params.id, token);
    if (!channel) return errors(404, `channel ${req.params.id} not found`);
    if (typeof body.type === 'string') channel.type = body.type;
    if (typeof body.name === 'string') channel.name = body.name;
    if (typeof body.external_id === 'string') channel.external_id = body.external_id;
    if (isObject(body.settings)) channel.settings = body.settings;
    channel.updated_at = iso();
    return ok({ id: channel.id, external_id: channel.external_id, updated_at: channel.updated_at });
  },

  'transport.channel.deactivate': ({ req, token, state }) => {
    const channel = state.ownChannel(req.params.id, token);
    if (!channel) return errors(404, `channel ${req.params.id} not found`);
    channel.is_active = false;
    channel.deactivated_at = iso();
    return ok({ id: channel.id, deactivated_at: channel.deactivated_at });
  },

  'transport.template.create': ({ req, body, token, state }) => {
    const channel = state.activeChannel(req.params.channel_id, token);
    const code = typeof body.code === 'string' ? body.code : '';
    const judged = judgeReport(body, knownFile(state));
    TEMPLATE_JUDGEMENTS.set(req, { kind: 'report', channelId: Number(req.params.channel_id), code, from: 'new', ...(judged.to ? { to: judged.to } : {}), breaches: judged.breaches });
    if (!channel) return errors(404, `channel ${req.params.channel_id} not found`);
    const refused = refusal(judged.breaches);
    if (refused) return refused;
    const byCode = state.channelTemplates(channel.id);
    if (byCode.has(code)) return errors(400, `template ${code} already exists in channel ${channel.id}`);
    const tpl: GatewayTemplate = { channel_id: channel.id, code, template: { ...body, channel_id: channel.id }, history: [] };
    state.applyStatus(tpl, body, 'transport.template.create');
    byCode.set(code, tpl);
    return ok();
  },

  'transport.template.update': (ctx) => {
    const tpl = ownTemplate(ctx);
    const channelId = Number(ctx.req.params.channel_id);
    const code = ctx.req.params.code!;
    if (!tpl) {
      TEMPLATE_JUDGEMENTS.set(ctx.req, { kind: 'update', channelId, code, from: 'new', breaches: [] });
      return errors(404, `template ${code} not found in channel ${ctx.req.params.channel_id}`);
    }
    // A template the gateway holds without a known status was reported without one: it is verifying.
    const from = isStatus(tpl.verification_status) ? tpl.verification_status : 'pending';
    const judged = judgeUpdate(from, ctx.body, knownFile(ctx.state));
    TEMPLATE_JUDGEMENTS.set(ctx.req, { kind: 'update', channelId, code, from, ...(judged.to ? { to: judged.to } : {}), breaches: judged.breaches });
    const refused = refusal(judged.breaches);
    if (refused) return refused;
    tpl.template = { ...tpl.template, ...ctx.body, code: tpl.code, channel_id: tpl.channel_id };
    ctx.state.applyStatus(tpl, ctx.body, 'transport.template.update');
    return ok();
  },

  'transport.template.delete': (ctx) => {
    const tpl = ownTemplate(ctx);
    const from = tpl === undefined ? 'new' : isStatus(tpl.verification_status) ? tpl.verification_status : 'pending';
    TEMPLATE_JUDGEMENTS.set(ctx.req, { kind: 'delete', channelId: Number(ctx.req.params.channel_id), code: ctx.req.params.code!, from, breaches: [] });
    if (!tpl) return errors(404, `template ${ctx.req.params.code} not found in channel ${ctx.req.params.channel_id}`);
    ctx.state.templates.get(tpl.channel_id)?.delete(tpl.code);
    return ok();
  },

  'transport.templates.list': ({ token, state }) => {
    const list = [...state.channels.values()]
      .filter((c) => c.token === token && c.is_active)
      .flatMap((c) => [...(state.templates.get(c.id)?.values() ?? [])])
      .map((t) => templateView(state, t));
    return ok(list);
  },

  'transport.message.send': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const channel = ctx.body.channel === undefined ? undefined : ctx.state.activeChannel(ctx.body.channel, ctx.token);
    const msg = ctx.state.addTransportMessage(ctx.token, ctx.body, channel);
    // The conversation the message starts or continues, and its id: what webhooks may name (gateway-conversations.ts).
    if (channel) ctx.state.conversations.fromTransportMessage(channel.id, ctx.body);
    return ok({ message_id: msg.id, time: msg.receivedAt });
  },

  'transport.messages.history': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const channel = ctx.body.channel_id === undefined ? undefined : ctx.state.activeChannel(ctx.body.channel_id, ctx.token);
    const msg = ctx.state.addTransportMessage(ctx.token, ctx.body, channel, true);
    if (channel) ctx.state.conversations.fromTransportMessage(channel.id, ctx.body);
    return ok({ message_id: msg.id, time: msg.receivedAt });
  },

  'transport.message.edit': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (!msg) return errors(404, `message ${messageRef(ctx.body)} not found`);
    msg.body = { ...msg.body, message: { ...(isObject(msg.body.message) ? msg.body.message : {}), ...(isObject(ctx.body.message) ? ctx.body.message : {}) } };
    msg.editedAt = iso();
    return ok({ message_id: msg.id, time: msg.editedAt });
  },

  'transport.message.delete': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (!msg) return errors(404, `message ${messageRef(ctx.body)} not found`);
    msg.deletedAt = iso();
    // The older client decodes {message_id, time}; the newer one the message.
    return ok({ ...messageView(ctx.state, msg), message_id: msg.id });
  },

  'transport.messages.restore': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (!msg) return errors(404, `message ${messageRef(ctx.body)} not found`);
    delete msg.deletedAt;
    return ok(messageView(ctx.state, msg));
  },

  'transport.messages.ack': (ctx) => unknownChannel(ctx) ?? ok(),

  'transport.messages.read': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (msg) msg.readAt ??= iso();
    return ok();
  },

  'transport.messages.read_until': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    // The customer read what was sent to them in the channel up to `until`.
    const until = typeof ctx.body.until === 'string' ? Date.parse(ctx.body.until) : NaN;
    const customer = [...ctx.state.customers.values()].find((c) => c.channelId === Number(ctx.body.channel_id) && c.external_id === ctx.body.customer_external_id);
    const chats = new Set([...ctx.state.chats.values()].filter((c) => customer !== undefined && c.customerId === customer.id).map((c) => c.id));
    const read = [...ctx.state.messages.values()].filter((m) => m.from === 'bot' && m.chatId !== undefined && chats.has(m.chatId) && m.readAt === undefined && !(Date.parse(m.receivedAt) > until));
    const now = iso();
    for (const m of read) m.readAt = now;
    return ok({ ids: read.map((m) => m.id) });
  },

  'transport.reaction.add': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (msg && typeof ctx.body.reaction === 'string') msg.reactions = [...(msg.reactions ?? []), ctx.body.reaction];
    return ok();
  },

  'transport.reaction.delete': (ctx) => {
    const missing = unknownChannel(ctx);
    if (missing) return missing;
    const msg = namedMessage(ctx);
    if (msg?.reactions) msg.reactions = typeof ctx.body.reaction === 'string' ? msg.reactions.filter((r) => r !== ctx.body.reaction) : [];
    return ok();
  },

  'transport.file.upload': upload,
  'transport.file.upload_by_url': uploadByUrl,
  'transport.file.get': getFile(true, TRANSPORT_PREFIX),
};
