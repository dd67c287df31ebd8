/**
 * Hostile faults: a module correct in everything the contract judges, but that behaves as a
 * module under development can (a retry loop gone wild, a leaked connection pool, a stray dump).
 * They prove that a module cannot break the run (the suite's memory stays bounded, the run ends
 * within its deadline and writes its report, no process is left); the suite's tests run each
 * one through the whole suite (test/gauntlet/hostile.spec.ts).
 *
 * Each starts once the module is registered, in the background, and stops with the module.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type WebSocket from 'ws';
import type { FaultSet } from './faults.ts';
import type { GatewayAccess } from './registration.ts';
import { log } from './log.ts';

/** How long a flood lasts, and how many requests it keeps in flight. */
const FLOOD_MS = 10_000;
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
