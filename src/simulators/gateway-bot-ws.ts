/**
 * The bot WebSocket: `{endpointUrl as ws/wss}/api/bot/v1/ws?events=<comma list>` with the header
 * `X-Bot-Token` (wire profile section 6; `retailcrm/mg-bot-api-client-go` `v1/client.go` WsMeta,
 * `retailcrm/bot-api-client-go` `ws/`). It refuses an upgrade without a registered bot token
 * (401) or over the rate limit (429) with the gateway's error body, records every connection,
 * frame and close as evidence, and lets the suite send frames and close connections normally
 * (1000) or abnormally (the bot sees 1006). Every upgrade request is kept as an attempt (time,
 * path, token, status) so that the reconnect timing of a bot can be measured; the suite can make
 * the gateway refuse every upgrade for a while (`refuseUpgrades`: 503 with the error body, as an
 * unavailable gateway answers) to count a bot's attempts while it cannot connect.
 */
import type { EventEmitter } from 'node:events';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EvidenceLog, Exchange } from '../evidence/exchange.ts';
import { BOT_WS_PATH } from './gateway-routing.ts';
import type { BotRegistration } from './gateway-records.ts';

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
  /** Why the gateway ended the connection on its own (a message over the size limit: 1009). */
  error?: string;
}

/** One upgrade request of a bot, whatever the answer. Times are epoch milliseconds. */
export interface UpgradeAttempt {
  at: number;
  /** The path and query asked for. */
  url: string;
  /** The `X-Bot-Token` header: absent, a registered bot token, or another value. */
  token: 'missing' | 'bot' | 'unknown';
  /** The bot token presented, when it is a registered one. */
  botToken?: string;
  /** 101 when upgraded; else the refusal's status. */
  status: number;
  /** The recorded exchange. */
  exchange: Exchange;
}

/** A frame on the bot WebSocket; `meta.timestamp` (unix seconds) is filled in when absent. */
export interface BotFrame {
  type: string;
  meta?: { timestamp: number; [k: string]: unknown };
  data: unknown;
}

export interface BotSocketOptions {
  log: EvidenceLog;
  /** Announces `botConnection` and `botClose` (the gateway simulator). */
  events: EventEmitter;
  /** The listening address (`http://host:port`). */
  baseUrl: () => string;
  bot: (token: string) => BotRegistration | undefined;
  /** Counts a request of the token; false when over the rate limit. */
  admit: (token: string) => boolean;
  /** Largest message a bot may send (bytes); a larger one closes the connection with 1009 (default 1 MB). */
  maxFrameBytes?: number;
}

/** Upgrade attempts kept (a bot in a tight loop makes thousands). */
const MAX_ATTEMPTS = 5000;

/** Epoch milliseconds with sub-millisecond precision, strictly ordered within the process. */
const preciseNow = (): number => performance.timeOrigin + performance.now();

export class BotSockets {
  private readonly connections: BotConnection[] = [];
  /** Every upgrade request, the oldest first (the last `MAX_ATTEMPTS` kept; `attemptCount` counts all). */
  private readonly attemptList: UpgradeAttempt[] = [];
  attemptCount = 0;
  /** Until when (epoch ms) upgrades are refused, and with which status. */
  private refusing: { until: number; status: number } | undefined;
  private readonly sockets = new Map<string, WebSocket>();
  private readonly wss: WebSocketServer;
  private readonly options: BotSocketOptions;
  private nextId = 1;

  constructor(options: BotSocketOptions) {
    this.options = options;
    // `ws` refuses a message over maxPayload: it closes the connection with 1009 and never buffers it whole.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 1024 * 1024 });
  }

  private wsUrl(path: string): string {
    return `${this.options.baseUrl().replace(/^http/, 'ws')}${path}`;
  }

  /** Handles an HTTP upgrade request of the gateway's server. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const startedAt = new Date();
    const t0 = performance.now();
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const wsUrl = this.wsUrl(req.url ?? '/');
    const record = (status: number, body?: string): Exchange =>
      this.options.log.record({
        direction: 'module->gateway',
        label: 'bot websocket connect',
        startedAt,
        durationMs: performance.now() - t0,
        request: { method: 'GET', url: wsUrl, headers },
        response: { status, headers: status === 101 ? { upgrade: 'websocket', connection: 'Upgrade' } : { 'content-type': 'application/json; charset=utf-8' }, ...(body !== undefined ? { body } : {}) },
      });
    const at = preciseNow();
    const presented = headers['x-bot-token'];
    const known = presented ? this.options.bot(presented) : undefined;
    const attempt = (status: number, exchange: Exchange): void => {
      this.attemptCount++;
      this.attemptList.push({ at, url: req.url ?? '/', token: !presented ? 'missing' : known ? 'bot' : 'unknown', ...(known ? { botToken: presented } : {}), status, exchange });
      if (this.attemptList.length > MAX_ATTEMPTS) this.attemptList.splice(0, this.attemptList.length - MAX_ATTEMPTS);
    };
    const refuse = (status: number, reason: string, message: string): void => {
      const body = JSON.stringify({ errors: [message] });
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      attempt(status, record(status, body));
    };

    if (url.pathname.replace(/\/$/, '') !== BOT_WS_PATH) return refuse(404, 'Not Found', `no endpoint ${url.pathname}`);
    if (this.refusing && Date.now() < this.refusing.until) return refuse(this.refusing.status, this.refusing.status === 503 ? 'Service Unavailable' : 'Refused', 'the gateway is unavailable; try again later');
    const token = presented;
    if (!token) return refuse(401, 'Unauthorized', 'header X-Bot-Token is missing');
    const bot = known;
    if (!bot) return refuse(401, 'Unauthorized', 'unknown X-Bot-Token');
    if (!this.options.admit(token)) return refuse(429, 'Too Many Requests', 'Too Many Requests');
    const events = (url.searchParams.get('events') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');

    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: BotConnection = { id: `b${this.nextId++}`, token, clientId: bot.clientId, events, connectedAt: preciseNow(), exchange: record(101), received: [] };
      attempt(101, conn.exchange);
      this.connections.push(conn);
      this.sockets.set(conn.id, ws);
      // The code the gateway closed with on its own (ws stops reading then: the bot's echo is not seen).
      let sentCode: number | undefined;
      ws.on('message', (data) => conn.received.push(Buffer.isBuffer(data) ? data.toString('utf8') : String(data)));
      ws.on('error', (err: Error & { code?: string }) => {
        // A broken connection ends in 'close'; a protocol error (a message over maxPayload: 1009) is the gateway's doing, kept as evidence.
        if (conn.closedAt !== undefined) return;
        conn.closedBy = 'gateway';
        conn.error = `${err.message}${err.code ? ` (${err.code})` : ''}`;
        if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') sentCode = 1009;
        this.options.log.record({
          direction: 'gateway->module',
          label: 'bot websocket refused frame',
          startedAt: new Date(),
          durationMs: 0,
          request: { method: 'WS', url: wsUrl, headers: {}, body: JSON.stringify({ connection: conn.id, error: conn.error, ...(err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? { closeCode: 1009, maxPayload: this.options.maxFrameBytes ?? 1024 * 1024 } : {}) }) },
          error: conn.error,
        });
      });
      ws.on('close', (seen) => {
        const code = sentCode ?? seen;
        conn.closedAt = preciseNow();
        conn.closeCode = code;
        conn.closedBy ??= 'bot';
        this.sockets.delete(conn.id);
        this.options.log.record({
          direction: conn.closedBy === 'gateway' ? 'gateway->module' : 'module->gateway',
          label: 'bot websocket close',
          startedAt: new Date(),
          durationMs: 0,
          request: { method: 'WS', url: wsUrl, headers: {}, body: JSON.stringify({ connection: conn.id, code, closedBy: conn.closedBy, ...(conn.error ? { error: conn.error } : {}) }) },
        });
        this.options.events.emit('botClose', conn);
      });
      this.options.events.emit('botConnection', conn);
    });
  }

  /** Every bot connection so far, oldest first. */
  all(): readonly BotConnection[] {
    return this.connections;
  }

  /** Upgrade requests (the last `MAX_ATTEMPTS`), oldest first; with `afterTime` those made at or after it. */
  attempts(afterTime?: number): UpgradeAttempt[] {
    return afterTime === undefined ? [...this.attemptList] : this.attemptList.filter((a) => a.at >= afterTime);
  }

  /**
   * Refuses every upgrade of the bot WebSocket path for `ms` milliseconds from now with `status`
   * (default 503) and the gateway's error body, whatever the token. `ms` 0 ends a refusal.
   * Returns the moment the refusal ends (epoch ms).
   */
  refuseUpgrades(ms: number, status = 503): number {
    const until = Date.now() + ms;
    this.refusing = ms > 0 ? { until, status } : undefined;
    return until;
  }

  /**
   * Sends a frame to every open bot connection subscribed to its type (or subscribed to no
   * list, or to all with `all`). Returns how many connections it was sent to.
   */
  send(frame: BotFrame, options: { all?: boolean } = {}): number {
    const text = JSON.stringify({ type: frame.type, meta: frame.meta ?? { timestamp: Math.floor(Date.now() / 1000) }, data: frame.data });
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
        request: { method: 'WS', url: this.wsUrl(BOT_WS_PATH), headers: {}, body: text },
      });
    }
    return sent;
  }

  /** Closes every open connection (see `GatewaySimulator.closeBots`). */
  async close(mode: 'normal' | 'abnormal', waitMs = 5000): Promise<number> {
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

  /** Waits for a connection (see `GatewaySimulator.waitForBotConnection`). */
  waitFor(timeoutMs: number, afterTime?: number): Promise<BotConnection | undefined> {
    const fits = (c: BotConnection): boolean => (afterTime === undefined ? c.closedAt === undefined : c.connectedAt >= afterTime);
    const found = this.connections.find(fits);
    if (found) return Promise.resolve(found);
    const events = this.options.events;
    return new Promise((resolve) => {
      const on = (c: BotConnection): void => {
        if (fits(c)) done(c);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (c: BotConnection | undefined): void => {
        clearTimeout(timer);
        events.off('botConnection', on);
        resolve(c);
      };
      events.on('botConnection', on);
    });
  }

  /** Drops every socket and stops the WebSocket server. */
  async stop(): Promise<void> {
    for (const ws of this.sockets.values()) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
