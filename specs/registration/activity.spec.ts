/**
 * The `activity` callback (every kind): the system tells the module it was activated or
 * frozen. POST form `clientId`, `systemUrl`, `activity={"active", "freeze"}` (wire profile 1),
 * made by the one sender from the callback table (`session.send`).
 * Also the clientId rule of every callback: missing or unknown, the module refuses and does not act.
 */
import { test } from '../fixtures.ts';
import { ACTIVITY } from '../../src/checks/registration/applications.ts';
import { idsOfRows } from '../../src/checks/apply.ts';
import type { RunSession } from '../../src/run/session.ts';
import { callbackUrl } from '../../src/callbacks/send.ts';
import { CALLBACKS } from '../../src/callbacks/table.ts';
import { covers } from '../covers.ts';
import { inventedHex } from '../../src/generators/invented.ts';
import { inArea } from '../../src/run/areas.ts';
import { fillAcceptance } from '../../src/checks/callbacks/acceptance.ts';

/** Why the activity callback cannot be made (no activity path, no baseUrl), or undefined when it can. */
function noActivityAddress(session: RunSession): string | undefined {
  const where = callbackUrl(CALLBACKS.activity, session.registration?.module);
  return 'missing' in where ? where.missing : undefined;
}

/** The activity payload: activated (or deactivated), not frozen. */
const activity = (active: boolean): { active: boolean; freeze: boolean } => ({ active, freeze: false });

test.describe('activity callback', () => {
  test('the module acknowledges activity', { ...covers(idsOfRows([ACTIVITY.acknowledged])), ...inArea('registration') }, async ({ session, conformance }) => {
    test.skip(!session.registration, session.notRegistered ?? 'the module is not registered');
    test.skip(noActivityAddress(session) !== undefined, 'the registration gives no activity path (see the registration checks)');
    test.skip(!session.clientId(), 'the registration gives no clientId to call the module with (see the registration checks)');
    const reply = await session.send('activity', activity(true), { clientId: session.clientId(), extra: { systemUrl: session.system.url() }, label: 'activity' });
    await conformance.apply(ACTIVITY.acknowledged, reply);
  });

  for (const variant of ['unknown', 'missing'] as const) {
    const rows = ACTIVITY.refused[variant];
    test(`a callback with a ${variant} clientId is refused and not acted on`, { ...covers(idsOfRows(Object.values(rows))), ...inArea('registration') }, async ({ session, conformance }) => {
      test.skip(!session.registration, session.notRegistered ?? 'the module is not registered');
      test.skip(noActivityAddress(session) !== undefined, 'the registration gives no activity path (see the registration checks)');
      // The probe's clientId is invented from the run's seed: one seed, the same requests.
      const clientId = variant === 'unknown' ? `unknown-${inventedHex(session.config.generation.seed, 'activity unknown clientId')}` : undefined;
      // Deactivation is the request whose effect would matter most.
      const reply = await session.send('activity', activity(false), {
        clientId,
        extra: { systemUrl: session.system.url() },
        label: `activity (${variant} clientId)`,
        probe: true,
      });
      // A refusal is credited only when activity with the clientId was accepted in the run (the
      // readiness probe, the test above); when none was sent yet, the platform's activation is sent now.
      if (session.accepted.of('activity') === undefined && session.clientId()) await session.send('activity', activity(true), { clientId: session.clientId(), extra: { systemUrl: session.system.url() }, label: 'activity (the same callback, with the clientId)' });
      const refusal = fillAcceptance({ case: { callback: 'activity', payload: activity(false), intent: { kind: 'refused', clientId: variant } }, reply, module: session.registration!.module, profile: session.config.profile }, session.accepted);
      await conformance.apply(rows.noEffect, refusal);
      // A refusal is an error answer: the error body, with an accepted status. Each rule with
      // the ids whose statement it tests, so that one broken rule fails only its own ids.
      const error = { reply, profile: session.config.profile };
      await conformance.apply(rows.statusAccepted, error);
      await conformance.apply(rows.not5xx, reply);
      await conformance.apply(rows.json, reply);
      await conformance.apply(rows.errorMsg, reply);
      await conformance.apply(rows.errorShape, error);
      await conformance.apply(rows.status401Or403, refusal);
    });
  }
});
