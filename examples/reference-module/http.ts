/**
 * The module's HTTP plumbing: a tiny router on node:http, body/form/query decoding, the reply
 * helpers, and callback authentication by `clientId` (wire-profile section 1: the clientId is
 * the only credential of a callback; missing -> 401, unknown -> 403, and no effect).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { replyRewrite, type FaultSet } from './faults.ts';
import { log } from './log.ts';

/** Most bytes of a request body read. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  url: URL;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body decoded as a form (form content type, or no content type). */
  form: URLSearchParams | undefined;
  /** Values of `{name}` segments of the route. */
  params: Record<string, string>;
}

export type RouteHandler = (ctx: Ctx) => void | Promise<void>;

/** An error answered as `{success: false, errorMsg}` with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Wrong input: the message names the field. */
export const badRequest = (message: string): HttpError => new HttpError(400, message);
/** An unknown entity (delivery, shipment, payment, call...). */
export const notFound = (message: string): HttpError => new HttpError(404, message);

/** How "not found" refusals read: `deliveryId "x" is unknown`, or under variation `not-found-quotes-value` `delivery x not found` (the value, no key). */
export const unknownIdStyle = { quotesValue: false };
export const unknownIdMessage = (what: string, key: string, id: string): string => (unknownIdStyle.quotesValue ? `${what} ${id} not found` : `${key} ${JSON.stringify(id)} is unknown`);

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, errorMsg: string): void {
  sendJson(res, status, { success: false, errorMsg });
}

/** `{success: true}` plus `result` when there is one. */
export function sendSuccess(res: ServerResponse, result?: unknown): void {
  sendJson(res, 200, result === undefined ? { success: true } : { success: true, result });
}

export function sendBytes(res: ServerResponse, status: number, contentType: string, body: Buffer, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': body.length, ...headers });
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, contentType: string, body: string): void {
  sendBytes(res, status, contentType, Buffer.from(body, 'utf8'));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

interface Route {
  methods: ReadonlySet<string>;
  pattern: RegExp;
  keys: string[];
  handler: RouteHandler;
}

/** Routes `METHOD /path/{param}`; unknown path -> 404, wrong method -> 405 (error body). */
export class Router {
  private readonly routes: Route[] = [];

  /** `answerDelayMs`: every request waits this long before it is handled (env ANSWER_DELAY_MS: a slow module, for the benchmark). */
  constructor(private readonly answerDelayMs = 0) {}

  add(methods: string | readonly string[], path: string, handler: RouteHandler): this {
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, k: string) => (keys.push(k), '([^/]+?)'))}$`,
    );
    const list = typeof methods === 'string' ? [methods] : methods;
    this.routes.push({ methods: new Set(list.map((m) => m.toUpperCase())), pattern, keys, handler });
    return this;
  }

  /** `preread`: the body already read (a module of several accounts reads it to know whose request it is). */
  async dispatch(req: IncomingMessage, res: ServerResponse, preread?: Buffer): Promise<void> {
    if (this.answerDelayMs > 0) await new Promise((r) => setTimeout(r, this.answerDelayMs));
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://module.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    try {
      const matching = this.routes
        .map((r) => ({ r, m: r.pattern.exec(path) }))
        .filter((x): x is { r: Route; m: RegExpExecArray } => x.m !== null);
      if (matching.length === 0) throw notFound(`unknown path ${path}`);
      const hit = matching.find((x) => x.r.methods.has(method));
      if (!hit) {
        const allow = [...new Set(matching.flatMap((x) => [...x.r.methods]))].join(', ');
        res.setHeader('allow', allow);
        throw new HttpError(405, `method ${method} is not allowed on ${path} (allowed: ${allow})`);
      }
      const body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : (preread ?? (await readBody(req)));
      const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
      const isForm = contentType.includes('application/x-www-form-urlencoded') || (contentType === '' && body.length > 0);
      const params: Record<string, string> = {};
      hit.r.keys.forEach((k, i) => (params[k] = decodeURIComponent(hit.m[i + 1] ?? '')));
      const ctx: Ctx = {
        req,
        res,
        method,
        path,
        url,
        query: url.searchParams,
        headers: req.headers,
        body,
        form: isForm ? new URLSearchParams(body.toString('utf8')) : undefined,
        params,
      };
      await hit.r.handler(ctx);
      if (!res.headersSent) sendError(res, 500, 'the handler sent no reply');
    } catch (e) {
      if (e instanceof HttpError) {
        sendError(res, e.status, e.message);
      } else {
        log(`error while handling ${method} ${path}`, { error: (e as Error).stack ?? String(e) });
        sendError(res, 500, 'internal error');
      }
    }
  }
}

/**
 * The clientId a request carries, whatever it is (callback, webhook, trigger, page): form field,
 * query parameter, or the transport webhook's `ClientId` header; with the body, read once.
 */
export async function carriedClientId(req: IncomingMessage): Promise<{ clientId: string | undefined; body: Buffer | undefined }> {
  const method = (req.method ?? 'GET').toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  const form = body && (contentType.includes('application/x-www-form-urlencoded') || (contentType === '' && body.length > 0)) ? new URLSearchParams(body.toString('utf8')) : undefined;
  const query = new URL(req.url ?? '/', 'http://module.invalid').searchParams;
  const header = req.headers.clientid;
  const clientId = form?.get('clientId') || query.get('clientId') || (typeof header === 'string' ? header : undefined) || undefined;
  return { clientId, body };
}

/** The clientId a callback presents: form field first, then query parameter. */
export function presentedClientId(ctx: Ctx): string | undefined {
  const v = ctx.form?.get('clientId') ?? ctx.query.get('clientId');
  return v === null || v === undefined || v === '' ? undefined : v;
}

/** Outcome of checking a callback's credential. */
export type AuthOutcome = { ok: true; clientId: string; known: boolean } | { ok: false; status: 401 | 403; errorMsg: string };

/** Callback authentication by `clientId`. */
export class CallbackAuth {
  constructor(
    private readonly clientId: string,
    readonly faults: FaultSet,
  ) {}

  /**
   * Judges the presented clientId. `acceptUnknown` lets a (faulty) caller act on an unknown
   * clientId; a missing one is always refused.
   */
  /** Until this time (ms since epoch) the module still stores its account and refuses every callback (variation `ready-late`). */
  notReadyUntil = 0;

  judge(presented: string | undefined, options: { acceptUnknown?: boolean } = {}): AuthOutcome {
    if (Date.now() < this.notReadyUntil) return { ok: false, status: 403, errorMsg: 'not ready: the account is still being stored' };
    if (this.faults.has('callbacks-refuse-all')) return { ok: false, status: 403, errorMsg: 'clientId is not recognised' };
    if (presented === undefined) return { ok: false, status: 401, errorMsg: 'clientId is missing' };
    if (presented === this.clientId) return { ok: true, clientId: presented, known: true };
    if (options.acceptUnknown) return { ok: true, clientId: presented, known: false };
    return { ok: false, status: 403, errorMsg: 'clientId is unknown' };
  }

  /** Judges the callback's clientId (form or query); throws the refusal. */
  require(ctx: Ctx): string {
    const outcome = this.judge(presentedClientId(ctx));
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.errorMsg);
    return outcome.clientId;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object decoded from a form field. */
export type Payload = Record<string, unknown>;

/** Decodes the JSON object held by form field `field`; errors name the field. */
export function jsonField(ctx: Ctx, field: string): Payload {
  const raw = ctx.form?.get(field);
  if (raw === null || raw === undefined) throw badRequest(`${field} is missing`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw badRequest(`${field} is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${field} must be a JSON object`);
  return value as Payload;
}

/** What a callback handler answers. */
export type CallbackReply =
  | { kind: 'success'; result?: unknown }
  | { kind: 'bytes'; contentType: string; body: Buffer; filename?: string }
  /** Any JSON answer (fault variants that answer in a wrong form). */
  | { kind: 'json'; status: number; body: unknown };

export const success = (result?: unknown): CallbackReply => (result === undefined ? { kind: 'success' } : { kind: 'success', result });

export function sendReply(res: ServerResponse, reply: CallbackReply): void {
  if (reply.kind === 'success') return sendSuccess(res, reply.result);
  if (reply.kind === 'json') return sendJson(res, reply.status, reply.body);
  const headers: Record<string, string> = {};
  if (reply.filename) headers['content-disposition'] = `attachment; filename="${reply.filename}"`;
  sendBytes(res, 200, reply.contentType, reply.body, headers);
}

export type PostHandler = (payload: Payload, ctx: Ctx) => CallbackReply | Promise<CallbackReply>;
export type GetHandler = (query: Record<string, string>, ctx: Ctx) => CallbackReply | Promise<CallbackReply>;

/**
 * A POST callback: `clientId` plus one field named after the action holding JSON. Several
 * actions may be served at one path; the field present tells which one is called.
 */
export function postCallback(auth: CallbackAuth, handlers: Record<string, PostHandler>, options: { errorsAs200?: readonly string[] } = {}): RouteHandler {
  const fields = Object.keys(handlers);
  return async (ctx) => {
    auth.require(ctx);
    const field = fields.find((f) => ctx.form?.has(f)) ?? fields[0]!;
    const handler = handlers[field]!;
    try {
      const payload = jsonField(ctx, field);
      const reply = await handler(payload, ctx);
      // A fault of REPLY_FAULTS (faults.ts) changes this action's success result.
      const rewrite = reply.kind === 'success' && isObject(reply.result) ? replyRewrite(auth.faults, field) : undefined;
      sendReply(ctx.res, rewrite && reply.kind === 'success' ? { kind: 'success', result: rewrite(reply.result as Record<string, unknown>) } : reply);
    } catch (e) {
      // The document's form of an error (Errors 1: HTTP 200 with the error body) for the actions
      // named; the others keep the 4xx that real modules use and the wire profile accepts.
      if (e instanceof HttpError && e.status >= 400 && e.status < 500 && options.errorsAs200?.includes(field)) return sendJson(ctx.res, 200, { success: false, errorMsg: e.message });
      throw e;
    }
  };
}

/** A GET callback: `clientId` and the parameters in the query. */
export function getCallback(auth: CallbackAuth, handler: GetHandler): RouteHandler {
  return async (ctx) => {
    auth.require(ctx);
    const query: Record<string, string> = {};
    for (const [k, v] of ctx.query) if (k !== 'clientId') query[k] = v;
    sendReply(ctx.res, await handler(query, ctx));
  };
}

/** Runs `fn` after the reply has been written (used to report a change once it is answered). */
export function afterReply(ctx: Ctx, fn: () => Promise<void>): void {
  const run = (): void => {
    fn().catch((e: unknown) => log('after-reply task failed', { error: (e as Error).message }));
  };
  if (ctx.res.writableFinished) run();
  else ctx.res.once('finish', run);
}
