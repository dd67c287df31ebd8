/**
 * The simulators' HTTP (or, with `tls`, HTTPS) server: it reads each request whole within the
 * limits (a file upload is counted as it streams, only its first and last bytes kept), decodes
 * it, routes it, answers, and records the exchange as evidence. It also counts the connections
 * on which a request never completed (`connectionTrouble`).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Direction, EvidenceLog, Exchange } from '../evidence/exchange.ts';
import { json, serverLimits, systemError, UPLOAD_HEAD_BYTES, UPLOAD_TAIL_BYTES, type Answer, type Handler, type InboundRequest, type RouteOptions, type ServerLimits, type TlsMaterial } from './http.ts';
import { declaredLength, readBody, sampleBody } from './http-body.ts';
import { decodeBody } from './http-decode.ts';

interface Route extends RouteOptions {
  method: string;
  pattern: RegExp;
  keys: string[];
  label: string;
  handler: Handler;
}

export interface ServerOptions {
  log: EvidenceLog;
  direction: Direction;
  bind: string;
  port: number;
  /** The body of the server's own refusals (unknown path, wrong method, too large); default the system's `{success: false, errorMsg}`. */
  errorBody?: (message: string) => unknown;
  /** Serve HTTPS with this key and certificate (default: plain HTTP). */
  tls?: TlsMaterial;
  /** Called after each exchange is recorded, with the route label and the decoded request. */
  onExchange?: (label: string, req: InboundRequest, exchange: Exchange) => void;
  /** Body size and time limits (default `DEFAULT_LIMITS`). */
  limits?: Partial<ServerLimits>;
}

/** A small router on node:http. Routes are `METHOD /path/{param}`. */
export class RecordingServer {
  readonly server: http.Server | https.Server;
  readonly limits: ServerLimits;
  private readonly routes: Route[] = [];
  private readonly options: ServerOptions;
  /** Every open TCP connection (also mid-TLS-handshake, mid-request or upgraded), destroyed by `close`. */
  private readonly sockets = new Set<Socket>();
  private closing = false;
  /** The connections requests arrive on (plain TCP, or TLS once its handshake is done): for `connectionTrouble`. */
  private readonly streams = new Set<Socket>();
  /** Per connection, the bytes read up to the end of its last request read whole. */
  private readonly consumed = new WeakMap<Socket, number>();
  /** Connections whose request body is being read. */
  private readonly reading = new WeakSet<Socket>();
  private readonly trouble = { stalled: 0, malformed: 0 };

  constructor(options: ServerOptions) {
    this.options = options;
    this.limits = serverLimits(options.limits);
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => void this.handle(req, res);
    const requestTimeout = this.limits.requestTimeoutMs;
    const serverOptions: http.ServerOptions = {
      // Node refuses a headers timeout above the request timeout.
      headersTimeout: Math.min(this.limits.headersTimeoutMs, requestTimeout),
      requestTimeout,
      keepAliveTimeout: this.limits.keepAliveTimeoutMs,
      // How often the two timeouts above are checked (Node's default, 30 s, would blur them).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(Math.min(this.limits.headersTimeoutMs, requestTimeout) / 4))),
    };
    this.server = options.tls
      ? https.createServer({ ...serverOptions, key: options.tls.key, cert: options.tls.cert }, handler)
      : http.createServer(serverOptions, handler);
    this.server.keepAliveTimeout = this.limits.keepAliveTimeoutMs;
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.streams.add(socket);
      socket.once('close', () => this.streams.delete(socket));
    });
    // A connection error before a request was complete: a parse error (`HPE_*`) is a malformed
    // request; anything else (the header timeout, a reset) a connection that stalled. Counted,
    // then answered as Node answers without a listener: 431, 413, 408 or 400 when no answer is
    // under way on the connection, and closed.
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: { _headerSent?: boolean } | null }) => {
      if (this.pending(socket)) this.trouble[err.code?.startsWith('HPE_') ? 'malformed' : 'stalled']++;
      const status = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 }[err.code ?? ''] ?? 400;
      if (socket.writable && !socket._httpMessage?._headerSent) socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
      socket.destroy();
    });
    // `Expect: 100-continue`: a body declared too large is refused before the client sends it.
    this.server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const route = this.find(req.method ?? 'GET', new URL(req.url ?? '/', 'http://simulator.invalid').pathname);
      if (!(declaredLength(req) > this.bodyLimit(route))) res.writeContinue();
      handler(req, res);
    });
  }

  route(spec: string, label: string, handler: Handler, options: RouteOptions = {}): this {
    const [method, path] = spec.split(' ') as [string, string];
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, k: string) => (keys.push(k), '([^/]+)'))}/?$`,
    );
    this.routes.push({ method, pattern, keys, label, handler, ...options });
    return this;
  }

  /** The route of a method and path. */
  private find(method: string, pathname: string): Route | undefined {
    return this.routes.find((r) => r.method === method && r.pattern.test(pathname));
  }

  /** Most bytes of a body the route reads: `maxUploadBytes` for an upload, else `maxRequestBytes`. */
  private bodyLimit(route: Route | undefined): number {
    return route?.upload ? this.limits.maxUploadBytes : this.limits.maxRequestBytes;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.bind, () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * Connections on which a request never completed: `stalled`, dropped at the suite's header
   * timeout, or still open now with a request unfinished (mid-headers or mid-body); `malformed`,
   * a request that could not be parsed. A body cut short by its connection closing is an
   * exchange of its own ("incomplete request"), not counted here.
   */
  connectionTrouble(): { stalled: number; malformed: number } {
    let open = 0;
    for (const s of this.streams) if (this.reading.has(s) || this.pending(s)) open++;
    return { stalled: this.trouble.stalled + open, malformed: this.trouble.malformed };
  }

  /** A connection taken over by another protocol (the bot WebSocket): no longer an HTTP connection that could stall. */
  upgraded(socket: Duplex): void {
    this.streams.delete(socket as Socket);
  }

  /** True when a connection holds bytes of a request whose headers are not complete. */
  private pending(socket: Socket): boolean {
    return !this.reading.has(socket) && socket.bytesRead > (this.consumed.get(socket) ?? 0);
  }

  /**
   * Stops listening and destroys every connection, also those that never finished a request
   * (or a TLS handshake): returns promptly whatever the module left open.
   */
  async close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const startedAt = new Date();
    const t0 = performance.now();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const method = req.method ?? 'GET';
    const route = this.find(method, url.pathname);
    const max = this.bodyLimit(route);
    const refuse = (status: number, message: string): Answer =>
      this.options.errorBody ? json(status, this.options.errorBody(message)) : systemError(status, message);
    const record = (label: string, inbound: InboundRequest, answer: Answer | undefined, payload: string, extra: { bytes?: number; error?: string } = {}): void => {
      const resHeaders = answer ? { 'content-type': 'application/json; charset=utf-8', ...answer.headers } : undefined;
      const exchange = this.options.log.record({
        direction: this.options.direction,
        label,
        startedAt,
        durationMs: performance.now() - t0,
        request: { method, url: `${this.baseUrl()}${req.url ?? '/'}`, headers, body: inbound.body, ...(extra.bytes !== undefined ? { bytes: extra.bytes } : {}) },
        ...(answer && resHeaders ? { response: { status: answer.status, headers: resHeaders, body: payload } } : {}),
        ...(extra.error ? { error: extra.error } : {}),
      });
      this.options.onExchange?.(label, inbound, exchange);
    };
    const bare = (body: Buffer): InboundRequest => ({ method, path: url.pathname, url, headers, body, params: {}, encoding: 'none' });
    const refusedLabel = `${route?.label ?? 'unknown endpoint'} (body too large)`;

    // A declared length over the limit is refused before reading: only what already arrived is
    // sampled for the evidence, and the connection is closed rather than drained.
    const declared = declaredLength(req);
    if (declared > max) {
      const sample = sampleBody(req);
      const answer = refuse(413, `request body of ${declared} bytes is larger than the limit of ${max} bytes`);
      const payload = JSON.stringify(answer.body);
      await respond(res, answer.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }, payload);
      record(refusedLabel, bare(sample()), answer, payload, { bytes: declared, error: `request body of ${declared} bytes (content-length) refused unread: the limit is ${max} bytes` });
      return;
    }

    this.reading.add(req.socket);
    const read = await readBody(req, max, route?.upload ? { head: UPLOAD_HEAD_BYTES, tail: UPLOAD_TAIL_BYTES } : undefined);
    this.reading.delete(req.socket);
    this.consumed.set(req.socket, req.socket.bytesRead);
    if (read.tooLarge) {
      const answer = refuse(413, `request body larger than ${max} bytes`);
      const payload = JSON.stringify(answer.body);
      await respond(res, answer.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }, payload);
      record(refusedLabel, bare(read.body), answer, payload, { bytes: read.size, error: `request body over the limit of ${max} bytes: reading stopped after ${read.size} bytes and the connection was closed` });
      return;
    }
    if (read.aborted) {
      // The module (or the request timeout) closed the connection before the request was complete.
      if (!this.closing) {
        record(`${route?.label ?? 'unknown endpoint'} (incomplete request)`, bare(read.body), undefined, '', {
          bytes: read.size,
          error: `connection closed before the request was complete (${read.size} bytes of the body received${declared >= 0 ? ` of ${declared} declared` : ''})`,
        });
      }
      return;
    }

    const inbound = bare(read.body);
    if (route?.upload) inbound.upload = { size: read.size, tail: read.tail };
    await decodeBody(inbound);
    let label = 'unknown endpoint';
    let answer: Answer;
    if (!route) {
      const otherMethod = this.routes.some((r) => r.pattern.test(inbound.path));
      answer = otherMethod ? refuse(405, `method ${inbound.method} not allowed`) : refuse(404, `no endpoint ${inbound.path}`);
    } else {
      label = route.label;
      const m = route.pattern.exec(inbound.path)!;
      try {
        route.keys.forEach((k, i) => (inbound.params[k] = decodeURIComponent(m[i + 1]!)));
        answer = await route.handler(inbound);
      } catch (e) {
        answer = refuse(500, `simulator error: ${(e as Error).message}`);
      }
    }
    let payload: string;
    try {
      payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    } catch (e) {
      answer = refuse(500, `simulator error: ${(e as Error).message}`);
      payload = JSON.stringify(answer.body);
    }
    const resHeaders = { 'content-type': 'application/json; charset=utf-8', ...answer.headers };
    if (!res.destroyed) {
      res.writeHead(answer.status, resHeaders);
      res.end(payload);
    }
    record(label, inbound, answer, payload, inbound.upload ? { bytes: inbound.upload.size } : {});
  }

  /** The address the server listens on, as a URL. */
  baseUrl(): string {
    const a = this.server.address() as AddressInfo | null;
    if (!a) return '';
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `${this.options.tls ? 'https' : 'http'}://${host}:${a.port}`;
  }
}

/** Writes an answer (when the connection is still there) and resolves once it is sent or lost. */
function respond(res: http.ServerResponse, status: number, headers: Record<string, string>, payload: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve();
    res.once('close', () => resolve());
    res.once('finish', () => resolve());
    res.once('error', () => resolve());
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(payload)) });
    res.end(payload);
  });
}
