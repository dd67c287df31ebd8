import type { InboundCall } from '../../simulators/system-endpoints.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';

/** A flow that asked the module for items, and the calls that carried them. */
export interface RequestedItems {
  /**
   * What the suite asked for: a number of items (the trigger's `count`), or the items by
   * identity (the trigger's `deliveryIds`: the deliveries the module created in this run).
   */
  requested: number | readonly string[];
  /** The most items one request may hold (the endpoint's limit). */
  limit: number;
  /** What an item is called in messages: "orders", "calls". */
  noun: string;
  /** The accepted calls of the flow, each with its decoded payload (a JSON array). */
  calls: readonly InboundCall[];
  /** The identity of an item (deliveryId, externalId, ...). */
  key: (item: unknown) => string;
}

const some = (keys: readonly string[]): string => `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''}`;

/**
 * When the suite asks for items, all of them arrive, spread over more than one request when
 * they are more than the endpoint's limit. An item sent again (a retry after a lost answer) is
 * no fault: the system reports repeated calls (`duplicateCalls`, wire profile section 4) and a
 * repeated status changes nothing; the repeats are named in the result, never failed.
 *
 * Asked by number (`count`), any N distinct items do. Asked by identity (tracking given the
 * deliveryIds the module answered to this run's `save`), each of those ids must arrive under that
 * very id: the document has the module send "statuses of orders" (Endpoints, tracking) and the
 * profile names each by its `deliveryId` (section 2), so an item is one of the asked deliveries
 * only by the id the module itself gave ("known delivery ids"). An item with any other id is a
 * delivery the suite did not ask about: the documents let a module push current data whenever
 * it has it ("the module sends current data ... to the system API", What the service does), and
 * a delivery the run never saw may have been created elsewhere (another shop, the carrier's own
 * desk, before the run), so such items are neither unknown ids nor repeats of the asked ones. They
 * are named and not counted; their calls are judged for form by the payload rules (schema,
 * limit, subcode, key) like every other call of the flow. Requests count toward the spread only
 * when they carry an asked item.
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
    const asked = typeof s.requested === 'number' ? undefined : new Set(s.requested);
    const n = asked ? asked.size : (s.requested as number);
    const isAsked = (k: string): boolean => !asked || asked.has(k);
    const again = [...seen].filter(([k, c]) => c > 1 && isAsked(k)).map(([k]) => k);
    const missing = asked ? [...asked].filter((k) => !seen.has(k)) : [];
    const others = asked ? [...seen.keys()].filter((k) => !asked.has(k)) : [];
    const carrying = asked ? arrays.filter((a) => a.some((i) => asked.has(s.key(i)))) : arrays;
    const minRequests = Math.ceil(n / s.limit);
    const sizes = arrays.map((a) => a.length).join(' + ');
    const problems: string[] = [];
    if (asked && missing.length > 0) problems.push(`${missing.length === n ? 'none' : `${missing.length}`} of the ${n} ${s.noun} asked for ${missing.length === n ? 'arrived' : 'did not arrive'} (missing: ${some(missing)})`);
    if (!asked && seen.size < n) problems.push(`${seen.size} distinct ${s.noun} of ${n} asked for`);
    // How they were spread is judged once they all arrived.
    if (problems.length === 0 && carrying.length < minRequests) problems.push(`${carrying.length} request(s)${asked ? ' carried them' : ''} where ${n} ${s.noun} need at least ${minRequests}`);
    const notes =
      (again.length > 0 ? `; ${again.length} sent again (${some(again)}): a retry, not a fault` : '') +
      (others.length > 0 ? `; ${others.length} ${s.noun} not asked for (${some(others)}): the module's own push, judged for form only` : '') +
      (!asked && seen.size > n ? `; ${seen.size - n} more than asked for (the module's own, not a fault)` : '');
    const expected = asked ? `each of the ${n} ${s.noun} asked for, under the id it was asked by, at most ${s.limit} a request` : `all ${n} ${s.noun}, at most ${s.limit} a request`;
    if (problems.length > 0) return fail(`${problems.join('; ')} (requests: ${sizes})${notes}`, expected, evidence);
    return pass(`${asked ? `the ${n} ${s.noun} asked for` : `${n} ${s.noun}`} in ${carrying.length} requests (${sizes})${notes}`, evidence);
  },
});
