/**
 * Outgoing HTTP of the reference module: calls to the system API (form-encoded, `apiKey` as a
 * form field or, on GET, a query parameter) and to the chat gateway (JSON, token header).
 */
import { FormData, request } from 'undici';
import { log } from './log.ts';

export interface OutboundReply {
  status: number;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

async function send(method: string, url: string, headers: Record<string, string>, body: string | FormData | undefined, timeoutMs: number): Promise<OutboundReply> {
  const res = await request(url, {
    method: method as 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const reply: OutboundReply = { status: res.statusCode, text };
  if (json !== undefined) reply.json = json;
  return reply;
}

/** True when a system reply is a success (2xx and, when JSON, `success` not false). */
export function systemOk(reply: OutboundReply): boolean {
  if (reply.status < 200 || reply.status >= 300) return false;
  const body = reply.json as { success?: unknown } | undefined;
  return body === undefined || body.success !== false;
}

/** Short description of a failed reply, for logs and trigger answers. */
export function describeFailure(reply: OutboundReply): string {
  const body = reply.json as { errorMsg?: unknown; errors?: unknown } | undefined;
  const msg = typeof body?.errorMsg === 'string' ? body.errorMsg : Array.isArray(body?.errors) ? body.errors.join('; ') : reply.text.slice(0, 200);
  return `HTTP ${reply.status}${msg ? `: ${msg}` : ''}`;
}

/** How the module sends its system calls (the variations of `variations.ts`). */
export interface SystemCallStyle {
  /** Forms as multipart/form-data instead of urlencoded. */
  multipart?: boolean;
  /** The API key in the X-API-KEY header instead of a parameter. */
  apiKeyHeader?: boolean;
  /** The API key of POSTs in the query string instead of the form body. */
  queryApiKey?: boolean;
  /** Fault variants only: calls other than edit sent with PUT, their JSON field renamed. */
  putExceptEdit?: boolean;
  fieldExceptEdit?: string;
}

export class SystemClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs: number,
    private readonly style: SystemCallStyle = {},
  ) {}

  /**
   * POST form fields to a system API path; the API key is added unless `apiKey: false`.
   * `apiKeyValue` and `method` exist for fault variants only (another key, another method).
   */
  async postForm(path: string, fields: Record<string, string>, options: { apiKey?: boolean; apiKeyValue?: string; method?: 'POST' | 'PUT' } = {}): Promise<OutboundReply> {
    const withKey = options.apiKey !== false;
    const apiKey = options.apiKeyValue ?? this.apiKey;
    const registration = path.endsWith('/edit');
    const method = options.method ?? (this.style.putExceptEdit && !registration ? 'PUT' : 'POST');
    const headers: Record<string, string> = {};
    const renamed = this.style.fieldExceptEdit && !registration ? this.style.fieldExceptEdit : undefined;
    const params: Array<[string, string]> = Object.entries(fields).map(([k, v]) => [renamed ?? k, v]);
    const url = new URL(`${this.baseUrl}${path}`);
    if (withKey && this.style.apiKeyHeader) headers['x-api-key'] = apiKey;
    else if (withKey && this.style.queryApiKey) url.searchParams.set('apiKey', apiKey);
    else if (withKey) params.unshift(['apiKey', apiKey]);
    let body: string | FormData;
    if (this.style.multipart) {
      const form = new FormData();
      for (const [k, v] of params) form.set(k, v);
      body = form;
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(params).toString();
    }
    const reply = await send(method, url.toString(), headers, body, this.timeoutMs);
    this.logCall(method, path, reply.status);
    return reply;
  }

  /** POST a JSON body to a system API path, the key in `X-API-KEY` (what the API does not accept: fault variants only). */
  async postJson(path: string, body: unknown): Promise<OutboundReply> {
    const reply = await send('POST', `${this.baseUrl}${path}`, { 'content-type': 'application/json', 'x-api-key': this.apiKey }, JSON.stringify(body), this.timeoutMs);
    this.logCall('POST (json)', path, reply.status);
    return reply;
  }

  /** GET a system API path with query parameters (and the API key). */
  async get(path: string, query: Record<string, string>): Promise<OutboundReply> {
    const u = new URL(`${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (this.style.apiKeyHeader) headers['x-api-key'] = this.apiKey;
    else u.searchParams.set('apiKey', this.apiKey);
    const reply = await send('GET', u.toString(), headers, undefined, this.timeoutMs);
    this.logCall('GET', path, reply.status);
    return reply;
  }

  private readonly logged = new Map<string, number>();

  /** Logs a call: every failed one; of those that worked, the first 3 per method and path, then every 100th (payments report often). */
  private logCall(method: string, path: string, status: number | undefined): void {
    const key = `${method} ${path}`;
    const n = (this.logged.get(key) ?? 0) + 1;
    this.logged.set(key, n);
    const ok = status !== undefined && status < 300;
    if (!ok || n <= 3 || n % 100 === 0) log(`system ${key} -> ${status}${ok && n > 3 ? ` (call ${n})` : ''}`);
  }
}

/** One API of the chat gateway (Transport API or Bot API): base URL, token header, JSON. */
export class GatewayClient {
  constructor(
    /** API base, e.g. `{endpointUrl}/api/transport/v1`. */
    readonly apiBase: string,
    private readonly tokenHeader: 'X-Transport-Token' | 'X-Bot-Token',
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {}

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<OutboundReply> {
    const headers: Record<string, string> = { [this.tokenHeader]: this.token, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const reply = await send(method, `${this.apiBase}${path}`, headers, body === undefined ? undefined : JSON.stringify(body), this.timeoutMs);
    log(`gateway ${method} ${this.apiBase}${path} -> ${reply.status}`);
    return reply;
  }
}

/** Splits a list in chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
