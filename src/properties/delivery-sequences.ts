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
 * A step is data (`Step`): the generated commands run it, and `conformance replay` runs the
 * saved steps of a shrunk sequence again through the same commands.
 */
import fc from 'fast-check';
import { SequencePayload, StepCommand } from './step-commands.ts';
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import { claimsSuccess } from '../checks/callbacks/reply.ts';
import { deliveryIdOf } from '../checks/delivery/save-reply.ts';
import { shipmentIdOf } from '../checks/delivery/shipment-reply.ts';
import { saveRequest, type SaveContext } from '../generators/delivery/save.ts';
import { ERRORS_7 } from '../generators/delivery/breakages.ts';
import { shipmentDeleteRequest, shipmentFields, shipmentPackages, shipmentSaveRequest } from '../generators/delivery/shipment.ts';
import { presentedClientId, probeRefusal, type Presented } from './refusal-probe.ts';
import { observedChange } from '../checks/callbacks/refusal-effect.ts';
import type { CaseIntent, CaseOutcome, GeneratedCase } from '../checks/case.ts';
import { declares } from './delivery-save-context.ts';
import { inventedHex } from '../generators/invented.ts';
import type { RunSession } from '../run/session.ts';

type Json = Record<string, unknown>;

/** One step of a sequence; targets are indices into the sequence's own deliveries or shipments, taken modulo their number. */
export type Step =
  | { op: 'save'; request: Json }
  | { op: 'edit'; target: number; request: Json }
  | { op: 'get'; target: number }
  | { op: 'delete'; target: number }
  | { op: 'shipmentSave'; targets: number[]; fields: Json; packages: Json[] }
  | { op: 'shipmentEdit'; shipment: number; fields: Json; packages: Json[] }
  | { op: 'shipmentDelete'; shipment: number }
  | { op: 'refusedDelete' | 'refusedEdit'; target: number; presented: Presented; request?: Json }
  | { op: 'refusedShipmentDelete'; shipment: number; presented: Presented }
  /**
   * Wrong input (document, Errors 7), or a request no sentence makes wrong (open): breakage `kind`
   * of WRONG_INPUT[action], `n` its size; a shipment of a live delivery of the sequence; `request`:
   * the valid save an `edit` breaks (sent with a live delivery's id).
   */
  | { op: 'wrong'; action: WrongAction; kind: number; n: number; target: number; fields: Json; packages: Json[]; request?: Json };

type WrongAction = 'delete' | 'edit' | 'shipmentSave' | 'shipmentDelete';

/** A broken request, the field a correct module names in its refusal, and the sentence that makes it wrong. */
interface WrongInput {
  field: string;
  why: string;
  /** The sentences it rests on, quoted with their document and section. */
  source: string;
  /** No sentence makes it wrong: a success or a well-formed refusal is right (intent `open`). */
  open?: true;
  /** The broken request, from a valid one. */
  apply(valid: Json, n: number): unknown;
  /** The wrong value sent (a message may quote it instead of naming the field). */
  value?(n: number): unknown;
}

const PROFILE_JSON = 'wire profile section 1: "one field named after the action whose value is a JSON string"';
/** A day of 2020 (always past): deterministic, as a replayed step must send the same. */
const pastDay = (n: number): string => `2020-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
const editDelivery = (v: Json, change: (d: Json) => Json): Json => ({ ...v, delivery: change({ ...((v.delivery ?? {}) as Json) }) });

/** Wrong input of the actions the sequences reach, each with the sentence that makes it wrong, quoted (document, Errors 7: "for example a past delivery date or zero weight"). */
const WRONG_INPUT: Record<WrongAction, WrongInput[]> = {
  delete: [
    { field: 'deliveryId', why: 'a delete without its deliveryId', source: 'wire profile section 2: delete "`{deliveryId}`"', apply: ({ deliveryId: _d, ...rest }) => rest },
    { field: 'delete', why: 'the delete field is not JSON', source: PROFILE_JSON, apply: (v, n) => ({ raw: JSON.stringify(v).slice(0, -1 - (n % 3)) }) },
  ],
  // The edit of a save (document: "a saved order with a delivery changes (edit; carries `deliveryId`)"): its dates.
  edit: [
    {
      field: 'deliveryDate',
      why: 'an edit with a delivery date in the past',
      // The document's own example: "a past delivery date".
      source: `${ERRORS_7}; wire profile section 2: save "delivery{..., shipmentDate, deliveryDate, ...}"`,
      apply: (v, n) => editDelivery(v, (d) => ({ ...d, deliveryDate: `${pastDay(n)} 12:00:00` })),
      value: (n) => `${pastDay(n)} 12:00:00`,
    },
    {
      field: 'shipmentDate',
      why: 'an edit with a shipment date in the past (no sentence makes it wrong input)',
      open: true,
      source: 'wire profile section 2: save "delivery{..., shipmentDate, deliveryDate, ...}"',
      apply: (v, n) => editDelivery(v, ({ deliveryDate: _d, ...d }) => ({ ...d, shipmentDate: `${pastDay(n)} 10:00:00` })),
    },
  ],
  shipmentDelete: [
    { field: 'shipmentId', why: 'a shipmentDelete without its shipmentId', source: 'wire profile section 2: shipmentDelete "`{shipmentId, extraData}`"', apply: ({ shipmentId: _s, ...rest }) => rest },
    { field: 'shipmentDelete', why: 'the shipmentDelete field is not JSON', source: PROFILE_JSON, apply: (v, n) => ({ raw: JSON.stringify(v).slice(0, -1 - (n % 3)) }) },
  ],
  shipmentSave: [
    // The pickup day of a shipment is no delivery date: a module may save a shipment dated in the past (handed over already), or refuse it.
    { field: 'date', why: 'a shipment (pickup) date in the past (no sentence makes it wrong input)', open: true, source: 'wire profile section 2: shipmentSave "`{shipmentId? (edit), manager, date, time, ...}`"', apply: (v, n) => ({ ...v, date: `${pastDay(n)} 09:00:00` }) },
    { field: 'orders', why: 'orders that are not a list', source: 'wire profile section 2: shipmentSave "`orders[{deliveryId, packages[]}]`"', apply: (v) => ({ ...v, orders: 'none' }), value: () => 'none' },
    {
      field: 'weight',
      why: 'a package of an order with a zero weight',
      // The document's own example: "zero weight".
      source: `${ERRORS_7}; wire profile section 2: "Package: \`{packageId, weight, width, length, height, items[]}\`"`,
      apply: (v) => ({ ...v, orders: ((v.orders as Json[] | undefined) ?? []).map((o, i) => (i === 0 ? { ...o, packages: [{ ...(((o.packages as Json[] | undefined) ?? [])[0] ?? {}), weight: 0 }] } : o)) }),
    },
  ],
};

interface ModelDelivery {
  id: string;
  /** Deleted, or in a state the model no longer knows (`unknown` says why): every answer about it is open. */
  deleted: boolean;
  unknown?: string;
  /** Index of the live shipment it belongs to. */
  shipment?: number;
}

interface ModelShipment {
  /** Undefined: the module saved it but gave no id the suite can name it by (it can be neither edited nor deleted). */
  id?: string;
  deleted: boolean;
  deliveries: number[];
}

/** What the module was told in this sequence, and what it answered. */
export interface SequenceModel {
  deliveries: ModelDelivery[];
  shipments: ModelShipment[];
}

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

const live = (m: SequenceModel): number[] => m.deliveries.flatMap((d, i) => (d.deleted ? [] : [i]));
/** Shipments the suite can name (the module gave their id); `live`: not deleted either. */
const named = (m: SequenceModel): ModelShipment[] => m.shipments.filter((s) => s.id !== undefined);
const liveShipments = (m: SequenceModel): number[] => m.shipments.flatMap((s, i) => (s.deleted || s.id === undefined ? [] : [i]));
const unshipped = (m: SequenceModel): number[] => live(m).filter((i) => m.deliveries[i]!.shipment === undefined);
const gone = (d: ModelDelivery): string => d.unknown ?? 'deleted before';
const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

/** Sends one step's call and records its outcome. */
async function record(r: SequenceReal, callback: CallbackName, payload: unknown, intent: CaseIntent, clientId: string | undefined, extra: Partial<CaseOutcome> = {}): Promise<Reply> {
  const reply = await r.driver.send(callback, payload, clientId, `${r.caseId}.${r.steps.length + 1}`);
  r.steps.push({ case: { callback, payload, intent }, reply, module: r.driver.module, profile: r.driver.profile, ...extra });
  return reply;
}

/** Whether a step can run on the model as it is (fast-check skips a step that cannot). */
export function canRun(step: Step, m: SequenceModel): boolean {
  switch (step.op) {
    case 'save':
      return true;
    case 'edit':
    case 'get':
    case 'delete':
      return m.deliveries.length > 0;
    case 'refusedDelete':
    case 'refusedEdit':
      return live(m).length > 0;
    case 'shipmentSave':
      return unshipped(m).length > 0;
    case 'shipmentEdit':
    case 'shipmentDelete':
      return named(m).length > 0;
    case 'refusedShipmentDelete':
      return liveShipments(m).length > 0;
    case 'wrong':
      return step.action === 'shipmentSave' || step.action === 'edit' ? unshipped(m).length > 0 : true;
  }
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

/** Which steps a module's declared actions allow (document, actions rules 1 to 7; rule 5: without shipmentDelete shipments are neither edited nor deleted). */
function stepArbitraries(ctx: SaveContext, declares: (c: CallbackName) => boolean): Array<fc.Arbitrary<Step>> {
  const save = saveRequest(ctx);
  const target = fc.nat({ max: 7 });
  const presented = fc.constantFrom<Presented>('missing', 'unknown');
  const out: Array<fc.Arbitrary<Step>> = [save.map((request) => ({ op: 'save' as const, request })), target.chain((t) => save.map((request) => ({ op: 'edit' as const, target: t, request })))];
  if (declares('delivery.get')) out.push(target.map((t) => ({ op: 'get' as const, target: t })));
  if (declares('delivery.delete')) {
    out.push(target.map((t) => ({ op: 'delete' as const, target: t })));
    out.push(fc.record({ target, presented }).map((g) => ({ op: 'refusedDelete' as const, ...g })));
  }
  if (declares('delivery.get')) out.push(fc.record({ target, presented, request: save }).map((g) => ({ op: 'refusedEdit' as const, ...g })));
  if (declares('delivery.shipmentSave')) {
    const fields = shipmentFields(ctx);
    out.push(fc.record({ targets: fc.array(target, { minLength: 1, maxLength: 3 }), fields, packages: shipmentPackages(ctx) }).map((g) => ({ op: 'shipmentSave' as const, ...g })));
    if (declares('delivery.shipmentDelete')) {
      out.push(fc.record({ shipment: target, fields, packages: shipmentPackages(ctx) }).map((g) => ({ op: 'shipmentEdit' as const, ...g })));
      out.push(target.map((t) => ({ op: 'shipmentDelete' as const, shipment: t })));
      out.push(fc.record({ shipment: target, presented }).map((g) => ({ op: 'refusedShipmentDelete' as const, ...g })));
    }
  }
  // Wrong input of each action declared (calculate's and save's have properties of their own).
  for (const action of (['delete', 'shipmentSave', 'shipmentDelete'] as const).filter((a) => declares(`delivery.${a}`))) {
    out.push(
      fc
        .record({ kind: fc.nat({ max: WRONG_INPUT[action].length - 1 }), n: fc.integer({ min: 1, max: 1000 }), target, fields: shipmentFields(ctx), packages: shipmentPackages(ctx) })
        .map((g) => ({ op: 'wrong' as const, action, ...g })),
    );
  }
  // The edit of a save with its dates broken (a past delivery date: wrong; a past shipment date: open).
  out.push(
    fc
      .record({ kind: fc.nat({ max: WRONG_INPUT.edit.length - 1 }), n: fc.integer({ min: 1, max: 1000 }), target, request: save })
      .map((g) => ({ op: 'wrong' as const, action: 'edit' as const, fields: {}, packages: [], ...g })),
  );
  return out;
}

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


