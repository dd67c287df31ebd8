/**
 * The callback client: how the suite, playing the system or the gateway, calls the module.
 * POST callbacks are `application/x-www-form-urlencoded` with `clientId` and one field named
 * after the action holding a JSON string; GET callbacks carry `clientId` and their parameters
 * in the query (wire-profile section 1). Webhooks of the gateway are JSON with the `ClientId`
 * header (section 6). Redirects are never followed; every request has a timeout and a cap on
 * the body it reads; every exchange is recorded as evidence.
 */
import { request, Agent } from 'undici';
import type { Direction, EvidenceLog, Exchange } from '../evidence/exchange.ts';
import { encodeActionForm, encodeQuery, FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from '../wire/forms.ts';

export interface CallbackClientOptions {
  log: EvidenceLog;
  /** Whole-request timeout. */
  timeoutMs?: number;
  /** Most bytes of a reply body read; a longer reply is a transport failure. */
  maxBodyBytes?: number;
}

export interface Reply {
  exchange: Exchange;
  /** Absent on a transport failure (timeout, refused connection, body too large). */
  status?: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** Why the body is not JSON (when it is not). */
  jsonError?: string;
  error?: string;
}

export interface CallOptions {
  label: string;
  direction?: Direction;
  headers?: Record<string, string>;
  /** A deliberate probe the module should refuse (see Exchange.probe). */
  probe?: boolean;
  /** The generated case the request belongs to (see Exchange.case). */
  case?: string;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export class CallbackClient {
  private readonly log: EvidenceLog;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly agent = new Agent({ connections: 16, pipelining: 0 });

  constructor(options: CallbackClientOptions) {
    this.log = options.log;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 20 * 1024 * 1024;
  }

  /** A POST callback: `clientId` plus one field named after the action holding its JSON (`src/wire/forms.ts`). */
  postCallback(url: string, clientId: string | undefined, action: string, payload: unknown, options: CallOptions): Promise<Reply> {
    return this.send('POST', url, encodeActionForm({ clientId, field: action, payload }), { 'content-type': FORM_CONTENT_TYPE, ...options.headers }, options);
  }

  /** A form POST of the given fields. */
  postForm(url: string, form: URLSearchParams, options: CallOptions): Promise<Reply> {
    return this.send('POST', url, form.toString(), { 'content-type': FORM_CONTENT_TYPE, ...options.headers }, options);
  }

  /** A GET callback with the given query parameters added to the URL (`src/wire/forms.ts`). */
  get(url: string, query: Record<string, string | undefined>, options: CallOptions): Promise<Reply> {
    return this.send('GET', encodeQuery(url, undefined, query), undefined, { ...options.headers }, options);
  }

  /** A JSON POST (gateway webhooks). */
  postJson(url: string, payload: unknown, options: CallOptions): Promise<Reply> {
    return this.send('POST', url, JSON.stringify(payload), { 'content-type': JSON_CONTENT_TYPE, ...options.headers }, options);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Any request (triggers too), sent once: its answer is the one that counts. Whether the module
   * is ready for callbacks is settled before any spec runs (`RunSession.ready`).
   */
  send(method: string, url: string, body: string | undefined, headers: Record<string, string>, options: CallOptions): Promise<Reply> {
    return this.sendOnce(method, url, body, headers, options);
  }

  private async sendOnce(method: string, url: string, body: string | undefined, headers: Record<string, string>, options: CallOptions): Promise<Reply> {
    const startedAt = new Date();
    const t0 = performance.now();
    let status: number | undefined;
    let resHeaders: Record<string, string> = {};
    let error: string | undefined;
    const chunks: Buffer[] = [];
    try {
      const res = await request(url, {
        method: method as 'GET' | 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = res.statusCode;
      resHeaders = flatHeaders(res.headers);
      let total = 0;
      for await (const chunk of res.body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        total += buf.length;
        if (total > this.maxBodyBytes) {
          error = `reply body larger than ${this.maxBodyBytes} bytes`;
          res.body.destroy();
          break;
        }
        chunks.push(buf);
      }
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      error =
        err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT'
          ? `no complete reply within ${this.timeoutMs} ms`
          : `${err.code ?? err.cause?.code ?? err.name}: ${err.message}`;
    }
    const bodyBuf = Buffer.concat(chunks);
    const exchange = this.log.record({
      direction: options.direction ?? 'system->module',
      label: options.label,
      startedAt,
      durationMs: performance.now() - t0,
      request: { method, url, headers, body },
      ...(status !== undefined ? { response: { status, headers: resHeaders, body: bodyBuf } } : {}),
      ...(error ? { error } : {}),
      ...(options.probe ? { probe: true } : {}),
      ...(options.case ? { case: options.case } : {}),
    });
    const reply: Reply = { exchange, headers: resHeaders, body: bodyBuf, ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}) };
    if (status !== undefined && !error) {
      try {
        reply.json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bodyBuf));
      } catch (e) {
        reply.jsonError = bodyBuf.length === 0 ? 'empty body' : (e as Error).message;
      }
    }
    return reply;
  }
}
