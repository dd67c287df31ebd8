/**
 * The chat gateway simulator: the Transport API (`/api/transport/v1`) and the Bot API
 * (`/api/bot/v1`, with its WebSocket) as wire-profile section 6 describes them, toward transport
 * and bot modules. It checks the `X-Transport-Token` / `X-Bot-Token` header against the tokens
 * the system handed out, enforces the rate limit of 30 requests per second per token with 429
 * (document, Errors 6 and Limits), keeps real state (channels, templates with their verification
 * history, messages, files, bot commands, bot connections), records every inbound call decoded
 * and validated against its schema for the checks to judge, and sends webhooks to transport
 * modules with the `ClientId` header.
 *
 * Template paths are accepted with and without the `/api/transport/v1` prefix (the document
 * writes them without it; wire profile: accept both). Like the system simulator, a body that
 * does not conform to its schema is recorded with its schema errors and still acted upon when it
 * can be: the checks, not the simulator, judge conformance.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorObject } from 'ajv';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EvidenceLog, Exchange } from '../evidence/exchange.ts';
import type { CallbackClient, Reply } from '../client/callback-client.ts';
import { contract } from '../contract/schemas.ts';
import { waitForMatch } from './wait.ts';
import { RecordingServer, json, type Answer, type InboundRequest } from './http.ts';

export const TRANSPORT_PREFIX = '/api/transport/v1';
export const BOT_PREFIX = '/api/bot/v1';
export const BOT_WS_PATH = `${BOT_PREFIX}/ws`;

type Api = 'transport' | 'bot';
type BodyKind = 'json' | 'raw' | 'none';

interface RouteDef {
  api: Api;
  method: string;
  /** Path below the API prefix. */
  path: string;
  body: BodyKind;
  schema?: string;
  /** Also routed without the API prefix (the document's form of the template paths). */
  bare?: boolean;
}

/** The endpoints of the gateway, by label. */
export const GATEWAY_ROUTES = {
  'transport.channels.list': { api: 'transport', method: 'GET', path: '/channels', body: 'none' },
  'transport.channel.activate': { api: 'transport', method: 'POST', path: '/channels', body: 'json', schema: 'chat/channel.json' },
  'transport.channel.update': { api: 'transport', method: 'PUT', path: '/channels/{id}', body: 'json', schema: 'chat/channel.json' },
  'transport.channel.deactivate': { api: 'transport', method: 'DELETE', path: '/channels/{id}', body: 'none' },
  'transport.template.create': { api: 'transport', method: 'POST', path: '/channels/{channel_id}/templates', body: 'json', schema: 'chat/transport.template-create.request.json', bare: true },
  'transport.template.update': { api: 'transport', method: 'PUT', path: '/channels/{channel_id}/templates/{code}', body: 'json', schema: 'chat/transport.template-update.request.json', bare: true },
  'transport.template.delete': { api: 'transport', method: 'DELETE', path: '/channels/{channel_id}/templates/{code}', body: 'none', bare: true },
  'transport.templates.list': { api: 'transport', method: 'GET', path: '/templates', body: 'none', bare: true },
  'transport.message.send': { api: 'transport', method: 'POST', path: '/messages', body: 'json' },
  'transport.message.edit': { api: 'transport', method: 'PUT', path: '/messages', body: 'json' },
  'transport.message.delete': { api: 'transport', method: 'DELETE', path: '/messages', body: 'json' },
  'transport.messages.history': { api: 'transport', method: 'POST', path: '/messages/history', body: 'json' },
  'transport.messages.ack': { api: 'transport', method: 'POST', path: '/messages/ack', body: 'json' },
  'transport.messages.read': { api: 'transport', method: 'POST', path: '/messages/read', body: 'json' },
  'transport.messages.read_until': { api: 'transport', method: 'POST', path: '/messages/read_until', body: 'json' },
  'transport.messages.restore': { api: 'transport', method: 'POST', path: '/messages/restore', body: 'json' },
  'transport.reaction.add': { api: 'transport', method: 'POST', path: '/messages/reaction', body: 'json' },
  'transport.reaction.delete': { api: 'transport', method: 'DELETE', path: '/messages/reaction', body: 'json' },
  'transport.file.upload': { api: 'transport', method: 'POST', path: '/files/upload', body: 'raw' },
  'transport.file.upload_by_url': { api: 'transport', method: 'POST', path: '/files/upload_by_url', body: 'json' },
  'transport.file.get': { api: 'transport', method: 'GET', path: '/files/{id}', body: 'none' },
  'bot.command.set': { api: 'bot', method: 'PUT', path: '/my/commands/{name}', body: 'json', schema: 'chat/bot.command.request.json' },
  'bot.message.send': { api: 'bot', method: 'POST', path: '/messages', body: 'json' },
} as const satisfies Record<string, RouteDef>;

export type GatewayRoute = keyof typeof GATEWAY_ROUTES;

/** One request of a module to the gateway, decoded and judged against its schema. */
export interface GatewayCall {
  route: GatewayRoute;
  exchange: Exchange;
  /** The API the endpoint belongs to (and so the token header it needs). */
  api: Api;
  /** The kind of registered token the call authenticated with; undefined when refused with 401. */
  tokenKind?: Api;
  /** The token presented in the API's header, if any. */
  token?: string;
  /** The clientId of the module the token belongs to. */
  clientId?: string;
  params: Record<string, string>;
  /** True when a template path was called without the `/api/transport/v1` prefix (the document's form). */
  unprefixed: boolean;
  /** The decoded JSON body (the query, for GET). */
  payload?: unknown;
  /** Why the body could not be decoded (missing, not JSON). */
  decodeError?: string;
  /** Schema errors of the payload (empty when it conforms or has no schema). */
  schemaErrors: ErrorObject[];
  /** Whether the gateway accepted the call (status below 300). */
  accepted: boolean;
  /** The HTTP status the gateway answered with. */
  status: number;
}

export interface TransportRegistration {
  token: string;
  clientId: string;
  webhookUrl?: string;
}

export interface BotRegistration {
  token: string;
  clientId: string;
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
}

export interface GatewayFile {
  id: string;
  token: string;
  size: number;
  mime_type: string;
  source_url?: string;
  created_at: string;
}

/** One bot WebSocket connection. Times are epoch milliseconds (sub-millisecond precision). */
export interface BotConnection {
  id: string;
  token: string;
  clientId?: string;
  /** Event types the bot subscribed to with the `events` query parameter. */
  events: string[];
  connectedAt: number;
  closedAt?: number;
  /** The close code as the gateway saw it (1006 when the connection was dropped). */
  closeCode?: number;
  /** Who ended the connection; set once it is closed. */
  closedBy?: 'gateway' | 'bot';
  /** The recorded upgrade (status 101). */
  exchange: Exchange;
  /** Frames the bot sent, as text. */
  received: string[];
}

/** A frame on the bot WebSocket; `meta.timestamp` (unix seconds) is filled in when absent. */
export interface BotFrame {
  type: string;
  meta?: { timestamp: number; [k: string]: unknown };
  data: unknown;
}

export interface GatewaySimulatorOptions {
  log: EvidenceLog;
  client: CallbackClient;
  bind?: string;
  port?: number;
  /** The address modules are told to use (the `endpointUrl`); defaults to the listening address. */
  publicUrl?: string;
  /** Requests per second allowed per token before 429 (document: 30). */
  ratePerSecond?: number;
  /** Clock of the rate limiter in milliseconds (tests freeze it); defaults to `Date.now`. */
  clock?: () => number;
}

const errors = (status: number, ...messages: string[]): Answer => json(status, { errors: messages });
const iso = (): string => new Date().toISOString();
/** Epoch milliseconds with sub-millisecond precision, strictly ordered within the process. */
const preciseNow = (): number => performance.timeOrigin + performance.now();
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export class GatewaySimulator extends EventEmitter {
  readonly calls: GatewayCall[] = [];
  readonly transports = new Map<string, TransportRegistration>();
  readonly bots = new Map<string, BotRegistration>();
  readonly channels = new Map<number, GatewayChannel>();
  /** Templates by channel id, then by code. */
  readonly templates = new Map<number, Map<string, GatewayTemplate>>();
  readonly messages = new Map<number, GatewayMessage>();
  readonly files = new Map<string, GatewayFile>();
  /** Bot commands by bot token, then by name (the body as received). */
  readonly commands = new Map<string, Map<string, Record<string, unknown>>>();
  private readonly connections: BotConnection[] = [];
  private readonly sockets = new Map<string, WebSocket>();
  private readonly server: RecordingServer;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly options: GatewaySimulatorOptions;
  private readonly rate: number;
  private readonly clock: () => number;
  private readonly windows = new Map<string, number[]>();
  private readonly tooMany = new Map<string, number>();
  private readonly pending = new WeakMap<InboundRequest, Omit<GatewayCall, 'exchange'>>();
  private nextChannelId = 1;
  private nextMessageId = 1;
  private nextConnectionId = 1;

  constructor(options: GatewaySimulatorOptions) {
    super();
    this.options = options;
    this.rate = options.ratePerSecond ?? 30;
    this.clock = options.clock ?? Date.now;
    this.server = new RecordingServer({
      log: options.log,
      direction: 'module->gateway',
      bind: options.bind ?? '127.0.0.1',
      port: options.port ?? 0,
      // The gateway's error body (wire profile section 6).
      errorBody: (message) => ({ errors: [message] }),
      onExchange: (_label, req, exchange) => this.completed(req, exchange),
    });
    for (const [name, def] of Object.entries(GATEWAY_ROUTES) as Array<[GatewayRoute, RouteDef]>) {
      const prefix = def.api === 'transport' ? TRANSPORT_PREFIX : BOT_PREFIX;
      this.server.route(`${def.method} ${prefix}${def.path}`, name, (req) => this.handle(name, req, false));
      if (def.bare) this.server.route(`${def.method} ${def.path}`, name, (req) => this.handle(name, req, true));
    }
    this.server.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  async start(): Promise<string> {
    await this.server.listen();
    return this.url();
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets.values()) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await this.server.close();
  }

  /** The gateway address given to modules as `endpointUrl`. */
  url(): string {
    return this.options.publicUrl ?? this.server.baseUrl();
  }

  // ---- credentials ---------------------------------------------------------------------------

  /** Accepts a transport token (the system calls this when it hands the token out). */
  registerTransport(reg: TransportRegistration): void {
    this.transports.set(reg.token, { ...reg });
    this.options.log.redactor.add('transportToken', reg.token);
    this.options.log.redactor.add('clientId', reg.clientId);
  }

  /** Accepts a bot token (the system calls this when it hands the token out). */
  registerBot(reg: BotRegistration): void {
    this.bots.set(reg.token, { ...reg });
    this.options.log.redactor.add('botToken', reg.token);
    this.options.log.redactor.add('clientId', reg.clientId);
  }

  // ---- rate limit ----------------------------------------------------------------------------

  /** Counts a request of a token; false when it is over the limit (the request gets 429). */
  private admit(token: string): boolean {
    const now = this.clock();
    const window = (this.windows.get(token) ?? []).filter((t) => t > now - 1000);
    const ok = window.length < this.rate;
    if (ok) window.push(now);
    else this.tooMany.set(token, (this.tooMany.get(token) ?? 0) + 1);
    this.windows.set(token, window);
    return ok;
  }

  /** How many requests of a token were answered 429. */
  tooManyRequests(token: string): number {
    return this.tooMany.get(token) ?? 0;
  }

  /** 429 answers per token. */
  tooManyRequestsByToken(): ReadonlyMap<string, number> {
    return this.tooMany;
  }

  // ---- HTTP APIs -----------------------------------------------------------------------------

  /** Waits for the next call to a route that satisfies `predicate`, or undefined at the timeout. */
  waitFor(route: GatewayRoute, timeoutMs: number, predicate: (c: GatewayCall) => boolean = () => true, since = 0): Promise<GatewayCall | undefined> {
    return waitForMatch<GatewayCall>(this, 'call', this.calls.slice(since), (c) => c.route === route && predicate(c), timeoutMs);
  }

  private async handle(route: GatewayRoute, req: InboundRequest, unprefixed: boolean): Promise<Answer> {
    const def: RouteDef = GATEWAY_ROUTES[route];
    const token = req.headers[def.api === 'transport' ? 'x-transport-token' : 'x-bot-token'];
    const call: Omit<GatewayCall, 'exchange'> = { route, api: def.api, params: req.params, unprefixed, schemaErrors: [], accepted: false, status: 0 };
    if (token !== undefined) call.token = token;
    const owner = token === undefined ? undefined : def.api === 'transport' ? this.transports.get(token) : this.bots.get(token);

    if (def.body === 'json') {
      if (req.body.length === 0) call.decodeError = 'request body is missing';
      else {
        try {
          call.payload = JSON.parse(req.body.toString('utf8'));
        } catch (e) {
          call.decodeError = `request body is not JSON: ${(e as Error).message}`;
        }
      }
    } else if (req.method === 'GET') {
      call.payload = Object.fromEntries(req.url.searchParams);
    }
    if (def.schema && call.payload !== undefined) call.schemaErrors = contract().validate(def.schema, call.payload).errors;

    let answer: Answer;
    const header = def.api === 'transport' ? 'X-Transport-Token' : 'X-Bot-Token';
    if (token === undefined || token === '') answer = errors(401, `header ${header} is missing`);
    else if (!owner) answer = errors(401, `unknown ${header}`);
    else {
      call.tokenKind = def.api;
      call.clientId = owner.clientId;
      if (!this.admit(token)) answer = errors(429, 'Too Many Requests');
      else if (call.decodeError) answer = errors(400, call.decodeError);
      else if (def.body === 'json' && !isObject(call.payload)) answer = errors(400, 'request body must be a JSON object');
      else answer = this.act(route, req, token, call.payload as Record<string, unknown>);
    }
    call.status = answer.status;
    call.accepted = answer.status < 300;
    this.pending.set(req, call);
    return answer;
  }

  /** The server recorded the exchange of a request: the call is complete and announced. */
  private completed(req: InboundRequest, exchange: Exchange): void {
    const call = this.pending.get(req);
    if (!call) return;
    this.pending.delete(req);
    const full: GatewayCall = { ...call, exchange };
    this.calls.push(full);
    this.emit('call', full);
  }

  private act(route: GatewayRoute, req: InboundRequest, token: string, body: Record<string, unknown>): Answer {
    switch (route) {
      case 'transport.channels.list': {
        const active = req.url.searchParams.get('active');
        const list = [...this.channels.values()]
          .filter((c) => c.token === token)
          .filter((c) => active === null || active === '' || c.is_active === (active === 'true' || active === '1'))
          .map((c) => this.channelView(c));
        return json(200, list);
      }
      case 'transport.channel.activate': {
        const channel = this.seedChannel(token, body);
        return json(200, { id: channel.id, external_id: channel.external_id, activated_at: channel.activated_at });
      }
      case 'transport.channel.update': {
        const channel = this.ownChannel(req.params.id!, token);
        if (!channel) return errors(404, `channel ${req.params.id} not found`);
        if (typeof body.type === 'string') channel.type = body.type;
        if (typeof body.name === 'string') channel.name = body.name;
        if (typeof body.external_id === 'string') channel.external_id = body.external_id;
        if (isObject(body.settings)) channel.settings = body.settings;
        channel.updated_at = iso();
        return json(200, { id: channel.id, external_id: channel.external_id, updated_at: channel.updated_at });
      }
      case 'transport.channel.deactivate': {
        const channel = this.ownChannel(req.params.id!, token);
        if (!channel) return errors(404, `channel ${req.params.id} not found`);
        channel.is_active = false;
        channel.deactivated_at = iso();
        return json(200, { id: channel.id, deactivated_at: channel.deactivated_at });
      }
      case 'transport.template.create': {
        const channel = this.ownChannel(req.params.channel_id!, token);
        if (!channel || !channel.is_active) return errors(404, `channel ${req.params.channel_id} not found`);
        const code = body.code;
        if (typeof code !== 'string' || code === '') return errors(400, 'code is required');
        const byCode = this.channelTemplates(channel.id);
        if (byCode.has(code)) return errors(400, `template ${code} already exists in channel ${channel.id}`);
        const tpl: GatewayTemplate = { channel_id: channel.id, code, template: { ...body, channel_id: channel.id }, history: [] };
        this.applyStatus(tpl, body, 'transport.template.create');
        byCode.set(code, tpl);
        return json(201, {});
      }
      case 'transport.template.update': {
        const tpl = this.ownTemplate(req.params.channel_id!, req.params.code!, token);
        if (!tpl) return errors(404, `template ${req.params.code} not found in channel ${req.params.channel_id}`);
        tpl.template = { ...tpl.template, ...body, code: tpl.code, channel_id: tpl.channel_id };
        this.applyStatus(tpl, body, 'transport.template.update');
        return json(200, {});
      }
      case 'transport.template.delete': {
        const tpl = this.ownTemplate(req.params.channel_id!, req.params.code!, token);
        if (!tpl) return errors(404, `template ${req.params.code} not found in channel ${req.params.channel_id}`);
        this.templates.get(tpl.channel_id)?.delete(tpl.code);
        return json(200, {});
      }
      case 'transport.templates.list': {
        const list = [...this.channels.values()]
          .filter((c) => c.token === token && c.is_active)
          .flatMap((c) => [...(this.templates.get(c.id)?.values() ?? [])])
          .map((t) => ({ ...t.template, channel_id: t.channel_id, code: t.code, ...(t.verification_status ? { verification_status: t.verification_status } : {}), ...(t.rejection_reason ? { rejection_reason: t.rejection_reason } : {}) }));
        return json(200, list);
      }
      case 'transport.message.send':
      case 'bot.message.send': {
        const api: Api = route === 'bot.message.send' ? 'bot' : 'transport';
        if (api === 'transport') {
          const missing = this.unknownChannel(body, token);
          if (missing) return missing;
        }
        const msg: GatewayMessage = { id: this.nextMessageId++, from: api, token, body, receivedAt: iso() };
        this.messages.set(msg.id, msg);
        return json(200, { message_id: msg.id, time: msg.receivedAt });
      }
      case 'transport.message.edit':
      case 'transport.message.delete': {
        const missing = this.unknownChannel(body, token);
        if (missing) return missing;
        const externalId = isObject(body.message) ? body.message.external_id : undefined;
        const msg = [...this.messages.values()].find((m) => m.from === 'transport' && m.token === token && isObject(m.body.message) && m.body.message.external_id === externalId);
        if (!msg) return errors(404, `message ${String(externalId)} not found`);
        if (route === 'transport.message.edit') {
          msg.body = { ...msg.body, message: { ...(msg.body.message as Record<string, unknown>), ...(body.message as Record<string, unknown>) } };
          msg.editedAt = iso();
        } else msg.deletedAt = iso();
        return json(200, { message_id: msg.id, time: iso() });
      }
      case 'transport.messages.history':
      case 'transport.messages.ack':
      case 'transport.messages.read':
      case 'transport.messages.read_until':
      case 'transport.messages.restore':
      case 'transport.reaction.add':
      case 'transport.reaction.delete': {
        const missing = this.unknownChannel(body, token);
        if (missing) return missing;
        return json(200, {});
      }
      case 'transport.file.upload': {
        const file: GatewayFile = {
          id: randomBytes(16).toString('hex'),
          token,
          size: req.body.length,
          mime_type: req.headers['content-type'] ?? 'application/octet-stream',
          created_at: iso(),
        };
        this.files.set(file.id, file);
        return json(200, this.fileView(file));
      }
      case 'transport.file.upload_by_url': {
        if (typeof body.url !== 'string' || body.url === '') return errors(400, 'url is required');
        const file: GatewayFile = { id: randomBytes(16).toString('hex'), token, size: 0, mime_type: 'application/octet-stream', source_url: body.url, created_at: iso() };
        this.files.set(file.id, file);
        return json(200, this.fileView(file));
      }
      case 'transport.file.get': {
        const file = this.files.get(req.params.id!);
        if (!file || file.token !== token) return errors(404, `file ${req.params.id} not found`);
        return json(200, { id: file.id, type: file.mime_type.split('/')[0], size: file.size, url: file.source_url ?? `${this.url()}${TRANSPORT_PREFIX}/files/${file.id}` });
      }
      case 'bot.command.set': {
        const byName = this.commands.get(token) ?? new Map<string, Record<string, unknown>>();
        byName.set(req.params.name!, body);
        this.commands.set(token, byName);
        return json(200, {});
      }
    }
  }

  /** Adds a channel of a transport as if it had activated it (also used by `POST /channels`). */
  seedChannel(token: string, body: Record<string, unknown>): GatewayChannel {
    const now = iso();
    const channel: GatewayChannel = {
      id: this.nextChannelId++,
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

  /** A template as the gateway holds it. */
  template(channelId: number, code: string): GatewayTemplate | undefined {
    return this.templates.get(channelId)?.get(code);
  }

  private channelView(c: GatewayChannel): Record<string, unknown> {
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

  private fileView(f: GatewayFile): Record<string, unknown> {
    return { id: f.id, hash: f.id, type: f.mime_type.split('/')[0], meta: {}, mime_type: f.mime_type, size: f.size, source_url: f.source_url ?? null, created_at: f.created_at };
  }

  private ownChannel(id: string, token: string): GatewayChannel | undefined {
    const channel = this.channels.get(Number(id));
    return channel && channel.token === token ? channel : undefined;
  }

  private channelTemplates(channelId: number): Map<string, GatewayTemplate> {
    let byCode = this.templates.get(channelId);
    if (!byCode) this.templates.set(channelId, (byCode = new Map()));
    return byCode;
  }

  private ownTemplate(channelId: string, code: string, token: string): GatewayTemplate | undefined {
    const channel = this.ownChannel(channelId, token);
    if (!channel || !channel.is_active) return undefined;
    return this.templates.get(channel.id)?.get(code);
  }

  /** 404 when the body names a channel (`channel` or `channel_id`) that is not an active channel of the token. */
  private unknownChannel(body: Record<string, unknown>, token: string): Answer | undefined {
    const id = body.channel ?? body.channel_id;
    if (id === undefined) return undefined;
    const channel = this.ownChannel(String(id), token);
    return channel && channel.is_active ? undefined : errors(404, `channel ${String(id)} not found`);
  }

  private applyStatus(tpl: GatewayTemplate, body: Record<string, unknown>, via: TemplateStatusChange['via']): void {
    const status = body.verification_status;
    if (typeof status !== 'string') return;
    const reason = typeof body.rejection_reason === 'string' ? body.rejection_reason : undefined;
    tpl.verification_status = status;
    if (reason !== undefined) tpl.rejection_reason = reason;
    else delete tpl.rejection_reason;
    tpl.history.push({ status, ...(reason !== undefined ? { rejection_reason: reason } : {}), at: iso(), via });
  }

  // ---- webhooks ------------------------------------------------------------------------------

  /**
   * Sends a webhook `{type, meta: {timestamp}, data}` to a transport's `webhookUrl` with the
   * `ClientId` header. A successful reply to `template_create` with a `code` adds the template
   * (status `pending`, or the `verification_status` of the reply) when its channel is known; a
   * successful `template_update` resubmits a rejected template (back to `pending`) and
   * `template_delete` removes it, as the system would.
   */
  async sendWebhook(clientIdOrToken: string, type: string, data: unknown): Promise<Reply> {
    const transport = this.transports.get(clientIdOrToken) ?? [...this.transports.values()].find((t) => t.clientId === clientIdOrToken);
    if (!transport) throw new Error('sendWebhook: no transport registered with this clientId or token');
    if (!transport.webhookUrl) throw new Error(`sendWebhook: transport ${transport.clientId} has no webhookUrl`);
    const body = { type, meta: { timestamp: Math.floor(Date.now() / 1000) }, data };
    const reply = await this.options.client.postJson(transport.webhookUrl, body, {
      label: `webhook ${type}`,
      direction: 'gateway->module',
      headers: { ClientId: transport.clientId },
    });
    if (reply.status !== undefined && reply.status < 300 && isObject(data)) this.afterWebhook(type, data, reply);
    return reply;
  }

  private afterWebhook(type: string, data: Record<string, unknown>, reply: Reply): void {
    const channelId = Number(data.channel_id);
    if (!this.channels.has(channelId)) return;
    if (type === 'template_create' && isObject(reply.json) && typeof reply.json.code === 'string' && reply.json.code !== '') {
      const code = reply.json.code;
      const status = typeof reply.json.verification_status === 'string' ? reply.json.verification_status : 'pending';
      const tpl: GatewayTemplate = { channel_id: channelId, code, template: { ...data, code, channel_id: channelId }, history: [] };
      this.applyStatus(tpl, { verification_status: status }, 'webhook template_create');
      this.channelTemplates(channelId).set(code, tpl);
    } else if (type === 'template_update' && typeof data.code === 'string') {
      const tpl = this.template(channelId, data.code);
      if (!tpl) return;
      tpl.template = { ...tpl.template, ...data, code: tpl.code, channel_id: channelId };
      if (tpl.verification_status === 'rejected') this.applyStatus(tpl, { verification_status: 'pending' }, 'webhook template_update');
    } else if (type === 'template_delete' && typeof data.code === 'string') {
      this.templates.get(channelId)?.delete(data.code);
    }
  }

  // ---- bot WebSocket -------------------------------------------------------------------------

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const startedAt = new Date();
    const t0 = performance.now();
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const wsUrl = `${this.server.baseUrl().replace(/^http/, 'ws')}${req.url ?? '/'}`;
    const record = (status: number, body?: string): Exchange =>
      this.options.log.record({
        direction: 'module->gateway',
        label: 'bot websocket connect',
        startedAt,
        durationMs: performance.now() - t0,
        request: { method: 'GET', url: wsUrl, headers },
        response: { status, headers: status === 101 ? { upgrade: 'websocket', connection: 'Upgrade' } : { 'content-type': 'application/json; charset=utf-8' }, ...(body !== undefined ? { body } : {}) },
      });
    const refuse = (status: number, reason: string, message: string): void => {
      const body = JSON.stringify({ errors: [message] });
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      record(status, body);
    };

    if (url.pathname.replace(/\/$/, '') !== BOT_WS_PATH) return refuse(404, 'Not Found', `no endpoint ${url.pathname}`);
    const token = headers['x-bot-token'];
    if (!token) return refuse(401, 'Unauthorized', 'header X-Bot-Token is missing');
    const bot = this.bots.get(token);
    if (!bot) return refuse(401, 'Unauthorized', 'unknown X-Bot-Token');
    if (!this.admit(token)) return refuse(429, 'Too Many Requests', 'Too Many Requests');
    const events = (url.searchParams.get('events') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');

    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: BotConnection = {
        id: `b${this.nextConnectionId++}`,
        token,
        clientId: bot.clientId,
        events,
        connectedAt: preciseNow(),
        exchange: record(101),
        received: [],
      };
      this.connections.push(conn);
      this.sockets.set(conn.id, ws);
      ws.on('message', (data) => conn.received.push(Buffer.isBuffer(data) ? data.toString('utf8') : String(data)));
      ws.on('error', () => {
        /* a broken connection ends in 'close' */
      });
      ws.on('close', (code) => {
        conn.closedAt = preciseNow();
        conn.closeCode = code;
        conn.closedBy ??= 'bot';
        this.sockets.delete(conn.id);
        this.options.log.record({
          direction: conn.closedBy === 'gateway' ? 'gateway->module' : 'module->gateway',
          label: 'bot websocket close',
          startedAt: new Date(),
          durationMs: 0,
          request: { method: 'WS', url: wsUrl, headers: {}, body: JSON.stringify({ connection: conn.id, code, closedBy: conn.closedBy }) },
        });
        this.emit('botClose', conn);
      });
      this.emit('botConnection', conn);
    });
  }

  /** Every bot connection so far, oldest first. */
  botConnections(): readonly BotConnection[] {
    return this.connections;
  }

  /**
   * Sends a frame to every open bot connection subscribed to its type (or subscribed to no
   * list, or to all with `all`). Returns how many connections it was sent to.
   */
  sendToBots(frame: BotFrame, options: { all?: boolean } = {}): number {
    const full = { type: frame.type, meta: frame.meta ?? { timestamp: Math.floor(Date.now() / 1000) }, data: frame.data };
    const text = JSON.stringify(full);
    let sent = 0;
    for (const conn of this.connections) {
      const ws = this.sockets.get(conn.id);
      if (!ws || ws.readyState !== ws.OPEN) continue;
      if (!options.all && conn.events.length > 0 && !conn.events.includes(frame.type)) continue;
      ws.send(text);
      sent++;
      this.options.log.record({
        direction: 'gateway->module',
        label: `bot websocket frame ${frame.type}`,
        startedAt: new Date(),
        durationMs: 0,
        request: { method: 'WS', url: `${this.server.baseUrl().replace(/^http/, 'ws')}${BOT_WS_PATH}`, headers: {}, body: text },
      });
    }
    return sent;
  }

  /**
   * Closes every open bot connection: `normal` with a close frame and code 1000, `abnormal` by
   * dropping the socket (the bot sees 1006). Resolves, once they are closed, with the moment the
   * closing began (epoch ms), to pass to `waitForBotConnection` as `afterTime`.
   */
  async closeBots(mode: 'normal' | 'abnormal', waitMs = 5000): Promise<number> {
    const startedAt = preciseNow();
    const open = this.connections.filter((c) => this.sockets.has(c.id));
    const closed = open.map((conn) => {
      const ws = this.sockets.get(conn.id)!;
      conn.closedBy = 'gateway';
      const done = new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) resolve();
        else ws.once('close', () => resolve());
      });
      if (mode === 'normal') ws.close(1000, 'closed by the gateway');
      else ws.terminate();
      return done;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    return startedAt;
  }

  /**
   * Waits for a bot connection: with `afterTime` (epoch ms) the first made at or after that
   * time, else the first still open or the next one. Undefined at the timeout.
   */
  waitForBotConnection(timeoutMs: number, afterTime?: number): Promise<BotConnection | undefined> {
    const fits = (c: BotConnection): boolean => (afterTime === undefined ? c.closedAt === undefined : c.connectedAt >= afterTime);
    const found = this.connections.find(fits);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const on = (c: BotConnection): void => {
        if (fits(c)) done(c);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (c: BotConnection | undefined): void => {
        clearTimeout(timer);
        this.off('botConnection', on);
        resolve(c);
      };
      this.on('botConnection', on);
    });
  }
}
