/**
 * The chat gateway simulator: the Transport API (`/api/transport/v1`) and the Bot API
 * (`/api/bot/v1`, with its WebSocket) as wire-profile section 6 describes them, toward transport
 * and bot modules. This file is the facade: it checks the `X-Transport-Token` / `X-Bot-Token`
 * header against the tokens the system handed out, enforces the rate limit of 30 requests per
 * second per token with 429 (document, Errors 6 and Limits), and records every inbound call
 * decoded and validated against its schema for the checks to judge. The APIs it plays are in
 * their own files:
 *
 * - `gateway-endpoints.ts`: the table of both APIs' endpoints and what a call records;
 * - `gateway-rate.ts`: the rate limit, 429 on demand, and each token's traffic;
 * - `gateway-transport-api.ts`: the Transport API routing table and handlers;
 * - `gateway-bot-api.ts`: the Bot API routing table and handlers;
 * - `gateway-bot-ws.ts`: the bot WebSocket;
 * - `gateway-webhooks.ts`: webhooks to transport modules (with the `ClientId` header);
 * - `gateway-state.ts`, `gateway-records.ts` and `gateway-views.ts`: what the gateway holds and how it shows it.
 *
 * Template paths are accepted with and without the `/api/transport/v1` prefix (the document
 * writes them without it; wire profile: accept both). Like the system simulator, a body that
 * does not conform to its schema is recorded with its schema errors and still acted upon when it
 * can be: the checks, not the simulator, judge conformance. An unknown path answers 404 and a
 * known path with another method 405, both with the gateway's error body `{errors: [...]}`, and
 * are recorded as `unknown endpoint`.
 */
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { EvidenceLog, Exchange } from '../evidence/exchange.ts';
import type { CallbackClient, Reply } from '../client/callback-client.ts';
import { contract } from '../contract/schemas.ts';
import { waitForMatch } from './wait.ts';
import { BoundedList, type SecondOfTraffic, type TokenRate } from '../evidence/bounded.ts';
import type { Answer, InboundRequest, ServerLimits, TlsMaterial } from './http.ts';
import { RecordingServer } from './http-server.ts';
import { jsonErrorMessage, parseJson } from './http-decode.ts';
import { BOT_PREFIX, TRANSPORT_PREFIX, errors, type RouteDef } from './gateway-routing.ts';
import { isObject } from './gateway-values.ts';
import { TEMPLATE_JUDGEMENTS } from './gateway-transport-api.ts';
import { GATEWAY_HANDLERS, GATEWAY_ROUTES, type GatewayCall, type GatewayRoute } from './gateway-endpoints.ts';
import { GatewayRate } from './gateway-rate.ts';
import { BotSockets, type BotConnection, type BotFrame, type UpgradeAttempt } from './gateway-bot-ws.ts';
import { sendWebhook } from './gateway-webhooks.ts';
import { GatewayState } from './gateway-state.ts';
import type { BotRegistration, GatewayChannel, GatewayTemplate, GatewayUser, TransportRegistration } from './gateway-records.ts';


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
  /** Serve HTTPS (and the bot WebSocket as wss) with this key and certificate. */
  tls?: TlsMaterial;
  /** Request, frame size and time limits (default `DEFAULT_LIMITS` of http.ts). */
  limits?: Partial<ServerLimits>;
}

export class GatewaySimulator extends EventEmitter {
  private readonly callList = new BoundedList<GatewayCall>();
  /** Calls in order: per route the first 2,000 and the last 1,000 kept (every one counted: `callCount()`). */
  readonly calls: GatewayCall[] = this.callList.items;
  private readonly unknownList = new BoundedList<Exchange>();
  /** Requests to paths or methods the gateway does not have (answered 404 or 405), in order; bounded per path like `calls`. */
  readonly unknown: Exchange[] = this.unknownList.items;
  /** Everything the gateway holds; the maps below are views into it. */
  readonly state = new GatewayState();
  readonly transports = this.state.transports;
  readonly bots = this.state.bots;
  readonly channels = this.state.channels;
  /** Templates by channel id, then by code. */
  readonly templates = this.state.templates;
  /** Messages by id, the latest `MAX_HELD` (see `evicted()`). */
  readonly messages = this.state.messages;
  /** Files by id, the latest `MAX_HELD` (see `evicted()`). */
  readonly files = this.state.files;
  /** Bot commands by bot token, then by name (the body as received). */
  readonly commands = this.state.commands;
  private readonly server: RecordingServer;
  private readonly sockets: BotSockets;
  private readonly options: GatewaySimulatorOptions;
  /** The rate limit of 30 requests a second per token, 429 on demand, and each token's traffic (`gateway-rate.ts`). */
  private readonly rate: GatewayRate;
  private readonly pending = new WeakMap<InboundRequest, Omit<GatewayCall, 'exchange'>>();

  constructor(options: GatewaySimulatorOptions) {
    super();
    this.options = options;
    this.rate = new GatewayRate(options.ratePerSecond ?? 30, options.clock ?? Date.now);
    this.server = new RecordingServer({
      log: options.log,
      direction: 'module->gateway',
      bind: options.bind ?? '127.0.0.1',
      port: options.port ?? 0,
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      // The gateway's error body (wire profile section 6).
      errorBody: (message) => ({ errors: [message] }),
      onExchange: (label, req, exchange) => (label === 'unknown endpoint' ? this.unknownCall(exchange) : this.completed(req, exchange)),
    });
    for (const [name, def] of Object.entries(GATEWAY_ROUTES) as Array<[GatewayRoute, RouteDef]>) {
      const prefix = def.api === 'transport' ? TRANSPORT_PREFIX : BOT_PREFIX;
      // A raw body is a file upload: up to `maxUploadBytes`, counted as it streams, not held.
      const options = { upload: def.body === 'raw' };
      this.server.route(`${def.method} ${prefix}${def.path}`, name, (req) => this.handle(name, req, false), options);
      if (def.bare) this.server.route(`${def.method} ${def.path}`, name, (req) => this.handle(name, req, true), options);
    }
    this.sockets = new BotSockets({
      log: options.log,
      events: this,
      baseUrl: () => this.server.baseUrl(),
      bot: (token) => this.state.bots.get(token),
      admit: (token) => this.rate.admit(token, 'socket'),
      maxFrameBytes: this.server.limits.maxFrameBytes,
    });
    this.server.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      this.server.upgraded(socket);
      this.sockets.upgrade(req, socket, head);
    });
  }

  async start(): Promise<string> {
    await this.server.listen();
    return this.url();
  }

  async stop(): Promise<void> {
    await this.sockets.stop();
    await this.server.close();
  }

  /** The gateway address given to modules as `endpointUrl`. */
  url(): string {
    return this.options.publicUrl ?? this.server.baseUrl();
  }

  // ---- credentials ---------------------------------------------------------------------------

  /** Accepts a transport token (the system calls this when it hands the token out). */
  registerTransport(reg: TransportRegistration): void {
    this.state.addTransport(reg);
    this.options.log.redactor.add('transportToken', reg.token);
    this.options.log.redactor.add('clientId', reg.clientId);
  }

  /** Accepts a bot token (the system calls this when it hands the token out). */
  registerBot(reg: BotRegistration): void {
    this.state.addBot(reg);
    this.options.log.redactor.add('botToken', reg.token);
    this.options.log.redactor.add('clientId', reg.clientId);
  }

  // ---- rate limit ----------------------------------------------------------------------------

  /** 429 on demand for a token's next requests (see `GatewayRate.throttle`). */
  throttle(token: string, options: { count?: number; untilMs?: number; routes?: readonly GatewayRoute[] }): void {
    this.rate.throttle(token, options);
  }

  /** How many requests the token's current throttle refused so far (0 without one). */
  throttled(token: string): number {
    return this.rate.throttled(token);
  }

  /** What a token sent per second of the gateway's clock (see `GatewayRate.requestsPerSecond`). */
  requestsPerSecond(token: string, sinceMs?: number): SecondOfTraffic[] {
    return this.rate.requestsPerSecond(token, sinceMs);
  }

  /** The gateway's clock (epoch ms; frozen in tests). */
  now(): number {
    return this.rate.clock();
  }

  /** Connections that ended before one request was complete (see `RecordingServer.connectionTrouble`). */
  connectionTrouble(): { stalled: number; malformed: number } {
    return this.server.connectionTrouble();
  }

  /** Per token: the peak rate the module reached, its 429s, and what it did after them (tokens redacted). */
  tokenRates(): TokenRate[] {
    return this.rate.tokenRates(
      (token) => this.options.log.redactor.text(token),
      (token) => (this.state.transports.get(token) ?? this.state.bots.get(token))?.clientId,
    );
  }

  /** Every call so far, kept or not; a position for `callsSince`. */
  callCount(): number {
    return this.callList.count;
  }

  /** The calls (kept) made after the first `n` (`n` from `callCount()`). */
  callsSince(n: number): GatewayCall[] {
    return this.callList.since(n);
  }

  /** How many requests of a token were answered 429. */
  tooManyRequests(token: string): number {
    return this.rate.tooManyRequests(token);
  }

  /** How many messages, files, customers, chats and dialogs the gateway evicted (oldest first) to stay within `MAX_HELD`. */
  evicted(): ReturnType<GatewayState['evicted']> {
    return this.state.evicted();
  }

  /** 429 answers per token. */
  tooManyRequestsByToken(): ReadonlyMap<string, number> {
    return this.rate.tooManyRequestsByToken();
  }

  // ---- HTTP APIs -----------------------------------------------------------------------------

  /** Waits for the next call to a route that satisfies `predicate`, or undefined at the timeout. */
  waitFor(route: GatewayRoute, timeoutMs: number, predicate: (c: GatewayCall) => boolean = () => true, since = 0): Promise<GatewayCall | undefined> {
    return waitForMatch<GatewayCall>(this, 'call', this.callList.since(since), (c) => c.route === route && predicate(c), timeoutMs);
  }

  private async handle(route: GatewayRoute, req: InboundRequest, unprefixed: boolean): Promise<Answer> {
    const def: RouteDef = GATEWAY_ROUTES[route];
    const token = req.headers[def.api === 'transport' ? 'x-transport-token' : 'x-bot-token'];
    const call: Omit<GatewayCall, 'exchange'> = { route, api: def.api, params: req.params, unprefixed, schemaErrors: [], accepted: false, status: 0 };
    if (token !== undefined) call.token = token;
    const owner = token === undefined ? undefined : def.api === 'transport' ? this.state.transports.get(token) : this.state.bots.get(token);
    // The call is complete once the server has recorded the exchange, even if acting fails.
    this.pending.set(req, call);

    if (def.body === 'json') {
      if (req.body.length === 0) call.decodeError = 'request body is missing';
      else {
        try {
          call.payload = parseJson(req.body.toString('utf8'));
        } catch (e) {
          call.decodeError = jsonErrorMessage(e, 'request body');
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
      if (!this.rate.admit(token, route)) answer = errors(429, 'Too Many Requests');
      else if (call.decodeError) answer = errors(400, call.decodeError);
      else if (def.body === 'json' && !isObject(call.payload)) answer = errors(400, 'request body must be a JSON object');
      else {
        const body = isObject(call.payload) ? call.payload : {};
        answer = await GATEWAY_HANDLERS[route]({ req, token, body, state: this.state, gatewayUrl: this.url() });
        const judged = TEMPLATE_JUDGEMENTS.get(req);
        if (judged) call.template = judged;
      }
    }
    call.status = answer.status;
    call.accepted = answer.status < 300;
    return answer;
  }

  /** A request to no endpoint of the gateway: kept for the judgement of the module's gateway calls. */
  private unknownCall(exchange: Exchange): void {
    this.unknownList.push(exchange, `${exchange.request.method} ${new URL(exchange.request.url ?? '/', 'http://gateway.invalid').pathname}`);
    this.emit('unknown', exchange);
  }

  /** Every request to no endpoint so far, kept or not. */
  unknownCount(): number {
    return this.unknownList.count;
  }

  /** The server recorded the exchange of a request: the call is complete and announced. */
  private completed(req: InboundRequest, exchange: Exchange): void {
    const call = this.pending.get(req);
    if (!call) return;
    this.pending.delete(req);
    if (call.status === 0) {
      // The handler failed: the server answered 500.
      call.status = exchange.response?.status ?? 500;
      call.accepted = false;
    }
    const full: GatewayCall = { ...call, exchange };
    this.callList.push(full, full.route);
    this.emit('call', full);
  }

  // ---- state ---------------------------------------------------------------------------------

  /** Adds a channel of a transport as if it had activated it. */
  seedChannel(token: string, body: Record<string, unknown>): GatewayChannel {
    return this.state.addChannel(token, body);
  }

  /** Adds a manager the Bot API lists (`GET /users`) and dialogs can be assigned to. */
  seedUser(fields: Partial<Omit<GatewayUser, 'id' | 'created_at'>> = {}): GatewayUser {
    return this.state.addUser(fields);
  }

  /** A template as the gateway holds it. */
  template(channelId: number, code: string): GatewayTemplate | undefined {
    return this.state.template(channelId, code);
  }

  // ---- webhooks ------------------------------------------------------------------------------

  /** Sends a webhook to a transport's `webhookUrl` with the `ClientId` header (see `gateway-webhooks.ts`). */
  sendWebhook(clientIdOrToken: string, type: string, data: unknown): Promise<Reply> {
    return sendWebhook(this.state, this.options.client, clientIdOrToken, type, data);
  }

  // ---- bot WebSocket -------------------------------------------------------------------------

  /** Every bot connection so far, oldest first. */
  botConnections(): readonly BotConnection[] {
    return this.sockets.all();
  }

  /**
   * Sends a frame to every open bot connection subscribed to its type (or subscribed to no
   * list, or to all with `all`). Returns how many connections it was sent to.
   */
  sendToBots(frame: BotFrame, options: { all?: boolean } = {}): number {
    return this.sockets.send(frame, options);
  }

  /**
   * Closes every open bot connection: `normal` with a close frame and code 1000, `abnormal` by
   * dropping the socket (the bot sees 1006). Resolves, once they are closed, with the moment the
   * closing began (epoch ms), to pass to `waitForBotConnection` as `afterTime`.
   */
  closeBots(mode: 'normal' | 'abnormal', waitMs = 5000): Promise<number> {
    return this.sockets.close(mode, waitMs);
  }

  /**
   * Waits for a bot connection: with `afterTime` (epoch ms) the first made at or after that
   * time, else the first still open or the next one. Undefined at the timeout.
   */
  waitForBotConnection(timeoutMs: number, afterTime?: number): Promise<BotConnection | undefined> {
    return this.sockets.waitFor(timeoutMs, afterTime);
  }

  /** Every upgrade request of the bot WebSocket (the last 5,000), oldest first; with `afterTime` those made at or after it. */
  botUpgradeAttempts(afterTime?: number): UpgradeAttempt[] {
    return this.sockets.attempts(afterTime);
  }

  /** Refuses every bot WebSocket upgrade for `ms` milliseconds (503 by default; 0 ends it); returns when the refusal ends (epoch ms). */
  refuseBotUpgrades(ms: number, status = 503): number {
    return this.sockets.refuseUpgrades(ms, status);
  }
}
