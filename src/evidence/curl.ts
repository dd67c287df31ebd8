/**
 * A curl line that repeats a recorded request. Form bodies are written one
 * `--data-urlencode` per field with the value decoded, so the JSON of a callback reads as JSON.
 * Secrets stay redacted: the line is built from the recorded (already redacted by value, see
 * redact.ts) request, so `<redacted:apiKey>` reads as a placeholder where the secret was a value,
 * and URL hosts and paths stay as sent.
 */
import type { Exchange } from './exchange.ts';

const SKIP_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding', 'user-agent', 'accept-encoding']);

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlLine(x: Pick<Exchange, 'request'>): string {
  const { method = 'GET', url = '', headers, body, truncated } = x.request;
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
