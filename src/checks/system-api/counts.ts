import type { InboundCall } from '../../simulators/system.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';

/** A flow that asked the module for N items, and the calls that carried them. */
export interface RequestedItems {
  /** How many items the suite asked for (the trigger's `count`). */
  requested: number;
  /** The most items one request may hold (the endpoint's limit). */
  limit: number;
  /** What an item is called in messages: "orders", "calls". */
  noun: string;
  /** The accepted calls of the flow, each with its decoded payload (a JSON array). */
  calls: readonly InboundCall[];
  /** The identity of an item (deliveryId, externalId, ...). */
  key: (item: unknown) => string;
}

/**
 * When the suite asks for N items, all N arrive, spread over more than one request when N is
 * above the endpoint's limit. An item sent again (a retry after a lost answer) is no fault: the
 * system reports repeated calls (`duplicateCalls`, wire profile section 4) and a repeated status
 * changes nothing; the repeats are named in the result, never failed.
 */
export const ensureRequestedItemsArrive = defineCheck<RequestedItems>({
  name: 'ensureRequestedItemsArrive',
  checks: 'every item the flow was asked for arrives, in requests within the limit',
  run(s) {
    const arrays = s.calls.map((c) => c.payload).filter((p): p is unknown[] => Array.isArray(p));
    if (arrays.length === 0) return notApplicable(`no readable request of the flow (judged by the payload checks)`);
    const evidence = s.calls.map((c) => c.exchange.id);
    const seen = new Map<string, number>();
    for (const item of arrays.flat()) seen.set(s.key(item), (seen.get(s.key(item)) ?? 0) + 1);
    const again = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
    const minRequests = Math.ceil(s.requested / s.limit);
    const sizes = arrays.map((a) => a.length).join(' + ');
    const problems: string[] = [];
    if (seen.size < s.requested) problems.push(`${seen.size} distinct ${s.noun} of ${s.requested} asked for`);
    if (arrays.length < minRequests) problems.push(`${arrays.length} request(s) where ${s.requested} ${s.noun} need at least ${minRequests}`);
    const repeated =
      (again.length > 0 ? `; ${again.length} sent again (${again.slice(0, 3).join(', ')}): a retry, not a fault` : '') +
      (seen.size > s.requested ? `; ${seen.size - s.requested} more than asked for (the module's own, not a fault)` : '');
    if (problems.length > 0) return fail(`${problems.join('; ')} (requests: ${sizes})${repeated}`, `all ${s.requested} ${s.noun}, at most ${s.limit} a request`, evidence);
    return pass(`${s.requested} ${s.noun} in ${arrays.length} requests (${sizes})${repeated}`, evidence);
  },
});
