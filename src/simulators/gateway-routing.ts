/**
 * The plumbing shared by the two routing tables of the gateway simulator (Transport API and Bot
 * API): what a route is, what its handler receives, and the gateway's answers. The tables
 * themselves live in `gateway-transport-api.ts` and `gateway-bot-api.ts`.
 */
import { json, type Answer, type InboundRequest } from './http.ts';
import type { GatewayState } from './gateway-state.ts';
import type { Api } from './gateway-records.ts';

export const TRANSPORT_PREFIX = '/api/transport/v1';
export const BOT_PREFIX = '/api/bot/v1';
export const BOT_WS_PATH = `${BOT_PREFIX}/ws`;

/**
 * How the request body is read: a JSON object, raw bytes (a file upload: up to `maxUploadBytes`,
 * counted as it streams, its first bytes kept), or ignored.
 */
export type BodyKind = 'json' | 'raw' | 'none';

export interface RouteDef {
  api: Api;
  method: string;
  /** Path below the API prefix. */
  path: string;
  body: BodyKind;
  /** Schema the payload is judged against (none for the methods the contract does not name). */
  schema?: string;
  /** Also routed without the API prefix (the document's form of the template paths). */
  bare?: boolean;
}

/** What a route handler gets: the request, the authenticated token, the decoded body and the state. */
export interface RouteContext {
  req: InboundRequest;
  token: string;
  /** The JSON body (an empty object for routes without one). */
  body: Record<string, unknown>;
  state: GatewayState;
  /** The gateway address given to modules (file URLs are built on it). */
  gatewayUrl: string;
}

export type RouteHandler = (ctx: RouteContext) => Answer | Promise<Answer>;

/** A route of the Transport API (`X-Transport-Token`). */
export const transport = (method: string, path: string, body: BodyKind = 'none', extra: Partial<RouteDef> = {}): RouteDef => ({ api: 'transport', method, path, body, ...extra });

/** A route of the Bot API (`X-Bot-Token`). */
export const bot = (method: string, path: string, body: BodyKind = 'none', extra: Partial<RouteDef> = {}): RouteDef => ({ api: 'bot', method, path, body, ...extra });

/** The gateway's error answer: `{errors: ["..."]}` (wire profile section 6). */
export const errors = (status: number, ...messages: string[]): Answer => json(status, { errors: messages });

/**
 * A success answer. Always HTTP 200: the generated official clients decode a reply only on 200
 * and treat any other status as an error body.
 */
export const ok = (body: unknown = {}): Answer => json(200, body);

/** A positive integer from a JSON number or a numeric string; undefined otherwise. */
export const posInt = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** A query flag (`1`, `true`, `0`, `false`); undefined when absent or empty. */
export function flag(req: InboundRequest, name: string): boolean | undefined {
  const v = req.url.searchParams.get(name);
  if (v === null || v === '') return undefined;
  return v === '1' || v === 'true';
}

/** Every value of a query list parameter (`types=a&types=b`, `types[]=a`, `types=a,b`). */
export function listParam(req: InboundRequest, name: string): string[] {
  return [...req.url.searchParams.getAll(name), ...req.url.searchParams.getAll(`${name}[]`)].flatMap((v) => v.split(',')).filter((v) => v !== '');
}

/**
 * The common list parameters of both APIs, applied to items with a numeric `id`: `id` (one or
 * several), `since_id`, `until_id` (bounds, inclusive) and `limit` (default 100, as the clients
 * document).
 */
export function page<T extends { id: number }>(req: InboundRequest, items: T[]): T[] {
  const ids = listParam(req, 'id').map(Number).filter((n) => n > 0);
  const since = posInt(req.url.searchParams.get('since_id'));
  const until = posInt(req.url.searchParams.get('until_id'));
  const limit = posInt(req.url.searchParams.get('limit')) ?? 100;
  return items
    .filter((i) => ids.length === 0 || ids.includes(i.id))
    .filter((i) => since === undefined || i.id >= since)
    .filter((i) => until === undefined || i.id <= until)
    .slice(0, limit);
}
