/**
 * Plumbing shared by the simulators: an HTTP server that reads each request whole (capped),
 * decodes forms, queries and JSON, routes it, answers, and records the exchange as evidence.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Direction, EvidenceLog, Exchange } from '../evidence/exchange.ts';

export interface InboundRequest {
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
  /** The body decoded as a form, when it is `application/x-www-form-urlencoded`. */
  form?: URLSearchParams;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  params: Record<string, string>;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
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
  /** Called after each exchange is recorded, with the route label and the decoded request. */
  onExchange?: (label: string, req: InboundRequest, exchange: Exchange) => void;
}

/** A small router on node:http. Routes are `METHOD /path/{param}`. */
export class RecordingServer {
  readonly server: http.Server;
  private readonly routes: Route[] = [];
  private readonly options: ServerOptions;

  constructor(options: ServerOptions) {
    this.options = options;
    this.server = http.createServer((req, res) => void this.handle(req, res));
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
    const inbound: InboundRequest = { method: req.method ?? 'GET', path: url.pathname, url, headers, body, params: {} };
    const contentType = (headers['content-type'] ?? '').toLowerCase();
    if (contentType.startsWith('application/x-www-form-urlencoded')) inbound.form = new URLSearchParams(body.toString('utf8'));
    if (contentType.includes('json') && body.length > 0) {
      try {
        inbound.json = JSON.parse(body.toString('utf8'));
      } catch {
        /* left undefined: the handler answers 400 */
      }
    }

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
    return `http://${host}:${a.port}`;
  }
}

/** Parses a JSON-string form field. */
export function formJson(req: InboundRequest, field: string): { present: boolean; value?: unknown; error?: string } {
  const raw = req.form?.get(field) ?? (req.method === 'GET' ? req.url.searchParams.get(field) : null);
  if (raw === null || raw === undefined) return { present: false };
  try {
    return { present: true, value: JSON.parse(raw) };
  } catch (e) {
    return { present: true, error: `${field} is not JSON: ${(e as Error).message}` };
  }
}
