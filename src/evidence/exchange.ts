/**
 * Evidence: every HTTP exchange and WebSocket event between the suite and the module, recorded
 * by the transport (callback client, simulators), never by checks. Checks point at exchanges
 * by id. Bodies are kept as received, capped, and redacted when recorded: by value, read by
 * their content type (see redact.ts for the rule); URLs keep their host and path.
 */
import { Redactor } from './redact.ts';
import { curlLine, type CurlBases } from './curl.ts';

export type Direction = 'system->module' | 'gateway->module' | 'module->system' | 'module->gateway';

export interface RecordedMessage {
  method?: string;
  url?: string;
  status?: number;
  headers: Record<string, string>;
  /** Body as text (UTF-8, with replacement characters for invalid bytes), capped and redacted. */
  body?: string;
  /** Size of the body in bytes as received. */
  bytes: number;
  /** True when the body was longer than the recorded part. */
  truncated?: boolean;
}

export interface Exchange {
  id: string;
  direction: Direction;
  /** What it was: `edit`, `delivery.calculate`, `activity (unknown clientId)`, `ws connect`... */
  label: string;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage;
  response?: RecordedMessage;
  /** Transport failure: timeout, connection refused, body too large... */
  error?: string;
  /** A deliberate probe the module should refuse (unknown clientId...): never evidence that the module was reached. */
  probe?: boolean;
  /** A command that repeats the request (secrets as shell variables). */
  curl?: string;
}

/** Most of a body kept in a report. */
export const RECORDED_BODY_LIMIT = 64 * 1024;

function decode(bytes: Uint8Array | string | undefined): { body?: string; bytes: number; truncated?: boolean } {
  if (bytes === undefined) return { bytes: 0 };
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  const truncated = buf.length > RECORDED_BODY_LIMIT;
  const body = new TextDecoder('utf-8', { fatal: false }).decode(buf.subarray(0, RECORDED_BODY_LIMIT));
  return truncated ? { body, bytes: buf.length, truncated } : { body, bytes: buf.length };
}

function contentType(headers: Record<string, string>): string {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
}

export interface RecordInput {
  direction: Direction;
  label: string;
  startedAt: Date;
  durationMs: number;
  /**
   * `bytes`: the size of the body when `body` is only its beginning (a body refused unread or
   * whose reading stopped at a limit): declared, or counted so far. The recorded body is then
   * marked truncated.
   */
  request: { method: string; url: string; headers: Record<string, string>; body?: Uint8Array | string; bytes?: number };
  response?: { status: number; headers: Record<string, string>; body?: Uint8Array | string };
  error?: string;
  probe?: boolean;
}

/** The exchanges of one run, in order. */
export class EvidenceLog {
  readonly redactor: Redactor;
  private readonly items: Exchange[] = [];
  private seq = 0;
  private readonly listeners = new Set<(x: Exchange) => void>();

  /** Addresses written as variables in curl lines (the module's base URL, once known). */
  readonly curlBases: CurlBases = {};

  /** Prefix of exchange ids, unique per session, so that ids stay unique across a run. */
  readonly prefix: string;

  constructor(redactor: Redactor = new Redactor(), prefix = 's') {
    this.redactor = redactor;
    this.prefix = prefix;
  }

  record(input: RecordInput): Exchange {
    const r = this.redactor;
    const req = decode(input.request.body);
    if (input.request.bytes !== undefined && input.request.bytes > req.bytes) Object.assign(req, { bytes: input.request.bytes, truncated: true });
    const exchange: Exchange = {
      id: `${this.prefix}-x${++this.seq}`,
      direction: input.direction,
      label: input.label,
      startedAt: input.startedAt.toISOString(),
      durationMs: Math.round(input.durationMs),
      request: {
        method: input.request.method,
        url: r.url(input.request.url),
        headers: r.headers(input.request.headers),
        ...req,
        ...(req.body !== undefined ? { body: r.body(req.body, contentType(input.request.headers), req.truncated) } : {}),
      },
      ...(input.error ? { error: r.text(input.error) } : {}),
      ...(input.probe ? { probe: true } : {}),
    };
    if (input.response) {
      const res = decode(input.response.body);
      exchange.response = {
        status: input.response.status,
        headers: r.headers(input.response.headers),
        ...res,
        ...(res.body !== undefined ? { body: r.body(res.body, contentType(input.response.headers), res.truncated) } : {}),
      };
    }
    exchange.curl = curlLine(exchange, this.curlBases);
    this.items.push(exchange);
    for (const l of this.listeners) l(exchange);
    return exchange;
  }

  /** Every exchange so far, oldest first. */
  all(): readonly Exchange[] {
    return this.items;
  }

  get(id: string): Exchange | undefined {
    return this.items.find((x) => x.id === id);
  }

  /** Calls `fn` on every exchange recorded from now on; returns the unsubscribe function. */
  subscribe(fn: (x: Exchange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
