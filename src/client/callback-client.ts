/**
 * The callback client: how the suite, playing the system or the gateway, calls the module.
 * The wire forms (POST callbacks `application/x-www-form-urlencoded` with `clientId` and one
 * field named after the action holding a JSON string, GET callbacks with `clientId` and their
 * parameters in the query, wire-profile section 1; gateway webhooks as JSON with the `ClientId`
 * header, section 6) are encoded by src/wire/forms.ts, through the one sender
 * (src/callbacks/send.ts). Redirects are never followed; every request has a whole-request timeout
 * (setting `callbacks.timeoutMs`) and a cap on the body it reads (`callbacks.maxBodyBytes`: a
 * longer body is dropped past the cap, one whose Content-Length is over it is not read); a reply
 * that breaks off is a transport failure that says what arrived; every exchange is recorded as
 * evidence.
 */
import { request, Agent } from 'undici';
import type { Direction, EvidenceLog, Exchange } from '../evidence/exchange.ts';
import { encodeQuery } from '../wire/forms.ts';

export interface CallbackClientOptions {
  log: EvidenceLog;
  /** Whole-request timeout. */
  timeoutMs?: number;
  /** Most bytes of a reply body read; a longer reply (declared or counted) is a transport failure, dropped past the cap. */
  maxBodyBytes?: number;
}

export interface Reply {
  exchange: Exchange;
  /**
   * Absent on a transport failure: no reply, or one that broke off (timeout, a body over the cap,
   * a body shorter than its Content-Length). What did arrive is in the exchange.
   */
  status?: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** Why the body is not JSON (when it is not): not UTF-8, empty, or the parser's reason. */
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
  /** This request's whole-request timeout instead of the client's (a trigger's own `timeoutMs`). */
  timeoutMs?: number;
}

/**
 * How much of a reply over the body cap its exchange keeps: enough to see what it was, little
 * enough that the exchanges of many such replies (each kept as malformed) keep the report small.
 */
const OVER_CAP_KEPT = 4096;

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

  /** A GET callback with the given query parameters added to the URL (`src/wire/forms.ts`). */
  get(url: string, query: Record<string, string | undefined>, options: CallOptions): Promise<Reply> {
    return this.send('GET', encodeQuery(url, undefined, query), undefined, { ...options.headers }, options);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Any request (triggers too), sent once: its answer is the one that counts. Whether the module
   * is ready for callbacks is settled before any spec runs (`ready`, src/run/module-wait.ts).
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
    let declared: number | undefined;
    let received = 0;
    const chunks: Buffer[] = [];
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const setting = options.timeoutMs === undefined ? 'setting callbacks.timeoutMs' : 'the trigger\'s timeoutMs';
    try {
      const res = await request(url, {
        method: method as 'GET' | 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      resHeaders = flatHeaders(res.headers);
      declared = declaredLength(resHeaders);
      if (declared !== undefined && declared > this.maxBodyBytes) {
        // Refused unread: the declared length alone is over the cap.
        error = `reply body larger than ${this.maxBodyBytes} bytes (the cap, setting callbacks.maxBodyBytes): its Content-Length declares ${declared}; not read`;
        res.body.destroy();
      } else {
        for await (const chunk of res.body) {
          const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          received += buf.length;
          if (received > this.maxBodyBytes) {
            // Capped, not buffered: what came past the cap is dropped and the connection closed.
            error = `reply body larger than ${this.maxBodyBytes} bytes (the cap, setting callbacks.maxBodyBytes): reading stopped after ${received} bytes`;
            res.body.destroy();
            break;
          }
          chunks.push(buf);
        }
      }
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
      // What had arrived when the reply broke off: its status line and part of its body.
      const got = status === undefined ? '' : `HTTP ${status} and ${received} byte(s) of its body received${declared !== undefined ? ` of the ${declared} its Content-Length declares` : ''}`;
      if (timedOut) error = `no complete reply within ${timeoutMs} ms (the per-request timeout, ${setting})${got ? `: ${got}` : ''}`;
      else if (status !== undefined && declared !== undefined && received < declared) error = `reply body shorter than its Content-Length: ${received} of ${declared} bytes, then the connection closed (${err.code ?? err.cause?.code ?? err.name}: ${err.message})`;
      else error = `${err.code ?? err.cause?.code ?? err.name}: ${err.message}${got ? ` (${got})` : ''}`;
    }
    const bodyBuf = Buffer.concat(chunks);
    const exchange = this.log.record({
      direction: options.direction ?? 'system->module',
      label: options.label,
      startedAt,
      durationMs: performance.now() - t0,
      request: { method, url, headers, body },
      // The evidence keeps what arrived, even of a reply that broke off; of one over the cap, its beginning and its size.
      ...(status !== undefined ? { response: { status, headers: resHeaders, ...(received > this.maxBodyBytes ? { body: bodyBuf.subarray(0, OVER_CAP_KEPT), bytes: received } : { body: bodyBuf }) } } : {}),
      ...(error ? { error } : {}),
      ...(options.probe ? { probe: true } : {}),
      ...(options.case ? { case: options.case } : {}),
    });
    // A reply that broke off (timeout, cap, cut short) is a transport failure: no status, no body to judge.
    if (error) return { exchange, headers: resHeaders, body: Buffer.alloc(0), error };
    const reply: Reply = { exchange, headers: resHeaders, body: bodyBuf, ...(status !== undefined ? { status } : {}) };
    const text = decodeUtf8(bodyBuf);
    if (typeof text !== 'string') reply.jsonError = text.error;
    else if (bodyBuf.length === 0) reply.jsonError = 'empty body';
    else {
      try {
        reply.json = JSON.parse(text);
      } catch (e) {
        reply.jsonError = (e as Error).message;
      }
    }
    return reply;
  }
}

/** The Content-Length of a reply, when it declares a valid one. */
function declaredLength(headers: Record<string, string>): number | undefined {
  const v = headers['content-length'];
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : undefined;
}

/**
 * The body as text, or why it is not UTF-8 (a JSON text exchanged between systems is UTF-8,
 * RFC 8259 section 8.1), naming the first byte that breaks it.
 */
export function decodeUtf8(buf: Buffer): string | { error: string } {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    const at = firstInvalidUtf8(buf);
    return { error: `not valid UTF-8 (a JSON text is UTF-8, RFC 8259): byte 0x${(buf[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at offset ${at} does not belong to a UTF-8 sequence` };
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (the buffer's length when there is none). */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (need === 0) {
      i++;
      continue;
    }
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlong form, no surrogate, nothing above U+10FFFF).
    const [lo, hi] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return buf.length;
}
