/**
 * Plumbing shared by the simulators: an HTTP (or, with `tls`, HTTPS) server that reads each
 * request whole (capped; a file upload is counted as it streams, only its first and last bytes
 * kept), decodes forms (urlencoded and multipart), queries and JSON, routes it, answers, and
 * records the exchange as evidence; and the bound on the state a module makes the simulators hold.
 */
import { decodeJsonField } from '../wire/forms.ts';
import { isUtf8 } from 'node:buffer';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { RECORDED_BODY_LIMIT, type Direction, type EvidenceLog, type Exchange } from '../evidence/exchange.ts';

export interface InboundRequest {
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  /** The body; for an upload route (`RouteOptions.upload`) only its first bytes (see `upload`). */
  body: Buffer;
  /**
   * For an upload route: the size of the body as received and its last bytes. The body is
   * counted as it streams, never held whole: `body` keeps its first `UPLOAD_HEAD_BYTES`.
   */
  upload?: { size: number; tail: Buffer };
  /**
   * The body decoded as a form, when it is `application/x-www-form-urlencoded` or
   * `multipart/form-data` (file parts give their file name).
   */
  form?: URLSearchParams;
  /** How the body was encoded, as the content type says. */
  encoding: BodyEncoding;
  /** Why a body that claims to be a form or JSON could not be read. */
  bodyError?: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  params: Record<string, string>;
  /**
   * Parameters (of the body's form or of the query string) whose bytes are not valid UTF-8: they
   * were decoded with replacement characters (U+FFFD) and are judged as such.
   */
  invalidUtf8?: string[];
  /**
   * Parameters given more than once in the body's form or in the query string. The system is
   * PHP, whose `$_POST`/`$_GET` keep the LAST value of a repeated name: `param` does the same.
   */
  duplicated?: string[];
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type BodyEncoding = 'none' | 'urlencoded' | 'multipart' | 'json' | 'other';

/** Key and certificate (PEM) of a simulator that serves HTTPS. */
export interface TlsMaterial {
  key: string;
  cert: string;
}

export type Handler = (req: InboundRequest) => Answer | Promise<Answer>;

/** How a route reads its body. */
export interface RouteOptions {
  /**
   * A file upload: the body may be up to `maxUploadBytes` (not `maxRequestBytes`) and is counted
   * as it streams, not buffered; the handler gets its first and last bytes and its size
   * (`InboundRequest.upload`).
   */
  upload?: boolean;
}

interface Route extends RouteOptions {
  method: string;
  pattern: RegExp;
  keys: string[];
  label: string;
  handler: Handler;
}

/**
 * What a module may send to a simulator before it is refused, and how long the simulators wait
 * for it (run configuration `limits`). Above anything the contract needs; a module cannot make
 * the suite buffer gigabytes or wait forever.
 */
export interface ServerLimits {
  /** Most bytes of a request body read (a file upload: `maxUploadBytes`); a larger body is answered 413 without reading it whole. */
  maxRequestBytes: number;
  /**
   * Most bytes of a file upload body (routes with `upload`): the contract's largest template file
   * (a 100 MB document) and room for the multipart framing. It is counted as it streams, never
   * held; a larger body is answered 413 like any other.
   */
  maxUploadBytes: number;
  /** Most bytes of a bot WebSocket message; a larger one closes the connection with 1009. */
  maxFrameBytes: number;
  /** Time to receive a request's headers before the connection is dropped (408). */
  headersTimeoutMs: number;
  /** Time to receive a whole request before the connection is dropped (408). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxRequestBytes: 4 * 1024 * 1024,
  maxUploadBytes: 101 * 1024 * 1024,
  maxFrameBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** Most bytes of a request body the simulators read by default. */
export const MAX_REQUEST_BYTES = DEFAULT_LIMITS.maxRequestBytes;

/** First bytes of an upload body kept: the evidence keeps as many, and the multipart part headers are in them. */
export const UPLOAD_HEAD_BYTES = RECORDED_BODY_LIMIT;

/** Last bytes of an upload body kept: where a multipart file part ends (its closing delimiter, the parts after it). */
export const UPLOAD_TAIL_BYTES = 16 * 1024;

/** Deepest JSON nesting the simulators accept (arrays and objects); deeper is answered 400. */
export const MAX_JSON_DEPTH = 512;

/** The limits with defaults for what is not given. */
export function serverLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(given) as Array<[keyof ServerLimits, number | undefined]>) if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = v;
  return out;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body, headers };
}

/** The error body the system and the gateway answer with. */
export const systemError = (status: number, errorMsg: string): Answer => json(status, { success: false, errorMsg });

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
   * Stops listening and destroys every connection, also those that never finished a request
   * (or a TLS handshake): returns promptly whatever the module left open.
   */
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

/** The declared `content-length` of a request, or -1 (none, or chunked). */
function declaredLength(req: http.IncomingMessage): number {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return -1;
  return Number(raw);
}

/**
 * Collects the first bytes of a body that is refused unread (at most what a report keeps), as
 * they arrive until the connection closes; the rest is dropped, never buffered.
 */
function sampleBody(req: http.IncomingMessage): () => Buffer {
  const chunks: Buffer[] = [];
  let kept = 0;
  req.on('data', (chunk: Buffer) => {
    if (kept >= RECORDED_BODY_LIMIT) return;
    const part = chunk.subarray(0, RECORDED_BODY_LIMIT - kept);
    chunks.push(Buffer.from(part));
    kept += part.length;
  });
  req.on('error', () => {
    /* the connection is closed after the refusal */
  });
  return () => Buffer.concat(chunks);
}

interface ReadBody {
  body: Buffer;
  /** Bytes received (beyond `body` when too large, or when only the first bytes are kept). */
  size: number;
  /** The last bytes received, when kept (`keep.tail`); else empty. */
  tail: Buffer;
  tooLarge: boolean;
  /** The connection closed before the body was complete. */
  aborted: boolean;
}

/**
 * Reads a body up to `max` bytes. Past it, reading stops (the stream is paused, nothing more is
 * buffered) and the caller answers 413 and closes the connection. With `keep`, the body is
 * counted rather than held: only its first `keep.head` bytes (`body`) and its last `keep.tail`
 * bytes (`tail`) are kept, whatever its size.
 */
function readBody(req: http.IncomingMessage, max: number, keep?: { head: number; tail: number }): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let tail = Buffer.alloc(0);
    let size = 0;
    let done = false;
    const finish = (result: Omit<ReadBody, 'body' | 'size' | 'tail'>): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve({ body: Buffer.concat(chunks), size, tail, ...result });
    };
    const onData = (chunk: Buffer): void => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        req.pause();
        finish({ tooLarge: true, aborted: false });
        return;
      }
      if (!keep) {
        chunks.push(chunk);
        return;
      }
      // Copies, so that no chunk of the stream is held by a slice of it.
      if (kept < keep.head) {
        const part = Buffer.from(chunk.subarray(0, keep.head - kept));
        chunks.push(part);
        kept += part.length;
      }
      tail = chunk.length >= keep.tail ? Buffer.from(chunk.subarray(chunk.length - keep.tail)) : Buffer.concat([tail.subarray(Math.max(0, tail.length + chunk.length - keep.tail)), chunk]);
    };
    req.on('data', onData);
    req.once('end', () => finish({ tooLarge: false, aborted: false }));
    req.once('error', () => finish({ tooLarge: false, aborted: true }));
    req.once('close', () => finish({ tooLarge: false, aborted: !req.complete }));
  });
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

/** Thrown (by `parseJson`) for JSON nested deeper than `MAX_JSON_DEPTH`. */
export class JsonTooDeepError extends Error {
  constructor(limit: number) {
    super(`JSON nested too deep: more than ${limit} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * How deep JSON text nests (arrays and objects), counted without parsing and without recursion;
 * stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * `JSON.parse` for what a module sends: JSON deeper than `MAX_JSON_DEPTH` is refused with
 * `JsonTooDeepError` before it is parsed, so that no validator or walker of the suite overflows
 * the stack on it.
 */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, limit) > limit) throw new JsonTooDeepError(limit);
  return JSON.parse(text) as unknown;
}

/** The message of a JSON parse failure: the depth refusal as it is, else prefixed with `what`. */
export function jsonErrorMessage(e: unknown, what: string): string {
  return e instanceof JsonTooDeepError ? `${what}: ${e.message}` : `${what} is not JSON: ${(e as Error).message}`;
}

const HEX = /^[0-9a-fA-F]{2}$/;

/**
 * Percent-decodes a form component to bytes (`+` is a space), as the WHATWG urlencoded parser
 * does. `raw` holds one byte a character (a body read as latin1, or an ASCII query string).
 */
function formComponentBytes(raw: string): Buffer {
  const bytes = Buffer.from(raw, 'latin1');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < bytes.length && HEX.test(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!))) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/**
 * Reads an urlencoded form (body bytes, or a query string) like a browser (invalid UTF-8 becomes
 * U+FFFD) and notes which names were not valid UTF-8 and which came more than once.
 */
export function readUrlencoded(input: Buffer | string): { form: URLSearchParams; invalidUtf8: string[]; duplicated: string[] } {
  const text = typeof input === 'string' ? input : input.toString('latin1');
  const form = new URLSearchParams();
  const invalid = new Set<string>();
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const nameBytes = formComponentBytes(eq < 0 ? pair : pair.slice(0, eq));
    const valueBytes = formComponentBytes(eq < 0 ? '' : pair.slice(eq + 1));
    const name = nameBytes.toString('utf8');
    form.append(name, valueBytes.toString('utf8'));
    if (!isUtf8(nameBytes) || !isUtf8(valueBytes)) invalid.add(name);
    if (seen.has(name)) duplicated.add(name);
    seen.add(name);
  }
  return { form, invalidUtf8: [...invalid], duplicated: [...duplicated] };
}

/** Adds what a form or query string showed to the request's notes. */
function note(req: InboundRequest, found: { invalidUtf8: string[]; duplicated: string[] }): void {
  if (found.invalidUtf8.length > 0) req.invalidUtf8 = [...new Set([...(req.invalidUtf8 ?? []), ...found.invalidUtf8])];
  if (found.duplicated.length > 0) req.duplicated = [...new Set([...(req.duplicated ?? []), ...found.duplicated])];
}

/**
 * Decodes a request body by its content type: a urlencoded or multipart form into `form`, JSON
 * into `json`. What cannot be read is noted in `bodyError`, never thrown. Invalid UTF-8 is
 * decoded with replacement characters and noted in `invalidUtf8`; repeated parameters (body
 * form and query string) in `duplicated`.
 */
export async function decodeBody(req: InboundRequest): Promise<void> {
  const query = req.url.search.slice(1);
  if (query !== '') note(req, readUrlencoded(query));
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (req.body.length === 0 && !contentType) return;
  if (req.upload && req.upload.size > req.body.length) {
    // Only the first bytes of an upload are here: its encoding is named, its content not decoded.
    req.encoding = contentType.startsWith('multipart/form-data') ? 'multipart' : contentType.startsWith('application/x-www-form-urlencoded') ? 'urlencoded' : contentType.includes('json') ? 'json' : 'other';
    return;
  }
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    req.encoding = 'urlencoded';
    const read = readUrlencoded(req.body);
    req.form = read.form;
    note(req, read);
  } else if (contentType.startsWith('multipart/form-data')) {
    req.encoding = 'multipart';
    try {
      // The platform's multipart reader: undici's, through the WHATWG Response.
      const parts = await new Response(req.body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
      req.form = new URLSearchParams();
      const seen = new Set<string>();
      const found = { invalidUtf8: [] as string[], duplicated: [] as string[] };
      const validBody = isUtf8(req.body);
      for (const [name, value] of parts) {
        req.form.append(name, typeof value === 'string' ? value : value.name);
        if (seen.has(name)) found.duplicated.push(name);
        seen.add(name);
        // undici decodes text parts with replacement characters; a body that is not UTF-8 and a part that holds one was not.
        if (!validBody && typeof value === 'string' && value.includes('\uFFFD')) found.invalidUtf8.push(name);
      }
      note(req, found);
    } catch (e) {
      req.bodyError = `multipart body cannot be read: ${(e as Error).message}`;
    }
  } else if (contentType.includes('json')) {
    req.encoding = 'json';
    if (req.body.length > 0) {
      if (!isUtf8(req.body)) req.invalidUtf8 = [...(req.invalidUtf8 ?? []), '(body)'];
      try {
        req.json = parseJson(req.body.toString('utf8'));
      } catch (e) {
        req.bodyError = jsonErrorMessage(e, 'body');
      }
    }
  } else {
    req.encoding = req.body.length > 0 ? 'other' : 'none';
  }
}

/**
 * A form parameter: from the body's form, else from the query string (official clients put some
 * there). A name given more than once takes its LAST value, as PHP (the system) does.
 */
export function param(req: InboundRequest, name: string): string | undefined {
  return req.form?.getAll(name).at(-1) ?? req.url.searchParams.getAll(name).at(-1) ?? undefined;
}

/** Parses a JSON-string form parameter (body form or query string), as the platform's wire forms say (`src/wire/forms.ts`). */
export function formJson(req: InboundRequest, field: string): { present: boolean; value?: unknown; error?: string } {
  return decodeJsonField((name) => param(req, name), field, (text) => parseJson(text), jsonErrorMessage);
}
