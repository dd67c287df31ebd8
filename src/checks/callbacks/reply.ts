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

/** Whether `obj` carries the member at a dotted path (null is absent: wire profile section 9). */
export function hasMember(obj: unknown, path: string): boolean {
  let node: unknown = obj;
  for (const k of path.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return false;
    node = (node as Record<string, unknown>)[k];
  }
  return node !== undefined && node !== null;
}

/** Drops a nested member whose parent is named absent too. */
const outermost = (absent: string[]): string[] => absent.filter((p) => !absent.some((q) => p.startsWith(`${q}.`)));

/** The members of `listed` (dotted paths) that `obj` lacks, absent or null; a nested one only when its parent is there. */
export function absentMembers(obj: unknown, listed: readonly string[]): string[] {
  return outermost(listed.filter((p) => !hasMember(obj, p)));
}

/** The members of `listed` that every one of `items` lacks (none carried it, so none was judged). */
export function absentFromAll(items: readonly unknown[], listed: readonly string[]): string[] {
  if (items.length === 0) return [];
  return outermost(listed.filter((p) => items.every((i) => !hasMember(i, p))));
}

/**
 * What a pass adds about the optional members it did not see: "; absent, not judged: a, b"
 * (empty when all were there). A pass never credits a member it did not judge.
 */
export function notJudged(absent: readonly string[]): string {
  return absent.length > 0 ? `; absent, not judged: ${absent.join(', ')}` : '';
}
