/**
 * The steps of the delivery sequences and the model they run over (`delivery-sequences.ts` runs
 * them): a step as data (`Step`, what a saved failure keeps), the wrong input each step may send
 * with the sentence that makes it wrong (`WRONG_INPUT`), what the module was told (its deliveries
 * and shipments), whether a step can run on the model (`canRun`), and the steps a module's
 * declared actions allow, as arbitraries.
 */
import fc from 'fast-check';
import type { CallbackName } from '../callbacks/table.ts';
import { saveRequest, type SaveContext } from '../generators/delivery/save.ts';
import { ERRORS_7 } from '../generators/delivery/breakages.ts';
import { shipmentFields, shipmentPackages } from '../generators/delivery/shipment.ts';
import type { Presented } from './refusal-probe.ts';

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

export type WrongAction = 'delete' | 'edit' | 'shipmentSave' | 'shipmentDelete';

/** A broken request, the field a correct module names in its refusal, and the sentence that makes it wrong. */
export interface WrongInput {
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
export const WRONG_INPUT: Record<WrongAction, WrongInput[]> = {
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

export interface ModelDelivery {
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

export const live = (m: SequenceModel): number[] => m.deliveries.flatMap((d, i) => (d.deleted ? [] : [i]));
/** Shipments the suite can name (the module gave their id); `live`: not deleted either. */
export const named = (m: SequenceModel): ModelShipment[] => m.shipments.filter((s) => s.id !== undefined);
export const liveShipments = (m: SequenceModel): number[] => m.shipments.flatMap((s, i) => (s.deleted || s.id === undefined ? [] : [i]));
export const unshipped = (m: SequenceModel): number[] => live(m).filter((i) => m.deliveries[i]!.shipment === undefined);
export const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

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

/** Which steps a module's declared actions allow (document, actions rules 1 to 7; rule 5: without shipmentDelete shipments are neither edited nor deleted). */
export function stepArbitraries(ctx: SaveContext, declares: (c: CallbackName) => boolean): Array<fc.Arbitrary<Step>> {
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
