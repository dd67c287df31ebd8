/** A curl line that repeats a recorded request. Secrets stay redacted: `<redacted:apiKey>` reads as a placeholder. */
import type { Exchange } from './exchange.ts';

const SKIP_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding', 'user-agent', 'accept-encoding']);

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlLine(x: Pick<Exchange, 'request'>): string {
  const { method = 'GET', url = '', headers, body, truncated } = x.request;
  const parts = ['curl', '-sS', '-X', method, quote(url)];
  for (const [k, v] of Object.entries(headers)) if (!SKIP_HEADERS.has(k.toLowerCase())) parts.push('-H', quote(`${k}: ${v}`));
  if (body !== undefined && body.length > 0 && !truncated) parts.push('--data-binary', quote(body));
  return parts.join(' ');
}
