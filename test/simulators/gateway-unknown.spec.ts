/**
 * The gateway keeps the requests to none of its endpoints (404, 405) apart from its calls, for
 * the judgement of the module's gateway calls at the session end; and it accepts the channel
 * bodies the official transport clients send (older `mg-transport-api-client-go` versions send
 * the features they do not set as "" and `spam_allowed`; newer ones `sending_policy`, `template`,
 * `audio`, `reaction`, `suggestions`).
 */
import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';

const TOKEN = 'transport-token-unknown-spec';

async function withGateway(fn: (gw: GatewaySimulator, base: string) => Promise<void>): Promise<void> {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0 });
  const base = await gw.start();
  gw.registerTransport({ token: TOKEN, clientId: 'client-unknown-spec' });
  try {
    await fn(gw, base);
  } finally {
    await gw.stop();
    await client.close();
  }
}

async function send(base: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await request(`${base}${path}`, { method: method as 'GET', headers: { 'X-Transport-Token': TOKEN, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  await res.body.text();
  return res.statusCode;
}

test('requests to no endpoint are kept in `unknown`, counted, and never among the calls', async () => {
  await withGateway(async (gw, base) => {
    expect(await send(base, 'GET', '/api/transport/v2/channels')).toBe(404);
    expect(await send(base, 'PATCH', '/api/transport/v1/channels/1', {})).toBe(405);
    expect(await send(base, 'GET', '/api/transport/v1/channels')).toBe(200);
    expect(gw.unknown.map((x) => [x.request.method, new URL(x.request.url!).pathname, x.response?.status])).toEqual([
      ['GET', '/api/transport/v2/channels', 404],
      ['PATCH', '/api/transport/v1/channels/1', 405],
    ]);
    expect(gw.unknownCount()).toBe(2);
    expect(gw.calls.map((c) => c.route)).toEqual(['transport.channels.list']);
  });
});

test('channel bodies of the official transport clients, old and new, are accepted', async () => {
  await withGateway(async (_gw, base) => {
    const old = { type: 'telegram', name: 'Old', settings: { spam_allowed: false, status: { delivered: '', read: '' }, text: { creating: 'both', editing: '', quoting: '', deleting: '' } } };
    expect(await send(base, 'POST', '/api/transport/v1/channels', old)).toBe(201);
    const current = {
      type: 'custom',
      name: 'New',
      external_id: 'ext-1',
      avatar_url: 'https://example.com/a.png',
      settings: {
        status: { delivered: 'both', read: 'send' },
        text: { creating: 'both', editing: 'both', quoting: 'both', deleting: 'receive', reaction: 'both', max_chars_count: 4096 },
        file: { creating: 'both', max_items_count: 10, note_max_chars_count: 1024, max_item_size: 20971520 },
        audio: { creating: 'both', max_items_count: 1 },
        reaction: { dictionary: ['👍'], max_count: 1 },
        suggestions: { text: 'both', phone: 'both', email: 'both', url: 'both' },
        sending_policy: { new_customer: 'template', after_reply_timeout: 'template', outgoing: 'allowed' },
        customer_external_id: 'phone',
        template: { creation: true },
      },
    };
    expect(await send(base, 'POST', '/api/transport/v1/channels', current)).toBe(201);
    expect(await send(base, 'PUT', '/api/transport/v1/channels/2', { id: 2, ...current })).toBe(200);
  });
});
