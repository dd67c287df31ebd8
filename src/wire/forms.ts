/**
 * The platform's wire forms, in one place: the suite's sender encodes with them what the real
 * system and gateway send to a module, and the simulators decode with them what a module sends
 * to the system, so that both sides speak the same forms (wire profile sections 1, 5 and 6).
 *
 * - An action form: `application/x-www-form-urlencoded` with `clientId` and one field named
 *   after the action holding a JSON string (`calculate={...}`); the system's API takes its own
 *   JSON parameters the same way (`integrationModule={...}`, `statusUpdate=[...]`).
 * - A query: GET callbacks carry `clientId` and their parameters in the query string.
 * - A webhook: the gateway's JSON envelope `{type, meta: {timestamp}, data}` with the
 *   `ClientId` header.
 */

/** A field value sent exactly as given instead of as JSON (wrong input: a malformed JSON string). */
export interface RawField {
  raw: string;
}

export const isRawField = (v: unknown): v is RawField => !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as RawField).raw === 'string' && Object.keys(v).length === 1;

/** The text of a JSON field: the payload as JSON, or a raw text as given. */
export function fieldText(payload: unknown): string {
  return isRawField(payload) ? payload.raw : JSON.stringify(payload);
}

/**
 * The body of an action form: `clientId` (left out when undefined: a probe of a missing
 * clientId), the action's field holding the payload as a JSON string, then plain fields.
 */
export function encodeActionForm(input: { clientId: string | undefined; field: string; payload: unknown; extra?: Record<string, string> }): string {
  const form = new URLSearchParams();
  if (input.clientId !== undefined) form.set('clientId', input.clientId);
  for (const [k, v] of Object.entries(input.extra ?? {})) form.set(k, v);
  form.set(input.field, fieldText(input.payload));
  return form.toString();
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** A query callback's URL: `clientId` and each parameter (arrays repeated as `name[]`, as PHP reads them) added. */
export function encodeQuery(url: string, clientId: string | undefined, params: Record<string, unknown>): string {
  const u = new URL(url);
  if (clientId !== undefined) u.searchParams.set('clientId', clientId);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) u.searchParams.append(`${k}[]`, String(item));
    else u.searchParams.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return u.toString();
}

/** The envelope of a gateway webhook (document, Events; wire profile 6). */
export interface WebhookEnvelope {
  type: string;
  /** `timestamp`: whole seconds since the epoch. */
  meta: { timestamp: number };
  data: unknown;
}

/** The envelope of a webhook of this type sent now (or at `nowMs`). */
export function webhookEnvelope(type: string, data: unknown, nowMs: number = Date.now()): WebhookEnvelope {
  return { type, meta: { timestamp: Math.floor(nowMs / 1000) }, data };
}

/** The body of a gateway webhook: `{type, meta: {timestamp}, data}` as JSON. */
export function encodeWebhook(type: string, data: unknown, nowMs?: number): string {
  return JSON.stringify(webhookEnvelope(type, data, nowMs));
}

/** The headers of a gateway webhook: JSON, and the module's `clientId` in `ClientId` (left out for a probe of a missing one). */
export function webhookHeaders(clientId: string | undefined): Record<string, string> {
  return { 'content-type': JSON_CONTENT_TYPE, ...(clientId !== undefined ? { clientid: clientId } : {}) };
}

/** Parses JSON; the parse is the caller's (the simulators bound the depth first). */
export type JsonParser = (text: string) => unknown;

/**
 * A JSON field of a form (or query), as the system reads it: absent, or present and JSON, or
 * present and not JSON (`error` says why). `get` gives the field's last value, as PHP reads a
 * repeated name.
 */
export function decodeJsonField(get: (name: string) => string | undefined, field: string, parse: JsonParser, describe: (e: unknown, what: string) => string): { present: boolean; value?: unknown; error?: string } {
  const raw = get(field);
  if (raw === null || raw === undefined) return { present: false };
  try {
    return { present: true, value: parse(raw) };
  } catch (e) {
    return { present: true, error: describe(e, field) };
  }
}
