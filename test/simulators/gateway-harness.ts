/** A gateway simulator on loopback and a small HTTP caller, for the gateway API specs. */
import { expect } from '@playwright/test';
import { request } from 'undici';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';
import type { ServerLimits } from '../../src/simulators/http.ts';

export const TRANSPORT = 'transport-token-0123456789';
export const OTHER_TRANSPORT = 'transport-token-other-999';
export const BOT = 'bot-token-0123456789';
export const OTHER_BOT = 'bot-token-other-4242';

/** RFC 3339 as Go's time.Parse reads it (fractional seconds allowed). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const time = expect.stringMatching(RFC3339);

export interface Gateway {
  gw: GatewaySimulator;
  log: EvidenceLog;
  base: string;
  stop(): Promise<void>;
}

/** A gateway on loopback with two transports and two bots registered; `limits` as the run configuration's. */
export async function startGateway(limits?: Partial<ServerLimits>): Promise<Gateway> {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0, ...(limits ? { limits } : {}) });
  const base = await gw.start();
  gw.registerTransport({ token: TRANSPORT, clientId: 'client-transport' });
  gw.registerTransport({ token: OTHER_TRANSPORT, clientId: 'client-transport-other' });
  gw.registerBot({ token: BOT, clientId: 'client-bot' });
  gw.registerBot({ token: OTHER_BOT, clientId: 'client-bot-other' });
  return {
    gw,
    log,
    base,
    stop: async () => {
      await gw.stop();
      await client.close();
    },
  };
}

export interface CallOptions {
  transport?: string;
  bot?: string;
  body?: unknown;
  /** A raw body with its content type. */
  raw?: { type: string; data: Buffer | string | FormData };
}

/** Calls the gateway; the JSON reply and the content type. */
export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<{ status: number; json: any; type: string }> {
  const headers: Record<string, string> = {};
  if (opts.transport !== undefined) headers['X-Transport-Token'] = opts.transport;
  if (opts.bot !== undefined) headers['X-Bot-Token'] = opts.bot;
  let body: string | Buffer | undefined;
  if (opts.raw && !(opts.raw.data instanceof FormData)) {
    headers['content-type'] = opts.raw.type;
    body = opts.raw.data;
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (opts.raw?.data instanceof FormData) {
    // Multipart, as the generated clients upload files.
    const res = await fetch(`${base}${path}`, { method, headers, body: opts.raw.data });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, type: res.headers.get('content-type') ?? '' };
  }
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined, type: String(res.headers['content-type'] ?? '') };
}

export const channelBody = {
  type: 'whatsapp',
  name: 'Shop WhatsApp',
  external_id: 'ext-1',
  settings: { status: { read: 'both' }, text: { creating: 'both', editing: 'both', deleting: 'both' }, sending_policy: { new_customer: 'template', after_reply_timeout: 'template' }, template: { creation: true } },
};

/** Activates a channel for a transport and returns its id. */
export async function activateChannel(base: string, token = TRANSPORT, body: Record<string, unknown> = channelBody): Promise<number> {
  const res = await call(base, 'POST', '/api/transport/v1/channels', { transport: token, body });
  expect(res.status).toBe(201);
  return res.json.id as number;
}

/** A customer message reported by a transport (the official clients' SendData / SendMessageRequest). */
export function customerMessage(channel: number, externalId: string, text = 'hello', customer = 'cust-1') {
  return {
    channel,
    external_chat_id: `chat-${customer}`,
    customer: { external_id: customer, nickname: 'Ann', first_name: 'Ann', last_name: 'Lee', utm: { source: 'ads' } },
    message: { external_id: externalId, type: 'text', text },
    originator: 'customer',
  };
}
