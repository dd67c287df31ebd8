/**
 * Outgoing HTTP of the reference module: calls to the system API (form-encoded, `apiKey` as a
 * form field or, on GET, a query parameter) and to the chat gateway (JSON, token header).
 */
import { FormData, request } from 'undici';
import { log, logSampled } from './log.ts';
import type { FaultSet } from './faults.ts';

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

/** The gateway's rate limit: 30 requests a second per token (document, Limits; above it, 429: Errors 6). */
export const GATEWAY_RATE_PER_SECOND = 30;
/** The window the client counts its own requests in: a second, and a margin for the time a request takes to arrive. */
const RATE_WINDOW_MS = 1050;
/** Backoff after a 429: the first wait, doubled on each further 429 of the same request, up to the cap. */
const BACKOFF_FIRST_MS = 200;
const BACKOFF_CAP_MS = 2000;
/** Most resends of one request after 429s (about 15 s of waiting in all) before its 429 is the answer. */
const MAX_RESENDS = 10;
/** Fault `rate-no-backoff`: resends at once until accepted, for at most this long. */
const NO_BACKOFF_GIVE_UP_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** How a gateway client meets the rate limit (faults of `faults.ts`, `rate-*`, change it). */
export interface GatewayRateBehaviour {
  /** Keep its own rate within the limit (a sliding window). */
  limit: boolean;
  /** Wait before resending a 429'd request (exponential backoff). */
  backoff: boolean;
  /** Resend a 429'd request at all. */
  resend: boolean;
  /** Changes a request's body before each resend (fault `rate-retry-new-external-id`). */
  rewrite?: (body: unknown, resend: number) => unknown;
}

/** The behaviour of the transport's or the bot's client: the correct one, or a `rate-*` fault's. */
export function rateBehaviour(kind: 'transport' | 'bot', faults: FaultSet): GatewayRateBehaviour {
  const noBackoff = faults.has('rate-no-backoff');
  const drops = kind === 'transport' ? faults.has('rate-drops-on-429') : faults.has('rate-bot-drops-on-429');
  const behaviour: GatewayRateBehaviour = { limit: !noBackoff, backoff: !noBackoff, resend: !drops };
  if (kind === 'transport' && faults.has('rate-retry-new-external-id')) {
    // A resent customer message goes out under a new external id.
    behaviour.rewrite = (body, resend) => {
      const b = body as { message?: { external_id?: unknown } } | undefined;
      if (!b || typeof b.message?.external_id !== 'string') return body;
      return { ...b, message: { ...b.message, external_id: `${b.message.external_id.replace(/-r\d+$/, '')}-r${resend}` } };
    };
  }
  return behaviour;
}

/** At most `GATEWAY_RATE_PER_SECOND` requests in any `RATE_WINDOW_MS`, callers served in order. */
class RateWindow {
  private times: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = Date.now();
      this.times = this.times.filter((t) => t > now - RATE_WINDOW_MS);
      if (this.times.length < GATEWAY_RATE_PER_SECOND) {
        this.times.push(now);
        return;
      }
      await sleep(this.times[0]! + RATE_WINDOW_MS - now + 1);
    }
  }
}

/**
 * One API of the chat gateway (Transport API or Bot API): base URL, token header, JSON. It keeps
 * its own rate within the gateway's limit (30 requests a second per token, every request and
 * resend counted), and resends a request answered 429 (the same body: a customer message keeps
 * its `external_id`) after an exponential backoff from 200 ms, capped at 2 s, at most 10 times.
 */
export class GatewayClient {
  private readonly window = new RateWindow();
  private retriesLogged = 0;

  constructor(
    /** API base, e.g. `{endpointUrl}/api/transport/v1`. */
    readonly apiBase: string,
    private readonly tokenHeader: 'X-Transport-Token' | 'X-Bot-Token',
    private readonly token: string,
    private readonly timeoutMs: number,
    private readonly behaviour: GatewayRateBehaviour = { limit: true, backoff: true, resend: true },
  ) {}

  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<OutboundReply> {
    const started = Date.now();
    let current = body;
    for (let resend = 0; ; resend++) {
      if (this.behaviour.limit) await this.window.acquire();
      const reply = await this.once(method, path, current, resend === 0);
      if (reply.status !== 429 || !this.behaviour.resend) return reply;
      if (this.behaviour.backoff ? resend >= MAX_RESENDS : Date.now() - started > NO_BACKOFF_GIVE_UP_MS) {
        log(`gateway ${method} ${this.apiBase}${path} -> 429 after ${resend} resends; given up`);
        return reply;
      }
      const wait = this.behaviour.backoff ? Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** resend) : 0;
      if (this.retriesLogged++ < 20) log(`gateway ${method} ${this.apiBase}${path} -> 429; resending${wait ? ` in ${wait} ms` : ' at once'} (resend ${resend + 1})`);
      if (wait > 0) await sleep(wait);
      if (this.behaviour.rewrite) current = this.behaviour.rewrite(current, resend + 1);
    }
  }

  private async once(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, first: boolean): Promise<OutboundReply> {
    const headers: Record<string, string> = { [this.tokenHeader]: this.token, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const reply = await send(method, `${this.apiBase}${path}`, headers, body === undefined ? undefined : JSON.stringify(body), this.timeoutMs);
    if (first || reply.status !== 429) logSampled(`gateway ${method} ${path.replace(/\/[^/]*\d[^/]*/g, '/{id}')} ${reply.status}`, `gateway ${method} ${this.apiBase}${path} -> ${reply.status}`);
    return reply;
  }
}

/** Splits a list in chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
