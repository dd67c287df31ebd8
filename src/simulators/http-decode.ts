/**
 * Decoding a request body read whole, by its content type: urlencoded and multipart forms and
 * the query string (read as the PHP system reads them: invalid UTF-8 and repeated names noted),
 * and JSON, refused past `MAX_JSON_DEPTH` before it is parsed; and the form parameters a route
 * reads (`param`, `formJson`).
 */
import { isUtf8 } from 'node:buffer';
import { decodeJsonField } from '../wire/forms.ts';
import type { InboundRequest } from './http.ts';

/** Deepest JSON nesting the simulators accept (arrays and objects); deeper is answered 400. */
export const MAX_JSON_DEPTH = 512;

/** Thrown (by `parseJson`) for JSON nested deeper than `MAX_JSON_DEPTH`. */
export class JsonTooDeepError extends Error {
  constructor(limit: number) {
    super(`JSON nested too deep: more than ${limit} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * How deep JSON text nests (arrays and objects), counted without parsing and without recursion;
 * stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * `JSON.parse` for what a module sends: JSON deeper than `MAX_JSON_DEPTH` is refused with
 * `JsonTooDeepError` before it is parsed, so that no validator or walker of the suite overflows
 * the stack on it.
 */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, limit) > limit) throw new JsonTooDeepError(limit);
  return JSON.parse(text) as unknown;
}

/** The message of a JSON parse failure: the depth refusal as it is, else prefixed with `what`. */
export function jsonErrorMessage(e: unknown, what: string): string {
  return e instanceof JsonTooDeepError ? `${what}: ${e.message}` : `${what} is not JSON: ${(e as Error).message}`;
}

const HEX = /^[0-9a-fA-F]{2}$/;

/**
 * Percent-decodes a form component to bytes (`+` is a space), as the WHATWG urlencoded parser
 * does. `raw` holds one byte a character (a body read as latin1, or an ASCII query string).
 */
function formComponentBytes(raw: string): Buffer {
  const bytes = Buffer.from(raw, 'latin1');
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < bytes.length && HEX.test(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!))) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/**
 * Reads an urlencoded form (body bytes, or a query string) like a browser (invalid UTF-8 becomes
 * U+FFFD) and notes which names were not valid UTF-8 and which came more than once.
 */
export function readUrlencoded(input: Buffer | string): { form: URLSearchParams; invalidUtf8: string[]; duplicated: string[] } {
  const text = typeof input === 'string' ? input : input.toString('latin1');
  const form = new URLSearchParams();
  const invalid = new Set<string>();
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const nameBytes = formComponentBytes(eq < 0 ? pair : pair.slice(0, eq));
    const valueBytes = formComponentBytes(eq < 0 ? '' : pair.slice(eq + 1));
    const name = nameBytes.toString('utf8');
    form.append(name, valueBytes.toString('utf8'));
    if (!isUtf8(nameBytes) || !isUtf8(valueBytes)) invalid.add(name);
    if (seen.has(name)) duplicated.add(name);
    seen.add(name);
  }
  return { form, invalidUtf8: [...invalid], duplicated: [...duplicated] };
}

/** Adds what a form or query string showed to the request's notes. */
function note(req: InboundRequest, found: { invalidUtf8: string[]; duplicated: string[] }): void {
  if (found.invalidUtf8.length > 0) req.invalidUtf8 = [...new Set([...(req.invalidUtf8 ?? []), ...found.invalidUtf8])];
  if (found.duplicated.length > 0) req.duplicated = [...new Set([...(req.duplicated ?? []), ...found.duplicated])];
}

/**
 * Decodes a request body by its content type: a urlencoded or multipart form into `form`, JSON
 * into `json`. What cannot be read is noted in `bodyError`, never thrown. Invalid UTF-8 is
 * decoded with replacement characters and noted in `invalidUtf8`; repeated parameters (body
 * form and query string) in `duplicated`.
 */
export async function decodeBody(req: InboundRequest): Promise<void> {
  const query = req.url.search.slice(1);
  if (query !== '') note(req, readUrlencoded(query));
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (req.body.length === 0 && !contentType) return;
  if (req.upload && req.upload.size > req.body.length) {
    // Only the first bytes of an upload are here: its encoding is named, its content not decoded.
    req.encoding = contentType.startsWith('multipart/form-data') ? 'multipart' : contentType.startsWith('application/x-www-form-urlencoded') ? 'urlencoded' : contentType.includes('json') ? 'json' : 'other';
    return;
  }
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    req.encoding = 'urlencoded';
    const read = readUrlencoded(req.body);
    req.form = read.form;
    note(req, read);
  } else if (contentType.startsWith('multipart/form-data')) {
    req.encoding = 'multipart';
    try {
      // The platform's multipart reader: undici's, through the WHATWG Response.
      const parts = await new Response(req.body, { headers: { 'content-type': req.headers['content-type']! } }).formData();
      req.form = new URLSearchParams();
      const seen = new Set<string>();
      const found = { invalidUtf8: [] as string[], duplicated: [] as string[] };
      const validBody = isUtf8(req.body);
      for (const [name, value] of parts) {
        req.form.append(name, typeof value === 'string' ? value : value.name);
        if (seen.has(name)) found.duplicated.push(name);
        seen.add(name);
        // undici decodes text parts with replacement characters; a body that is not UTF-8 and a part that holds one was not.
        if (!validBody && typeof value === 'string' && value.includes('\uFFFD')) found.invalidUtf8.push(name);
      }
      note(req, found);
    } catch (e) {
      req.bodyError = `multipart body cannot be read: ${(e as Error).message}`;
    }
  } else if (contentType.includes('json')) {
    req.encoding = 'json';
    if (req.body.length > 0) {
      if (!isUtf8(req.body)) req.invalidUtf8 = [...(req.invalidUtf8 ?? []), '(body)'];
      try {
        req.json = parseJson(req.body.toString('utf8'));
      } catch (e) {
        req.bodyError = jsonErrorMessage(e, 'body');
      }
    }
  } else {
    req.encoding = req.body.length > 0 ? 'other' : 'none';
  }
}

/**
 * A form parameter: from the body's form, else from the query string (official clients put some
 * there). A name given more than once takes its LAST value, as PHP (the system) does.
 */
export function param(req: InboundRequest, name: string): string | undefined {
  return req.form?.getAll(name).at(-1) ?? req.url.searchParams.getAll(name).at(-1) ?? undefined;
}

/** Parses a JSON-string form parameter (body form or query string), as the platform's wire forms say (`src/wire/forms.ts`). */
export function formJson(req: InboundRequest, field: string): { present: boolean; value?: unknown; error?: string } {
  return decodeJsonField((name) => param(req, name), field, (text) => parseJson(text), jsonErrorMessage);
}
