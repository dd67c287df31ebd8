/** How a module's reply to a callback reads, for the callback checks. */
import type { Reply } from '../../client/callback-client.ts';
import { show } from '../check.ts';

/**
 * "HTTP 200 {"success":true}", a redirect with where it points (never followed), or the
 * transport failure (with the status of a reply that broke off).
 */
export function describeReply(reply: Reply): string {
  if (reply.status === undefined) {
    const broken = reply.exchange.response;
    return broken ? `HTTP ${broken.status}, not a complete reply (${reply.error ?? 'broke off'})` : `no reply (${reply.error ?? 'no response'})`;
  }
  const ct = reply.headers['content-type'] ? ` (${reply.headers['content-type']})` : '';
  const to = reply.status >= 300 && reply.status < 400 ? ` redirecting to ${show(reply.headers.location ?? '(no Location)')} (the suite follows no redirect)` : '';
  const body = reply.json !== undefined ? show(reply.json, 200) : reply.body.length === 0 ? 'an empty body' : show(reply.body.toString('utf8'), 200);
  return `HTTP ${reply.status}${to}${ct} ${body}`;
}

/** True when the reply says the module did what was asked: 2xx and `{success: true}`. */
export function claimsSuccess(reply: Reply): boolean {
  return reply.status !== undefined && reply.status >= 200 && reply.status < 300 && (reply.json as { success?: unknown } | undefined)?.success === true;
}
