/**
 * Delivery sequences: fast-check commands over a model of what the module was told (save, edit
 * with deliveryId, get, delete, a second delete, get after delete, shipmentSave, its edit with
 * shipmentId, shipmentDelete; delete, edit and shipmentDelete with a missing or unknown clientId,
 * refused and observed to change nothing), each sequence on deliveries of its own, every step
 * judged; a failing sequence shrinks and replays by seed (src/properties/delivery-sequences.ts).
 * Runs where the module declares save (its deliveries are what the sequence works on), in the
 * wire profile's view (the replies of save, get and delete rest on it alone).
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { SEQUENCES } from '../../src/checks/delivery/applications.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { saveContextOf } from '../../src/properties/delivery-save-context.ts';
import { deliverySequences, runSequence, sessionDriver } from '../../src/properties/delivery-sequences.ts';


test.describe('delivery sequences', () => {
  test('save, edit, get, delete and shipments in generated sequences over a model; refused calls change nothing', { ...covers(propertyCovers(SEQUENCES)), ...inArea('delivery') }, async ({ session, conformance }) => {
    const checks = propertyChecks(SEQUENCES, session.config.profile);
    const blocked =
      notRunFor(session, 'delivery', [{ callback: 'delivery.save', why: () => 'the module declares no save action: it keeps no deliveries to act on in sequence (optional: document, actions rule 1)' }]) ??
      (!session.config.profile ? { status: 'skipped' as const, why: 'the replies of save, get and delete (the deliveryId they turn on) rest on the wire profile alone; the run uses the document alone' } : undefined);
    if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
    const gen = session.config.generation;
    test.setTimeout(gen.timeLimitMs + 30_000);
    const ctx = await saveContextOf(session, gen.seed, true);
    const driver = sessionDriver(session, gen.seed);
    const spec: PropertySpec = {
      name: SEQUENCES,
      id: 'sequence',
      // Each sequence works on deliveries of its own.
      independent: true,
      arbitrary: deliverySequences(ctx, driver.declares),
      checks,
      exec: (c, caseId) => runSequence(driver, c, caseId),
    };
    // A sequence is up to 11 calls (about 3 s for 100 on the reference module).
    await runProperty(conformance, spec, gen);
  });
});
