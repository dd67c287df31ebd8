/**
 * How the module reached the system's payment endpoints over the session (after the payment
 * flows and sequences, which make it report and check invoices): update-invoice and
 * payment/check with POST, the method of the document's endpoint table. A call to their path
 * with another method is answered 405 and named here (the payment steps leave it to this rule).
 * Their payloads are judged when the session ends, with every call of the module to the system.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { ENDPOINT_ROWS } from '../../src/checks/system-api/applications.ts';
import { idsOfRows } from '../../src/checks/apply.ts';
import { SYSTEM_ENDPOINTS } from '../../src/simulators/system-endpoints.ts';
import { notApplicable } from '../../src/checks/check.ts';

const ENDPOINTS = ['update-invoice', 'payment.check'] as const;
/** The method rows of the two endpoints. */
const METHOD = ENDPOINTS.map((e) => ENDPOINT_ROWS[e]!.method);

test.describe('payment calls to the system', () => {
  test('update-invoice and payment/check are called with POST', { ...covers(idsOfRows(METHOD)), ...inArea('payment') }, async ({ session, conformance }) => {
    if (!session.registration) return conformance.notRun('skipped', session.notRegistered ?? 'the module is not registered', METHOD);
    if (!session.registration.kinds.includes('payment')) return conformance.notRun('notApplicable', 'the module declares no payment integration', METHOD);
    for (const endpoint of ENDPOINTS) {
      const route = SYSTEM_ENDPOINTS[endpoint].route;
      const pattern = new RegExp(`^${route.split(' ')[1]!.replace('/api/v5/', '/api/v\\d+/')}/?$`);
      const wrong = session.system.unsimulated.filter((x) => pattern.test(new URL(x.request.url ?? '/', 'http://system.invalid').pathname));
      for (const x of wrong) session.judged.add(x.id);
      const made = session.system.calls.filter((c) => c.endpoint === endpoint).length;
      const method = ENDPOINT_ROWS[endpoint]!.method;
      if (made + wrong.length === 0) await conformance.apply({ ...method, check: { ...method.check, run: () => notApplicable(`the module made no call to ${route} in the session`) } }, { endpoint: route, refused: [] });
      else await conformance.apply(method, { endpoint: route, refused: wrong });
    }
  });
});
