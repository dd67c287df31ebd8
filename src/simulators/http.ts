/**
 * Plumbing shared by the simulators: an HTTP (or, with `tls`, HTTPS) server that reads each
 * request whole (capped), decodes forms (urlencoded and multipart), queries and JSON, routes it,
 * answers, and records the exchange as evidence.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Direction, EvidenceLog, Exchange } from '../evidence/exchange.ts';

export interface InboundRequest {
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
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

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  label: string;
  handler: Handler;
}

/** Most bytes of a request body the simulators read. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

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
}

/** A small router on node:http. Routes are `METHOD /path/{param}`. */
export class RecordingServer {
  readonly server: http.Server | https.Server;
  private readonly routes: Route[] = [];
  private readonly options: ServerOptions;

  constructor(options: ServerOptions) {
    this.options = options;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => void this.handle(req, res);
    this.server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler) : http.createServer(handler);
  }

  route(spec: string, label: string, handler: Handler): this {
    const [method, path] = spec.split(' ') as [string, string];
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, k: string) => (keys.push(k), '([^/]+)'))}/?$`,
    );
    this.routes.push({ method, pattern, keys, label, handler });
    return this;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.bind, () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const startedAt = new Date();
    const t0 = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_REQUEST_BYTES) {
        tooLarge = true;
        break;
      }
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const inbound: InboundRequest = { method: req.method ?? 'GET', path: url.pathname, url, headers, body, params: {}, encoding: 'none' };
    if (!tooLarge) await decodeBody(inbound);

    let label = 'unknown endpoint';
    let answer: Answer;
    const refuse = (status: number, message: string): Answer =>
      this.options.errorBody ? json(status, this.options.errorBody(message)) : systemError(status, message);
    if (tooLarge) answer = refuse(413, `request body larger than ${MAX_REQUEST_BYTES} bytes`);
    else {
      const route = this.routes.find((r) => r.method === inbound.method && r.pattern.test(inbound.path));
      if (!route) {
        const otherMethod = this.routes.some((r) => r.pattern.test(inbound.path));
        answer = otherMethod ? refuse(405, `method ${inbound.method} not allowed`) : refuse(404, `no endpoint ${inbound.path}`);
      } else {
        label = route.label;
        const m = route.pattern.exec(inbound.path)!;
        route.keys.forEach((k, i) => (inbound.params[k] = decodeURIComponent(m[i + 1]!)));
        try {
          answer = await route.handler(inbound);
        } catch (e) {
          answer = refuse(500, `simulator error: ${(e as Error).message}`);
        }
      }
    }
    const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const resHeaders = { 'content-type': 'application/json; charset=utf-8', ...answer.headers };
    res.writeHead(answer.status, resHeaders);
    res.end(payload);
    const exchange = this.options.log.record({
      direction: this.options.direction,
      label,
      startedAt,
      durationMs: performance.now() - t0,
      request: { method: inbound.method, url: `${this.baseUrl()}${req.url ?? '/'}`, headers, body },
      response: { status: answer.status, headers: resHeaders, body: payload },
    });
    this.options.onExchange?.(label, inbound, exchange);
  }

  /** The address the server listens on, as a URL. */
  baseUrl(): string {
    const a = this.server.address() as AddressInfo | null;
    if (!a) return '';
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `${this.options.tls ? 'https' : 'http'}://${host}:${a.port}`;
  }
}

/**
 * Decodes a request body by its content type: a urlencoded or multipart form into `form`, JSON
 * into `json`. What cannot be read is noted in `bodyError`, never thrown.
 */
export async function decodeBody(req: InboundRequest): Promise<void> {
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (req.body.length === 0 && !contentType) return;
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    req.encoding = 'urlencoded';
    req.form = new URLSearchParams(req.body.toString('utf8'));
  } else if (contentType.startsWith('multipart/form-data')) {
    req.encoding = 'multipart';
    try {
      // The platform's multipart reader: undici's, through the WHATWG Response.
      const parts = await new Response(req.body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
      req.form = new URLSearchParams();
      for (const [name, value] of parts) req.form.append(name, typeof value === 'string' ? value : value.name);
    } catch (e) {
      req.bodyError = `multipart body cannot be read: ${(e as Error).message}`;
    }
  } else if (contentType.includes('json')) {
    req.encoding = 'json';
    if (req.body.length > 0) {
      try {
        req.json = JSON.parse(req.body.toString('utf8'));
      } catch (e) {
        req.bodyError = `body is not JSON: ${(e as Error).message}`;
      }
    }
  } else {
    req.encoding = req.body.length > 0 ? 'other' : 'none';
  }
}

/** A form parameter: from the body's form, else from the query string (official clients put some there). */
export function param(req: InboundRequest, name: string): string | undefined {
  return req.form?.get(name) ?? req.url.searchParams.get(name) ?? undefined;
}

/** Parses a JSON-string form parameter (body form or query string). */
export function formJson(req: InboundRequest, field: string): { present: boolean; value?: unknown; error?: string } {
  const raw = param(req, field);
  if (raw === null || raw === undefined) return { present: false };
  try {
    return { present: true, value: JSON.parse(raw) };
  } catch (e) {
    return { present: true, error: `${field} is not JSON: ${(e as Error).message}` };
  }
}
