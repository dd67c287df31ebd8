/**
 * Bounds on what a run keeps of a flood: a sliding one-second rate meter, and a list that keeps,
 * per key, the first and the last items whole (the simulators' call lists) and counts the rest.
 */

/** Peak number of events over any one-second window, events given in (roughly) time order. */
export class RateMeter {
  private times: number[] = [];
  private head = 0;
  peak = 0;
  count = 0;

  add(t: number): void {
    this.count++;
    this.times.push(t);
    while (this.head < this.times.length && this.times[this.head]! <= t - 1000) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) (this.times = this.times.slice(this.head)), (this.head = 0);
    this.peak = Math.max(this.peak, this.times.length - this.head);
  }
}

/** Most items of one key a simulator list keeps from its start, and from its end. */
export const LIST_KEEP_FIRST = 2000;
export const LIST_KEEP_LAST = 1000;
/** Most distinct keys; the rest share one. */
const MAX_KEYS = 200;

/**
 * A list that keeps, per key, the first `first` and the last `last` items (in one array, in
 * order, which callers read as before) and counts every item. `since(n)` gives the kept items
 * pushed after the first n (n from `count`), so that a flow reads its own calls even when older
 * ones were dropped.
 */
export class BoundedList<T extends object> {
  readonly items: T[] = [];
  /** Every item ever pushed. */
  count = 0;
  private readonly seq = new WeakMap<T, number>();
  private readonly keys = new Map<string, { count: number; tail: T[] }>();
  private readonly dropped = new WeakSet<T>();
  private droppedInItems = 0;

  constructor(
    private readonly first = LIST_KEEP_FIRST,
    private readonly last = LIST_KEEP_LAST,
  ) {}

  push(item: T, key: string): void {
    this.seq.set(item, this.count++);
    const k = this.keys.has(key) || this.keys.size < MAX_KEYS ? key : '(other)';
    let s = this.keys.get(k);
    if (!s) this.keys.set(k, (s = { count: 0, tail: [] }));
    s.count++;
    this.items.push(item);
    if (s.count <= this.first) return;
    s.tail.push(item);
    if (s.tail.length > this.last) {
      this.dropped.add(s.tail.shift()!);
      this.droppedInItems++;
      if (this.droppedInItems > 256 && this.droppedInItems * 4 > this.items.length) this.compact();
    }
  }

  private compact(): void {
    const kept = this.items.filter((x) => !this.dropped.has(x));
    this.items.length = 0;
    for (const x of kept) this.items.push(x);
    this.droppedInItems = 0;
  }

  /** Kept items pushed after the first `n` ever pushed. */
  since(n: number): T[] {
    return this.items.filter((x) => !this.dropped.has(x) && (this.seq.get(x) ?? 0) >= n);
  }

  /** Kept items, oldest first. */
  kept(): T[] {
    return this.items.filter((x) => !this.dropped.has(x));
  }
}

/** What a module did with one gateway token: its peak rate, its 429s, and what it did after them. */
export interface TokenRate {
  /** The token as written in reports (redacted). */
  token: string;
  /**
   * The clientId of the module the token was handed to: a credential (the only one of a
   * callback), written redacted in reports (`<redacted:clientId>`; the session's record does it).
   */
  clientId?: string;
  requests: number;
  /** Most requests over any one-second window. */
  peakPerSecond: number;
  /** Requests answered 429 (over the limit). */
  tooManyRequests: number;
  /** Requests sent after the first 429. */
  requestsAfterTooMany: number;
  /** Most requests over any one-second window after the first 429. */
  peakPerSecondAfterTooMany: number;
  /** Longest wait between a 429 and the next request. */
  longestPauseAfterTooManyMs?: number;
  /** In words: "kept sending at N/s", "backed off: next request after X ms", "stopped"... */
  afterTooMany: string;
}

/** What a token sent in one second of the gateway's clock (`second`: epoch seconds). */
export interface SecondOfTraffic {
  second: number;
  /** HTTP requests to the Transport API or the Bot API (admitted or not). */
  requests: number;
  /** Of them, answered 429 (over the limit, or forced by the suite). */
  tooMany: number;
  /** Of the 429s, those the suite forced (`GatewaySimulator.throttle`). */
  forced: number;
  /** Bot WebSocket upgrade requests (counted by the limiter too; not in `requests`). */
  upgrades: number;
}

/** Most seconds a token's per-second record keeps (the oldest dropped first): an hour. */
export const MAX_SECONDS_KEPT = 3600;

/** Counts the requests of a token (every one, admitted or not) for `TokenRate`, and per second. */
export class TokenTraffic {
  private readonly all = new RateMeter();
  private readonly after = new RateMeter();
  private readonly seconds = new Map<number, SecondOfTraffic>();
  private tooMany = 0;
  private last429?: number;
  private longestPause?: number;

  constructor(private readonly limit: number) {}

  /** Adds a request to the per-second record: `kind` http (an API request) or socket (a WebSocket upgrade). */
  private tally(t: number, refused: boolean, kind: 'http' | 'socket', forced: boolean): void {
    const second = Math.floor(t / 1000);
    let s = this.seconds.get(second);
    if (!s) {
      this.seconds.set(second, (s = { second, requests: 0, tooMany: 0, forced: 0, upgrades: 0 }));
      for (const oldest of this.seconds.keys()) {
        if (this.seconds.size <= MAX_SECONDS_KEPT) break;
        this.seconds.delete(oldest);
      }
    }
    if (kind === 'socket') s.upgrades++;
    else s.requests++;
    if (refused && kind === 'http') s.tooMany++;
    if (forced) s.forced++;
  }

  /** The per-second record, oldest first; seconds without a request are absent. */
  perSecond(): SecondOfTraffic[] {
    return [...this.seconds.values()].map((s) => ({ ...s })).sort((a, b) => a.second - b.second);
  }

  add(t: number, refused: boolean, kind: 'http' | 'socket' = 'http', forced = false): void {
    this.tally(t, refused, kind, forced);
    this.all.add(t);
    if (this.tooMany > 0) this.after.add(t);
    if (this.last429 !== undefined) {
      this.longestPause = Math.max(this.longestPause ?? 0, t - this.last429);
      this.last429 = undefined;
    }
    if (refused) (this.tooMany++, (this.last429 = t));
  }

  rate(token: string, clientId?: string): TokenRate {
    const after = this.after.count;
    let what: string;
    if (this.tooMany === 0) what = 'never over the limit';
    else if (after === 0) what = 'stopped after its first 429';
    else if (this.after.peak > this.limit) what = `kept sending at ${this.after.peak}/s after its 429s (limit ${this.limit}/s)`;
    else what = `backed off: next request after ${this.longestPause ?? 0} ms at most, then at most ${this.after.peak}/s`;
    return {
      token,
      ...(clientId !== undefined ? { clientId } : {}),
      requests: this.all.count,
      peakPerSecond: this.all.peak,
      tooManyRequests: this.tooMany,
      requestsAfterTooMany: after,
      peakPerSecondAfterTooMany: this.after.peak,
      ...(this.longestPause !== undefined ? { longestPauseAfterTooManyMs: this.longestPause } : {}),
      afterTooMany: what,
    };
  }
}

/**
 * Most entries a simulator holds of each kind of state a module's requests create (the gateway's
 * messages, files, customers, chats and dialogs; the system's uploaded calls and call events).
 * Far above any flow of the suite, which makes tens; it bounds what a module flooding a
 * simulator makes it hold. Past it the oldest are evicted first, and counted.
 */
export const MAX_HELD = 10_000;

/**
 * A Map that holds at most `max` entries: adding a new key past it evicts the oldest (in
 * insertion order; replacing a value keeps its place) and counts it in `evicted`. Read like any
 * Map.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  /** Entries evicted so far. */
  evicted = 0;

  constructor(readonly max = MAX_HELD) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key)) {
      for (const oldest of this.keys()) {
        if (this.size < this.max) break;
        this.delete(oldest);
        this.evicted++;
      }
    }
    return super.set(key, value);
  }
}

/** Appends items to a list held at most `max` long, dropping the oldest first; returns how many were dropped. */
export function pushBounded<T>(list: T[], items: readonly T[], max = MAX_HELD): number {
  list.push(...items);
  const over = list.length - max;
  if (over <= 0) return 0;
  list.splice(0, over);
  return over;
}
