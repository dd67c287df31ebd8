/**
 * The gateway's rate limit, per token: 30 requests a second by default, above which a request is
 * answered 429 (document, Errors 6 and Limits); 429 on demand (`throttle`); and the accounting of
 * each token's traffic (its requests, 429s and WebSocket upgrades per second, its peak rate).
 */
import { TokenTraffic, type SecondOfTraffic, type TokenRate } from '../evidence/bounded.ts';
import type { GatewayRoute } from './gateway-endpoints.ts';

/** A throttle of one token: what is left of it, and what it refused. */
interface Throttle {
  remaining?: number;
  untilMs?: number;
  routes?: readonly GatewayRoute[];
  refused: number;
}

export class GatewayRate {
  private readonly windows = new Map<string, number[]>();
  private readonly tooMany = new Map<string, number>();
  private readonly traffic = new Map<string, TokenTraffic>();
  /** 429 on demand, per token (`throttle`). */
  private readonly forced = new Map<string, Throttle>();

  /**
   * @param rate requests per second allowed per token before 429
   * @param clock the limiter's clock in milliseconds (tests freeze it)
   */
  constructor(
    private readonly rate: number,
    readonly clock: () => number,
  ) {}

  /**
   * Counts a request of a token; false when it is over the limit, or refused on demand (the
   * request gets 429). `route` is the HTTP endpoint, or `socket` for a bot WebSocket upgrade
   * (never refused on demand).
   */
  admit(token: string, route: GatewayRoute | 'socket'): boolean {
    const now = this.clock();
    const forced = route !== 'socket' && this.takeForced(token, route, now);
    const window = (this.windows.get(token) ?? []).filter((t) => t > now - 1000);
    const ok = !forced && window.length < this.rate;
    if (ok) window.push(now);
    else this.tooMany.set(token, (this.tooMany.get(token) ?? 0) + 1);
    this.windows.set(token, window);
    let traffic = this.traffic.get(token);
    if (!traffic) this.traffic.set(token, (traffic = new TokenTraffic(this.rate)));
    traffic.add(now, !ok, route === 'socket' ? 'socket' : 'http', forced);
    return ok;
  }

  /** Whether this request of a token is refused on demand; counts it against the throttle. */
  private takeForced(token: string, route: GatewayRoute, now: number): boolean {
    const t = this.forced.get(token);
    if (!t) return false;
    if ((t.untilMs !== undefined && now >= t.untilMs) || (t.remaining !== undefined && t.remaining <= 0)) {
      this.forced.delete(token);
      return false;
    }
    if (t.routes && !t.routes.includes(route)) return false;
    if (t.remaining !== undefined) t.remaining--;
    t.refused++;
    return true;
  }

  /**
   * 429 on demand: the next `count` HTTP requests of a token (to `routes`, when given), or those
   * until `untilMs` (epoch ms on the gateway's clock), or both (whichever ends first), are
   * answered 429 with the error body, as the gateway answers a token over its rate (document,
   * Errors 6). No `Retry-After` header: the official clients read none (wire profile 6 gives
   * only the error body). Bot WebSocket upgrades are never refused on demand. A new throttle
   * replaces the token's last one; `{count: 0}` ends it.
   */
  throttle(token: string, options: { count?: number; untilMs?: number; routes?: readonly GatewayRoute[] }): void {
    if (options.count === undefined && options.untilMs === undefined) throw new Error('throttle needs a count or an untilMs');
    this.forced.set(token, {
      ...(options.count !== undefined ? { remaining: options.count } : {}),
      ...(options.untilMs !== undefined ? { untilMs: options.untilMs } : {}),
      ...(options.routes ? { routes: options.routes } : {}),
      refused: 0,
    });
  }

  /** How many requests the token's current throttle refused so far (0 without one). */
  throttled(token: string): number {
    return this.forced.get(token)?.refused ?? 0;
  }

  /**
   * What a token sent per second of the gateway's clock (HTTP requests, 429s, forced 429s,
   * WebSocket upgrades), oldest first, the last hour kept; with `sinceMs` the seconds from the
   * one that holds it.
   */
  requestsPerSecond(token: string, sinceMs?: number): SecondOfTraffic[] {
    const all = this.traffic.get(token)?.perSecond() ?? [];
    return sinceMs === undefined ? all : all.filter((s) => s.second >= Math.floor(sinceMs / 1000));
  }

  /** Per token: the peak rate the module reached, its 429s, and what it did after them; the token as `name` gives it, with its owner's clientId. */
  tokenRates(name: (token: string) => string, clientId: (token: string) => string | undefined): TokenRate[] {
    return [...this.traffic].map(([token, t]) => {
      const owner = clientId(token);
      return t.rate(name(token), owner);
    });
  }

  /** How many requests of a token were answered 429. */
  tooManyRequests(token: string): number {
    return this.tooMany.get(token) ?? 0;
  }

  /** 429 answers per token. */
  tooManyRequestsByToken(): ReadonlyMap<string, number> {
    return this.tooMany;
  }
}
