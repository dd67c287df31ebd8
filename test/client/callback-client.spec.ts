/** The callback client against small loopback servers. */
import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallbackClient, decodeUtf8, firstInvalidUtf8 } from '../../src/client/callback-client.ts';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { encodeActionForm, FORM_CONTENT_TYPE } from '../../src/wire/forms.ts';

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
      if (req.url?.startsWith('/chunked-huge')) return void stream(res, { 'content-type': 'application/json' }, 16 * 1024);
      if (req.url?.startsWith('/declared-huge')) return void stream(res, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) }, 16 * 1024);
      if (req.url?.startsWith('/drip')) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '16' }).write('{');
      if (req.url?.startsWith('/short-open')) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '50' }).write('{"success":true}');
      if (req.url?.startsWith('/short-close')) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '50' }).write('{"success":true}', () => res.socket?.end());
      if (req.url?.startsWith('/latin1')) return res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(Buffer.from('{"success":true,"result":"Gr\u00f6\u00dfe"}', 'latin1'));
      if (req.url?.startsWith('/text')) return res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

/** Writes `chunk`-byte chunks of a JSON array as fast as the client reads them, until it hangs up. */
function stream(res: http.ServerResponse, headers: Record<string, string>, chunk: number): void {
  res.writeHead(200, headers);
  const part = Buffer.alloc(chunk, 0x31);
  const more = (): void => {
    while (!res.destroyed && res.write(part));
    if (!res.destroyed) res.once('drain', more);
  };
  res.write('[');
  more();
}

test('a POST callback is a form with clientId and the action field holding JSON', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  const body = encodeActionForm({ clientId: 'c-1', field: 'calculate', payload: { packages: [{ weight: 1000 }] } });
  const reply = await client.send('POST', `${base}/calculate`, body, { 'content-type': FORM_CONTENT_TYPE }, { label: 'calculate' });
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

test('an endless chunked body is read up to the cap and no further: a transport failure that says so, what arrived kept as evidence', async () => {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, maxBodyBytes: 1_000_000 });
  const reply = await client.get(`${base}/chunked-huge`, {}, { label: 'chunked' });
  expect(reply.status).toBeUndefined();
  expect(reply.error).toMatch(/^reply body larger than 1000000 bytes \(the cap, setting callbacks\.maxBodyBytes\): reading stopped after (\d+) bytes$/);
  const after = Number(/after (\d+) bytes/.exec(reply.error!)![1]);
  expect(after).toBeGreaterThan(1_000_000);
  expect(after).toBeLessThanOrEqual(1_000_000 + 64 * 1024);
  expect(reply.body.length).toBe(0);
  expect(reply.json).toBeUndefined();
  // The exchange keeps the beginning of what arrived (4 KB, so that many such replies keep a report small) and its size.
  const x = log.all()[0]!;
  expect(x.response?.status).toBe(200);
  expect(x.response?.body?.startsWith('[1111')).toBe(true);
  expect(x.response?.body?.length).toBe(4096);
  expect(x.response).toMatchObject({ truncated: true, bytes: after });
  expect(x.error).toBe(reply.error);
  await client.close();
});

test('a body whose Content-Length is over the cap is not read at all', async () => {
  const client = new CallbackClient({ log: new EvidenceLog(), maxBodyBytes: 1_000_000 });
  const reply = await client.get(`${base}/declared-huge`, {}, { label: 'declared' });
  expect(reply.status).toBeUndefined();
  expect(reply.error).toBe('reply body larger than 1000000 bytes (the cap, setting callbacks.maxBodyBytes): its Content-Length declares 52428800; not read');
  await client.close();
});

test('a body that drips is cut at the whole-request timeout, saying how much of it came', async () => {
  const client = new CallbackClient({ log: new EvidenceLog(), timeoutMs: 300 });
  const reply = await client.get(`${base}/drip`, {}, { label: 'drip' });
  expect(reply.status).toBeUndefined();
  expect(reply.error).toBe('no complete reply within 300 ms (the per-request timeout, setting callbacks.timeoutMs): HTTP 200 and 1 byte(s) of its body received of the 16 its Content-Length declares');
  await client.close();
});

test('a body shorter than its Content-Length is never waited on past the timeout, whether the connection stays open or closes', async () => {
  const client = new CallbackClient({ log: new EvidenceLog(), timeoutMs: 300 });
  const open = await client.get(`${base}/short-open`, {}, { label: 'short, open' });
  expect(open.status).toBeUndefined();
  expect(open.error).toMatch(/^no complete reply within 300 ms .*: HTTP 200 and 16 byte\(s\) of its body received of the 50 its Content-Length declares$/);
  const closed = await client.get(`${base}/short-close`, {}, { label: 'short, closed' });
  expect(closed.status).toBeUndefined();
  expect(closed.error).toMatch(/^reply body shorter than its Content-Length: 16 of 50 bytes, then the connection closed \(/);
  expect(closed.exchange.response?.body).toBe('{"success":true}');
  await client.close();
});

test('a body that is not UTF-8 is a reply, not JSON, and says which byte breaks it', async () => {
  const client = new CallbackClient({ log: new EvidenceLog() });
  const reply = await client.get(`${base}/latin1`, {}, { label: 'latin1' });
  expect(reply.status).toBe(200);
  expect(reply.error).toBeUndefined();
  expect(reply.json).toBeUndefined();
  expect(reply.jsonError).toBe('not valid UTF-8 (a JSON text is UTF-8, RFC 8259): byte 0xF6 at offset 28 does not belong to a UTF-8 sequence');
  await client.close();
});

test('the first byte outside a well-formed UTF-8 sequence', () => {
  const at = (...bytes: number[]): number => firstInvalidUtf8(Uint8Array.from(bytes));
  expect(at(0x41, 0xc3, 0xb6, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)).toBe(10); // A ö € 😀: well formed
  expect(at(0x41, 0xf6, 0x42)).toBe(1); // Latin-1 ö
  expect(at(0xc0, 0x80)).toBe(0); // overlong NUL
  expect(at(0xe0, 0x80, 0x80)).toBe(0); // overlong
  expect(at(0xed, 0xa0, 0x80)).toBe(0); // a surrogate
  expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0); // above U+10FFFF
  expect(at(0x41, 0xe2, 0x82)).toBe(1); // cut short
  expect(at(0x80)).toBe(0); // a lone continuation byte
  expect(decodeUtf8(Buffer.from('Größe'))).toBe('Größe');
  expect(decodeUtf8(Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({ error: expect.stringMatching(/byte 0xFF at offset 1/) });
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
