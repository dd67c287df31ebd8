/**
 * What the template checks read (`templates.ts`): the module's template calls as views
 * (`templateCallOf` for a call the gateway routed, `offRouteCallOf` for a request to a template
 * path by a method it does not have), a template sequence's step, and the subject of a check.
 * The template sequences (`src/properties/template-sequences.ts`) and the session-end judgement
 * (`src/run/template-calls.ts`) build their subjects with these.
 */
import type { ErrorObject } from 'ajv';
import type { TemplateJudgement, TemplateState, VerificationStatus } from '../../contract/template-machine.ts';
import type { GatewayCall } from '../../simulators/gateway-endpoints.ts';
import type { Exchange } from '../../evidence/exchange.ts';

/** One template call of the module, as the checks read it. */
export interface TemplateCallView {
  exchange: string;
  method: string;
  /** The path below `/api/transport/v1` (the document's form). */
  path: string;
  /**
   * `update`, `report`, `delete` (the routes of the profile), `list` (`GET /templates`), or
   * `offRoute`: a method the template path does not have (answered 405 or 404).
   */
  kind: 'update' | 'report' | 'delete' | 'list' | 'offRoute';
  channelId?: number;
  code?: string;
  status: number;
  accepted: boolean;
  payload?: unknown;
  decodeError?: string;
  /** The schema the payload was validated against, and its errors. */
  schema?: string;
  schemaErrors: Array<Pick<ErrorObject, 'instancePath' | 'keyword' | 'params' | 'message'>>;
  /** What the template table made of it (the gateway's judgement). */
  judgement?: TemplateJudgement;
}

/** A step of a template sequence: what it asked of the module, and the module's template calls meanwhile. */
export interface TemplateStepView {
  op: 'create' | 'verdict' | 'report' | 'resubmit' | 'edit' | 'delete';
  channelId: number;
  code?: string;
  /** The template's state before the step (`new`: not yet known). */
  before: TemplateState;
  /** A verdict step: what the provider decided (told through `transport.templateVerdict`). */
  asked?: { verdict: 'approved' | 'rejected'; reason?: string };
  /** A report step: the template the provider created (told through `transport.templateReport`), with its code and status. */
  report?: { code: string; status: VerificationStatus };
  /** The trigger's answer, when the step fired one. */
  trigger?: { exchange: string; status?: number; failed?: string };
  /** The template's state at the gateway after the step. */
  after?: TemplateState;
  calls: TemplateCallView[];
  waitedMs: number;
}

/** What a template check judges: calls (of a step, or of the session), with the step that asked for them. */
export interface TemplateSubject {
  calls: TemplateCallView[];
  step?: TemplateStepView;
}

const TEMPLATE_PATH = /^(?:\/api\/transport\/v1)?\/channels\/([^/]+)\/templates(?:\/([^/]+))?\/?$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const KIND: Record<string, TemplateCallView['kind']> = {
  'transport.template.create': 'report',
  'transport.template.update': 'update',
  'transport.template.delete': 'delete',
  'transport.templates.list': 'list',
};

/** A recorded gateway call on a template route, as the checks read it; undefined for other routes and for 401/429 (other checks' refusals). */
export function templateCallOf(c: GatewayCall): TemplateCallView | undefined {
  const kind = KIND[c.route];
  if (!kind || kind === 'list') return undefined;
  if (c.tokenKind === undefined || c.status === 429) return undefined;
  const url = new URL(c.exchange.request.url ?? '/', 'http://gateway.invalid');
  const m = TEMPLATE_PATH.exec(url.pathname);
  const code = m?.[2] === undefined ? (isObj(c.payload) && typeof c.payload.code === 'string' ? c.payload.code : undefined) : decodeURIComponent(m[2]);
  return {
    exchange: c.exchange.id,
    method: c.exchange.request.method ?? '',
    path: url.pathname.replace(/^\/api\/transport\/v1/, ''),
    kind,
    ...(m ? { channelId: Number(m[1]) } : {}),
    ...(code !== undefined ? { code } : {}),
    status: c.status,
    accepted: c.accepted,
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
    ...(c.decodeError ? { decodeError: c.decodeError } : {}),
    ...(kind === 'report' ? { schema: 'chat/transport.template-create.request.json' } : kind === 'update' ? { schema: 'chat/transport.template-update.request.json' } : {}),
    schemaErrors: c.schemaErrors.map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params, ...(e.message ? { message: e.message } : {}) })),
    ...(c.template ? { judgement: c.template } : {}),
  };
}

/** A request to a template path with a method it does not have (answered 404/405), as the checks read it; undefined for other paths. */
export function offRouteCallOf(x: Exchange): TemplateCallView | undefined {
  const url = new URL(x.request.url ?? '/', 'http://gateway.invalid');
  const m = TEMPLATE_PATH.exec(url.pathname);
  if (!m || x.direction !== 'module->gateway') return undefined;
  const status = x.response?.status ?? 0;
  if (status === 401 || status === 429) return undefined;
  let payload: unknown;
  try {
    payload = x.request.body ? (JSON.parse(x.request.body) as unknown) : undefined;
  } catch {
    payload = undefined;
  }
  return {
    exchange: x.id,
    method: x.request.method ?? '',
    path: url.pathname.replace(/^\/api\/transport\/v1/, ''),
    kind: 'offRoute',
    channelId: Number(m[1]),
    ...(m[2] !== undefined ? { code: decodeURIComponent(m[2]) } : {}),
    status,
    accepted: status > 0 && status < 300,
    ...(payload !== undefined ? { payload } : {}),
    schemaErrors: [],
  };
}
