/**
 * Delivery lists, generated: `tariffList` (GET, only when declared: document rule 7),
 * `shipmentPointList` (GET with the profile's filters drawn from the run's places and stores,
 * only with `selfShipmentAvailable` true: document rule 6) and the GET to each `autocompleteUrl`
 * of an autocomplete data field. One result per check over all the cases of a property.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertyCheck, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { AUTOCOMPLETE, SHIPMENT_POINT_LIST, TARIFF_LIST } from '../../src/checks/delivery/applications.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import { deliveryContextOf } from '../../src/generators/delivery/context.ts';
import { autocompleteFields, autocompleteQuery, shipmentPointListQuery, tariffListQuery, type AutocompleteCase } from '../../src/generators/delivery/lists.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import type fc from 'fast-check';

const ids = (checks: PropertyCheck[]): string[] => checks.flatMap((c) => c.app.requirements);

type Blocked = NotRun;

/** Why a list property cannot run for this module, if it cannot (an autocomplete field's address is its own). */
const blockedFor = (session: RunSession, callback: CallbackName, missing: (why: string) => string): Blocked | undefined =>
  notRunFor(session, 'delivery', callback === 'delivery.autocomplete' ? [] : [{ callback, why: missing }]);

const deliveryOf = (session: RunSession): Record<string, unknown> =>
  ((session.registration?.module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>).delivery ?? {};

interface ListProperty {
  title: string;
  id: string;
  name: string;
  callback: CallbackName;
  /** At most this many cases (a constant query needs few). */
  maxRuns?: number;
  blocked(session: RunSession): Blocked | undefined;
  arbitrary(session: RunSession): fc.Arbitrary<GeneratedCase>;
}

const PROPERTIES: ListProperty[] = [
  {
    title: 'tariffList: the tariffs, for a default tariff',
    id: 'tariff-list',
    name: TARIFF_LIST,
    callback: 'delivery.tariffList',
    maxRuns: 3,
    blocked: (s) => blockedFor(s, 'delivery.tariffList', (m) => `the module declares no tariffList action (${m}): no default tariff can be chosen (rule 7)`),
    arbitrary: () => tariffListQuery(),
  },
  {
    title: 'shipmentPointList: terminals for generated places',
    id: 'points',
    name: SHIPMENT_POINT_LIST,
    callback: 'delivery.shipmentPointList',
    blocked: (s) => {
      if (s.registration && deliveryOf(s).selfShipmentAvailable !== true) return { status: 'notApplicable', why: 'selfShipmentAvailable is not true: shipmentPointList is optional (rule 6)' };
      return blockedFor(s, 'delivery.shipmentPointList', (m) => `the module declares no shipmentPointList action (${m}; the registration checks judge rule 6)`);
    },
    arbitrary: (s) => shipmentPointListQuery(deliveryContextOf(s)),
  },
  {
    title: 'autocomplete: suggestions for generated texts at each autocompleteUrl',
    id: 'autocomplete',
    name: AUTOCOMPLETE,
    callback: 'delivery.autocomplete',
    blocked: (s) => {
      const b = blockedFor(s, 'delivery.autocomplete', (m) => m);
      if (b) return b;
      if (autocompleteFields(s.registration!.module).length === 0) return { status: 'notApplicable', why: 'no data field of type autocomplete with an autocompleteUrl' };
      return undefined;
    },
    arbitrary: (s) => autocompleteQuery(autocompleteFields(s.registration!.module)),
  },
];

test.describe('delivery lists', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers([...new Set([...ids(propertyChecks(p.name, true)), ...ids(propertyChecks(p.name, false))])]), ...inArea('delivery') }, async ({ session, conformance }) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const blocked = p.blocked(session);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = { ...session.config.generation, runs: Math.min(session.config.generation.runs, p.maxRuns ?? Infinity) };
      test.setTimeout(gen.timeLimitMs + 30_000);
      const spec: PropertySpec = {
        name: p.name,
        id: p.id,
        // Lists change nothing: each case is judged on its reply alone.
        independent: true,
        arbitrary: p.arbitrary(session),
        checks,
        exec: async (c: GeneratedCase, caseId: string) => {
          const url = (c as Partial<AutocompleteCase>).url;
          const reply = await session.send(p.callback, c.payload, { clientId: session.clientId(), case: caseId, ...(url ? { url } : {}) });
          return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
        },
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
