/**
 * Hostile faults: a module correct in everything the contract judges, but that behaves as a
 * module under development can (a retry loop gone wild, a leaked connection pool, a stray dump).
 * They prove that a module cannot break the run (the suite's memory stays bounded, the run ends
 * within its deadline and writes its report, no process is left); the suite's tests run each
 * one in a run narrowed to where it acts (test/gauntlet/hostile.spec.ts).
 *
 * Each starts once the module is registered, in the background, and stops with the module.
 *
 * The hostile answers of the delivery `calculate` callback (`calculate-never-answers`, ...,
 * `hostileCalculate` below) are the other direction: what the suite, playing the system, gets
 * back from a module that stalls, drips, floods, miscounts, mis-encodes, loops or injects markup.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type WebSocket from 'ws';
import type { FaultName, FaultSet } from './faults.ts';
import type { GatewayAccess } from './registration.ts';
import { HttpError, type CallbackReply, type Ctx } from './http.ts';
import { log } from './log.ts';

/** How long a flood lasts, and how many requests it keeps in flight. */
const FLOOD_MS = 5_000;
const FLOOD_CONCURRENCY = 64;
/** The body of `body-64mb`, sent in 1 MB chunks (never held whole). */
const HUGE_BODY_BYTES = 64 * 1024 * 1024;
/** Connections `slow-connections` opens (half stall in the headers, half in the body). */
const SLOW_CONNECTIONS = 100;
/** Nesting of the `deep-json` payloads. */
const DEEP_JSON_LEVELS = 300_000;
/** The frame `ws-huge-frames` sends, and on how many connections it sends it. */
const HUGE_FRAME_BYTES = 8 * 1024 * 1024;
const HUGE_FRAME_CONNECTIONS = 3;

export interface HostileContext {
  systemUrl: string;
  apiKey: string;
  moduleCode: string;
  transport?: GatewayAccess;
}

/** What stops the hostile behaviours when the module stops. */
export class Hostile {
  private stopped = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly agent = new Agent({ connections: FLOOD_CONCURRENCY, pipelining: 1 });
  private hugeFramesSent = 0;
  private started = false;

  constructor(private readonly faults: FaultSet) {}

  /** Starts what the faults ask for, once the module is registered. */
  start(ctx: HostileContext): void {
    if (this.started) return;
    this.started = true;
    if (this.faults.has('flood-system')) {
      const url = new URL('/api/credentials', ctx.systemUrl);
      url.searchParams.set('apiKey', ctx.apiKey);
      void this.flood('system', url.toString(), {});
    }
    if (this.faults.has('flood-gateway') && ctx.transport) {
      void this.flood('gateway', `${ctx.transport.endpointUrl}/api/transport/v1/channels`, { 'X-Transport-Token': ctx.transport.token });
    }
    if (this.faults.has('body-64mb')) void this.hugeBodies(ctx);
    if (this.faults.has('slow-connections')) this.slowConnections(ctx);
    if (this.faults.has('deep-json')) void this.deepJson(ctx);
  }

  /** `ws-huge-frames`: on each of the first bot connections, one text frame far above any frame limit. */
  onBotSocketOpen(socket: WebSocket): void {
    if (!this.faults.has('ws-huge-frames') || this.hugeFramesSent >= HUGE_FRAME_CONNECTIONS) return;
    this.hugeFramesSent++;
    socket.send(JSON.stringify({ type: 'debug_dump', data: 'x'.repeat(HUGE_FRAME_BYTES) }), (e) => log('bot sent a huge frame', { bytes: HUGE_FRAME_BYTES, ...(e ? { error: e.message } : {}) }));
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    void this.agent.destroy().catch(() => undefined);
  }

  /** `flood-*`: correct requests as fast as the connections allow, for `FLOOD_MS`, whatever the answers (429 included). */
  private async flood(target: string, url: string, headers: Record<string, string>): Promise<void> {
    const until = Date.now() + FLOOD_MS;
    const statuses = new Map<number | string, number>();
    const worker = async (): Promise<void> => {
      while (!this.stopped && Date.now() < until) {
        try {
          const res = await request(url, { method: 'GET', headers, dispatcher: this.agent });
          await res.body.dump();
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        } catch (e) {
          statuses.set((e as Error).name, (statuses.get((e as Error).name) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    };
    await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, worker));
    log(`flooded the ${target}`, { url: url.replace(/apiKey=[^&]*/, 'apiKey=***'), statuses: Object.fromEntries(statuses) });
  }

  /** `body-64mb`: a calls upload of 64 MB, once with its length declared and once chunked. */
  private async hugeBodies(ctx: HostileContext): Promise<void> {
    const url = new URL('/api/v5/telephony/calls/upload', ctx.systemUrl).toString();
    const head = Buffer.from(`apiKey=${encodeURIComponent(ctx.apiKey)}&calls=`);
    for (const declared of [true, false]) {
      if (this.stopped) return;
      const body = Readable.from(
        (function* () {
          yield head;
          const chunk = Buffer.alloc(1024 * 1024, 0x78);
          for (let sent = head.length; sent < HUGE_BODY_BYTES; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, HUGE_BODY_BYTES - sent));
        })(),
      );
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(declared ? { 'content-length': String(HUGE_BODY_BYTES) } : {}) },
          body,
          dispatcher: this.agent,
        });
        await res.body.dump();
        log(`sent a ${HUGE_BODY_BYTES}-byte calls upload (${declared ? 'content-length' : 'chunked'})`, { status: res.statusCode });
      } catch (e) {
        log(`a ${HUGE_BODY_BYTES}-byte calls upload (${declared ? 'content-length' : 'chunked'}) was cut`, { error: (e as Error).message });
      }
    }
  }

  /** `slow-connections`: connections that never finish their request, dripping a byte a second. */
  private slowConnections(ctx: HostileContext): void {
    const target = new URL(ctx.systemUrl);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const path = `/api/v5/delivery/generic/${encodeURIComponent(ctx.moduleCode)}/tracking`;
    for (let i = 0; i < SLOW_CONNECTIONS; i++) {
      const inBody = i % 2 === 1;
      const socket = target.protocol === 'https:' ? tls.connect({ host, port, servername: host === '127.0.0.1' || host === '::1' ? undefined : host }) : net.connect({ host, port });
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      const start = `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/x-www-form-urlencoded\r\n`;
      socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        socket.write(inBody ? `${start}Content-Length: 100000\r\n\r\napiKey=${encodeURIComponent(ctx.apiKey)}&statusUpdate=` : start);
        const drip = setInterval(() => (socket.destroyed || this.stopped ? clearInterval(drip) : socket.write(inBody ? '%' : 'X')), 1_000);
        drip.unref();
      });
    }
    log(`opened ${SLOW_CONNECTIONS} connections that never finish their request`);
  }

  /** `deep-json`: a tracking push whose `statusUpdate` nests 300,000 arrays, and a gateway message nested as deep. */
  private async deepJson(ctx: HostileContext): Promise<void> {
    const deep = `${'['.repeat(DEEP_JSON_LEVELS)}${']'.repeat(DEEP_JSON_LEVELS)}`;
    try {
      const res = await request(new URL(`/api/v5/delivery/generic/${encodeURIComponent(ctx.moduleCode)}/tracking`, ctx.systemUrl).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ apiKey: ctx.apiKey, statusUpdate: deep }).toString(),
        dispatcher: this.agent,
      });
      await res.body.dump();
      log('sent a tracking push nested 300,000 deep', { status: res.statusCode });
    } catch (e) {
      log('the deep tracking push failed', { error: (e as Error).message });
    }
    if (!ctx.transport) return;
    try {
      const res = await request(`${ctx.transport.endpointUrl}/api/transport/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Transport-Token': ctx.transport.token },
        body: `{"message":${deep}}`,
        dispatcher: this.agent,
      });
      await res.body.dump();
      log('sent a gateway message nested 300,000 deep', { status: res.statusCode });
    } catch (e) {
      log('the deep gateway message failed', { error: (e as Error).message });
    }
  }
}

/** The hostile answers of `calculate`; each but `calculate-script-in-error` only above `HOSTILE_CALCULATE_OVER_GRAMS`. */
export const HOSTILE_CALCULATE_FAULTS = [
  'calculate-never-answers',
  'calculate-answers-after-20s',
  'calculate-drips',
  'calculate-50mb',
  'calculate-short-content-length',
  'calculate-invalid-utf8',
  'calculate-redirect-loop',
  'calculate-script-in-error',
] as const satisfies readonly FaultName[];

/**
 * Above this weight in all (grams) a calculate gets the hostile answer: a few generated cases of
 * a hundred (packages weigh at most 30 kg, so it takes three heavy ones), each costing the suite
 * at most its per-request timeout, and a failing case shrinks to a small one.
 */
export const HOSTILE_CALCULATE_OVER_GRAMS = 60_000;
/** How long `calculate-answers-after-20s` waits, how often `calculate-drips` sends a byte, how much `calculate-50mb` sends. */
const LATE_ANSWER_MS = 20_000;
const DRIP_EVERY_MS = 2_000;
const FLOOD_BODY_BYTES = 50 * 1024 * 1024;
/** What `calculate-script-in-error` wraps its error messages in (the message itself, naming the field, stays). */
const MARKUP_BEFORE = '<script>alert(1)</script><b onmouseover="alert(2)">';
const MARKUP_AFTER = '</b><img src=x onerror=alert(3)></pre></td><script src="//evil.invalid/x.js"></script>';

/** True when a hostile calculate fault is on (the calculate handler then answers through `hostileCalculate`). */
export function hasHostileCalculate(faults: FaultSet): boolean {
  return HOSTILE_CALCULATE_FAULTS.some((f) => faults.has(f));
}

/** Resolves when the suite gave up on the request (its connection closed), or after `ms`, whichever comes first; true when it gave up. */
function closedOrAfter(ctx: Ctx, ms: number): Promise<boolean> {
  if (ctx.res.destroyed || ctx.req.socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = ms === Infinity ? undefined : setTimeout(() => (ctx.res.off('close', onClose), resolve(false)), ms);
    const onClose = (): void => {
      if (timer) clearTimeout(timer);
      resolve(true);
    };
    ctx.res.once('close', onClose);
  });
}

/** The JSON the calculate answer (or its refusal, HTTP 200 as calculate's errors are) would have been. */
async function answerJson(answer: () => CallbackReply | Promise<CallbackReply>): Promise<unknown> {
  try {
    const r = await answer();
    return r.kind === 'success' ? (r.result === undefined ? { success: true } : { success: true, result: r.result }) : r.kind === 'json' ? r.body : { success: true };
  } catch (e) {
    if (e instanceof HttpError) return { success: false, errorMsg: e.message };
    throw e;
  }
}

/**
 * The calculate answer under the hostile faults: `answer` is the module's own. A reply written
 * here (headers sent) is final; the handler's own reply is then skipped.
 */
export async function hostileCalculate(faults: FaultSet, grams: number, ctx: Ctx, answer: () => CallbackReply | Promise<CallbackReply>): Promise<CallbackReply> {
  if (faults.has('calculate-script-in-error')) {
    try {
      return await answer();
    } catch (e) {
      if (e instanceof HttpError) throw new HttpError(e.status, `${MARKUP_BEFORE}${e.message}${MARKUP_AFTER}`);
      throw e;
    }
  }
  if (grams <= HOSTILE_CALCULATE_OVER_GRAMS) return answer();
  const { res } = ctx;
  if (faults.has('calculate-never-answers')) {
    // Nothing is written; once the suite gives up, the handler's own answer goes nowhere.
    await closedOrAfter(ctx, Infinity);
    log('calculate: never answered', { grams });
    return answer();
  }
  if (faults.has('calculate-answers-after-20s')) {
    const gaveUp = await closedOrAfter(ctx, LATE_ANSWER_MS);
    log(`calculate: answered after ${LATE_ANSWER_MS} ms`, { grams, gaveUp });
    return answer();
  }
  if (faults.has('calculate-drips')) {
    const body = Buffer.from(JSON.stringify(await answerJson(answer)));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    // The headers and the first byte at once, then a byte every DRIP_EVERY_MS until the suite gives up.
    for (let i = 0; i < body.length && (i === 0 || !(await closedOrAfter(ctx, DRIP_EVERY_MS))); i++) res.write(body.subarray(i, i + 1));
    log('calculate: dripped its answer', { grams, bytes: body.length, gaveUp: res.destroyed });
    res.end();
    return success200();
  }
  if (faults.has('calculate-50mb')) {
    await floodBody(ctx, await answerJson(answer));
    return success200();
  }
  if (faults.has('calculate-short-content-length')) {
    // The length counted on a longer text than the one sent; the connection closed once it is sent.
    const body = Buffer.from(JSON.stringify(await answerJson(answer)));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length + 100 });
    res.write(body, () => res.socket?.end());
    log('calculate: declared 100 bytes more than it sent', { grams, bytes: body.length });
    return success200();
  }
  if (faults.has('calculate-invalid-utf8')) {
    // Encoded as Latin-1 but declared UTF-8: each accented letter is a byte no UTF-8 text has.
    const json = await answerJson(answer);
    const accented = isObject(json) && Array.isArray(json.result) ? { ...json, result: json.result.map((t) => (isObject(t) ? { ...t, description: 'Lieferung an die Haustür, Größe bis 30 kg' } : t)) } : { ...(isObject(json) ? json : {}), note: 'Größe' };
    const body = Buffer.from(JSON.stringify(accented), 'latin1');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
    return success200();
  }
  if (faults.has('calculate-redirect-loop')) {
    // To the very address asked: a client that followed it would never get an answer.
    const self = `${ctx.url.pathname}${ctx.url.search}`;
    res.writeHead(302, { location: self, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`Found. Redirecting to ${self}`);
    return success200();
  }
  return answer();
}

/** What the handler returns once the reply is written (headers sent: nothing more is written). */
const success200 = (): CallbackReply => ({ kind: 'success' });

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `calculate-50mb`: the answer's tariffs repeated to 50 MB of well-formed JSON, chunked, each chunk after the last drained, until sent or the suite gives up. */
async function floodBody(ctx: Ctx, json: unknown): Promise<void> {
  const { res } = ctx;
  const tariffs = isObject(json) && Array.isArray(json.result) && json.result.length > 0 ? json.result : [{ code: 'none', name: 'none' }];
  const one = tariffs.map((t) => JSON.stringify(t)).join(',');
  const chunk = Buffer.from(`,${one}`.repeat(Math.max(1, Math.floor(64 * 1024 / (one.length + 1)))));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  let sent = 0;
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  // Each chunk once the last one drained, or the suite gave up (a drain that never comes).
  const write = (b: Buffer | string): Promise<void> => Promise.race([closed, new Promise<void>((resolve) => (res.write(b) ? resolve() : res.once('drain', resolve)))]);
  await write(`{"success":true,"result":[${one}`);
  while (sent < FLOOD_BODY_BYTES && !res.destroyed) {
    await write(chunk);
    sent += chunk.length;
  }
  res.end(']}');
  log('calculate: sent a 50 MB answer', { sent, gaveUp: res.destroyed });
}
