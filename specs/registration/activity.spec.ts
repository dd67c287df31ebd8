/**
 * The `activity` callback (every kind): the system tells the module it was activated or
 * frozen. POST form `clientId`, `systemUrl`, `activity={"active", "freeze"}` (wire profile 1).
 * Also the clientId rule of every callback: missing or unknown, the module refuses and does not act.
 */
import { randomBytes } from 'node:crypto';
import { test } from '../fixtures.ts';
import { ensureActivityAcknowledged } from '../../src/checks/callbacks/activity.ts';
import { ensureRefusalUses401Or403, ensureRefusedCallbackHasNoEffect } from '../../src/checks/callbacks/refusal.ts';
import {
  ensureErrorBodyCarriesErrorMsg,
  ensureErrorBodyIsJson,
  ensureErrorBodyMatchesErrorShape,
  ensureErrorStatusIsAccepted,
  ensureErrorStatusIsNot5xx,
} from '../../src/checks/callbacks/error-reply.ts';
import type { RunSession } from '../../src/run/session.ts';
import { covers } from '../covers.ts';

/** The activity callback's address, or undefined when the registration gives none. */
function activityUrl(session: RunSession): string | undefined {
  const actions = session.registration?.module.actions as Record<string, unknown> | undefined;
  const p = actions?.activity;
  const base = session.baseUrl();
  if (typeof p !== 'string' || !base) return undefined;
  try {
    return new URL(base.replace(/\/+$/, '') + (p.startsWith('/') ? p : `/${p}`)).toString();
  } catch {
    return undefined;
  }
}

function activityForm(clientId: string | undefined, systemUrl: string, active: boolean): URLSearchParams {
  const form = new URLSearchParams();
  if (clientId !== undefined) form.set('clientId', clientId);
  form.set('systemUrl', systemUrl);
  form.set('activity', JSON.stringify({ active, freeze: false }));
  return form;
}

test.describe('activity callback', () => {
  test('the module acknowledges activity', covers(['WIRE-REG-ACTIVITY-REPLY-SUCCESS']), async ({ session, conformance }) => {
    test.skip(!session.registration, session.notRegistered ?? 'the module is not registered');
    const url = activityUrl(session);
    test.skip(!url, 'the registration gives no activity path (see the registration checks)');
    test.skip(!session.clientId(), 'the registration gives no clientId to call the module with (see the registration checks)');
    const reply = await session.client.postForm(url!, activityForm(session.clientId(), session.system.url(), true), { label: 'activity' });
    await conformance.apply(ensureActivityAcknowledged, reply, { requirements: ['WIRE-REG-ACTIVITY-REPLY-SUCCESS'], severity: 'MUST' });
  });

  for (const variant of ['unknown', 'missing'] as const) {
    const refusalIds = [
      'WIRE-GEN-BAD-CLIENTID-NO-ACTION',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX',
      'WIRE-GEN-ERROR-5XX-FAILURE',
      'WIRE-GEN-ERROR-NON-JSON-FAILURE',
      'WIRE-GEN-ERROR-MISSING-ERRORMSG',
      'WIRE-GEN-ERROR-REPLY-SHAPE',
      variant === 'unknown' ? 'WIRE-GEN-UNKNOWN-CLIENTID-401-403' : 'WIRE-GEN-MISSING-CLIENTID-401-403',
    ];
    test(`a callback with a ${variant} clientId is refused and not acted on`, covers(refusalIds), async ({ session, conformance }) => {
      test.skip(!session.registration, session.notRegistered ?? 'the module is not registered');
      const url = activityUrl(session);
      test.skip(!url, 'the registration gives no activity path (see the registration checks)');
      const clientId = variant === 'unknown' ? `unknown-${randomBytes(6).toString('hex')}` : undefined;
      // Deactivation is the request whose effect would matter most.
      const reply = await session.client.postForm(url!, activityForm(clientId, session.system.url(), false), {
        label: `activity (${variant} clientId)`,
        probe: true,
      });
      await conformance.apply(ensureRefusedCallbackHasNoEffect, reply, { requirements: ['WIRE-GEN-BAD-CLIENTID-NO-ACTION'], severity: 'MUST' });
      // A refusal is an error answer: the error body, with an accepted status. Each rule with
      // the ids whose statement it tests, so that one broken rule fails only its own ids.
      const error = { reply, profile: session.config.profile };
      await conformance.apply(ensureErrorStatusIsAccepted, error, { requirements: ['WIRE-GEN-ERROR-STATUS-200-OR-4XX'], severity: 'MUST' });
      await conformance.apply(ensureErrorStatusIsNot5xx, reply, { requirements: ['WIRE-GEN-ERROR-5XX-FAILURE'], severity: 'MUST' });
      await conformance.apply(ensureErrorBodyIsJson, reply, { requirements: ['WIRE-GEN-ERROR-NON-JSON-FAILURE'], severity: 'MUST' });
      await conformance.apply(ensureErrorBodyCarriesErrorMsg, reply, { requirements: ['WIRE-GEN-ERROR-MISSING-ERRORMSG'], severity: 'MUST' });
      await conformance.apply(ensureErrorBodyMatchesErrorShape, error, { requirements: ['WIRE-GEN-ERROR-REPLY-SHAPE'], severity: 'MUST' });
      await conformance.apply(ensureRefusalUses401Or403, reply, {
        requirements: [variant === 'unknown' ? 'WIRE-GEN-UNKNOWN-CLIENTID-401-403' : 'WIRE-GEN-MISSING-CLIENTID-401-403'],
        severity: 'SHOULD',
      });
    });
  }
});
