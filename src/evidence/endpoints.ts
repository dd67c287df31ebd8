/**
 * The endpoints of several logs as one: a run whose areas ran at the same time (its host's
 * session and the attached one, src/run/attach.ts) or the shards of one run. The same endpoint
 * seen by several logs is one entry, its counts added, in the order each was first seen; its
 * `peakPerSecond` is the highest of them (each log measured its own).
 */
import type { EndpointEvidence } from './exchange.ts';

export function mergeEndpoints(lists: ReadonlyArray<readonly EndpointEvidence[]>): EndpointEvidence[] {
  // One log: its own order, untouched.
  if (lists.filter((l) => l.length > 0).length <= 1) return lists.flat();
  const byEndpoint = new Map<string, EndpointEvidence>();
  for (const e of lists.flat()) {
    const had = byEndpoint.get(e.endpoint);
    if (!had) {
      byEndpoint.set(e.endpoint, { ...e, statuses: { ...e.statuses } });
      continue;
    }
    had.count += e.count;
    had.kept += e.kept;
    had.dropped += e.dropped;
    had.bytes += e.bytes;
    if (e.firstAt < had.firstAt) had.firstAt = e.firstAt;
    if (e.lastAt > had.lastAt) had.lastAt = e.lastAt;
    for (const [status, n] of Object.entries(e.statuses)) had.statuses[status] = (had.statuses[status] ?? 0) + n;
    had.peakPerSecond = Math.max(had.peakPerSecond, e.peakPerSecond);
  }
  // ISO times of one format: compared as text (a stable sort keeps the order of equal times).
  return [...byEndpoint.values()].sort((a, b) => (a.firstAt < b.firstAt ? -1 : a.firstAt > b.firstAt ? 1 : 0));
}
