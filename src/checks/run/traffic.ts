/**
 * Information, never a failure: how the module's traffic met the suite's limits. What the
 * simulators refused unread (a body too large, a request never completed, a WebSocket frame
 * too large), what they read with a caveat (invalid UTF-8, a parameter given twice), and how
 * fast the module called the gateway against its limit of 30 requests a second per token. None
 * of it is judged here (the contract gives no body size and leaves the system API's rate not
 * shown); the gateway's rate, a rule on the module (Limits), is judged per second by
 * `ensureRateBacksOff` in the chat rate-limit spec (src/checks/chat/rate.ts), and what a refused
 * call cost the module's flows by the flows' own checks.
 */
import type { EndpointEvidence, Exchange } from '../../evidence/exchange.ts';
import type { TokenRate } from '../../evidence/bounded.ts';
import { defineCheck, fail, pass } from '../check.ts';

/** An exchange the simulators answered, with what was odd in its request. */
export interface RequestAnomaly {
  exchange: string;
  endpoint: string;
  anomaly: string;
}

/** Connections to a simulator on which a request never completed. */
export interface StalledConnections {
  server: string;
  /** Dropped at the simulator's header timeout, or still unfinished at the end of the run. */
  stalled: number;
  /** The request could not be parsed (answered 400 or 431 and closed). */
  malformed: number;
}

export interface TrafficSubject {
  endpoints: readonly EndpointEvidence[];
  /** The exchanges the log keeps whole (for evidence ids and sizes). */
  exchanges: readonly Exchange[];
  anomalies: readonly RequestAnomaly[];
  stalled: readonly StalledConnections[];
}

/** Endpoint labels of what a simulator refused unread, and how the report words each. */
const REFUSED_UNREAD: Array<{ suffix: string; words: (n: number) => string }> = [
  { suffix: ' (body too large)', words: (n) => `${n} request${n === 1 ? '' : 's'} with a body over the suite's limit, answered 413 unread` },
  { suffix: ' (incomplete request)', words: (n) => `${n} request${n === 1 ? '' : 's'} the connection closed on before it was complete` },
  { suffix: ' refused frame', words: (n) => `${n} WebSocket message${n === 1 ? '' : 's'} over the frame limit, the connection closed with 1009` },
];

const mb = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${bytes} bytes`);

export const checkModuleRequestsAreReadWhole = defineCheck<TrafficSubject>({
  name: 'checkModuleRequestsAreReadWhole',
  checks: "every request of the module reaches the simulators whole and within the suite's limits",
  run({ endpoints, exchanges, anomalies, stalled }) {
    const lines: string[] = [];
    const evidence: string[] = [];
    for (const kind of REFUSED_UNREAD) {
      for (const e of endpoints.filter((x) => x.endpoint.endsWith(kind.suffix))) {
        const kept = exchanges.filter((x) => `${x.direction} ${x.label}` === e.endpoint);
        const sizes = kept.map((x) => x.request.bytes).filter((b) => b > 0);
        lines.push(`${e.endpoint.slice(0, -kind.suffix.length)}: ${kind.words(e.count)}${sizes.length > 0 ? ` (${sizes.slice(0, 5).map(mb).join(', ')}${sizes.length > 5 ? ', …' : ''})` : ''}`);
        evidence.push(...kept.slice(0, 3).map((x) => x.id));
      }
    }
    for (const s of stalled) {
      if (s.stalled > 0) lines.push(`${s.server}: ${s.stalled} connection${s.stalled === 1 ? '' : 's'} on which a request never completed (dropped at the suite's header timeout, or still unfinished at the end of the run)`);
      if (s.malformed > 0) lines.push(`${s.server}: ${s.malformed} request${s.malformed === 1 ? '' : 's'} that could not be parsed as HTTP (answered 400 and closed)`);
    }
    const byText = new Map<string, RequestAnomaly[]>();
    for (const a of anomalies) {
      const text = `${a.endpoint}: ${a.anomaly}`;
      byText.set(text, [...(byText.get(text) ?? []), a]);
    }
    for (const [text, list] of byText) {
      lines.push(`${text}${list.length > 1 ? ` (${list.length} requests)` : ''}`);
      evidence.push(list[0]!.exchange);
    }
    if (lines.length === 0) return pass('every request reached the simulators whole, within the limits, and read without a caveat');
    return fail(lines.join('; '), "requests within the suite's limits (the `limits` setting), read whole; what was refused unread is not judged", [...new Set(evidence)].slice(0, 10));
  },
});

export interface GatewayRateSubject {
  tokens: readonly TokenRate[];
  /** The gateway's 429 answers the log keeps whole. */
  tooMany: readonly Exchange[];
}

export const checkGatewayRateLimitIsKept = defineCheck<GatewayRateSubject>({
  name: 'checkGatewayRateLimitIsKept',
  checks: 'the module stays within the gateway rate limit of 30 requests a second per token',
  run({ tokens, tooMany }) {
    const over = tokens.filter((t) => t.tooManyRequests > 0);
    if (tokens.length === 0) return pass('the module did not call the gateway');
    if (over.length === 0) return pass(`peak ${Math.max(...tokens.map((t) => t.peakPerSecond))} requests a second on one token; no 429`);
    return fail(
      over.map((t) => `token ${t.token}: ${t.requests} requests, peak ${t.peakPerSecond}/s, ${t.tooManyRequests} answered 429; ${t.afterTooMany}`).join('; '),
      'at most 30 requests a second per token (above it the gateway answers 429); after a 429, a pause before the next request',
      tooMany.slice(0, 5).map((x) => x.id),
    );
  },
});
