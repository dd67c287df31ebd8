/**
 * Test harness for the reference module: a tiny fake system and a tiny fake chat gateway on
 * 127.0.0.1 that record every request, and a launcher that spawns the module as the suite does.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { loadConfig } from '../../examples/reference-module/config.ts';
import { buildIntegrationModule } from '../../examples/reference-module/registration.ts';
import { compiledReferenceModule } from '../gauntlet/compiled-module.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  form: URLSearchParams;
  json?: unknown;
}

type Answer = { status: number; body: unknown };

async function readBody(req: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function listen(server: http.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

/** Waits until `fn` returns a value (polling); fails with `what` after a generous deadline (30 s: the self-test loads 2 cores fully). */
export async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

class Recorder {
  readonly requests: Recorded[] = [];
  /** 429 on demand: the next `left` requests whose path matches are answered 429 (the gateway's rate limit). */
  readonly tooMany: Array<{ path: RegExp; left: number }> = [];
  protected readonly server: http.Server;
  url = '';

  constructor(private readonly answer: (r: Recorded) => Answer) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    const rec: Recorded = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body, form: new URLSearchParams(body) };
    try {
      rec.json = JSON.parse(body);
    } catch {
      /* not JSON */
    }
    this.requests.push(rec);
    const limited = this.tooMany.find((t) => t.left > 0 && t.path.test(rec.path));
    if (limited) limited.left -= 1;
    const a = limited ? { status: 429, body: { errors: ['Too Many Requests'] } } : this.answer(rec);
    const text = JSON.stringify(a.body);
    res.writeHead(a.status, { 'content-type': 'application/json' }).end(text);
  }

  get listening(): boolean {
    return this.server.listening;
  }

  async start(port = 0): Promise<this> {
    port = await listen(this.server, port);
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  find(method: string, pathPart: string | RegExp): Recorded[] {
    return this.requests.filter((r) => r.method === method && (typeof pathPart === 'string' ? r.path === pathPart : pathPart.test(r.path)));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** The fake chat gateway: accepts every Transport/Bot API call, and the bot WebSocket. */
export class FakeGateway extends Recorder {
  readonly sockets: { socket: WebSocket; url: string; headers: http.IncomingHttpHeaders }[] = [];
  /** The path of every upgrade request, taken or not (only `/api/bot/v1/ws` is taken). */
  readonly upgrades: string[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor() {
    super((r) => {
      if (r.method === 'POST' && r.path === '/api/transport/v1/channels') return { status: 200, body: { id: 7, external_id: 'x', activated_at: new Date().toISOString() } };
      if (r.method === 'POST' && r.path.endsWith('/messages')) return { status: 200, body: { message_id: 1, time: new Date().toISOString() } };
      return { status: 200, body: {} };
    });
    this.server.on('upgrade', (req, socket, head) => {
      const u = new URL(req.url ?? '/', 'http://x');
      this.upgrades.push(u.pathname);
      if (u.pathname !== '/api/bot/v1/ws') return socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.sockets.push({ socket: ws, url: req.url ?? '', headers: req.headers }));
    });
  }

  override async stop(): Promise<void> {
    for (const s of this.sockets) s.socket.terminate();
    this.wss.close();
    await super.stop();
  }
}

/** The customer's number the fake system finds no free manager for. */
export const NO_MANAGER_PHONE = '+34600000000';

/** The fake system: registration (with gateway info), and every module->system endpoint. */
export class FakeSystem extends Recorder {
  constructor(
    readonly apiKey: string,
    gatewayUrl: () => string,
    options: { checkPasses?: boolean } = {},
  ) {
    super((r) => {
      const key = r.form.get('apiKey') ?? r.query.get('apiKey') ?? r.headers['x-api-key'];
      if (key !== apiKey) return { status: 403, body: { success: false, errorMsg: 'Wrong "apiKey" value.' } };
      if (/^\/api\/v5\/integration-modules\/[^/]+\/edit$/.test(r.path)) {
        return {
          status: 200,
          body: { success: true, info: { mgTransport: { endpointUrl: gatewayUrl(), token: 'transport-token' }, mgBot: { endpointUrl: gatewayUrl(), token: 'bot-token' } } },
        };
      }
      if (r.path === '/api/v5/payment/check') return { status: 200, body: { success: true, result: { success: options.checkPasses ?? true } } };
      // No free manager for NO_MANAGER_PHONE: `{success: true}` without `manager` (wire profile section 4).
      if (r.path === '/api/v5/telephony/manager' && r.query.get('phone') === NO_MANAGER_PHONE) return { status: 200, body: { success: true } };
      if (r.path === '/api/v5/telephony/manager') return { status: 200, body: { success: true, manager: { id: 5, firstName: 'Ann', lastName: 'Lee', code: '101' } } };
      return { status: 200, body: { success: true } };
    });
  }

  edits(): Recorded[] {
    return this.find('POST', /\/edit$/);
  }
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The environment startModule gives the module (besides the process's own). */
function moduleEnv(o: { systemUrl: string; port: number; clientId: string; faults?: string[]; env?: Record<string, string> }): Record<string, string> {
  return {
    SYSTEM_URL: o.systemUrl,
    API_KEY: 'test-api-key',
    PORT: String(o.port),
    CLIENT_ID: o.clientId,
    MODULE_CODE: 'ref-test',
    FAULTS: (o.faults ?? []).join(','),
    BOT_RECONNECT_MS: '100',
    REGISTER_RETRY_MS: '100',
    ...o.env,
  };
}

/**
 * The registration a module started by startModule with these faults (and env) builds, computed
 * in this process by the module's own builder (registration.ts `buildIntegrationModule`) from the
 * configuration the module reads (config.ts `loadConfig`). Without `at`, for a module at
 * http://127.0.0.1:1 with clientId `client-1`; with it, for that running module.
 */
export function builtRegistration(options: { faults?: string[]; env?: Record<string, string>; at?: Pick<RunningModule, 'port' | 'clientId' | 'system'> } = {}): Record<string, unknown> {
  const port = options.at?.port ?? 1;
  const env = moduleEnv({ systemUrl: options.at?.system.url ?? 'http://127.0.0.1:2', port, clientId: options.at?.clientId ?? `client-${port}`, ...(options.faults ? { faults: options.faults } : {}), ...(options.env ? { env: options.env } : {}) });
  const config = loadConfig({ ...process.env, ...env });
  return buildIntegrationModule({ config, publicUrl: config.publicUrl ?? `http://127.0.0.1:${port}`, port });
}

export interface RunningModule {
  url: string;
  port: number;
  clientId: string;
  child: ChildProcess;
  stderr: () => string;
  system: FakeSystem;
  gateway: FakeGateway;
  /** The decoded `integrationModule` of the first registration. */
  registration: () => Promise<Record<string, unknown>>;
  stop: () => Promise<number | null>;
}

/**
 * Starts the module as `node --import tsx examples/reference-module/main.ts` (as `compiled: true`
 * the same code compiled once per test process: test/gauntlet/compiled-module.ts), with a fake system and gateway.
 */
export async function startModule(options: { faults?: string[]; env?: Record<string, string>; systemLater?: boolean; compiled?: boolean } = {}): Promise<RunningModule> {
  const gateway = await new FakeGateway().start();
  const system = new FakeSystem('test-api-key', () => gateway.url);
  if (options.systemLater) system.url = `http://127.0.0.1:${await freePort()}`;
  else await system.start();
  const port = await freePort();
  const clientId = `client-${port}`;
  const args = options.compiled ? [compiledReferenceModule()] : ['--import', 'tsx', 'examples/reference-module/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...moduleEnv({ systemUrl: system.url, port, clientId, ...(options.faults ? { faults: options.faults } : {}), ...(options.env ? { env: options.env } : {}) }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const registration = async (): Promise<Record<string, unknown>> => {
    // Generous: under the self-test's full load a start can take long; the message says what the module did meanwhile.
    const why = (what: string): Error =>
      new Error(`${what} (module ${child.exitCode === null ? 'running' : `exited ${child.exitCode}`}; system saw ${system.requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'nothing'}; stderr: ${err.slice(-2000)})`);
    const seen = await until('the registration', () => system.edits()[0] ?? (child.exitCode !== null ? 'exited' : undefined), 40_000).catch((e: Error) => {
      throw why(e.message);
    });
    if (seen === 'exited') throw why('the module exited before registering');
    const edit = seen;
    return JSON.parse(edit.form.get('integrationModule') ?? 'null') as Record<string, unknown>;
  };
  await until(`the module to listen (stderr: ${err})`, () => /listening on/.test(err) || child.exitCode !== null);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    clientId,
    child,
    stderr: () => err,
    system,
    gateway,
    registration,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (system.listening) await system.stop();
      await gateway.stop();
      return code;
    },
  };
}

/** A webhook `{type, meta, data}` POSTed to the transport's `webhookUrl` in `registration`, with the `ClientId` header (none when null). */
export function postWebhook(registration: Record<string, unknown>, type: string, data: unknown, clientId: string | null): Promise<Response> {
  const url = String((registration.integrations as Record<string, Record<string, unknown>>).mgTransport!.webhookUrl);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(clientId !== null ? { ClientId: clientId } : {}) };
  return fetch(url, { method: 'POST', headers, body: JSON.stringify({ type, meta: { timestamp: 1700000000 }, data }) });
}

/** A command message in chat `chatId`, as the gateway puts it on the bot's socket. */
export function commandFrame(chatId: number, content: string): string {
  return JSON.stringify({ type: 'message_new', meta: { timestamp: 1700000000 }, data: { message: { id: 1, type: 'command', chat_id: chatId, content } } });
}

/** POST callback: form `clientId` + `<action>=<json>`. */
export async function postCallback(url: string, clientId: string | undefined, action: string, payload: unknown): Promise<Response> {
  const form = new URLSearchParams();
  if (clientId !== undefined) form.set('clientId', clientId);
  form.set(action, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
}

export async function getCallback(url: string, query: Record<string, string>): Promise<Response> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return fetch(u);
}

export async function trigger(moduleUrl: string, name: string, params: unknown = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${moduleUrl}/dev/triggers/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** JSON paths (`/a/b/0`) where two JSON values differ. */
export function diffPaths(a: unknown, b: unknown, at = ''): string[] {
  if (a === b) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) return [at || '/'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => diffPaths(a[k], b[k], `${at}/${k}`));
}

/** Entries of a ZIP archive (stored entries), read through the central directory. */
export function readZip(buf: Buffer): { name: string; data: Buffer; crc: number }[] {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: { name: string; data: Buffer; crc: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    if (method !== 0) throw new Error('not a stored entry');
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error('bad local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.push({ name, data: buf.subarray(start, start + size), crc });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
