/**
 * What the simulators' HTTP plumbing shares: the request a route receives (decoded: forms,
 * query, JSON, and what was odd in them), the answer it gives, and the bounds on what a module may
 * send (`limits`). The server is `http-server.ts`, the bounded reading of a body `http-body.ts`,
 * its decoding `http-decode.ts`.
 */
import { RECORDED_BODY_LIMIT } from '../evidence/exchange.ts';

export interface InboundRequest {
  method: string;
  path: string;
  url: URL;
  headers: Record<string, string>;
  /** The body; for an upload route (`RouteOptions.upload`) only its first bytes (see `upload`). */
  body: Buffer;
  /**
   * For an upload route: the size of the body as received and its last bytes. The body is
   * counted as it streams, never held whole: `body` keeps its first `UPLOAD_HEAD_BYTES`.
   */
  upload?: { size: number; tail: Buffer };
  /**
   * The body decoded as a form, when it is `application/x-www-form-urlencoded` or
   * `multipart/form-data` (file parts give their file name).
   */
  form?: URLSearchParams;
  /** How the body was encoded, as the content type says. */
  encoding: BodyEncoding;
  /** Why a body that claims to be a form or JSON could not be read. */
  bodyError?: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  params: Record<string, string>;
  /**
   * Parameters (of the body's form or of the query string) whose bytes are not valid UTF-8: they
   * were decoded with replacement characters (U+FFFD) and are judged as such.
   */
  invalidUtf8?: string[];
  /**
   * Parameters given more than once in the body's form or in the query string. The system is
   * PHP, whose `$_POST`/`$_GET` keep the LAST value of a repeated name: `param` does the same.
   */
  duplicated?: string[];
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type BodyEncoding = 'none' | 'urlencoded' | 'multipart' | 'json' | 'other';

/** Key and certificate (PEM) of a simulator that serves HTTPS. */
export interface TlsMaterial {
  key: string;
  cert: string;
}

export type Handler = (req: InboundRequest) => Answer | Promise<Answer>;

/** How a route reads its body. */
export interface RouteOptions {
  /**
   * A file upload: the body may be up to `maxUploadBytes` (not `maxRequestBytes`) and is counted
   * as it streams, not buffered; the handler gets its first and last bytes and its size
   * (`InboundRequest.upload`).
   */
  upload?: boolean;
}

/**
 * What a module may send to a simulator before it is refused, and how long the simulators wait
 * for it (run configuration `limits`). Above anything the contract needs; a module cannot make
 * the suite buffer gigabytes or wait forever.
 */
export interface ServerLimits {
  /** Most bytes of a request body read (a file upload: `maxUploadBytes`); a larger body is answered 413 without reading it whole. */
  maxRequestBytes: number;
  /**
   * Most bytes of a file upload body (routes with `upload`): the contract's largest template file
   * (a 100 MB document) and room for the multipart framing. It is counted as it streams, never
   * held; a larger body is answered 413 like any other.
   */
  maxUploadBytes: number;
  /** Most bytes of a bot WebSocket message; a larger one closes the connection with 1009. */
  maxFrameBytes: number;
  /** Time to receive a request's headers before the connection is dropped (408). */
  headersTimeoutMs: number;
  /** Time to receive a whole request before the connection is dropped (408). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxRequestBytes: 4 * 1024 * 1024,
  maxUploadBytes: 101 * 1024 * 1024,
  maxFrameBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** First bytes of an upload body kept: the evidence keeps as many, and the multipart part headers are in them. */
export const UPLOAD_HEAD_BYTES = RECORDED_BODY_LIMIT;

/** Last bytes of an upload body kept: where a multipart file part ends (its closing delimiter, the parts after it). */
export const UPLOAD_TAIL_BYTES = 16 * 1024;

/** The limits with defaults for what is not given. */
export function serverLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(given) as Array<[keyof ServerLimits, number | undefined]>) if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = v;
  return out;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body, headers };
}

/** The error body the system and the gateway answer with. */
export const systemError = (status: number, errorMsg: string): Answer => json(status, { success: false, errorMsg });
