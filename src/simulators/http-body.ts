/**
 * Reading a request body off its connection within a byte limit: whole, or for a file upload
 * counted with only its first and last bytes kept; a body refused unread is sampled for the
 * evidence. Nothing past the limit is buffered.
 */
import type http from 'node:http';
import { RECORDED_BODY_LIMIT } from '../evidence/exchange.ts';

/** The declared `content-length` of a request, or -1 (none, or chunked). */
export function declaredLength(req: http.IncomingMessage): number {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return -1;
  return Number(raw);
}

/**
 * Collects the first bytes of a body that is refused unread (at most what a report keeps), as
 * they arrive until the connection closes; the rest is dropped, never buffered.
 */
export function sampleBody(req: http.IncomingMessage): () => Buffer {
  const chunks: Buffer[] = [];
  let kept = 0;
  req.on('data', (chunk: Buffer) => {
    if (kept >= RECORDED_BODY_LIMIT) return;
    const part = chunk.subarray(0, RECORDED_BODY_LIMIT - kept);
    chunks.push(Buffer.from(part));
    kept += part.length;
  });
  req.on('error', () => {
    /* the connection is closed after the refusal */
  });
  return () => Buffer.concat(chunks);
}

export interface ReadBody {
  body: Buffer;
  /** Bytes received (beyond `body` when too large, or when only the first bytes are kept). */
  size: number;
  /** The last bytes received, when kept (`keep.tail`); else empty. */
  tail: Buffer;
  tooLarge: boolean;
  /** The connection closed before the body was complete. */
  aborted: boolean;
}

/**
 * Reads a body up to `max` bytes. Past it, reading stops (the stream is paused, nothing more is
 * buffered) and the caller answers 413 and closes the connection. With `keep`, the body is
 * counted rather than held: only its first `keep.head` bytes (`body`) and its last `keep.tail`
 * bytes (`tail`) are kept, whatever its size.
 */
export function readBody(req: http.IncomingMessage, max: number, keep?: { head: number; tail: number }): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let tail = Buffer.alloc(0);
    let size = 0;
    let done = false;
    const finish = (result: Omit<ReadBody, 'body' | 'size' | 'tail'>): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve({ body: Buffer.concat(chunks), size, tail, ...result });
    };
    const onData = (chunk: Buffer): void => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        req.pause();
        finish({ tooLarge: true, aborted: false });
        return;
      }
      if (!keep) {
        chunks.push(chunk);
        return;
      }
      // Copies, so that no chunk of the stream is held by a slice of it.
      if (kept < keep.head) {
        const part = Buffer.from(chunk.subarray(0, keep.head - kept));
        chunks.push(part);
        kept += part.length;
      }
      tail = chunk.length >= keep.tail ? Buffer.from(chunk.subarray(chunk.length - keep.tail)) : Buffer.concat([tail.subarray(Math.max(0, tail.length + chunk.length - keep.tail)), chunk]);
    };
    req.on('data', onData);
    req.once('end', () => finish({ tooLarge: false, aborted: false }));
    req.once('error', () => finish({ tooLarge: false, aborted: true }));
    req.once('close', () => finish({ tooLarge: false, aborted: !req.complete }));
  });
}
