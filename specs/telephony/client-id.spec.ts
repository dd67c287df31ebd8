/**
 * The clientId probed on the telephony URLs (issue 31, item 5). Document, Authentication:
 * "System to telephony module: `clientId` is a query parameter"; wire profile section 1: "Real
 * modules answer 401 or 403 when it is missing or unknown, and must not act on the request".
 * One test per telephony callback that `CLIENT_ID_PROBES` probes here (the recordings are probed
 * by `records.spec.ts`): the system's own request, sent with no clientId or an unknown one, then
 * again with the module's clientId (credited only when that one was accepted).
 *
 * - makeCallUrl: "HTTP 200 means success; any other status is an initiation error". A refused
 *   call answered 200 is a call the module says it started: it acted (MUST). Any other status
 *   says no call was started, and the platform checks that: no call event of the phone may reach
 *   the system after a refused call, where the same call with the clientId led to one (a module
 *   that reports no event of the calls it starts shows nothing to tell by: not applicable).
 * - changeUserStatusUrl: "Status and body are ignored". A correct module may answer a status
 *   change with anything, so its answer to a refused one shows neither acceptance nor action,
 *   and the platform sees no effect of a status change: only the profile's 401 or 403 (SHOULD) is
 *   judged, credited when the same change with the clientId was answered 2xx.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { clientIdCases, clientIdTitle, probedHere, runClientIdProbe, type ClientIdCase, type ProbeDriver, type ProbeEffect } from '../../src/properties/client-id-probes.ts';
import { clientIdProperty } from '../../src/checks/callbacks/applications.ts';
import { noExtensions, telephonyContextOf, type TelephonyContext } from '../../src/generators/telephony/context.ts';
import { statusChange, validMakeCall } from '../../src/generators/telephony/requests.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import type fc from 'fast-check';

/** Cases per callback: a probe is two requests; a few of each presented kind suffice. */
const MAX_RUNS = 4;

interface Plan {
  /** Why the system would never send it to this module (no address, no user with an extension code). */
  notRun(session: RunSession, ctx: TelephonyContext): NotRun | undefined;
  requests(ctx: TelephonyContext): fc.Arbitrary<GeneratedCase>;
}

const needs = (callback: CallbackName, field: string) => (session: RunSession, ctx: TelephonyContext): NotRun | undefined =>
  notRunFor(session, 'telephony', [{ callback, why: (m) => `the module gives no ${field} (${m}): the system never calls it` }]) ??
  (noExtensions(ctx) ? { status: 'notApplicable', why: `${noExtensions(ctx)}: the system sends it only for users with an extension code` } : undefined);

/** The system's request of each telephony callback probed here. */
const PLANS: Partial<Record<CallbackName, Plan>> = {
  'telephony.makeCall': { notRun: needs('telephony.makeCall', 'makeCallUrl'), requests: validMakeCall },
  'telephony.changeUserStatus': { notRun: needs('telephony.changeUserStatus', 'changeUserStatusUrl'), requests: statusChange },
};

test.describe('telephony clientId', () => {
  for (const callback of probedHere('telephony')) {
    const name = clientIdProperty(callback);
    test(clientIdTitle(callback), { ...covers(propertyCovers(name)), ...inArea('telephony') }, async ({ session, conformance }) => {
      const plan = PLANS[callback];
      if (!plan) throw new Error(`specs/telephony/client-id.spec.ts has no request for ${callback}, which CLIENT_ID_PROBES probes here`);
      const checks = propertyChecks(name, session.config.profile);
      const ctx = telephonyContextOf(session.registration?.module ?? {});
      const blocked = plan.notRun(session, ctx);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = { ...session.config.generation, runs: Math.min(session.config.generation.runs, MAX_RUNS) };
      test.setTimeout(gen.timeLimitMs + 30_000);
      const clientId = session.clientId()!;
      const driver: ProbeDriver = {
        send: (cb, payload, id, label, probe) => session.send(cb, payload, { clientId: id, label, ...(probe ? { probe: true } : {}) }),
        clientId,
        module: session.registration!.module,
        profile: session.config.profile,
      };
      // makeCall: a started call is one the module reports with call events (document, Events); a refused one must lead to none.
      let waits = { quietMs: 500, waitMs: Math.min(session.config.flowTimeoutMs, 2000) };
      const digits = (v: unknown): string => String(v ?? '').replace(/\D/g, '');
      const effect =
        callback === 'telephony.makeCall'
          ? (c: ClientIdCase): ProbeEffect => {
              const phone = (c.payload as { phone?: unknown }).phone;
              return {
                kind: 'quiet',
                what: `call events of ${String(phone)}`,
                mark: () => session.system.callCount(),
                reports: (mark) => session.system.callsSince(mark).filter((x) => x.endpoint === 'call.event' && digits((x.payload as { phone?: unknown } | undefined)?.phone) === digits(phone)).map((x) => x.exchange.id),
                ...waits,
              };
            }
          : undefined;
      const spec: PropertySpec = {
        name,
        id: `client-id-${callback.split('.')[1]}`,
        arbitrary: clientIdCases(callback, plan.requests(ctx).map((c) => ({ payload: c.payload })), clientId),
        checks,
        exec: async (c: GeneratedCase, caseId: string) => {
          const o = await runClientIdProbe(driver, c as ClientIdCase, caseId, effect?.(c as ClientIdCase));
          // A module that reported no call event after an authorised makeCall shows nothing to tell an effect by: the later cases do not wait for one.
          if (callback === 'telephony.makeCall' && o.steps?.every((s) => s.observation?.kind === 'quiet' && s.observation.after.length === 0)) waits = { quietMs: 0, waitMs: 0 };
          return o;
        },
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
