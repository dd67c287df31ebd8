/**
 * The gateway simulator's endpoints as one table (the Transport API's, then the Bot API's), their
 * handlers, and what the gateway records of each call a module makes to them.
 */
import type { ErrorObject } from 'ajv';
import type { Exchange } from '../evidence/exchange.ts';
import type { TemplateJudgement } from '../contract/template-machine.ts';
import type { RouteDef, RouteHandler } from './gateway-routing.ts';
import type { Api } from './gateway-records.ts';
import { TRANSPORT_HANDLERS, TRANSPORT_ROUTES } from './gateway-transport-api.ts';
import { BOT_HANDLERS, BOT_ROUTES } from './gateway-bot-api.ts';

/** The endpoints of the gateway, by label: the Transport API's, then the Bot API's. */
export const GATEWAY_ROUTES = { ...TRANSPORT_ROUTES, ...BOT_ROUTES } satisfies Record<string, RouteDef>;

export type GatewayRoute = keyof typeof GATEWAY_ROUTES;

/** The handler of each endpoint. */
export const GATEWAY_HANDLERS: Record<GatewayRoute, RouteHandler> = { ...TRANSPORT_HANDLERS, ...BOT_HANDLERS };

/** One request of a module to the gateway, decoded and judged against its schema. */
export interface GatewayCall {
  route: GatewayRoute;
  exchange: Exchange;
  /** The API the endpoint belongs to (and so the token header it needs). */
  api: Api;
  /** The kind of registered token the call authenticated with; undefined when refused with 401. */
  tokenKind?: Api;
  /** The token presented in the API's header, if any. */
  token?: string;
  /** The clientId of the module the token belongs to. */
  clientId?: string;
  params: Record<string, string>;
  /** True when a template path was called without the `/api/transport/v1` prefix (the document's form). */
  unprefixed: boolean;
  /** The decoded JSON body (the query, for GET). */
  payload?: unknown;
  /** Why the body could not be decoded (missing, not JSON). */
  decodeError?: string;
  /** Schema errors of the payload (empty when it conforms or has no schema). */
  schemaErrors: ErrorObject[];
  /** Whether the gateway accepted the call (status below 300). */
  accepted: boolean;
  /** The HTTP status the gateway answered with. */
  status: number;
  /** A template call: what the template table made of it (`src/contract/template-machine.ts`). */
  template?: TemplateJudgement;
}
