import type { Exchange } from '../../evidence/exchange.ts';
import { defineCheck, fail, pass } from '../check.ts';

/** "GET /api/v5/orders" of a recorded request. */
function endpointOf(x: Exchange): string {
  return `${x.request.method ?? '?'} ${new URL(x.request.url ?? '/', 'http://simulator.invalid').pathname}`;
}

/**
 * Information, never a failure: the module called endpoints of the system that the suite does
 * not simulate (they answered HTTP 404 with the system's error body, as the platform answers an
 * unknown endpoint). What the module did with those calls is not judged.
 */
export const checkModuleCallsSimulatedEndpoints = defineCheck<{ unsimulated: readonly Exchange[]; total: number }>({
  name: 'checkModuleCallsSimulatedEndpoints',
  checks: 'the module calls only system endpoints that the suite simulates',
  /** `unsimulated`: the calls kept (a flood is bounded); `total`: every one, kept or not. */
  run({ unsimulated, total }) {
    if (unsimulated.length === 0) return pass('every system call reached a simulated endpoint');
    const counts = new Map<string, number>();
    for (const x of unsimulated) counts.set(endpointOf(x), (counts.get(endpointOf(x)) ?? 0) + 1);
    const list = [...counts].map(([e, n]) => `${e}${n > 1 ? ` (${n} times)` : ''}`).join(', ');
    const more = total > unsimulated.length ? `; ${total} such calls in all, of which ${total - unsimulated.length} were counted but not kept` : '';
    return fail(
      `the module called ${list}, which the suite does not simulate (answered HTTP 404 with the system's error body)${more}`,
      'calls to the endpoints of the contract and of wire profile section 8; other calls are not judged',
      [...new Set(unsimulated.map((x) => x.id))].slice(0, 10),
    );
  },
});
