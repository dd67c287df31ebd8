/**
 * Evidence: every HTTP exchange and WebSocket event between the suite and the module, recorded
 * by the transport (callback client, simulators), never by checks. Checks point at exchanges
 * by id. Bodies are kept as received, capped, and redacted when recorded: by value, read by
 * their content type (see redact.ts for the rule); URLs keep their host. An exchange recorded
 * before a secret was known (the registration, which tells the clientId) is redacted again
 * when it is written to a report (`forReport`).
 */
import { Redactor } from './redact.ts';
import { curlLine, type CurlBases } from './curl.ts';
import type { RecordedMessage } from './recorded.ts';
import { RateMeter } from './bounded.ts';

export type Direction = 'system->module' | 'gateway->module' | 'module->system' | 'module->gateway';

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
  /** The generated case it belongs to (`<property>#<n>`; `#<n>.s<k>` a shrink step; `#<n>.<step>` a request of the case's sequence). */
  case?: string;
  /** A command that repeats the request (secrets as shell variables). */
  curl?: string;
}

/** Most of a body kept in a report. */
export const RECORDED_BODY_LIMIT = 64 * 1024;

/** How much of what followed the cut of a capped body is held (in memory, never written) to tell a secret cut in two. */
const REST_HELD = 2048;

/** A body as recorded, capped; `rest`: what followed the cut (its first `REST_HELD` bytes), to be held apart. */
function decode(bytes: Uint8Array | string | undefined): { body?: string; bytes: number; truncated?: boolean; rest?: string } {
  if (bytes === undefined) return { bytes: 0 };
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const body = decoder.decode(buf.subarray(0, RECORDED_BODY_LIMIT));
  if (buf.length <= RECORDED_BODY_LIMIT) return { body, bytes: buf.length };
  return { body, bytes: buf.length, truncated: true, rest: decoder.decode(buf.subarray(RECORDED_BODY_LIMIT, RECORDED_BODY_LIMIT + REST_HELD)) };
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
  /** `bytes` as for the request: a reply whose reading stopped at a limit, recorded by its beginning. */
  response?: { status: number; headers: Record<string, string>; body?: Uint8Array | string; bytes?: number };
  error?: string;
  probe?: boolean;
  case?: string;
}

/** Per endpoint, the first and the last exchanges kept whole, and refused or malformed ones up to this cap. */
export const KEEP_FIRST = 20;
export const KEEP_LAST = 20;
export const KEEP_REFUSED = 200;
/** Most distinct endpoints summarised apart; the rest share one. */
const MAX_ENDPOINTS = 200;

/** What a run saw of one endpoint (direction and label): every exchange counted, some kept whole. */
export interface EndpointEvidence {
  endpoint: string;
  count: number;
  kept: number;
  dropped: number;
  /** Request and response bodies, as received. */
  bytes: number;
  firstAt: string;
  lastAt: string;
  /** Exchanges by response status (`error`: a transport failure, `none`: no response). */
  statuses: Record<string, number>;
  /** Most exchanges over any one-second window. */
  peakPerSecond: number;
}

interface EndpointState {
  summary: EndpointEvidence;
  rate: RateMeter;
  refusedKept: number;
  /** Ids of the exchanges kept past the first ones that may still be dropped, oldest first. */
  ring: string[];
}

/** An exchange kept whole for itself: refused (HTTP status 400 or more) or malformed (a transport failure). */
const refusedOrMalformed = (x: Exchange): boolean => x.error !== undefined || (x.response?.status ?? 0) >= 400;

/**
 * The exchanges of one run, in order. Every exchange is counted per endpoint; the first
 * `KEEP_FIRST`, the last `KEEP_LAST` and refused or malformed ones (up to `KEEP_REFUSED`) are
 * kept whole, the rest summarised (`summary()`), so that a flood keeps memory flat.
 */
export class EvidenceLog {
  readonly redactor: Redactor;
  private readonly items = new Map<string, Exchange>();
  private readonly endpoints = new Map<string, EndpointState>();
  private seq = 0;
  private readonly listeners = new Set<(x: Exchange) => void>();
  /** The redactor's version each exchange was redacted at (see `forReport`). */
  private readonly redactedAt = new WeakMap<Exchange, number>();
  /** What followed the cut of capped bodies, to redact a secret cut in two again (never written). */
  private readonly rests = new WeakMap<RecordedMessage, string>();
  /** Ids of the exchanges a report record carries (see `carry`). */
  private readonly carried = new Set<string>();
  /** Ids of the kept exchanges that a later one of their endpoint may still drop (the rings). */
  private readonly ringed = new Set<string>();

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
    const { rest: cut, ...req } = decode(input.request.body);
    // What followed a cut; unknown when the body is only the beginning of what was sent.
    let reqRest = cut;
    if (input.request.bytes !== undefined && input.request.bytes > req.bytes) {
      Object.assign(req, { bytes: input.request.bytes, truncated: true });
      reqRest = undefined;
    }
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
        ...(req.body !== undefined ? { body: r.body(req.body, contentType(input.request.headers), req.truncated, reqRest) } : {}),
      },
      ...(input.error ? { error: r.text(input.error) } : {}),
      ...(input.probe ? { probe: true } : {}),
      ...(input.case ? { case: input.case } : {}),
    };
    if (reqRest !== undefined) this.rests.set(exchange.request, reqRest);
    if (input.response) {
      const { rest: cutRes, ...res } = decode(input.response.body);
      let resRest = cutRes;
      if (input.response.bytes !== undefined && input.response.bytes > res.bytes) {
        Object.assign(res, { bytes: input.response.bytes, truncated: true });
        resRest = undefined;
      }
      exchange.response = {
        status: input.response.status,
        headers: r.headers(input.response.headers),
        ...res,
        ...(res.body !== undefined ? { body: r.body(res.body, contentType(input.response.headers), res.truncated, resRest) } : {}),
      };
      if (resRest !== undefined) this.rests.set(exchange.response, resRest);
    }
    exchange.curl = curlLine(exchange, this.curlBases);
    this.redactedAt.set(exchange, r.version);
    this.keep(exchange, input.startedAt.getTime());
    for (const l of this.listeners) l(exchange);
    return exchange;
  }

  /**
   * An exchange as a report writes it: redacted again when a secret became known after it was
   * recorded (the clientId, told by the registration recorded before it), with its curl line
   * rewritten; else the exchange itself.
   */
  forReport(x: Exchange): Exchange {
    const r = this.redactor;
    if (this.redactedAt.get(x) === r.version) return x;
    const again = (m: RecordedMessage): RecordedMessage => ({
      ...m,
      ...(m.url !== undefined ? { url: r.url(m.url) } : {}),
      headers: r.headers(m.headers),
      ...(m.body !== undefined ? { body: r.body(m.body, contentType(m.headers), m.truncated, this.rests.get(m)) } : {}),
    });
    const copy: Exchange = { ...x, request: again(x.request), ...(x.response ? { response: again(x.response) } : {}), ...(x.error !== undefined ? { error: r.text(x.error) } : {}) };
    if (x.curl !== undefined) copy.curl = curlLine(copy, this.curlBases);
    return copy;
  }

  /**
   * Notes exchanges a report record carries (a test's, or the session's): the session's record
   * carries the kept ones no other record did (`uncarried`), and an exchange a record carries
   * counts as kept whole on its endpoint, even one the log drops later or had dropped (a flow's
   * exchange a result points at), so that `kept` is what the report holds.
   */
  carry(exchanges: readonly Exchange[]): void {
    for (const x of exchanges) {
      if (this.carried.has(x.id) || !x.id.startsWith(`${this.prefix}-x`)) continue;
      this.carried.add(x.id);
      if (this.items.has(x.id)) continue;
      const e = this.endpoints.get(this.endpointKey(x, false));
      if (!e) continue;
      e.summary.kept++;
      e.summary.dropped = e.summary.count - e.summary.kept;
    }
  }

  /** The exchanges kept whole that no record carried yet, oldest first. */
  uncarried(): Exchange[] {
    return [...this.items.values()].filter((x) => !this.carried.has(x.id));
  }

  /** The endpoint an exchange is counted on; `adding`: a new endpoint may be added. */
  private endpointKey(x: Exchange, adding: boolean): string {
    const key = `${x.direction} ${x.label}`;
    if (this.endpoints.has(key) || (adding && this.endpoints.size < MAX_ENDPOINTS)) return key;
    return `${x.direction} (other endpoints)`;
  }

  /** Counts an exchange on its endpoint and keeps it whole, or not. */
  private keep(x: Exchange, at: number): void {
    const key = this.endpointKey(x, true);
    let e = this.endpoints.get(key);
    if (!e) {
      e = { summary: { endpoint: key, count: 0, kept: 0, dropped: 0, bytes: 0, firstAt: x.startedAt, lastAt: x.startedAt, statuses: {}, peakPerSecond: 0 }, rate: new RateMeter(), refusedKept: 0, ring: [] };
      this.endpoints.set(key, e);
    }
    const s = e.summary;
    s.count++;
    s.bytes += x.request.bytes + (x.response?.bytes ?? 0);
    if (x.startedAt < s.firstAt) s.firstAt = x.startedAt;
    if (x.startedAt > s.lastAt) s.lastAt = x.startedAt;
    const status = x.error !== undefined && !x.response ? 'error' : x.response ? String(x.response.status) : 'none';
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    e.rate.add(at);
    s.peakPerSecond = e.rate.peak;
    this.items.set(x.id, x);
    s.kept++;
    if (s.count <= KEEP_FIRST) return;
    if (refusedOrMalformed(x) && e.refusedKept < KEEP_REFUSED) {
      e.refusedKept++;
      return;
    }
    e.ring.push(x.id);
    this.ringed.add(x.id);
    if (e.ring.length > KEEP_LAST) {
      const old = e.ring.shift()!;
      this.ringed.delete(old);
      this.items.delete(old);
      // One a record already carried stays whole in the report.
      if (!this.carried.has(old)) s.kept--;
    }
    s.dropped = s.count - s.kept;
  }

  /**
   * True for an exchange kept whole for good: among the first of its endpoint, or refused or
   * malformed (a test's record carries those; the last ones, which a flood may still drop, are
   * left to the session's record, written when the run's traffic has ended).
   */
  settled(id: string): boolean {
    return this.items.has(id) && !this.ringed.has(id);
  }

  /** Every exchange kept, oldest first. */
  all(): readonly Exchange[] {
    return [...this.items.values()];
  }

  /** A kept exchange; undefined for one summarised (see `summary()`) or unknown. */
  get(id: string): Exchange | undefined {
    return this.items.get(id);
  }

  /** Every endpoint: how many exchanges, how many kept whole, bytes, times, statuses, peak rate. */
  summary(): EndpointEvidence[] {
    return [...this.endpoints.values()].map((e) => ({ ...e.summary, statuses: { ...e.summary.statuses } }));
  }

  /** Calls `fn` on every exchange recorded from now on; returns the unsubscribe function. */
  subscribe(fn: (x: Exchange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
