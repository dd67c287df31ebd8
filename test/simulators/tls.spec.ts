/**
 * HTTPS simulators: the run's certificates (a CA of its own, a server certificate for loopback),
 * both simulators served over TLS, the bot WebSocket as wss. Loopback only.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { Agent, request } from 'undici';
import { WebSocket } from 'ws';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { SystemSimulator } from '../../src/simulators/system.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';
import { makeRunTls, writeCaFile, type RunTls } from '../../src/simulators/tls.ts';

const API_KEY = 'tls-test-key-0001';
const BOT = 'bot-token-tls-0123456789';

let tls: RunTls;
test.beforeAll(async () => {
  tls = await makeRunTls();
});

test('the run CA signs a short-lived server certificate for 127.0.0.1, ::1, localhost and the configured hosts', async () => {
  const made = await makeRunTls({ hosts: ['conformance-gateway.example.com', '[2001:db8::7]', '127.0.0.1'] });
  const ca = new X509Certificate(made.caPem);
  const cert = new X509Certificate(made.cert);
  expect(ca.ca).toBe(true);
  expect(cert.ca).toBe(false);
  expect(cert.checkIssued(ca)).toBe(true);
  expect(cert.verify(ca.publicKey)).toBe(true);
  expect(ca.verify(ca.publicKey)).toBe(true);
  expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(cert.checkIP('::1')).toBe('::1');
  expect(cert.checkHost('localhost')).toBe('localhost');
  expect(cert.checkHost('conformance-gateway.example.com')).toBe('conformance-gateway.example.com');
  expect(cert.checkIP('2001:db8::7')).toBe('2001:db8::7');
  expect(cert.checkHost('example.org')).toBeUndefined();
  expect(made.hosts).toEqual(['127.0.0.1', '::1', 'localhost', 'conformance-gateway.example.com', '2001:db8::7']);
  const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
  expect(lifetime).toBeLessThanOrEqual(26 * 3600_000);
  expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
  // Each run has its own CA.
  expect(made.caPem).not.toBe(tls.caPem);
  expect(new X509Certificate(tls.cert).verify(ca.publicKey)).toBe(false);
  expect(made.generationMs).toBeGreaterThan(0);
  console.log(`TLS material made in ${made.generationMs.toFixed(0)} ms`);

  // The CA file holds the CA certificate only (no key) and goes away with remove().
  const file = writeCaFile(made.caPem);
  expect(fs.readFileSync(file.path, 'utf8')).toBe(made.caPem);
  expect(made.caPem).not.toContain('PRIVATE KEY');
  file.remove();
  expect(fs.existsSync(file.path)).toBe(false);
  file.remove();
});

test.describe('simulators over https', () => {
  let log: EvidenceLog;
  let client: CallbackClient;
  let gateway: GatewaySimulator;
  let system: SystemSimulator;
  let trusting: Agent;
  let untrusting: Agent;

  test.beforeEach(async () => {
    log = new EvidenceLog();
    client = new CallbackClient({ log, timeoutMs: 5000 });
    gateway = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0, tls: { key: tls.key, cert: tls.cert } });
    system = new SystemSimulator({ log, apiKey: API_KEY, bind: '127.0.0.1', port: 0, gatewayUrl: () => gateway.url(), tls: { key: tls.key, cert: tls.cert } });
    await gateway.start();
    await system.start();
    trusting = new Agent({ connect: { ca: tls.caPem } });
    untrusting = new Agent();
  });
  test.afterEach(async () => {
    await Promise.allSettled([system.stop(), gateway.stop(), client.close(), trusting.close(), untrusting.close()]);
  });

  test('both serve https with a certificate that verifies against the CA; plain http and an untrusting client fail', async () => {
    expect(system.url()).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.url()).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

    for (const [base, body] of [
      [system.url(), { success: false, errorMsg: expect.any(String) }],
      [gateway.url(), { errors: [expect.any(String)] }],
    ] as const) {
      const res = await request(`${base}/api/no-such-endpoint`, { dispatcher: trusting });
      expect(res.statusCode).toBe(404);
      expect(await res.body.json()).toEqual(body);
      // The same certificate holds for the name localhost.
      const byName = await request(`${base.replace('127.0.0.1', 'localhost')}/api/no-such-endpoint`, { dispatcher: trusting });
      expect(byName.statusCode).toBe(404);
      await byName.body.dump();
      // A client that does not trust the run CA refuses the certificate.
      await expect(request(`${base}/api/no-such-endpoint`, { dispatcher: untrusting })).rejects.toThrow(/certificate/i);
      // Plain http to the TLS port gets no answer.
      await expect(request(`${base.replace(/^https/, 'http')}/api/no-such-endpoint`, { dispatcher: untrusting, headersTimeout: 3000 })).rejects.toThrow();
    }
    // The evidence shows the https addresses.
    const urls = log.all().map((x) => x.request.url ?? '');
    expect(urls.length).toBeGreaterThanOrEqual(4);
    expect(urls.every((u) => u.startsWith('https://127.0.0.1:'))).toBe(true);
  });

  test('the system gives transport and bot modules the https gateway as endpointUrl', async () => {
    const integrationModule = JSON.stringify({ code: 'chat', clientId: 'client-tls', baseUrl: 'http://127.0.0.1:9', integrations: { mgTransport: { webhookUrl: 'http://127.0.0.1:9/hook' }, mgBot: {} } });
    const res = await request(`${system.url()}/api/v5/integration-modules/chat/edit`, {
      method: 'POST',
      dispatcher: trusting,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: API_KEY, integrationModule }).toString(),
    });
    const body = (await res.body.json()) as { info: Record<string, { endpointUrl?: string }> };
    expect(res.statusCode).toBe(200);
    expect(body.info.mgTransport?.endpointUrl).toBe(gateway.url());
    expect(body.info.mgBot?.endpointUrl).toBe(gateway.url());
    expect(gateway.url()).toMatch(/^https:\/\//);
  });

  test('the bot WebSocket accepts a wss connection that trusts the CA, and frames flow', async () => {
    gateway.registerBot({ token: BOT, clientId: 'client-bot-tls' });
    const wsUrl = `${gateway.url().replace(/^https:/, 'wss:')}/api/bot/v1/ws?events=message_new`;
    expect(wsUrl).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/api\/bot\/v1\/ws/);

    const ws = new WebSocket(wsUrl, { ca: tls.caPem, headers: { 'X-Bot-Token': BOT } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const frame = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    await expect.poll(() => gateway.botConnections().length).toBe(1);
    expect(gateway.botConnections()[0]!.exchange.request.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/api\/bot\/v1\/ws/);
    expect(gateway.botConnections()[0]!.exchange.response?.status).toBe(101);
    expect(gateway.sendToBots({ type: 'message_new', data: { message: { id: 1 } } })).toBe(1);
    expect(JSON.parse(await frame)).toMatchObject({ type: 'message_new', data: { message: { id: 1 } } });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.close(1000);
    expect(await closed).toBe(1000);

    // Without the CA, the TLS handshake fails before any upgrade.
    const untrusted = new WebSocket(wsUrl, { headers: { 'X-Bot-Token': BOT } });
    const error = await new Promise<Error>((resolve, reject) => {
      untrusted.once('error', resolve);
      untrusted.once('open', () => reject(new Error('an untrusting client connected')));
    });
    expect(error.message).toMatch(/certificate/i);
    // A plain ws:// connection to the TLS port does not open either.
    const plain = new WebSocket(wsUrl.replace(/^wss:/, 'ws:'), { headers: { 'X-Bot-Token': BOT }, handshakeTimeout: 3000 });
    await new Promise<void>((resolve, reject) => {
      plain.once('error', () => resolve());
      plain.once('open', () => reject(new Error('a plain ws connection opened')));
    });
    expect(gateway.botConnections()).toHaveLength(1);
  });
});
