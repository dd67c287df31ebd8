/**
 * Gateway file uploads up to the contract's largest template file (a 100 MB document; a video
 * is 16 MB): the upload routes take bodies up to `maxUploadBytes`, counted as they stream and
 * never held, and answer the file's size and type from the multipart part headers or the raw
 * body; past the limit, 413. Other routes keep `maxRequestBytes`.
 */
import net from 'node:net';
import { test, expect } from '@playwright/test';
import { DEFAULT_LIMITS } from '../../src/simulators/http.ts';
import { BOT, TRANSPORT, UUID, call, startGateway, type Gateway } from './gateway-harness.ts';

const MB = 1024 * 1024;
const UPLOAD = '/api/transport/v1/files/upload';

const port = (g: Gateway): number => Number(new URL(g.base).port);

let ctx: Gateway | undefined;
test.afterEach(async () => {
  await ctx?.stop();
  ctx = undefined;
});

interface Body {
  /** Bytes before the filler (multipart preamble and part headers). */
  prefix?: string;
  /** Filler bytes, sent one reused megabyte at a time. */
  size: number;
  /** Bytes after the filler (the closing delimiter). */
  suffix?: string;
}

/**
 * Sends a body on a raw connection (`Connection: close`, with a content-length or chunked), the
 * filler one reused megabyte at a time with backpressure, and stops sending once an answer
 * arrives. Resolves with the status and the JSON answer once the simulator closes.
 */
function send(port: number, path: string, headers: Record<string, string>, body: Body, mode: 'length' | 'chunked' = 'length'): Promise<{ status: number; json: any; sent: number }> {
  const block = Buffer.alloc(MB, 'v');
  const prefix = Buffer.from(body.prefix ?? '', 'latin1');
  const suffix = Buffer.from(body.suffix ?? '', 'latin1');
  const total = prefix.length + body.size + suffix.length;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let answered = false;
    let sent = 0;
    socket.on('data', (d: Buffer) => {
      received.push(d);
      answered = true;
    });
    socket.on('error', () => {
      /* the simulator closes the connection after a refusal */
    });
    socket.on('close', () => {
      const raw = Buffer.concat(received).toString('latin1');
      const [head = '', rest = ''] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
      const text = /transfer-encoding: chunked/i.test(head) ? dechunk(rest) : rest;
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), json: text ? JSON.parse(text) : undefined, sent });
    });
    const lines = Object.entries({ host: '127.0.0.1', connection: 'close', ...headers, ...(mode === 'length' ? { 'content-length': String(total) } : { 'transfer-encoding': 'chunked' }) });
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
    const write = (data: Buffer): boolean => {
      sent += data.length;
      if (mode === 'length') return socket.write(data);
      const size = socket.write(`${data.length.toString(16)}\r\n`);
      const payload = socket.write(data);
      return socket.write('\r\n') && size && payload;
    };
    let filled = 0;
    const pump = (): void => {
      if (sent === 0 && prefix.length > 0 && !write(prefix)) return void socket.once('drain', pump);
      while (!answered && !socket.destroyed && filled < body.size) {
        const part = block.subarray(0, Math.min(block.length, body.size - filled));
        filled += part.length;
        if (!write(part)) return void socket.once('drain', pump);
      }
      if (answered || socket.destroyed) return;
      if (suffix.length > 0) write(suffix);
      if (mode === 'chunked') socket.write('0\r\n\r\n');
    };
    socket.once('connect', pump);
  });
}

/** The payload of a chunked body. */
function dechunk(raw: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const eol = raw.indexOf('\r\n', at);
    const n = parseInt(raw.slice(at, eol), 16);
    if (!(n > 0)) return out;
    out += raw.slice(eol + 2, eol + 2 + n);
    at = eol + 2 + n + 2;
  }
}

/** A multipart body of one file part (as the Go clients write it): its preamble and closing delimiter. */
function multipart(type: string, filename: string): { contentType: string; prefix: string; suffix: string } {
  const boundary = 'b0undary-7c1e9f';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    prefix: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    suffix: `\r\n--${boundary}--\r\n`,
  };
}

test('a 16 MB video uploaded as multipart (with fields before and after the file part): 200 with its size and type, in the reply and in GET /files/{id}', async () => {
  ctx = await startGateway();
  const form = new FormData();
  form.append('kind', 'before the file');
  form.append('file', new Blob([Buffer.alloc(16 * MB, 1)], { type: 'video/mp4' }), 'clip.mp4');
  form.append('caption', 'after the file');
  const up = await call(ctx.base, 'POST', UPLOAD, { transport: TRANSPORT, raw: { type: 'multipart/form-data', data: form } });
  expect(up.status).toBe(200);
  expect(up.json).toMatchObject({ id: expect.stringMatching(UUID), size: 16 * MB, mime_type: 'video/mp4', type: 'video' });
  const got = await call(ctx.base, 'GET', `/api/transport/v1/files/${up.json.id}`, { transport: TRANSPORT });
  expect(got.json).toMatchObject({ id: up.json.id, size: 16 * MB, mime_type: 'video/mp4', type: 'video' });

  // The evidence keeps the first bytes and the real size.
  const x = ctx.log.all().find((e) => e.label === 'transport.file.upload')!;
  expect(x.response?.status).toBe(200);
  expect(x.request.bytes).toBeGreaterThan(16 * MB);
  expect(x.request.truncated).toBe(true);
  expect(x.request.body).toContain('filename="clip.mp4"');
  expect(ctx.gw.calls.find((c) => c.route === 'transport.file.upload')).toMatchObject({ accepted: true, status: 200 });
});

test('a 20 MB raw body (the older clients), chunked, to the Bot API: 200 with the body size and the request content type', async () => {
  ctx = await startGateway();
  const up = await send(port(ctx), '/api/bot/v1/files/upload', { 'x-bot-token': BOT, 'content-type': 'application/pdf' }, { size: 20 * MB }, 'chunked');
  expect(up.status).toBe(200);
  expect(up.json).toMatchObject({ size: 20 * MB, mime_type: 'application/pdf', type: 'file' });
  const got = await call(ctx.base, 'GET', `/api/bot/v1/files/${up.json.id}`, { bot: BOT });
  expect(got.json).toMatchObject({ id: up.json.id, size: 20 * MB, mime_type: 'application/pdf' });
  const x = ctx.log.all().find((e) => e.label === 'bot.file.upload')!;
  expect(x.request).toMatchObject({ bytes: 20 * MB, truncated: true });
});

test('small uploads read as before: a raw body and a multipart file part, whole', async () => {
  ctx = await startGateway();
  const raw = await call(ctx.base, 'POST', UPLOAD, { transport: TRANSPORT, raw: { type: 'image/png', data: Buffer.alloc(1000) } });
  expect(raw.json).toMatchObject({ size: 1000, mime_type: 'image/png', type: 'image' });
  const { contentType, prefix, suffix } = multipart('image/jpeg', 'a.jpg');
  const part = await send(port(ctx), UPLOAD, { 'x-transport-token': TRANSPORT, 'content-type': contentType }, { prefix, size: 2000, suffix });
  expect(part.json).toMatchObject({ size: 2000, mime_type: 'image/jpeg', type: 'image' });
  expect(ctx.log.all().filter((e) => e.label === 'transport.file.upload').every((e) => !e.request.truncated)).toBe(true);
});

test('past maxUploadBytes an upload is answered 413 with the error body, declared or chunked', async () => {
  ctx = await startGateway({ maxUploadBytes: 2 * MB });
  const { contentType, prefix, suffix } = multipart('video/mp4', 'big.mp4');
  const headers = { 'x-transport-token': TRANSPORT, 'content-type': contentType };
  for (const mode of ['length', 'chunked'] as const) {
    const up = await send(port(ctx), UPLOAD, headers, { prefix, size: 3 * MB, suffix }, mode);
    expect(up.status).toBe(413);
    expect(up.json).toEqual({ errors: [expect.stringMatching(/larger than (the limit of )?2097152 bytes/)] });
  }
  const refused = ctx.log.all().filter((e) => e.label === 'transport.file.upload (body too large)');
  expect(refused.length).toBe(2);
  expect(refused.every((e) => e.response?.status === 413 && e.request.truncated === true)).toBe(true);
  expect(ctx.gw.files.size).toBe(0);
  // Within the limit, the same route answers.
  const ok = await send(port(ctx), UPLOAD, headers, { prefix, size: MB, suffix });
  expect(ok.json).toMatchObject({ size: MB, mime_type: 'video/mp4' });
});

test('other routes keep maxRequestBytes: a 5 MB JSON body to messages is answered 413', async () => {
  ctx = await startGateway();
  expect(DEFAULT_LIMITS.maxRequestBytes).toBeLessThan(5 * MB);
  expect(DEFAULT_LIMITS.maxUploadBytes).toBe(105_906_176);
  const res = await send(port(ctx), '/api/transport/v1/messages', { 'x-transport-token': TRANSPORT, 'content-type': 'application/json' }, { size: 5 * MB });
  expect(res.status).toBe(413);
  expect(res.json).toEqual({ errors: [expect.stringMatching(/larger than the limit of 4194304 bytes/)] });
  expect(res.sent).toBeLessThan(5 * MB);
});

test('a 100 MB document uploaded as multipart: 200 with its size, and the memory of the process stays flat', async () => {
  test.setTimeout(60_000);
  ctx = await startGateway();
  const { contentType, prefix, suffix } = multipart('application/pdf', 'catalogue.pdf');
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  let up;
  try {
    up = await send(port(ctx), UPLOAD, { 'x-transport-token': TRANSPORT, 'content-type': contentType }, { prefix, size: 100 * MB, suffix });
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`100 MB upload: ${Math.round(performance.now() - t0)} ms, rss peak +${((peak - before) / MB).toFixed(1)} MB`);
  expect(up.status).toBe(200);
  expect(up.json).toMatchObject({ size: 100 * MB, mime_type: 'application/pdf', type: 'file' });
  expect(peak - before).toBeLessThan(60 * MB);
});
