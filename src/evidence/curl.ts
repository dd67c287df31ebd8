/**
 * A curl line that repeats a recorded request, written to run after the run: the address of
 * the module is `$MODULE_URL` (its port is gone once the run ends; in remote mode it is the
 * staging address) and every redacted secret is a named shell variable (`$CLIENT_ID`,
 * `$API_KEY`, ...), so the line runs once the variables are set (see `curlNote`). Form bodies
 * are written one `--data-urlencode` per field with the value decoded, so the JSON of a
 * callback reads as JSON. The line is built from the recorded request, already redacted by
 * value (redact.ts): a secret never appears in it.
 */
import type { RecordedMessage } from './recorded.ts';

const SKIP_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding', 'user-agent', 'accept-encoding']);

/** The shell variable that stands for a redacted secret: `<redacted:clientId>` -> `CLIENT_ID`. */
export function secretVariable(label: string): string {
  // Secrets masked by the name of the header or parameter that carried them.
  const byName: Record<string, string> = { 'x-api-key': 'API_KEY', apikey: 'API_KEY', 'x-transport-token': 'MG_TRANSPORT_TOKEN', 'x-bot-token': 'MG_BOT_TOKEN', clientid: 'CLIENT_ID' };
  const named = byName[label.toLowerCase()];
  if (named) return named;
  return label
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/** Bases that stand as variables in the lines: the module's own address. */
export interface CurlBases {
  /** The module's base URL as recorded (`http://127.0.0.1:43121`), written `$MODULE_URL`. */
  moduleUrl?: string;
}

/** Shell-quotes a string; placeholders and the module base become `"$VAR"` so the shell fills them. */
function quote(s: string): string {
  const single = (t: string): string => (t.length === 0 ? '' : `'${t.replace(/'/g, `'\\''`)}'`);
  let out = '';
  let at = 0;
  for (const m of s.matchAll(/<redacted:([^>]+)>|\$\{MODULE_URL\}/g)) {
    out += single(s.slice(at, m.index));
    out += m[1] ? `"$${secretVariable(m[1])}"` : '"$MODULE_URL"';
    at = m.index + m[0].length;
  }
  out += single(s.slice(at));
  return out || "''";
}

export function curlLine(x: { request: RecordedMessage }, bases: CurlBases = {}): string {
  const { method = 'GET', headers, body, truncated } = x.request;
  let url = x.request.url ?? '';
  const base = bases.moduleUrl?.replace(/\/+$/, '');
  if (base && (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`))) url = `\${MODULE_URL}${url.slice(base.length)}`;
  const parts = ['curl', '-sS', '-X', method, quote(url)];
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const isForm = contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
  for (const [k, v] of Object.entries(headers)) {
    if (SKIP_HEADERS.has(k.toLowerCase()) || (isForm && k.toLowerCase() === 'content-type')) continue;
    parts.push('-H', quote(`${k}: ${v}`));
  }
  if (body !== undefined && body.length > 0 && !truncated) {
    if (isForm) for (const [k, v] of new URLSearchParams(body)) parts.push('--data-urlencode', quote(`${k}=${v}`));
    else parts.push('--data-binary', quote(body));
  }
  return parts.join(' ');
}

/**
 * A curl line written again with every secret known now (one learnt after the line was made):
 * each secret found becomes its shell variable, so the line still runs. The line's quoted parts
 * are single-quoted: a placeholder inside one becomes `'"$CLIENT_ID"'`.
 */
export function redactCurl(line: string, redactor: { text(s: string): string }): string {
  const out = redactor.text(line);
  if (out === line) return line;
  return out.replace(/<redacted:([^<>]+)>/g, (_m, label: string) => `'"$${secretVariable(label)}"'`);
}

/** What to set before running a line: "Set MODULE_URL (your module's address) and CLIENT_ID (...) first." */
export function curlNote(line: string): string | undefined {
  const vars = [...new Set([...line.matchAll(/"\$([A-Z_][A-Z0-9_]*)"/g)].map((m) => m[1]!))];
  if (vars.length === 0) return undefined;
  const what: Record<string, string> = {
    MODULE_URL: "your module's base URL",
    CLIENT_ID: 'the clientId your module registered with',
    API_KEY: 'the system API key',
    X_API_KEY: 'the system API key',
    MG_TRANSPORT_TOKEN: 'the transport token',
    MG_BOT_TOKEN: 'the bot token',
  };
  return `Set ${vars.map((v) => `${v}${what[v] ? ` (${what[v]})` : ''}`).join(', ')} first, e.g. export ${vars[0]}=...`;
}
