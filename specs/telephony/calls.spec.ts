/**
 * The system's calls to a telephony module's URLs, generated (document, Calls from the system to
 * a telephony module; the method is the `telephony` setting, default GET: wire profile 4):
 *
 * - `makeCallUrl`: calls the module can start (a user the registration maps to an extension
 *   code, a phone number, `externalPhone` only when external numbers are configured) are
 *   answered HTTP 200 exactly; calls it cannot start (an extension code its settings do not
 *   know, a "phone" of letters or nothing) are answered anything but 200 (Errors 4).
 * - `changeUserStatusUrl`: each of the four statuses, for users with an extension code, is
 *   answered (status and body ignored, but an answer: no timeout, no reset, something listening).
 *
 * Both need a user with an extension code: the system shows the call icon, and sends status
 * notifications, only for those. One result per check over all the cases of a property; a
 * failure is shrunk, saved and replayable by its seed and path.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, sendAsIs, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { CHANGE_USER_STATUS, MAKE_CALL_VALID, MAKE_CALL_WRONG } from '../../src/checks/telephony/applications.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { noExtensions, telephonyContextOf, type TelephonyContext } from '../../src/generators/telephony/context.ts';
import { statusChange, validMakeCall, wrongMakeCall } from '../../src/generators/telephony/requests.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import type fc from 'fast-check';


interface Property {
  title: string;
  id: string;
  name: string;
  /** Why the system would never send it to this module (no address, no user with an extension code). */
  notRun: (session: RunSession, ctx: TelephonyContext) => NotRun | undefined;
  arbitrary: (ctx: TelephonyContext) => fc.Arbitrary<GeneratedCase>;
}

const needsMakeCall = (session: RunSession, ctx: TelephonyContext): NotRun | undefined =>
  notRunFor(session, 'telephony', [{ callback: 'telephony.makeCall', why: (m) => `the module gives no makeCallUrl (${m}): the system shows no call icon and starts no call` }]) ??
  (noExtensions(ctx) ? { status: 'notApplicable', why: `${noExtensions(ctx)}: the system shows the call icon only to a user with an extension code, so no call can be built, from a known extension or from an unknown one` } : undefined);

const needsChangeUserStatus = (session: RunSession, ctx: TelephonyContext): NotRun | undefined =>
  notRunFor(session, 'telephony', [{ callback: 'telephony.changeUserStatus', why: (m) => `the module gives no changeUserStatusUrl (${m}): the system sends no status notification` }]) ??
  (noExtensions(ctx) ? { status: 'notApplicable', why: `${noExtensions(ctx)}: status notifications are sent only for users with an extension code` } : undefined);

const PROPERTIES: Property[] = [
  { title: 'makeCallUrl: generated calls the module can start, answered HTTP 200', id: 'make-call-valid', name: MAKE_CALL_VALID, notRun: needsMakeCall, arbitrary: validMakeCall },
  { title: 'makeCallUrl: generated calls the module cannot start (no phone number), not answered 200; calls from an unlisted extension or to letters, answered either way', id: 'make-call-wrong', name: MAKE_CALL_WRONG, notRun: needsMakeCall, arbitrary: wrongMakeCall },
  { title: 'changeUserStatusUrl: the four statuses of users with an extension code, answered', id: 'change-user-status', name: CHANGE_USER_STATUS, notRun: needsChangeUserStatus, arbitrary: statusChange },
];

test.describe('telephony makeCallUrl and changeUserStatusUrl', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers(propertyCovers(p.name)), ...inArea('telephony') }, async ({ session, conformance }) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const ctx = telephonyContextOf(session.registration?.module ?? {});
      const blocked = p.notRun(session, ctx);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 30_000);
      const spec: PropertySpec = {
        name: p.name,
        id: p.id,
        // Each case is one call of a URL, judged on its answer alone.
        independent: true,
        arbitrary: p.arbitrary(ctx),
        checks,
        exec: sendAsIs(session),
      };
      await runProperty(conformance, spec, gen);
    });
  }
});
