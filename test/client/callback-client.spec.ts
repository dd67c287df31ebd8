/** The callback client against small loopback servers. */
import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { EvidenceLog } from '../../src/evidence/exchange.ts';

let server: http.Server;
let base: string;
let seen: { method?: string; url?: string; type?: string; body: string };

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen = { method: req.method, url: req.url, type: req.headers['content-type'], body };
      if (req.url?.startsWith('/redirect')) return res.writeHead(302, { location: '/elsewhere' }).end();
      if (req.url?.startsWith('/slow')) return void setTimeout(() => res.end('{}'), 2000);
      if (req.url?.startsWith('/huge')) return res.end(Buffer.alloc(300_000, 0x61));
      if (req.url?.startsWith('/text')) return res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('a POST callback is a form with clientId and the action field holding JSON', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  const reply = await client.postCallback(`${base}/calculate`, 'c-1', 'calculate', { packages: [{ weight: 1000 }] }, { label: 'calculate' });
  expect(seen.type).toBe('application/x-www-form-urlencoded');
  expect(Object.fromEntries(new URLSearchParams(seen.body))).toEqual({ clientId: 'c-1', calculate: '{"packages":[{"weight":1000}]}' });
  expect(reply.json).toEqual({ success: true });
  await client.close();
});

test('a GET callback carries clientId and its parameters in the query', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  await client.get(`${base}/get`, { clientId: 'c-1', deliveryId: 'D 1' }, { label: 'get' });
  expect(seen).toMatchObject({ method: 'GET', url: '/get?clientId=c-1&deliveryId=D+1' });
  await client.close();
});

test('redirects are not followed', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  const reply = await client.get(`${base}/redirect`, {}, { label: 'r' });
  expect(reply.status).toBe(302);
  expect(seen.url).toBe('/redirect');
  await client.close();
});

test('a reply slower than the timeout is a transport failure, recorded as evidence', async () => {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 300 });
  const reply = await client.get(`${base}/slow`, {}, { label: 'slow' });
  expect(reply.status).toBeUndefined();
  expect(reply.error).toMatch(/no complete reply within 300 ms/);
  expect(log.all()[0]!.error).toBe(reply.error);
  await client.close();
});

test('a reply body over the cap is not read past it', async () => {
  const client = new CallbackClient({ log: new EvidenceLog(), maxBodyBytes: 100_000 });
  const reply = await client.get(`${base}/huge`, {}, { label: 'huge' });
  expect(reply.error).toMatch(/larger than 100000 bytes/);
  expect(reply.body.length).toBeLessThanOrEqual(100_000);
  expect(reply.json).toBeUndefined();
  await client.close();
});

test('a non-JSON reply says why it is not JSON', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  const reply = await client.get(`${base}/text`, {}, { label: 'text' });
  expect(reply.status).toBe(200);
  expect(reply.json).toBeUndefined();
  expect(reply.jsonError).toMatch(/JSON/);
  await client.close();
});

test('a refused connection is a transport failure', async () => {
  const client = new CallbackClient({ log: new EvidenceLog(), timeoutMs: 2000 });
  const reply = await client.get('http://127.0.0.1:1/', {}, { label: 'closed' });
  expect(reply.status).toBeUndefined();
  expect(reply.error).toMatch(/ECONNREFUSED/);
  await client.close();
});
