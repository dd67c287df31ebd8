/**
 * The clientId probed on every delivery callback (issue 31, item 5; wire profile section 1: "The
 * `clientId` is the only credential of a callback ... Real modules answer 401 or 403 when it is
 * missing or unknown, and must not act on the request"). One test per callback that the table
 * gives the delivery kind and `CLIENT_ID_PROBES` probes here (the others, save, delete and
 * shipmentDelete, are probed by the delivery sequences with the effect observed): the platform's
 * own request, sent with no clientId or an unknown one, then again with the module's clientId.
 * The refusal is credited only when that second call was accepted; a refused shipmentSave must
 * leave the delivery free for the same shipmentSave with the clientId (the effect the platform
 * can see); reads have no effect to observe.
 */
import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { notRunFor, type Need, type NotRun } from '../../src/properties/applicability.ts';
import { clientIdCases, clientIdTitle, probedHere, runClientIdProbe, type ClientIdCase, type ProbeDriver } from '../../src/properties/client-id-probes.ts';
import { clientIdProperty } from '../../src/checks/callbacks/applications.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import { deliveryContextOf } from '../../src/generators/delivery/context.ts';
import { calculateRequest } from '../../src/generators/delivery/calculate.ts';
import { autocompleteFields, autocompleteQuery, shipmentPointListQuery } from '../../src/generators/delivery/lists.ts';
import { minimalSave, orderPlates } from '../../src/generators/delivery/print.ts';
import { shipmentFields, shipmentPackages, shipmentSaveRequest } from '../../src/generators/delivery/shipment.ts';
import { invent } from '../../src/generators/invented.ts';
import type { DeliveryContext } from '../../src/generators/delivery/common.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { CaseOutcome, GeneratedCase } from '../../src/checks/case.ts';

/** Cases per callback: a probe is two or three requests; a few of each presented kind suffice. */
const MAX_RUNS = 4;

/** What a delivery needs to exist at the module first (get, print and shipmentSave name one). */
const NEEDS_SAVE: Need = { callback: 'delivery.save', why: (m) => `the module declares no save action (${m}): no delivery exists at the module for this call to name` };

interface Plan {
  needs?: Need[];
  /** Why the callback cannot be probed for this module beyond its address (no printable form, no autocomplete field). */
  blocked?(session: RunSession): NotRun | undefined;
  /** The platform's request; `{deliveryId}` placeholders filled by `prepare`. */
  requests(ctx: DeliveryContext, session: RunSession): fc.Arbitrary<{ payload: unknown; url?: string }>;
  /** Needs a delivery saved with the clientId first (the platform names only deliveries it saved). */
  saved?: (payload: unknown, deliveryId: string) => unknown;
}

const only = (g: fc.Arbitrary<GeneratedCase>): fc.Arbitrary<{ payload: unknown; url?: string }> => g.map((c) => ({ payload: c.payload, ...(c.url !== undefined ? { url: c.url } : {}) }));

/** The platform's request of each callback probed here. */
const PLANS: Partial<Record<CallbackName, Plan>> = {
  'delivery.calculate': { requests: (ctx) => calculateRequest(ctx).map((payload) => ({ payload })) },
  'delivery.get': { needs: [NEEDS_SAVE], requests: () => fc.constant({ payload: {} }), saved: (_p, id) => ({ deliveryId: id }) },
  'delivery.print': {
    needs: [NEEDS_SAVE],
    blocked: (s) => (orderPlates(s.registration!.module).length === 0 ? { status: 'notApplicable', why: 'plateList has no form that prints orders' } : undefined),
    requests: (_ctx, s) => fc.constantFrom(...orderPlates(s.registration!.module).map((p) => p.code)).map((type) => ({ payload: { entityType: 'order', type } })),
    saved: (p, id) => ({ ...(p as object), deliveryIds: [[id]] }),
  },
  'delivery.shipmentPointList': { requests: (ctx) => only(shipmentPointListQuery(ctx)) },
  'delivery.shipmentSave': {
    needs: [NEEDS_SAVE],
    blocked: (s) => (deliveryContextOf(s).stores.length === 0 ? { status: 'notApplicable', why: 'the account has no store to ship from' } : undefined),
    requests: (ctx) => fc.record({ fields: shipmentFields(ctx), packages: shipmentPackages(ctx) }).map((g) => ({ payload: g })),
    saved: (p, id) => {
      const g = p as { fields: Record<string, unknown>; packages: Array<Record<string, unknown>> };
      return shipmentSaveRequest(g.fields, [id], g.packages);
    },
  },
  'delivery.tariffList': { requests: () => fc.constant({ payload: {} }) },
  'delivery.autocomplete': {
    blocked: (s) => (autocompleteFields(s.registration!.module).length === 0 ? { status: 'notApplicable', why: 'no data field of type autocomplete with an autocompleteUrl' } : undefined),
    requests: (_ctx, s) => only(autocompleteQuery(autocompleteFields(s.registration!.module))),
  },
};

const deliveryIdOf = (json: unknown): string | undefined => {
  const j = json as { success?: unknown; result?: { deliveryId?: unknown } } | undefined;
  const id = j?.success === true ? j.result?.deliveryId : undefined;
  return (typeof id === 'string' || typeof id === 'number') && String(id) !== '' ? String(id) : undefined;
};

test.describe('delivery clientId', () => {
  for (const callback of probedHere('delivery')) {
    const name = clientIdProperty(callback);
    test(clientIdTitle(callback), { ...covers(propertyCovers(name)), ...inArea('delivery') }, async ({ session, conformance }) => {
      const plan = PLANS[callback];
      if (!plan) throw new Error(`specs/delivery/client-id.spec.ts has no request for ${callback}, which CLIENT_ID_PROBES probes here`);
      const checks = propertyChecks(name, session.config.profile);
      const planned = checks;
      const blocked = notRunFor(session, 'delivery', callback === 'delivery.autocomplete' ? [...(plan.needs ?? [])] : [{ callback }, ...(plan.needs ?? [])]) ?? plan.blocked?.(session);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, planned);
      const gen = { ...session.config.generation, runs: Math.min(session.config.generation.runs, MAX_RUNS) };
      test.setTimeout(gen.timeLimitMs + 60_000);
      const ctx = deliveryContextOf(session);
      const clientId = session.clientId()!;
      const driver: ProbeDriver = {
        send: (cb, payload, id, label, probe, url) => session.send(cb, payload, { clientId: id, label, ...(probe ? { probe: true } : {}), ...(url ? { url } : {}) }),
        clientId,
        module: session.registration!.module,
        profile: session.config.profile,
      };
      let saves = 0;
      /** A delivery saved with the clientId, as the platform saves one before naming it; undefined when save refused it. */
      const save = async (): Promise<string | undefined> => {
        const n = saves++;
        const reply = await session.send('delivery.save', invent(gen.seed, `client-id ${callback} save ${n}`, minimalSave(ctx, 100 + n)), { clientId, case: `client-id-save#${n}` });
        return deliveryIdOf(reply.json);
      };
      const spec: PropertySpec = {
        name,
        id: `client-id-${callback.split('.')[1]}`,
        arbitrary: clientIdCases(callback, plan.requests(ctx, session), clientId),
        checks,
        exec: async (g: GeneratedCase, caseId: string) => {
          let c = g as ClientIdCase;
          if (plan.saved) {
            const id = await save();
            // Without a delivery the module saved there is no request of the platform to send: the case is what the platform would send with the id it has.
            c = { ...c, payload: plan.saved(c.payload, id ?? 'no-delivery-saved') };
          }
          const effect =
            callback === 'delivery.shipmentSave'
              ? {
                  kind: 'stillPossible' as const,
                  what: 'the same shipmentSave with the clientId',
                  control: async () => {
                    const other = await save();
                    if (other === undefined) return undefined;
                    const reply = await session.send(callback, plan.saved!((g as ClientIdCase).payload, other), { clientId, label: `${callback} (the same, of a delivery no refused call named)` });
                    return { what: `the same shipmentSave of delivery ${other}, which no refused call named`, reply };
                  },
                }
              : undefined;
          if (callback === 'delivery.autocomplete') {
            // Each autocompleteUrl of the registration is probed (each data field's address is its own).
            const outcomes: CaseOutcome[] = [];
            for (const f of autocompleteFields(session.registration!.module)) outcomes.push(await runClientIdProbe(driver, { ...c, url: f.url }, `${caseId} ${f.code}`));
            return { ...outcomes[0]!, reply: outcomes.at(-1)!.reply, steps: outcomes.flatMap((o) => o.steps ?? []) };
          }
          return runClientIdProbe(driver, c, caseId, effect);
        },
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
