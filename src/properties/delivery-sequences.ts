/**
 * Stateful sequences of delivery actions, as fast-check commands over a model of what the
 * module was told: deliveries saved (and edited, with `deliveryId`, then fetched), fetched, deleted, deleted
 * again, fetched after their delete; shipments of them saved, edited (`shipmentId`) and
 * deleted; and delete, edit and shipmentDelete with a missing or unknown clientId, refused and
 * observed to have changed nothing (`refusal-probe.ts`). Each sequence begins with a save of its
 * own and uses only the deliveries it saved.
 *
 * The model decides what each step may be answered: a get of a live delivery is answered with
 * it, a delete or shipmentDelete of a live one is acknowledged (intent `valid`); where the
 * documents leave the answer open (a get, edit or delete of a deleted delivery, a second
 * shipmentDelete, a delete of a delivery inside a shipment) any well-formed answer is right
 * (intent `open`). Every step is judged by the property's checks (`overSteps`), never a 5xx,
 * never a malformed reply.
 *
 * A step is data (`Step`, with the model and the step arbitraries in `delivery-steps.ts`): the
 * generated commands run it, and `conformance replay` runs the saved steps of a shrunk sequence
 * again through the same commands.
 */
import fc from 'fast-check';
import { SequencePayload, StepCommand } from './step-commands.ts';
import { canRun, live, liveShipments, named, pick, stepArbitraries, unshipped, WRONG_INPUT, type ModelDelivery, type SequenceModel, type Step } from './delivery-steps.ts';
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import { claimsSuccess } from '../checks/callbacks/reply.ts';
import { deliveryIdOf } from '../checks/delivery/save-reply.ts';
import { shipmentIdOf } from '../checks/delivery/shipment-reply.ts';
import { saveRequest, type SaveContext } from '../generators/delivery/save.ts';
import { shipmentDeleteRequest, shipmentSaveRequest } from '../generators/delivery/shipment.ts';
import { presentedClientId, probeRefusal } from './refusal-probe.ts';
import { observedChange } from '../checks/callbacks/refusal-effect.ts';
import type { CaseIntent, CaseOutcome, GeneratedCase } from '../checks/case.ts';
import { declares } from './delivery-save-context.ts';
import { inventedHex } from '../generators/invented.ts';
import type { RunSession } from '../run/session.ts';

type Json = Record<string, unknown>;

/** How a sequence reaches the module: the run's session, or a replay's. */
export interface SequenceDriver {
  /** `probe`: a deliberate call the module should refuse (a missing or unknown clientId): never evidence that the module was reached. */
  send(callback: CallbackName, payload: unknown, clientId: string | undefined, label: string, probe?: boolean): Promise<Reply>;
  /** The module's clientId, and one it never gave (for refused steps). */
  clientId: string;
  unknownClientId: string;
  module: Json;
  profile: boolean;
  declares(callback: CallbackName): boolean;
}

/** The run's session (or a replay's) as a sequence reaches the module; the unknown clientId is made from the seed. */
export function sessionDriver(session: RunSession, seed: number): SequenceDriver {
  return {
    send: (callback, payload, clientId, label, probe) => session.send(callback, payload, { clientId, case: label, ...(probe ? { probe: true } : {}) }),
    clientId: session.clientId()!,
    unknownClientId: `unknown-${inventedHex(seed, 'sequences: an unknown clientId', 16)}`,
    module: session.registration!.module,
    profile: session.config.profile,
    declares: (c) => declares(session, c),
  };
}

interface SequenceReal {
  driver: SequenceDriver;
  caseId: string;
  steps: CaseOutcome[];
}

const open = (why: string): CaseIntent => ({ kind: 'open', why });
const VALID: CaseIntent = { kind: 'valid' };

const gone = (d: ModelDelivery): string => d.unknown ?? 'deleted before';

/** Sends one step's call and records its outcome. */
async function record(r: SequenceReal, callback: CallbackName, payload: unknown, intent: CaseIntent, clientId: string | undefined, extra: Partial<CaseOutcome> = {}): Promise<Reply> {
  const reply = await r.driver.send(callback, payload, clientId, `${r.caseId}.${r.steps.length + 1}`);
  r.steps.push({ case: { callback, payload, intent }, reply, module: r.driver.module, profile: r.driver.profile, ...extra });
  return reply;
}

/** Runs one step against the module and the model. */
export async function runStep(step: Step, m: SequenceModel, r: SequenceReal): Promise<void> {
  const { driver } = r;
  const id = driver.clientId;
  switch (step.op) {
    case 'save': {
      const reply = await record(r, 'delivery.save', step.request, VALID, id);
      const deliveryId = claimsSuccess(reply) ? deliveryIdOf(reply.json) : undefined;
      if (deliveryId !== undefined) m.deliveries.push({ id: deliveryId, deleted: false });
      return;
    }
    case 'edit': {
      const d = pick(m.deliveries, step.target)!;
      const reply = await record(r, 'delivery.save', { ...step.request, deliveryId: d.id }, d.deleted ? open(`an edit of a delivery ${gone(d)}`) : VALID, id);
      // The edited delivery goes on under the id the answer gives (the same one, as a rule); a get then shows it.
      if (claimsSuccess(reply)) {
        d.id = deliveryIdOf(reply.json) ?? d.id;
        if (!d.deleted && driver.declares('delivery.get')) await record(r, 'delivery.get', { deliveryId: d.id }, VALID, id);
      }
      return;
    }
    case 'get': {
      const d = pick(m.deliveries, step.target)!;
      await record(r, 'delivery.get', { deliveryId: d.id }, d.deleted ? open(`a get of a delivery ${gone(d)}: an error, or the delivery shown cancelled`) : VALID, id);
      return;
    }
    case 'delete': {
      const d = pick(m.deliveries, step.target)!;
      const inShipment = d.shipment !== undefined && !m.shipments[d.shipment]!.deleted;
      const intent = d.deleted ? open(d.unknown ? `a delete of a delivery ${gone(d)}` : 'a second delete of a delivery') : inShipment ? open('a delete of a delivery inside a shipment') : VALID;
      const reply = await record(r, 'delivery.delete', { deliveryId: d.id }, intent, id);
      if (claimsSuccess(reply)) d.deleted = true;
      return;
    }
    case 'shipmentSave': {
      const free = unshipped(m);
      const chosen = [...new Set(step.targets.map((t) => free[t % free.length]!))];
      const reply = await record(r, 'delivery.shipmentSave', shipmentSaveRequest(step.fields, chosen.map((i) => m.deliveries[i]!.id), step.packages), VALID, id);
      // A shipment saved without an id the suite can use still holds its deliveries.
      if (claimsSuccess(reply)) {
        const shipmentId = shipmentIdOf(reply.json);
        m.shipments.push({ ...(shipmentId !== undefined ? { id: shipmentId } : {}), deleted: false, deliveries: chosen });
        for (const i of chosen) m.deliveries[i]!.shipment = m.shipments.length - 1;
      }
      return;
    }
    case 'shipmentEdit': {
      const s = pick(named(m), step.shipment)!;
      const ids = s.deliveries.filter((i) => !m.deliveries[i]!.deleted).map((i) => m.deliveries[i]!.id);
      const reply = await record(r, 'delivery.shipmentSave', shipmentSaveRequest(step.fields, ids, step.packages, s.id), s.deleted ? open('an edit of a deleted shipment') : VALID, id);
      if (claimsSuccess(reply)) s.id = shipmentIdOf(reply.json) ?? s.id;
      return;
    }
    case 'shipmentDelete': {
      const s = pick(named(m), step.shipment)!;
      const reply = await record(r, 'delivery.shipmentDelete', shipmentDeleteRequest(s.id!), s.deleted ? open('a second shipmentDelete') : VALID, id);
      if (claimsSuccess(reply)) s.deleted = true;
      return;
    }
    case 'refusedDelete':
    case 'refusedEdit': {
      const d = m.deliveries[pick(live(m), step.target)!]!;
      const callback: CallbackName = step.op === 'refusedDelete' ? 'delivery.delete' : 'delivery.save';
      const payload = step.op === 'refusedDelete' ? { deliveryId: d.id } : { ...(step.request ?? {}), deliveryId: d.id };
      const intent: CaseIntent = { kind: 'refused', clientId: step.presented };
      const observeByGet = driver.declares('delivery.get');
      const label = (what: string): string => `${r.caseId}.${r.steps.length + 1}.${what}`;
      const { reply, observation } = await probeRefusal(
        observeByGet
          ? { kind: 'unchanged', what: `the delivery ${d.id} as get shows it`, reader: 'delivery.get', observe: (w) => driver.send('delivery.get', { deliveryId: d.id }, id, label(w)), act: (c) => driver.send(callback, payload, c, label('refused'), true) }
          : { kind: 'stillPossible', what: `an authorised delete of ${d.id}`, observe: (w) => driver.send('delivery.delete', { deliveryId: d.id }, id, label(w)), act: (c) => driver.send(callback, payload, c, label('refused'), true) },
        presentedClientId(step.presented, driver.unknownClientId),
      );
      r.steps.push({ case: { callback, payload, intent }, reply, module: driver.module, profile: driver.profile, observation });
      // A refused call the observer saw change the delivery (ensureRefusalLeftNoEffect fails it) leaves it in a state the model does not know.
      if (observedChange(observation)) Object.assign(d, { deleted: true, unknown: 'changed by a refused call' });
      if (!observeByGet) {
        // The authorised delete is a step of its own too: a delete of a live delivery, acknowledged.
        r.steps.push({ case: { callback: 'delivery.delete', payload: { deliveryId: d.id }, intent: VALID }, reply: observation.after, module: driver.module, profile: driver.profile });
        if (claimsSuccess(observation.after)) d.deleted = true;
      }
      return;
    }
    case 'wrong': {
      const breakages = WRONG_INPUT[step.action];
      const b = breakages[step.kind % breakages.length]!;
      const free = unshipped(m);
      // An edit's dates are broken on a live delivery outside any shipment: nothing but the date can be why a module refuses it.
      const target = step.action === 'shipmentSave' || step.action === 'edit' ? free[step.target % free.length]! : (pick(live(m), step.target) ?? 0);
      const valid: Json =
        step.action === 'delete'
          ? { deliveryId: m.deliveries[target]?.id ?? 'none' }
          : step.action === 'edit'
            ? { ...(step.request ?? {}), deliveryId: m.deliveries[target]!.id }
            : step.action === 'shipmentDelete'
              ? shipmentDeleteRequest(pick(named(m), step.target)?.id ?? 'none')
              : shipmentSaveRequest(step.fields, [m.deliveries[target]!.id], step.packages);
      const value = b.value?.(step.n);
      const intent: CaseIntent = b.open ? open(b.why) : { kind: 'wrong', field: b.field, why: b.why, source: b.source, ...(value !== undefined ? { value } : {}) };
      const reply = await record(r, step.action === 'edit' ? 'delivery.save' : `delivery.${step.action}`, b.apply(valid, step.n), intent, id);
      if (!claimsSuccess(reply) || step.action === 'shipmentDelete') return;
      const d = m.deliveries[target]!;
      if (b.open && step.action === 'edit') d.id = deliveryIdOf(reply.json) ?? d.id;
      else if (b.open && step.action === 'shipmentSave') {
        // A shipment dated in the past that the module saved is a shipment like any other.
        const shipmentId = shipmentIdOf(reply.json);
        m.shipments.push({ ...(shipmentId !== undefined ? { id: shipmentId } : {}), deleted: false, deliveries: [target] });
        d.shipment = m.shipments.length - 1;
      }
      // Wrong input creates and deletes nothing; a module that acted on it (ensureWrongInputIsRefused fails it) leaves the delivery in a state the model does not know.
      else Object.assign(d, { deleted: true, unknown: 'changed by wrong input it acted on' });
      return;
    }
    case 'refusedShipmentDelete': {
      const s = m.shipments[pick(liveShipments(m), step.shipment)!]!;
      const payload = shipmentDeleteRequest(s.id!);
      const label = (what: string): string => `${r.caseId}.${r.steps.length + 1}.${what}`;
      const { reply, observation } = await probeRefusal(
        { kind: 'stillPossible', what: `an authorised shipmentDelete of ${s.id}`, observe: (w) => driver.send('delivery.shipmentDelete', payload, id, label(w)), act: (c) => driver.send('delivery.shipmentDelete', payload, c, label('refused'), true) },
        presentedClientId(step.presented, driver.unknownClientId),
      );
      r.steps.push({ case: { callback: 'delivery.shipmentDelete', payload, intent: { kind: 'refused', clientId: step.presented } }, reply, module: driver.module, profile: driver.profile, observation });
      // The authorised shipmentDelete is a step of its own too: a shipmentDelete of a live shipment, acknowledged.
      r.steps.push({ case: { callback: 'delivery.shipmentDelete', payload, intent: VALID }, reply: observation.after, module: driver.module, profile: driver.profile });
      if (claimsSuccess(observation.after)) s.deleted = true;
      return;
    }
  }
}

/** A step as a fast-check command over this model. */
const command = (step: Step): StepCommand<Step, SequenceModel, SequenceReal> => new StepCommand(step, canRun, runStep);

/** The generated sequences: a save, then up to `maxCommands` steps the model allows. */
export function deliverySequences(ctx: SaveContext, declares: (c: CallbackName) => boolean, maxCommands = 10): fc.Arbitrary<GeneratedCase> {
  const commands = stepArbitraries(ctx, declares).map((a) => a.map((s) => command(s)));
  return fc
    .tuple(saveRequest(ctx), fc.commands(commands, { maxCommands }))
    .map(([request, cmds]) => ({ callback: 'delivery.save' as const, payload: new SequencePayload<Step, SequenceModel, SequenceReal>({ op: 'save', request }, cmds), intent: { kind: 'sequence' as const } }));
}

/** Runs a sequence case (generated, or steps read back from a saved failure) and returns its outcome, every step in `steps`. */
export async function runSequence(driver: SequenceDriver, c: GeneratedCase, caseId: string): Promise<CaseOutcome> {
  const payload = c.payload instanceof SequencePayload ? (c.payload as SequencePayload<Step, SequenceModel, SequenceReal>) : undefined;
  const steps = payload ? [payload.first] : ((c.payload as { steps?: Step[] } | undefined)?.steps ?? []);
  const real: SequenceReal = { driver, caseId, steps: [] };
  const model: SequenceModel = { deliveries: [], shipments: [] };
  const commands: Iterable<fc.AsyncCommand<SequenceModel, SequenceReal>> = payload ? payload.commands : steps.slice(1).map((s) => command(s));
  await runStep(steps[0] ?? { op: 'save', request: {} }, model, real);
  await fc.asyncModelRun(() => ({ model, real }), commands);
  const last = real.steps[real.steps.length - 1]!;
  return { case: c, reply: last.reply, module: driver.module, profile: driver.profile, steps: real.steps };
}
