/**
 * The one sender of callbacks: `send(callback, payload, {clientId})` makes the request the real
 * platform makes (address from the registration, method and wire form from the table, encoded by
 * `src/wire/forms.ts`) and records it as evidence.
 */
import type { CallbackClient, Reply } from '../client/callback-client.ts';
import type { Direction } from '../evidence/exchange.ts';
import { encodeActionForm, encodeQuery, encodeWebhook, FORM_CONTENT_TYPE, isRawField, webhookHeaders } from '../wire/forms.ts';
import { CALLBACKS, type CallbackName, type CallbackSpec } from './table.ts';

/** What the sender needs of a run: the client, and the module as it stands (its last accepted registration). */
export interface SendContext {
  client: CallbackClient;
  module(): Record<string, unknown> | undefined;
  /**
   * The method of a query callback where a setting gives it (the telephony URLs: wire profile
   * section 4, setting `telephony`); the table's method otherwise. A query callback sent with
   * POST carries `clientId` and its parameters as a form body.
   */
  methods?: Partial<Record<CallbackName, 'GET' | 'POST'>>;
}

/** The methods the run's `telephony` setting gives the telephony URLs (default GET: the table's). */
export function telephonyMethods(setting: { makeCallMethod?: 'GET' | 'POST'; changeUserStatusMethod?: 'GET' | 'POST' } | undefined): Partial<Record<CallbackName, 'GET' | 'POST'>> {
  return {
    ...(setting?.makeCallMethod ? { 'telephony.makeCall': setting.makeCallMethod } : {}),
    ...(setting?.changeUserStatusMethod ? { 'telephony.changeUserStatus': setting.changeUserStatusMethod } : {}),
  };
}

export interface SendOptions {
  /** The `clientId` the request carries; undefined: none (a probe of a missing clientId). */
  clientId: string | undefined;
  /** Shown on the exchange (default: the callback's name). */
  label?: string;
  /** A deliberate probe the module should refuse. */
  probe?: boolean;
  /** The generated case it belongs to. */
  case?: string;
  /** The address, for callbacks whose address is given with each request (`recordUrl`, `autocompleteUrl`). */
  url?: string;
  /** Plain form fields beside the action's field (activity's `systemUrl`). */
  extra?: Record<string, string>;
}

/** The callback cannot be made: the registration gives it no address. */
export class NoCallbackAddress extends Error {}

const at = (value: unknown, path: readonly string[]): unknown => path.reduce<unknown>((v, k) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined), value);

/** The address of a callback for this registration, or why there is none. */
export function callbackUrl(spec: CallbackSpec, module: Record<string, unknown> | undefined, given?: string): { url: string } | { missing: string } {
  const source = spec.url;
  let raw: string;
  if (source.from === 'given') {
    if (!given) return { missing: `the ${source.what} to call` };
    raw = given;
  } else if (source.from === 'field') {
    const v = at(module, source.path);
    if (typeof v !== 'string' || v === '') return { missing: `the registration gives no ${source.path.join('.')}` };
    raw = v;
  } else {
    const p = at(module, source.path);
    const base = module?.baseUrl;
    if (typeof p !== 'string' || p === '') return { missing: `the registration gives no ${source.path.join('.')} path` };
    if (typeof base !== 'string' || base === '') return { missing: 'the registration gives no baseUrl' };
    raw = base.replace(/\/+$/, '') + (p.startsWith('/') ? p : `/${p}`);
  }
  try {
    const url = new URL(raw);
    // `localhost:8080/x` parses as a URL of protocol `localhost:`: the platform calls http(s) only.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { missing: `${JSON.stringify(raw)} is not an http(s) URL` };
    return { url: url.toString() };
  } catch {
    return { missing: `${JSON.stringify(raw)} is not a URL` };
  }
}

/**
 * Sends a callback with a payload: the action's JSON, the query parameters, or a webhook's
 * `data` (the sender wraps it in the envelope of the table's `event`; a `RawField` is sent as
 * the whole body, as given). Throws NoCallbackAddress.
 */
export async function send(ctx: SendContext, name: CallbackName, payload: unknown, options: SendOptions): Promise<Reply> {
  const spec = CALLBACKS[name];
  const where = callbackUrl(spec, ctx.module(), options.url);
  if ('missing' in where) throw new NoCallbackAddress(`${name}: ${where.missing}`);
  const direction: Direction = spec.encoding === 'webhook' ? 'gateway->module' : 'system->module';
  const call = { label: options.label ?? name, direction, ...(options.probe ? { probe: true } : {}), ...(options.case ? { case: options.case } : {}) };
  switch (spec.encoding) {
    case 'actionForm':
      return ctx.client.send('POST', where.url, encodeActionForm({ clientId: options.clientId, field: spec.field!, payload, ...(options.extra ? { extra: options.extra } : {}) }), { 'content-type': FORM_CONTENT_TYPE }, call);
    case 'query': {
      const params = (payload ?? {}) as Record<string, unknown>;
      if ((ctx.methods?.[name] ?? spec.method) === 'POST') {
        // The same parameters as a form body (the query's encoding, `clientId` first), the address as given.
        const form = new URL(encodeQuery('http://form.invalid/', options.clientId, params)).searchParams.toString();
        return ctx.client.send('POST', where.url, form, { 'content-type': FORM_CONTENT_TYPE }, call);
      }
      return ctx.client.send(spec.method, encodeQuery(where.url, options.clientId, params), undefined, {}, call);
    }
    case 'webhook':
      return ctx.client.send('POST', where.url, isRawField(payload) ? payload.raw : encodeWebhook(spec.event!, payload), webhookHeaders(options.clientId), call);
  }
}
