/**
 * A module cannot break the run: the simulators bound what they read (bodies, WebSocket
 * messages), how long they wait (slow and stalled connections) and how deep they look (JSON),
 * and take invalid UTF-8 and repeated parameters as something to judge, never a crash.
 * Every test drives the simulators directly, on loopback.
 */
import net from 'node:net';
import { test, expect } from '@playwright/test';
import WebSocket from 'ws';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { Redactor } from '../../src/evidence/redact.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { SystemSimulator } from '../../src/simulators/system.ts';
import { GatewaySimulator } from '../../src/simulators/gateway.ts';
import { BOT_WS_PATH } from '../../src/simulators/gateway-routing.ts';
import { DEFAULT_LIMITS, type ServerLimits } from '../../src/simulators/http.ts';
import { jsonDepth, parseJson } from '../../src/simulators/http-decode.ts';
import { withoutNulls } from '../../src/contract/schemas.ts';
import { pointers } from '../../src/checks/registration/scopes.ts';

const KEY = 'hostile-api-key-0123456789';
const BOT = 'bot-token-hostile-0123456789';
const MB = 1024 * 1024;
const EDIT = '/api/v5/integration-modules/hostile/edit';

async function startSystem(limits?: Partial<ServerLimits>): Promise<{ sim: SystemSimulator; log: EvidenceLog; port: number }> {
  const redactor = new Redactor();
  redactor.add('apiKey', KEY);
  const log = new EvidenceLog(redactor, 'h');
  const sim = new SystemSimulator({ log, apiKey: KEY, bind: '127.0.0.1', gatewayUrl: () => 'http://127.0.0.1:9/gateway', ...(limits ? { limits } : {}) });
  const url = await sim.start();
  return { sim, log, port: Number(new URL(url).port) };
}

async function startGateway(): Promise<{ gw: GatewaySimulator; log: EvidenceLog; client: CallbackClient; base: string }> {
  const log = new EvidenceLog();
  const client = new CallbackClient({ log, timeoutMs: 5000 });
  const gw = new GatewaySimulator({ log, client, bind: '127.0.0.1', port: 0 });
  const base = await gw.start();
  gw.registerBot({ token: BOT, clientId: 'client-bot-hostile' });
  return { gw, log, client, base };
}

/**
 * Sends `total` bytes to a path on a raw connection (with a content-length, or chunked), one
 * reused megabyte at a time with backpressure, and stops sending once an answer arrives.
 */
function sendHuge(port: number, path: string, total: number, mode: 'length' | 'chunked'): Promise<{ response: string; sent: number; ms: number }> {
  const t0 = performance.now();
  const block = Buffer.alloc(MB, 'a');
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let sent = 0;
    let answered = false;
    const finish = (): void => resolve({ response, sent, ms: performance.now() - t0 });
    socket.on('data', (d) => {
      response += d.toString('latin1');
      answered = true;
    });
    socket.on('error', () => {
      /* the simulator closes the connection after its refusal */
    });
    socket.on('close', finish);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      (mode === 'length' ? `Content-Length: ${total}\r\n\r\n` : 'Transfer-Encoding: chunked\r\n\r\n');
    socket.write(head);
    const pump = (): void => {
      while (!answered && !socket.destroyed && sent < total) {
        let ok = true;
        if (mode === 'chunked') ok = socket.write(`${block.length.toString(16)}\r\n`);
        ok = socket.write(block) && ok;
        if (mode === 'chunked') ok = socket.write('\r\n') && ok;
        sent += block.length;
        if (!ok) return void socket.once('drain', pump);
      }
      if (!answered && sent >= total && mode === 'chunked') socket.write('0\r\n\r\n');
    };
    socket.once('connect', pump);
  });
}

const status = (raw: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const bodyOf = (raw: string): string => raw.slice(raw.indexOf('\r\n\r\n') + 4);

test.describe('bodies are bounded', () => {
  for (const mode of ['length', 'chunked'] as const) {
    test(`a 64 MB body (${mode === 'length' ? 'content-length' : 'chunked'}) is answered 413 with the error body, unread, and memory does not grow by it`, async () => {
      const { sim, log, port } = await startSystem();
      try {
        const before = process.memoryUsage().rss;
        const { response, sent, ms } = await sendHuge(port, `${EDIT}?apiKey=${KEY}`, 64 * MB, mode);
        const grown = process.memoryUsage().rss - before;
        console.log(`413 (${mode}): ${Math.round(ms)} ms, ${(sent / MB).toFixed(0)} MB sent by the client before the answer, rss +${(grown / MB).toFixed(1)} MB`);
        // The answer as the client read it. The simulator closes the connection with the client's
        // bytes unread, so TCP may reset it, and a reset can discard an answer the client had not
        // read yet (seen once under the self-test's full load): then the log alone shows the 413.
        if (response !== '') {
          expect(status(response)).toBe(413);
          expect(response.toLowerCase()).toContain('connection: close');
          expect(JSON.parse(bodyOf(response))).toEqual({ success: false, errorMsg: expect.stringMatching(/larger than/) });
        }
        expect(sent).toBeLessThan(64 * MB);
        expect(grown).toBeLessThan(32 * MB);
        // Kept as evidence: the size (declared, or read so far) and the first bytes.
        await expect.poll(() => log.all().length).toBe(1);
        const x = log.all()[0]!;
        expect(x.label).toBe('edit (body too large)');
        expect(x.response?.status).toBe(413);
        expect(x.request.truncated).toBe(true);
        if (mode === 'length') expect(x.request.bytes).toBe(64 * MB);
        else expect(x.request.bytes).toBeGreaterThan(DEFAULT_LIMITS.maxRequestBytes);
        expect(x.request.body?.startsWith('aaaa')).toBe(mode === 'chunked' ? true : x.request.body !== '');
        expect(x.error).toMatch(/limit/);
        expect(sim.calls).toEqual([]);
        // The simulator still answers.
        const next = await fetch(`${sim.url()}/api/credentials?apiKey=${KEY}`);
        expect(next.status).toBe(200);
      } finally {
        await sim.stop();
      }
    });
  }

  test('the limit is a setting; the gateway refuses with its own error body', async () => {
    const { sim, port } = await startSystem({ maxRequestBytes: 4096 });
    const { gw, client, base } = await startGateway();
    try {
      const small = await fetch(`${sim.url()}${EDIT}?apiKey=${KEY}`, { method: 'POST', body: new URLSearchParams({ integrationModule: 'x'.repeat(5000) }) });
      expect(small.status).toBe(413);
      expect(port).toBeGreaterThan(0);
      const gwPort = Number(new URL(base).port);
      const { response } = await sendHuge(gwPort, '/api/bot/v1/messages', 16 * MB, 'length');
      expect(status(response)).toBe(413);
      expect(JSON.parse(bodyOf(response))).toEqual({ errors: [expect.stringMatching(/larger than the limit of 4194304 bytes/)] });
    } finally {
      await sim.stop();
      await gw.stop();
      await client.close();
    }
  });
});

test.describe('slow and stuck connections are bounded', () => {
  test('connections that never finish a request do not keep stop() from returning', async () => {
    const { sim, port } = await startSystem();
    const sockets: net.Socket[] = [];
    const open = (data: string): Promise<void> =>
      new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => s.write(data, () => resolve()));
        s.on('error', () => undefined);
        sockets.push(s);
      });
    await open('POST /api/v5/integration-modules/x/edit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le'); // half the headers
    await open(`POST ${EDIT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\napiKey=`); // half the body
    await open(''); // nothing at all
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    await sim.stop();
    const ms = performance.now() - t0;
    console.log(`stop() with 3 stalled connections: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(2000);
    await expect.poll(() => sockets.every((s) => s.destroyed || s.readableEnded)).toBe(true);
    for (const s of sockets) s.destroy();
  });

  test('connections on which a request never completed are counted, at the header timeout and while still open; a request that is not HTTP is counted as malformed', async () => {
    const { sim, port } = await startSystem({ headersTimeoutMs: 400, requestTimeoutMs: 60_000 });
    const sockets: net.Socket[] = [];
    const open = (data: string): Promise<net.Socket> =>
      new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => (data ? s.write(data, () => resolve(s)) : resolve(s)));
        s.on('error', () => undefined);
        sockets.push(s);
      });
    try {
      // A whole request on a kept-alive connection, and a connection that sends nothing: no trouble.
      expect((await fetch(`${sim.url()}/api/credentials?apiKey=${KEY}`)).status).toBe(200);
      await open('');
      // Half the headers, then half a body: both unfinished while open.
      const halfHeaders = await open(`GET /api/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fo`);
      await open(`POST ${EDIT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\napiKey=`);
      await expect.poll(() => sim.connectionTrouble()).toEqual({ stalled: 2, malformed: 0 });
      // The header timeout drops the first (408) and it stays counted.
      const answer = await new Promise<string>((resolve) => {
        let got = '';
        halfHeaders.on('data', (d) => (got += d.toString()));
        halfHeaders.on('close', () => resolve(got));
      });
      expect(answer === '' || status(answer) === 408).toBe(true);
      expect(sim.connectionTrouble()).toEqual({ stalled: 2, malformed: 0 });
      // Half the headers, then a reset by the module: a stalled connection, not a malformed request.
      const reset = await open(`GET /api/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fo`);
      await expect.poll(() => sim.connectionTrouble()).toEqual({ stalled: 3, malformed: 0 });
      reset.resetAndDestroy();
      await new Promise((r) => setTimeout(r, 200));
      expect(sim.connectionTrouble()).toEqual({ stalled: 3, malformed: 0 });
      // Not HTTP at all: answered 400 and counted as malformed.
      const garbage = await open('\x16\x03\x01 not http at all\r\n\r\n');
      const refused = await new Promise<string>((resolve) => {
        let got = '';
        garbage.on('data', (d) => (got += d.toString()));
        garbage.on('close', () => resolve(got));
      });
      expect(status(refused)).toBe(400);
      expect(sim.connectionTrouble()).toEqual({ stalled: 3, malformed: 1 });
    } finally {
      for (const s of sockets) s.destroy();
      await sim.stop();
    }
  });

  test('a request that stalls past the request timeout is dropped and kept as evidence', async () => {
    const { sim, log, port } = await startSystem({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const closed = await new Promise<string>((resolve) => {
        let got = '';
        const s = net.connect(port, '127.0.0.1', () => s.write(`POST ${EDIT} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\napiKey=`));
        s.on('data', (d) => (got += d.toString()));
        s.on('error', () => undefined);
        s.on('close', () => resolve(got));
      });
      expect(closed === '' || status(closed) === 408).toBe(true);
      await expect.poll(() => log.all().map((x) => x.label)).toContain('edit (incomplete request)');
      const x = log.all().find((e) => e.label === 'edit (incomplete request)')!;
      expect(x.error).toMatch(/before the request was complete \(7 bytes of the body received of 1000 declared\)/);
      expect(x.request.bytes).toBe(7);
      expect(sim.calls).toEqual([]);
      expect((await fetch(`${sim.url()}/api/credentials?apiKey=${KEY}`)).status).toBe(200);
    } finally {
      await sim.stop();
    }
  });
});

test.describe('hostile content is parsed safely', () => {
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);

  test('JSON nested 100 000 deep is answered 400 and the simulator answers the next request', async () => {
    const { sim } = await startSystem();
    try {
      const asField = await fetch(`${sim.url()}${EDIT}`, { method: 'POST', body: new URLSearchParams({ apiKey: KEY, integrationModule: deep(100_000) }) });
      expect(asField.status).toBe(400);
      expect(await asField.json()).toEqual({ success: false, errorMsg: 'integrationModule: JSON nested too deep: more than 512 levels' });
      const asBody = await fetch(`${sim.url()}${EDIT}?apiKey=${KEY}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"integrationModule":${deep(100_000)}}` });
      expect(asBody.status).toBe(400);
      expect(((await asBody.json()) as { errorMsg: string }).errorMsg).toMatch(/JSON nested too deep/);
      expect(sim.calls.map((c) => [c.endpoint, c.accepted, c.decodeError])).toEqual([
        ['edit', false, 'integrationModule: JSON nested too deep: more than 512 levels'],
        ['edit', false, 'body: JSON nested too deep: more than 512 levels'],
      ]);
      const next = await fetch(`${sim.url()}${EDIT}`, { method: 'POST', body: new URLSearchParams({ apiKey: KEY, integrationModule: JSON.stringify({ code: 'hostile', integrationCode: 'hostile', active: true, name: 'H', baseUrl: 'https://h.example.com', integrations: {} }) }) });
      expect(next.status).toBeLessThan(500);
      // Nested 512 deep is still read.
      const ok = await fetch(`${sim.url()}${EDIT}`, { method: 'POST', body: new URLSearchParams({ apiKey: KEY, integrationModule: deep(512) }) });
      expect(((await ok.json()) as { errorMsg?: string }).errorMsg).toBe('integrationModule must be a JSON object');
    } finally {
      await sim.stop();
    }
  });

  test("the suite's walkers and the redactor do not overflow on deep values", () => {
    const text = deep(200_000);
    expect(jsonDepth(text)).toBe(200_000);
    expect(() => parseJson(text)).toThrow(/nested too deep/);
    let value: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) value = { a: value, n: null };
    const clean = withoutNulls(value) as Record<string, unknown>;
    expect(Object.keys(clean)).toEqual(['a']);
    expect(pointers(value).length).toBe(400_001);
    expect(pointers({ a: [1, { 'b/c': 2 }], d: 3 })).toEqual(['', '/a', '/a/0', '/a/1', '/a/1/b~1c', '/d']);
    expect(withoutNulls({ a: [null, { b: null, c: 1 }], d: null })).toEqual({ a: [null, { c: 1 }] });
    const redactor = new Redactor();
    redactor.add('apiKey', KEY);
    const nested = `{"k":${'{"a":'.repeat(100_000)}"${KEY}"${'}'.repeat(100_000)}}`;
    expect(redactor.body(nested, 'application/json')).toContain('<redacted:apiKey>');
    expect(redactor.value(JSON.stringify(JSON.stringify(JSON.stringify({ k: KEY }))))).not.toContain(KEY);
  });

  test('a form field that is not valid UTF-8 is recorded and judged, not a crash', async () => {
    const { sim, log } = await startSystem();
    try {
      const module = encodeURIComponent('{"code":"hostile","name":"bad ').concat('%FF%FE', encodeURIComponent('","integrationCode":"hostile","active":true,"baseUrl":"https://h.example.com","integrations":{}}'));
      const res = await fetch(`${sim.url()}${EDIT}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=${KEY}&integrationModule=${module}` });
      expect(res.status).toBeLessThan(500);
      const call = sim.calls[0]!;
      expect(call.anomalies).toEqual(['parameter "integrationModule" is not valid UTF-8 (read with replacement characters)']);
      expect((call.payload as { name: string }).name).toBe('bad \uFFFD\uFFFD');
      expect(log.all()[0]!.request.body).toContain('%FF%FE');
      // Raw invalid bytes (not percent-encoded), multipart too.
      const raw = Buffer.concat([Buffer.from(`apiKey=${KEY}&note=`), Buffer.from([0xc3, 0x28])]);
      const res2 = await fetch(`${sim.url()}/api/v5/telephony/manager`, { method: 'GET' });
      expect(res2.status).toBe(401);
      const form = await fetch(`${sim.url()}/api/v5/telephony/call/event`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: raw });
      expect(form.status).toBe(400);
      expect(sim.calls.at(-1)!.anomalies).toEqual(['parameter "note" is not valid UTF-8 (read with replacement characters)']);
      const boundary = 'xYzBoundary';
      const multipart = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\n${KEY}\r\n--${boundary}\r\nContent-Disposition: form-data; name="event"\r\n\r\n{"phone":"`),
        Buffer.from([0xff]),
        Buffer.from(`"}\r\n--${boundary}--\r\n`),
      ]);
      const mp = await fetch(`${sim.url()}/api/v5/telephony/call/event`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: multipart });
      expect(mp.status).toBeLessThan(500);
      expect(sim.calls.at(-1)!.anomalies).toEqual(['parameter "event" is not valid UTF-8 (read with replacement characters)']);
    } finally {
      await sim.stop();
    }
  });

  test('a repeated parameter takes its last value, as the PHP system does, and is noted', async () => {
    const { sim } = await startSystem();
    try {
      const wrongThenRight = await fetch(`${sim.url()}/api/credentials`, { method: 'GET', headers: {} }).then(() =>
        fetch(`${sim.url()}${EDIT}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=wrong-key-000000&apiKey=${KEY}&integrationModule=%7B%7D` }),
      );
      expect(wrongThenRight.status).not.toBe(403);
      expect(sim.calls.at(-1)!.apiKeyValid).toBe(true);
      expect(sim.calls.at(-1)!.anomalies).toEqual(['parameter "apiKey" given more than once with different values: the last value is taken, as the PHP system does']);
      const rightThenWrong = await fetch(`${sim.url()}${EDIT}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `apiKey=${KEY}&apiKey=wrong-key-000000&integrationModule=%7B%7D` });
      expect(rightThenWrong.status).toBe(403);
      const first = JSON.stringify({ code: 'first' });
      const second = JSON.stringify({ code: 'second' });
      await fetch(`${sim.url()}${EDIT}`, { method: 'POST', body: new URLSearchParams([['apiKey', KEY], ['integrationModule', first], ['integrationModule', second]]) });
      const call = sim.calls.at(-1)!;
      expect((call.payload as { code: string }).code).toBe('second');
      expect(call.anomalies).toEqual(['parameter "integrationModule" given more than once with different values: the last value is taken, as the PHP system does']);
      // In the query string too.
      await fetch(`${sim.url()}/api/credentials?apiKey=wrong-key-000000&apiKey=${KEY}`);
      expect(sim.calls.at(-1)!.apiKeyValid).toBe(true);
      expect(sim.calls.at(-1)!.anomalies?.[0]).toMatch(/"apiKey" given more than once/);
    } finally {
      await sim.stop();
    }
  });
});

test.describe('WebSocket frames are bounded', () => {
  test('a 5 MB message on the bot socket closes it with 1009, kept as evidence; the gateway keeps running', async () => {
    const { gw, log, client, base } = await startGateway();
    try {
      const url = `${base.replace(/^http/, 'ws')}${BOT_WS_PATH}`;
      const ws = new WebSocket(url, { headers: { 'X-Bot-Token': BOT } });
      ws.on('error', () => undefined);
      await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('unexpected-response', () => reject(new Error('refused')))));
      const code = await new Promise<number>((resolve) => {
        ws.once('close', (c) => resolve(c));
        ws.send(Buffer.alloc(5 * MB, 'x').toString());
      });
      expect(code).toBe(1009);
      await expect.poll(() => gw.botConnections()[0]?.closedAt).toBeDefined();
      const conn = gw.botConnections()[0]!;
      expect(conn.closedBy).toBe('gateway');
      expect(conn.error).toMatch(/Max payload size exceeded/);
      expect(conn.received).toEqual([]);
      const refused = log.all().find((x) => x.label === 'bot websocket refused frame')!;
      expect(JSON.parse(refused.request.body!)).toMatchObject({ connection: conn.id, closeCode: 1009, maxPayload: MB });
      expect(log.all().some((x) => x.label === 'bot websocket close' && x.request.body!.includes('"code":1009'))).toBe(true);
      // The gateway keeps running: a new connection and an HTTP request.
      const again = new WebSocket(url, { headers: { 'X-Bot-Token': BOT } });
      await new Promise<void>((resolve) => again.once('open', () => resolve()));
      again.send('{"small":true}');
      await expect.poll(() => gw.botConnections()[1]?.received.length).toBe(1);
      // An upgraded connection is no longer HTTP: never counted as a request that did not complete.
      expect(gw.connectionTrouble()).toEqual({ stalled: 0, malformed: 0 });
      again.close();
      expect((await fetch(`${base}/api/bot/v1/nothing-here`)).status).toBe(404);
    } finally {
      await gw.stop();
      await client.close();
    }
  });
});
