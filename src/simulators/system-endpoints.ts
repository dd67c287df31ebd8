/**
 * The system simulator's endpoints as data: the route table (the contract's `/api/v5/...`
 * endpoints and the wire-profile section 8 calls), the API versions served, what the simulator
 * records of each call and of each accepted registration; and how it reads a request's API key,
 * its repeated parameters and the module JSON an edit call carried.
 */
import type { ErrorObject } from 'ajv';
import type { Exchange } from '../evidence/exchange.ts';
import type { InboundRequest } from './http.ts';

/** The endpoints of the system API, with the form field that holds JSON and its schema. */
export const SYSTEM_ENDPOINTS = {
  edit: { route: 'POST /api/v5/integration-modules/{code}/edit', field: 'integrationModule', schema: 'registration/integration-module.edit.json' },
  read: { route: 'GET /api/v5/integration-modules/{code}', field: undefined, schema: undefined },
  'calls.upload': { route: 'POST /api/v5/telephony/calls/upload', field: 'calls', schema: 'telephony/calls-upload.request.json' },
  manager: { route: 'GET /api/v5/telephony/manager', field: undefined, schema: 'telephony/manager.query.json' },
  'call.event': { route: 'POST /api/v5/telephony/call/event', field: 'event', schema: 'telephony/call-event.json' },
  tracking: { route: 'POST /api/v5/delivery/generic/{subcode}/tracking', field: 'statusUpdate', schema: 'delivery/tracking.request.json' },
  'update-invoice': { route: 'POST /api/v5/payment/update-invoice', field: 'updateInvoice', schema: 'payment/update-invoice.request.json' },
  'payment.check': { route: 'POST /api/v5/payment/check', field: 'check', schema: 'payment/check.request.json' },
  // Wire profile section 8: called by official modules besides the contract.
  credentials: { route: 'GET /api/credentials', field: undefined, schema: undefined },
  'api-versions': { route: 'GET /api/api-versions', field: undefined, schema: undefined },
  'system-info': { route: 'GET /api/system-info', field: undefined, schema: undefined },
  reference: { route: 'GET /api/v5/reference/{book}', field: undefined, schema: undefined },
  users: { route: 'GET /api/v5/users', field: undefined, schema: undefined },
  'store.products': { route: 'GET /api/v5/store/products', field: undefined, schema: undefined },
} as const;

export type SystemEndpoint = keyof typeof SYSTEM_ENDPOINTS;

/** How the module passed its API key. */
export type ApiKeyVia = 'form' | 'query' | 'header';

/** One request of the module to the system, decoded and judged against its schema. */
export interface InboundCall {
  endpoint: SystemEndpoint;
  exchange: Exchange;
  params: Record<string, string>;
  apiKeyVia: ApiKeyVia[];
  /** The decoded JSON of the endpoint's form field (or the query, for GET). */
  payload?: unknown;
  /** Why the payload could not be decoded (missing field, not JSON). */
  decodeError?: string;
  /** Schema errors of the payload (empty when it conforms). */
  schemaErrors: ErrorObject[];
  /** Whether the simulator accepted the call. */
  accepted: boolean;
  /** The API version of the path (`v5`; `v3`/`v4` are served as the legacy API; others answer 404). */
  version: string;
  /** True when an API key was given and it is the run's key. */
  apiKeyValid: boolean;
  /** For `edit`: the module JSON the call carried, also when the call was refused (a JSON body, a wrong version). */
  attempted?: Record<string, unknown>;
  /**
   * What was odd in how the parameters came, judged rather than crashed on: a parameter that is
   * not valid UTF-8 (decoded with replacement characters), a parameter given more than once
   * (the last value is taken, as the PHP system does).
   */
  anomalies?: string[];
}

/** API versions the system serves: v5, and the legacy v3 and v4 (document, Versioning 2). */
export const SERVED_VERSIONS = ['v5', 'v4', 'v3'] as const;

/** A registration as received on `edit`. */
export interface Registration {
  code: string;
  module: Record<string, unknown>;
  /** The edit call it came with (absent for a registration given in the configuration, remote mode). */
  call?: InboundCall;
  /** Kinds declared under `integrations`. */
  kinds: string[];
  /** The tokens handed out for the gateway. */
  tokens: { mgTransport?: string; mgBot?: string };
}

export function apiKeyOf(req: InboundRequest): { key?: string; via: ApiKeyVia[] } {
  const via: ApiKeyVia[] = [];
  let key: string | undefined;
  // A repeated name takes its last value, as PHP's $_POST/$_GET do (the call notes the repetition).
  const form = req.form?.getAll('apiKey').at(-1);
  const query = req.url.searchParams.getAll('apiKey').at(-1);
  // Parameters are read from the body's form and from the query string alike.
  const header = req.headers['x-api-key'];
  if (form) (via.push('form'), (key = form));
  if (query) (via.push('query'), (key ??= query));
  if (header) (via.push('header'), (key ??= header));
  return key === undefined ? { via } : { key, via };
}

/** How many different values a repeated parameter had (body form and query string). */
export function distinctValues(req: InboundRequest, name: string): number {
  return new Set([...(req.form?.getAll(name) ?? []), ...req.url.searchParams.getAll(name)]).size;
}


/** The module JSON an edit call carried: the decoded form field, or a JSON body (itself, or its `integrationModule`). */
export function attemptedModule(payload: unknown, body: unknown): Record<string, unknown> | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObject(payload)) return payload;
  if (!isObject(body)) return undefined;
  if (isObject(body.integrationModule)) return body.integrationModule;
  if (typeof body.integrationModule === 'string') {
    try {
      const parsed: unknown = JSON.parse(body.integrationModule);
      if (isObject(parsed)) return parsed;
    } catch {
      return undefined;
    }
  }
  return 'integrations' in body || 'code' in body ? body : undefined;
}
