/**
 * Delivery `save` (create), generated, and `get` and `delete` of what was saved: valid save
 * requests for the module's registration and the run's account (the deliveryId answered), each
 * saved delivery fetched and deleted; wrong input refused naming the field; get of an id the
 * module never gave refused. Tariff codes come from the module's own calculate (or tariffList)
 * answer, never invented. save, get and delete are optional actions: a module without one is
 * not judged on it.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { DELETE_SAVED, GET_SAVED, GET_UNKNOWN, SAVE_VALID, SAVE_WRONG } from '../../src/checks/delivery/applications.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import { declares, saveContextOf } from '../../src/properties/delivery-save-context.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { unknownDeliveryId, validSave, wrongSave, type SaveContext } from '../../src/generators/delivery/save.ts';
import { runSequence, sessionDriver } from '../../src/properties/delivery-sequences.ts';
import type { Step } from '../../src/properties/delivery-steps.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { CaseOutcome, GeneratedCase } from '../../src/checks/case.ts';
import type fc from 'fast-check';


/** Why the property cannot run for this module, if it cannot. */
function notForThisModule(session: RunSession, needs: CallbackName[]): NotRun | undefined {
  const blocked = notRunFor(session, 'delivery', needs.map((callback) => ({ callback, why: () => `the module declares no ${callback.split('.')[1]} action (optional: document, delivery actions)` })));
  if (blocked) return blocked;
  // The document names some fields of the save request but no reply of save, get or delete (the
  // deliveryId they all turn on rests on the wire profile): these properties run in the profile's view only.
  if (!session.config.profile) return { status: 'skipped', why: 'the replies of save, get and delete (the deliveryId they turn on) rest on the wire profile alone; the run uses the document alone' };
  return undefined;
}

type Exec = (session: RunSession, c: GeneratedCase, caseId: string) => Promise<CaseOutcome>;

const outcomeOf = (session: RunSession, c: GeneratedCase, reply: CaseOutcome['reply']): CaseOutcome => ({ case: c, reply, module: session.registration!.module, profile: session.config.profile });

/**
 * Saves the case's request, then `then` (get or delete) of the deliveryId it answered: a
 * sequence of two steps (three for get: what get created, delete removes), run and saved as
 * one, so that `conformance replay` saves before it gets or deletes. A save without an id ends it.
 */
function afterSave(then: 'get' | 'delete'): Exec {
  return async (session, c, caseId) => {
    const steps: Step[] = [{ op: 'save', request: c.payload as Record<string, unknown> }, { op: then, target: 0 }];
    if (then === 'get' && declares(session, 'delivery.delete')) steps.push({ op: 'delete', target: 0 });
    return runSequence(sessionDriver(session, session.config.generation.seed), { callback: 'delivery.save', payload: { steps }, intent: { kind: 'sequence' } }, caseId);
  };
}

const saveAlone: Exec = async (session, c, caseId) => outcomeOf(session, c, await session.send('delivery.save', c.payload, { clientId: session.clientId(), case: caseId }));

const sendAsIs: Exec = async (session, c, caseId) => outcomeOf(session, c, await session.send(c.callback, c.payload, { clientId: session.clientId(), case: caseId }));

interface Property {
  title: string;
  id: string;
  name: string;
  needs: CallbackName[];
  arbitrary: (ctx: SaveContext) => fc.Arbitrary<GeneratedCase>;
  exec: Exec;
}

const PROPERTIES: Property[] = [
  { title: 'save: generated valid requests, the deliveryId answered', id: 'save-valid', name: SAVE_VALID, needs: ['delivery.save'], arbitrary: validSave, exec: saveAlone },
  { title: 'save: generated wrong input, refused naming the field', id: 'save-wrong', name: SAVE_WRONG, needs: ['delivery.save'], arbitrary: wrongSave, exec: sendAsIs },
  { title: 'get: each saved delivery, of the profile\'s shape', id: 'get-saved', name: GET_SAVED, needs: ['delivery.save', 'delivery.get'], arbitrary: validSave, exec: afterSave('get') },
  { title: 'get: an unknown deliveryId, refused', id: 'get-unknown', name: GET_UNKNOWN, needs: ['delivery.get'], arbitrary: () => unknownDeliveryId(), exec: sendAsIs },
  { title: 'delete: each saved delivery, acknowledged', id: 'delete-saved', name: DELETE_SAVED, needs: ['delivery.save', 'delivery.delete'], arbitrary: validSave, exec: afterSave('delete') },
];

test.describe('delivery save, get and delete', () => {
  for (const p of PROPERTIES) {
    test(p.title, { ...covers(propertyCovers(p.name)), ...inArea('delivery') }, async ({ session, conformance }) => {
      const checks = propertyChecks(p.name, session.config.profile);
      const blocked = notForThisModule(session, p.needs);
      if (blocked) return conformance.notRun(blocked.status, blocked.why, checks);
      const gen = session.config.generation;
      test.setTimeout(gen.timeLimitMs + 30_000);
      const ctx = await saveContextOf(session, gen.seed, p.needs.includes('delivery.save'));
      const spec: PropertySpec = { name: p.name, id: p.id, independent: true, arbitrary: p.arbitrary(ctx), checks, exec: (c, caseId) => p.exec(session, c, caseId) };
      await runProperty(conformance, spec, gen);
    });
  }
});
