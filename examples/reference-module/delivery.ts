/**
 * Delivery: a small carrier with real in-memory state. Tariffs are computed from weight,
 * declared value, cash on delivery and the cost-affecting data fields; deliveries are created,
 * edited, read and cancelled; documents are printed as PDF (one) or ZIP (several); terminals
 * are listed and autocompleted; shipments (pickup requests) are saved and cancelled; tracking
 * advances each delivery along the carrier's statuses.
 *
 * Callback encodings: wire-profile section 1 (POST form `clientId` + `<action>=<json>`, GET
 * query); bodies: wire-profile section 2.
 */
import { randomInt } from 'node:crypto';
import type { FaultName, FaultSet } from './faults.ts';
import { CallbackAuth, HttpError, badRequest, getCallback, jsonField, notFound, postCallback, unknownIdMessage, unknownIdStyle, presentedClientId, sendReply, success, type CallbackReply, type Payload, type PostHandler, type RouteHandler, type Router } from './http.ts';
import {
  addDays,
  dateTime,
  isObj,
  optArray,
  optBoolean,
  optDate,
  optEnum,
  optNonNegative,
  optNumber,
  optObject,
  optPositive,
  optString,
  reqString,
  round2,
  today,
  type Obj,
} from './input.ts';
import { buildPdf, buildZip } from './documents.ts';
import { hasHostileCalculate, hostileCalculate } from './hostile.ts';
import { AUTOCOMPLETE_PATH, DELIVERY_ACTION_METHODS, PLATES, PLATE_PRINT_LIMIT, deliveryServedPaths, type DeliveryAction } from './registration.ts';

// ---------------------------------------------------------------- carrier network

export interface Terminal {
  code: string;
  name: string;
  city: string;
  countryIso: string;
  region: string;
  address: string;
  schedule: string;
  phone: string;
  latitude: number;
  longitude: number;
}

export const TERMINALS: readonly Terminal[] = [
  { code: 'BER-001', name: 'Berlin Mitte terminal', city: 'Berlin', countryIso: 'DE', region: 'Berlin', address: 'Invalidenstrasse 50, 10557 Berlin', schedule: 'Mo-Fr 08:00-20:00, Sa 09:00-14:00', phone: '+4930111001', latitude: 52.5251, longitude: 13.3694 },
  { code: 'BER-002', name: 'Berlin Kreuzberg pickup point', city: 'Berlin', countryIso: 'DE', region: 'Berlin', address: 'Oranienstrasse 12, 10999 Berlin', schedule: 'Mo-Sa 10:00-19:00', phone: '+4930111002', latitude: 52.5019, longitude: 13.4178 },
  { code: 'HAM-001', name: 'Hamburg Altona terminal', city: 'Hamburg', countryIso: 'DE', region: 'Hamburg', address: 'Max-Brauer-Allee 80, 22765 Hamburg', schedule: 'Mo-Fr 08:00-19:00', phone: '+4940111001', latitude: 53.5526, longitude: 9.9353 },
  { code: 'PAR-001', name: 'Paris Bercy pickup point', city: 'Paris', countryIso: 'FR', region: 'Ile-de-France', address: '48 Rue de Bercy, 75012 Paris', schedule: 'Mo-Sa 09:00-19:00', phone: '+33140111001', latitude: 48.8399, longitude: 2.3826 },
  { code: 'MSK-001', name: 'Moscow Tverskaya pickup point', city: 'Moscow', countryIso: 'RU', region: 'Moscow', address: 'Tverskaya 7, 125009 Moscow', schedule: 'Mo-Su 09:00-21:00', phone: '+74951110001', latitude: 55.7579, longitude: 37.6136 },
  { code: 'MSK-002', name: 'Moscow Paveletskaya terminal', city: 'Moscow', countryIso: 'RU', region: 'Moscow', address: 'Paveletskaya square 1, 115054 Moscow', schedule: 'Mo-Fr 08:00-20:00', phone: '+74951110002', latitude: 55.7297, longitude: 37.6401 },
  { code: 'NYC-001', name: 'New York Midtown pickup point', city: 'New York', countryIso: 'US', region: 'NY', address: '350 W 34th St, New York, NY 10001', schedule: 'Mo-Fr 08:00-20:00', phone: '+12125550101', latitude: 40.7527, longitude: -73.9967 },
];

/** The terminal as the contract shows it (wire-profile section 2). */
function terminalView(t: Terminal, cost?: number): Record<string, unknown> {
  const view: Record<string, unknown> = {
    code: t.code,
    name: t.name,
    address: t.address,
    schedule: t.schedule,
    phone: t.phone,
    description: `${t.city}, ${t.countryIso}`,
    coordinates: { latitude: t.latitude, longitude: t.longitude },
  };
  if (cost !== undefined) view.cost = cost;
  return view;
}

const norm = (s: string): string => s.trim().toLowerCase();

/** Terminals of a city; else of the country; else the whole network (nearest known). */
export function terminalsNear(city?: string, countryIso?: string): Terminal[] {
  if (city) {
    const inCity = TERMINALS.filter((t) => norm(t.city) === norm(city));
    if (inCity.length > 0) return inCity;
  }
  if (countryIso) {
    const inCountry = TERMINALS.filter((t) => t.countryIso === countryIso.toUpperCase());
    if (inCountry.length > 0) return inCountry;
  }
  return [...TERMINALS];
}

// ---------------------------------------------------------------- tariffs

export interface Tariff {
  code: string;
  group: string;
  name: string;
  type: 'courier' | 'selfDelivery';
  description: string;
  base: number;
  perKg: number;
  minTerm: number;
  maxTerm: number;
  extraDataAvailable: string[];
}

export const TARIFFS: readonly Tariff[] = [
  { code: 'standard', group: 'courier', name: 'Courier, standard', type: 'courier', description: 'Door-to-door delivery in 2-4 working days', base: 4.9, perKg: 1.1, minTerm: 2, maxTerm: 4, extraDataAvailable: ['courierComment', 'places', 'insurance', 'deliveryWindow', 'preferredDate'] },
  { code: 'express', group: 'courier', name: 'Courier, express', type: 'courier', description: 'Door-to-door delivery on the next working day', base: 9.9, perKg: 1.9, minTerm: 1, maxTerm: 1, extraDataAvailable: ['courierComment', 'places', 'insurance', 'deliveryWindow'] },
  { code: 'pickup', group: 'pickup', name: 'Pickup point', type: 'selfDelivery', description: 'Delivery to a pickup point in 2-5 working days', base: 2.9, perKg: 0.7, minTerm: 2, maxTerm: 5, extraDataAvailable: ['courierComment', 'places', 'insurance', 'pickupPoint'] },
];

const DELIVERY_WINDOWS = ['morning', 'afternoon', 'evening'] as const;

/** What the cost depends on. */
interface CostBasis {
  /** Total weight in grams (0 when unknown). */
  weight: number;
  declaredValue: number;
  cod: number;
  places: number;
  insurance: boolean;
  deliveryWindow?: (typeof DELIVERY_WINDOWS)[number];
}

/** Cost of a tariff: base + per started half kilogram + fees (cash on delivery, insurance, places, evening). */
export function quote(tariff: Tariff, b: CostBasis): number {
  const halfKgs = Math.max(1, Math.ceil(b.weight / 500));
  let cost = tariff.base + (tariff.perKg * halfKgs) / 2;
  if (b.cod > 0) cost += 1 + b.cod * 0.015;
  if (b.insurance) cost += b.declaredValue * 0.01;
  cost += Math.max(0, b.places - 1) * 1.5;
  if (b.deliveryWindow === 'evening' && tariff.type === 'courier') cost += 2;
  return round2(cost);
}

// ---------------------------------------------------------------- input

interface PackageInfo {
  packageId?: string;
  weight: number;
  width?: number;
  length?: number;
  height?: number;
  declaredValue: number;
  cod: number;
}

/** Reads `packages[]`; wrong values name the field (`packages[0].weight must be greater than 0`). */
function readPackages(list: unknown[] | undefined, prefix: string): PackageInfo[] {
  return (list ?? []).map((raw, i) => {
    const p = `${prefix}[${i}]`;
    if (!isObj(raw)) throw badRequest(`${p} must be an object`);
    const weight = optPositive(raw, 'weight', `${p}.weight`);
    const width = optPositive(raw, 'width', `${p}.width`);
    const length = optPositive(raw, 'length', `${p}.length`);
    const height = optPositive(raw, 'height', `${p}.height`);
    let itemsWeight = 0;
    let declaredValue = 0;
    let cod = 0;
    (optArray(raw, 'items', `${p}.items`) ?? []).forEach((item, j) => {
      const q = `${p}.items[${j}]`;
      if (!isObj(item)) throw badRequest(`${q} must be an object`);
      const quantity = optPositive(item, 'quantity', `${q}.quantity`) ?? 1;
      itemsWeight += (optNonNegative(item, 'weight', `${q}.weight`) ?? 0) * quantity;
      declaredValue += (optNonNegative(item, 'declaredValue', `${q}.declaredValue`) ?? 0) * quantity;
      cod += (optNonNegative(item, 'cod', `${q}.cod`) ?? 0) * quantity;
      const vat = item.vatRate;
      if (vat !== undefined && vat !== null && typeof vat !== 'string' && typeof vat !== 'number') throw badRequest(`${q}.vatRate must be a string or a number`);
    });
    // Weight is always required for delivery work (document): the package's own, or its items'.
    if (weight === undefined && itemsWeight <= 0) throw badRequest(`${p}.weight is required (the package's weight in grams, or its items' weights)`);
    const info: PackageInfo = { weight: weight ?? itemsWeight, declaredValue, cod };
    const packageId = optString(raw, 'packageId', `${p}.packageId`);
    if (packageId !== undefined) info.packageId = packageId;
    if (width !== undefined) info.width = width;
    if (length !== undefined) info.length = length;
    if (height !== undefined) info.height = height;
    return info;
  });
}

/** `extraData` is a map of data-field code to value (PHP sends an empty map as `[]`). */
function readExtraData(o: Obj, path: string): Obj {
  const v = o.extraData;
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return {};
  if (!isObj(v)) throw badRequest(`${path} must be an object`);
  return v;
}

interface ExtraOptions {
  places: number;
  insurance: boolean;
  deliveryWindow?: (typeof DELIVERY_WINDOWS)[number];
  pickupPoint?: string;
}

function readExtraOptions(extra: Obj, path: string): ExtraOptions {
  const placesRaw = optNumber(extra, 'places', `${path}.places`);
  if (placesRaw !== undefined && (!Number.isInteger(placesRaw) || placesRaw < 1)) throw badRequest(`${path}.places must be an integer greater than 0`);
  const out: ExtraOptions = { places: placesRaw ?? 1, insurance: optBoolean(extra, 'insurance', `${path}.insurance`) ?? false };
  const window = optEnum(extra, 'deliveryWindow', `${path}.deliveryWindow`, DELIVERY_WINDOWS);
  if (window !== undefined) out.deliveryWindow = window;
  const pp = extra.pickupPoint;
  const ppCode = isObj(pp) ? optString(pp, 'value', `${path}.pickupPoint.value`) : optString(extra, 'pickupPoint', `${path}.pickupPoint`);
  if (ppCode) {
    if (!TERMINALS.some((t) => t.code === ppCode)) throw badRequest(`${path}.pickupPoint ${JSON.stringify(ppCode)} is not a pickup point of the carrier`);
    out.pickupPoint = ppCode;
  }
  const preferred = optDate(extra, 'preferredDate', `${path}.preferredDate`);
  if (preferred !== undefined && preferred < today()) throw badRequest(`${path}.preferredDate must not be in the past`);
  return out;
}

/**
 * Shipment and delivery dates: not in the past, delivery not before shipment. `past`: what may be
 * in the past (variation `accepts-past-shipment-date`: a shipment handed over already; fault
 * `accepts-past-delivery-date`: a delivery date, wrong input by the document's Errors 7).
 */
function readDates(o: Obj, prefix: string, past: { shipment?: boolean; delivery?: boolean } = {}): { shipmentDate?: string; deliveryDate?: string } {
  const p = prefix ? `${prefix}.` : '';
  const shipmentDate = optDate(o, 'shipmentDate', `${p}shipmentDate`);
  const deliveryDate = optDate(o, 'deliveryDate', `${p}deliveryDate`);
  const now = today();
  if (shipmentDate !== undefined && shipmentDate < now && !past.shipment) throw badRequest(`${p}shipmentDate must not be in the past (${shipmentDate} is before ${now})`);
  if (deliveryDate !== undefined && deliveryDate < now && !past.delivery) throw badRequest(`${p}deliveryDate must not be in the past (${deliveryDate} is before ${now})`);
  if (shipmentDate !== undefined && deliveryDate !== undefined && deliveryDate < shipmentDate) throw badRequest(`${p}deliveryDate must not be before ${p}shipmentDate`);
  const out: { shipmentDate?: string; deliveryDate?: string } = {};
  if (shipmentDate !== undefined) out.shipmentDate = shipmentDate;
  if (deliveryDate !== undefined) out.deliveryDate = deliveryDate;
  return out;
}

function readCurrency(o: Obj, path: string): string | undefined {
  const c = optString(o, 'currency', path);
  if (c !== undefined && !/^[A-Z]{3}$/.test(c)) throw badRequest(`${path} must be a three-letter ISO 4217 code`);
  return c;
}

const ADDRESS_STRINGS = ['index', 'countryIso', 'region', 'city', 'street', 'building', 'flat', 'house', 'text', 'terminal'] as const;
const ADDRESS_IDS = ['regionId', 'cityId', 'streetId'] as const;

/** An address as stored: only the known members, with their contract types. */
function readAddress(o: Obj, key: string, path: string): Obj | undefined {
  const a = optObject(o, key, path);
  if (!a) return undefined;
  const out: Obj = {};
  for (const k of ADDRESS_STRINGS) {
    const v = optString(a, k, `${path}.${k}`);
    if (v !== undefined) out[k] = v;
  }
  for (const k of ADDRESS_IDS) {
    const v = a[k];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) throw badRequest(`${path}.${k} must be an integer or a string`);
    out[k] = v;
  }
  if (typeof out.countryIso === 'string' && !/^[A-Z]{2}$/.test(out.countryIso)) throw badRequest(`${path}.countryIso must be a two-letter ISO 3166 code`);
  if (typeof out.terminal === 'string' && out.terminal && !TERMINALS.some((t) => t.code === out.terminal)) {
    throw badRequest(`${path}.terminal ${JSON.stringify(out.terminal)} is not a terminal of the carrier`);
  }
  return out;
}

function readTimeInterval(o: Obj, key: string, path: string): Obj | undefined {
  const t = optObject(o, key, path);
  if (!t) return undefined;
  const out: Obj = {};
  for (const k of ['from', 'to', 'custom']) {
    const v = optString(t, k, `${path}.${k}`);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

// ---------------------------------------------------------------- state

export interface StatusEntry {
  code: string;
  updatedAt: string;
  comment: string;
}

export interface DeliveryRecord {
  deliveryId: string;
  trackNumber: string;
  tariff: Tariff;
  cost: number;
  packages: PackageInfo[];
  basis: CostBasis;
  extraData: Obj;
  currency?: string;
  orderNumber?: string;
  siteName?: string;
  payerType?: 'sender' | 'receiver';
  shipmentAddress?: Obj;
  deliveryAddress?: Obj;
  shipmentDate?: string;
  deliveryDate?: string;
  deliveryTime?: Obj;
  status: StatusEntry;
  history: StatusEntry[];
  shipmentId?: string;
  createdAt: string;
}

export interface ShipmentRecord {
  shipmentId: string;
  date?: string;
  time?: Obj;
  store?: string;
  address?: Obj;
  deliveryIds: string[];
  comment?: string;
  extraData: Obj;
  cancelled: boolean;
  createdAt: string;
}

const COURIER_FLOW = ['created', 'accepted', 'in_transit', 'delivered'];
const PICKUP_FLOW = ['created', 'accepted', 'in_transit', 'ready_for_pickup', 'delivered'];
const FINAL = new Set(['delivered', 'returned', 'cancelled']);
const EDITABLE = new Set(['created']);

const STATUS_COMMENTS: Record<string, string> = {
  created: 'Registered with the carrier',
  accepted: 'Parcel accepted at the terminal',
  in_transit: 'On the way',
  ready_for_pickup: 'Waiting at the pickup point',
  delivered: 'Handed to the recipient',
  cancelled: 'Cancelled by the shop',
};

function statusEntry(code: string, comment = STATUS_COMMENTS[code] ?? code): StatusEntry {
  return { code, updatedAt: new Date().toISOString(), comment };
}

export class DeliveryStore {
  readonly deliveries = new Map<string, DeliveryRecord>();
  readonly shipments = new Map<string, ShipmentRecord>();
  private deliverySeq = 0;
  private shipmentSeq = 0;

  nextDeliveryId(): string {
    return `RM${String(++this.deliverySeq).padStart(6, '0')}`;
  }

  nextShipmentId(): string {
    return `SH${String(++this.shipmentSeq).padStart(5, '0')}`;
  }

  newTrackNumber(): string {
    let track: string;
    do track = `RM${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}DE`;
    while ([...this.deliveries.values()].some((d) => d.trackNumber === track));
    return track;
  }

  delivery(id: string): DeliveryRecord {
    const d = this.deliveries.get(id);
    if (!d) throw notFound(unknownIdMessage('delivery', 'deliveryId', id));
    return d;
  }

  /** Creates a delivery registered directly at the carrier (not through the system). */
  createDirect(orderNumber: string): DeliveryRecord {
    const tariff = TARIFFS[0]!;
    const basis: CostBasis = { weight: 1000, declaredValue: 0, cod: 0, places: 1, insurance: false };
    const record: DeliveryRecord = {
      deliveryId: this.nextDeliveryId(),
      trackNumber: this.newTrackNumber(),
      tariff,
      cost: quote(tariff, basis),
      packages: [{ weight: 1000, declaredValue: 0, cod: 0 }],
      basis,
      extraData: {},
      orderNumber,
      status: statusEntry('created', 'Registered at the carrier desk'),
      history: [],
      createdAt: new Date().toISOString(),
    };
    record.history.push(record.status);
    this.deliveries.set(record.deliveryId, record);
    return record;
  }

  /** Moves a delivery one step along its flow (final statuses stay). Returns the record. */
  advance(d: DeliveryRecord): DeliveryRecord {
    if (FINAL.has(d.status.code)) return d;
    const flow = d.tariff.type === 'selfDelivery' ? PICKUP_FLOW : COURIER_FLOW;
    const next = flow[Math.min(flow.indexOf(d.status.code) + 1, flow.length - 1)] ?? 'delivered';
    d.status = statusEntry(next);
    d.history.push(d.status);
    return d;
  }
}

/** The tracking entry of a delivery (`statusUpdate[]` element, wire-profile section 2). */
export function trackingEntry(d: DeliveryRecord): Record<string, unknown> {
  return {
    deliveryId: d.deliveryId,
    trackNumber: d.trackNumber,
    cost: d.cost,
    history: d.history.map((h) => ({ ...h })),
    extraData: { ...d.extraData },
  };
}

// ---------------------------------------------------------------- actions

function costBasis(packages: PackageInfo[], o: Obj, extra: ExtraOptions, codOverride?: number): CostBasis {
  const declaredValue = optNonNegative(o, 'declaredValue', 'declaredValue') ?? packages.reduce((s, p) => s + p.declaredValue, 0);
  const cod = codOverride ?? optNonNegative(o, 'cod', 'cod') ?? packages.reduce((s, p) => s + p.cod, 0);
  const basis: CostBasis = {
    weight: packages.reduce((s, p) => s + p.weight, 0),
    declaredValue,
    cod,
    places: Math.max(extra.places, packages.length || 1),
    insurance: extra.insurance,
  };
  if (extra.deliveryWindow) basis.deliveryWindow = extra.deliveryWindow;
  return basis;
}

function findTariff(code: string | undefined, path: string): Tariff {
  if (code === undefined || code === '') return TARIFFS[0]!;
  const t = TARIFFS.find((x) => x.code === code);
  if (!t) throw badRequest(`${path} ${JSON.stringify(code)} is not a tariff of the carrier (known: ${TARIFFS.map((x) => x.code).join(', ')})`);
  return t;
}

export class DeliveryService {
  /** Deliveries edited since they were saved (fault `get-after-edit-unknown`: get no longer finds them). */
  private readonly edited = new Set<string>();

  constructor(
    readonly store: DeliveryStore,
    private readonly faults?: FaultSet,
    /** Variation `strict-delivery-configuration`: one package, no cash on delivery, no cost, more required fields. */
    private readonly strict = false,
    /** Variation `accepts-past-shipment-date`: calculate, save and shipmentSave take a shipment dated in the past. */
    private readonly options: { pastShipmentDates?: boolean } = {},
  ) {}

  /** What calculate and save take in the past: a shipment date under `accepts-past-shipment-date`, a delivery date under fault `accepts-past-delivery-date`. */
  private pastDates(): { shipment: boolean; delivery: boolean } {
    return { shipment: this.options.pastShipmentDates === true, delivery: this.faults?.has('accepts-past-delivery-date') === true };
  }

  calculate(payload: Payload): CallbackReply {
    if (this.strict) refuseBeyondConfiguration(payload, 'calculate');
    try {
      const reply = this.calculateFor(this.faults?.has('calculate-accepts-zero-weight') ? withoutZeroWeights(payload) : payload);
      // Fault `vat-none-refused`: a request otherwise right is refused for its vatRate none.
      if (this.faults?.has('vat-none-refused')) refuseVatNone(payload);
      return reply;
    } catch (e) {
      if (this.faults?.has('calculate-error-without-field') && e instanceof HttpError) throw badRequest('invalid request');
      if (this.faults?.has('calculate-error-without-errormsg') && e instanceof HttpError) return { kind: 'json', status: 400, body: { success: false } };
      throw e;
    }
  }

  private calculateFor(payload: Payload): CallbackReply {
    readCurrency(payload, 'currency');
    const packages = readPackages(optArray(payload, 'packages', 'packages'), 'packages');
    optEnum(payload, 'payerType', 'payerType', ['sender', 'receiver'] as const);
    readDates(payload, '', this.pastDates());
    const extra = readExtraOptions(readExtraData(payload, 'extraData'), 'extraData');
    const deliveryAddress = readAddress(payload, 'deliveryAddress', 'deliveryAddress');
    // The city of the delivery address is always required for delivery work (document).
    if (deliveryAddress && (typeof deliveryAddress.city !== 'string' || deliveryAddress.city === '')) throw badRequest('deliveryAddress.city is required');
    // Fault `non-ascii-city-500`: a city with a letter outside ASCII breaks the module (HTTP 500).
    if (this.faults?.has('non-ascii-city-500')) refuseNonAsciiCity(deliveryAddress);
    readAddress(payload, 'shipmentAddress', 'shipmentAddress');
    const basis = costBasis(packages, payload, extra);
    const city = typeof deliveryAddress?.city === 'string' ? deliveryAddress.city : undefined;
    const country = typeof deliveryAddress?.countryIso === 'string' ? deliveryAddress.countryIso : undefined;
    const result = TARIFFS.map((t) => {
      const cost = quote(t, basis);
      const tariff: Record<string, unknown> = {
        code: t.code,
        group: t.group,
        name: t.name,
        type: t.type,
        description: t.description,
        cost,
        minTerm: t.minTerm,
        maxTerm: t.maxTerm,
        extraData: {},
        extraDataAvailable: [...t.extraDataAvailable],
      };
      if (t.type === 'selfDelivery') tariff.pickuppointList = terminalsNear(city, country).map((x) => terminalView(x, cost));
      if (this.faults?.has('calculate-tariff-type-unknown') && t.code === 'express') tariff.type = 'express';
      if (this.faults?.has('calculate-cost-as-text-over-10kg') && basis.weight > 10_000) tariff.cost = cost.toFixed(2);
      if (this.faults?.has('calculate-extra-data-available-unknown')) tariff.extraDataAvailable = [...t.extraDataAvailable, 'giftWrap'];
      if (this.faults?.has('tariff-without-code') && t.code === 'express') delete tariff.code;
      return tariff;
    });
    // rateDeliveryCost false (variation strict-delivery-configuration): the module computes no cost.
    if (this.strict) for (const t of result) delete (t as { cost?: unknown }).cost;
    if (this.faults?.has('calculate-result-not-array')) return success({ tariffs: result });
    return success(result);
  }

  save(payload: Payload): CallbackReply {
    if (this.strict) refuseBeyondConfiguration(payload, 'save');
    const reply = this.saveFor(payload);
    // Fault `vat-none-refused`: a request otherwise right is refused for its vatRate none.
    if (this.faults?.has('vat-none-refused')) refuseVatNone(payload);
    return reply;
  }

  private saveFor(payload: Payload): CallbackReply {
    const editId = optString(payload, 'deliveryId', 'deliveryId');
    const existing = editId !== undefined && editId !== '' ? this.store.delivery(editId) : undefined;
    if (existing && existing.status.code === 'cancelled') throw badRequest(`deliveryId ${existing.deliveryId} is cancelled and cannot be edited`);
    if (existing && !EDITABLE.has(existing.status.code)) throw badRequest(`deliveryId ${existing.deliveryId} can no longer be edited: its status is ${existing.status.code}`);
    const currency = readCurrency(payload, 'currency');
    const packagesRaw = optArray(payload, 'packages', 'packages');
    const packages = packagesRaw ? readPackages(packagesRaw, 'packages') : (existing?.packages ?? []);
    const delivery = optObject(payload, 'delivery', 'delivery') ?? {};
    const tariffCode = optString(delivery, 'tariff', 'delivery.tariff');
    const tariff = tariffCode !== undefined || !existing ? findTariff(tariffCode, 'delivery.tariff') : existing.tariff;
    const payerType = optEnum(delivery, 'payerType', 'delivery.payerType', ['sender', 'receiver'] as const) ?? existing?.payerType;
    const withCod = optBoolean(delivery, 'withCod', 'delivery.withCod');
    const deliveryCod = optNonNegative(delivery, 'cod', 'delivery.cod') ?? 0;
    optNonNegative(delivery, 'cost', 'delivery.cost');
    const vat = delivery.vatRate;
    if (vat !== undefined && vat !== null && typeof vat !== 'string' && typeof vat !== 'number') throw badRequest('delivery.vatRate must be a string or a number');
    const dates = readDates(delivery, 'delivery', this.pastDates());
    const extraData = delivery.extraData !== undefined ? readExtraData(delivery, 'delivery.extraData') : (existing?.extraData ?? {});
    const extra = readExtraOptions(extraData, 'delivery.extraData');
    const givenAddress = readAddress(delivery, 'deliveryAddress', 'delivery.deliveryAddress');
    // The city of the delivery address is always required for delivery work (document).
    if (givenAddress && (typeof givenAddress.city !== 'string' || givenAddress.city === '')) throw badRequest('delivery.deliveryAddress.city is required');
    // Fault `non-ascii-city-500`: a city with a letter outside ASCII breaks the module (HTTP 500).
    if (this.faults?.has('non-ascii-city-500')) refuseNonAsciiCity(givenAddress);
    const deliveryAddress = givenAddress ?? existing?.deliveryAddress;
    const shipmentAddress = readAddress(delivery, 'shipmentAddress', 'delivery.shipmentAddress') ?? existing?.shipmentAddress;
    const deliveryTime = readTimeInterval(delivery, 'deliveryTime', 'delivery.deliveryTime') ?? existing?.deliveryTime;
    if (tariff.type === 'selfDelivery' && deliveryAddress && !deliveryAddress.terminal && !extra.pickupPoint) {
      throw badRequest('delivery.deliveryAddress.terminal is required for the pickup-point tariff');
    }
    // Total cash on delivery = sum(item cod x quantity) + delivery.cod, only when withCod is not false.
    const cod = withCod === false ? 0 : packages.reduce((s, p) => s + p.cod, 0) + deliveryCod;
    const basis = costBasis(packages, {}, extra, cod);
    const cost = quote(tariff, basis);

    const record: DeliveryRecord = existing ?? {
      deliveryId: this.store.nextDeliveryId(),
      trackNumber: this.store.newTrackNumber(),
      tariff,
      cost,
      packages,
      basis,
      extraData,
      status: statusEntry('created'),
      history: [],
      createdAt: new Date().toISOString(),
    };
    if (!existing) record.history.push(record.status);
    if (existing && this.faults?.has('get-after-edit-unknown')) this.edited.add(existing.deliveryId);
    Object.assign(record, { tariff, cost, packages, basis, extraData });
    const orderNumber = optString(payload, 'orderNumber', 'orderNumber') ?? optString(payload, 'order', 'order');
    const siteName = optString(payload, 'siteName', 'siteName');
    if (orderNumber !== undefined) record.orderNumber = orderNumber;
    if (siteName !== undefined) record.siteName = siteName;
    if (currency !== undefined) record.currency = currency;
    if (payerType !== undefined) record.payerType = payerType;
    if (deliveryAddress) record.deliveryAddress = deliveryAddress;
    if (shipmentAddress) record.shipmentAddress = shipmentAddress;
    if (deliveryTime) record.deliveryTime = deliveryTime;
    if (dates.shipmentDate !== undefined) record.shipmentDate = dates.shipmentDate;
    if (dates.deliveryDate !== undefined) record.deliveryDate = dates.deliveryDate;
    record.shipmentDate ??= today();
    record.deliveryDate ??= addDays(record.shipmentDate, tariff.maxTerm);
    this.store.deliveries.set(record.deliveryId, record);
    if (this.faults?.has('save-result-without-delivery-id')) return success({ trackNumber: record.trackNumber, cost: record.cost, status: record.status.code });
    return success({ deliveryId: record.deliveryId, trackNumber: record.trackNumber, cost: record.cost, status: record.status.code, extraData: { ...record.extraData } });
  }

  get(query: Record<string, string>): CallbackReply {
    const id = query.deliveryId;
    if (!id) throw badRequest('deliveryId is required');
    if (this.faults?.has('get-unknown-id-success') && !this.store.deliveries.has(id)) return success({});
    if (this.edited.has(id)) throw notFound(unknownIdMessage('delivery', 'deliveryId', id));
    const d = this.store.delivery(id);
    const result: Record<string, unknown> = {
      trackNumber: d.trackNumber,
      cost: d.cost,
      tariff: d.tariff.code,
      tariffName: d.tariff.name,
      status: { ...d.status },
      extraData: { ...d.extraData },
    };
    if (d.shipmentDate) result.shipmentDate = d.shipmentDate;
    if (d.deliveryDate) result.deliveryDate = d.deliveryDate;
    if (this.faults?.has('get-dates-d-m-y')) for (const k of ['shipmentDate', 'deliveryDate'] as const) if (d[k]) result[k] = d[k]!.split('-').reverse().join('.');
    if (this.faults?.has('get-updatedat-ymd')) result.status = { ...d.status, updatedAt: d.status.updatedAt.slice(0, 19).replace('T', ' ') };
    if (this.faults?.has('get-cost-as-text')) result.cost = d.cost.toFixed(2);
    if (d.deliveryTime) result.deliveryTime = { ...d.deliveryTime };
    if (d.payerType) result.payerType = d.payerType;
    if (d.shipmentAddress) result.shipmentAddress = { ...d.shipmentAddress };
    if (d.deliveryAddress) result.deliveryAddress = { ...d.deliveryAddress };
    return success(result);
  }

  delete(payload: Payload): CallbackReply {
    const id = reqString(payload, 'deliveryId', 'deliveryId');
    const d = this.store.delivery(id);
    if (this.faults?.has('delete-refuses-saved')) throw badRequest(`deliveryId ${id} cannot be cancelled yet`);
    if (d.status.code === 'cancelled') throw badRequest(`deliveryId ${id} is already cancelled`);
    if (d.status.code === 'delivered') throw badRequest(`deliveryId ${id} is already delivered and cannot be cancelled`);
    d.status = statusEntry('cancelled');
    d.history.push(d.status);
    if (d.shipmentId) {
      const s = this.store.shipments.get(d.shipmentId);
      if (s) s.deliveryIds = s.deliveryIds.filter((x) => x !== id);
      delete d.shipmentId;
    }
    return success();
  }

  print(payload: Payload): CallbackReply {
    const entityType = optEnum(payload, 'entityType', 'entityType', ['order', 'shipment'] as const) ?? 'order';
    const typeCode = optString(payload, 'type', 'type');
    const plate = typeCode ? PLATES.find((p) => p.code === typeCode) : PLATES.find((p) => p.type === entityType);
    if (!plate) throw badRequest(`type ${JSON.stringify(typeCode)} is not a printable form (known: ${PLATES.map((p) => p.code).join(', ')})`);
    if (plate.type !== entityType) throw badRequest(`type ${plate.code} prints a ${plate.type}, not a ${entityType}`);
    const raw = optArray(payload, 'deliveryIds', 'deliveryIds');
    // Accept a flat array of ids and an array of arrays (wire-profile section 2).
    const ids: string[] = [];
    (raw ?? []).forEach((entry, i) => {
      if (this.faults?.has('print-flat-ids-refused') && !Array.isArray(entry)) throw badRequest(`deliveryIds[${i}] must be an array of ids`);
      if (this.faults?.has('print-refuses-nested-ids') && Array.isArray(entry)) throw badRequest(`deliveryIds[${i}] must be a delivery id, not an array`);
      const group = Array.isArray(entry) ? entry : [entry];
      group.forEach((id, j) => {
        const path = Array.isArray(entry) ? `deliveryIds[${i}][${j}]` : `deliveryIds[${i}]`;
        if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') throw badRequest(`${path} must be a non-empty string`);
        if (!ids.includes(String(id))) ids.push(String(id));
      });
    });
    if (ids.length === 0) throw badRequest('deliveryIds must hold at least one id');
    if (ids.length > PLATE_PRINT_LIMIT) throw badRequest(`deliveryIds holds ${ids.length} ids; at most ${PLATE_PRINT_LIMIT} can be printed at once`);
    const docs = ids.map((id) => ({ id, pdf: entityType === 'order' ? this.orderDocument(plate, id) : this.shipmentDocument(plate, id) }));
    if (this.faults?.has('print-pdf-without-xref')) for (const d of docs) d.pdf = withoutXref(d.pdf);
    if (docs.length === 1) return { kind: 'bytes', contentType: 'application/pdf', body: docs[0]!.pdf, filename: `${plate.code}-${docs[0]!.id}.pdf` };
    const zip = buildZip(docs.map((d) => ({ name: `${plate.code}-${d.id}.pdf`, data: d.pdf })));
    return { kind: 'bytes', contentType: this.faults?.has('print-zip-content-type-pdf') ? 'application/pdf' : 'application/zip', body: zip, filename: `${plate.code}-${docs.length}-documents.zip` };
  }

  private orderDocument(plate: (typeof PLATES)[number], id: string): Buffer {
    const d = this.store.deliveries.get(id);
    if (!d) throw badRequest(unknownIdStyle.quotesValue ? unknownIdMessage('delivery', 'deliveryId', id) : `deliveryIds: delivery ${JSON.stringify(id)} is unknown`);
    if (d.status.code === 'cancelled') throw badRequest(`deliveryIds: delivery ${id} is cancelled and cannot be printed`);
    const addr = (a?: Obj): string => (a ? String(a.text ?? [a.index, a.city, a.street, a.building].filter(Boolean).join(', ')) : '-');
    return buildPdf(
      [
        {
          title: `${plate.label}: delivery ${d.deliveryId}`,
          lines: [
            `Delivery id: ${d.deliveryId}`,
            `Track number: ${d.trackNumber}`,
            `Order: ${d.orderNumber ?? '-'}${d.siteName ? ` (${d.siteName})` : ''}`,
            `Tariff: ${d.tariff.name}`,
            `Cost: ${d.cost.toFixed(2)}${d.currency ? ` ${d.currency}` : ''}`,
            `Cash on delivery: ${d.basis.cod.toFixed(2)}`,
            `Weight: ${d.basis.weight} g in ${d.packages.length || 1} package(s)`,
            `From: ${addr(d.shipmentAddress)}`,
            `To: ${addr(d.deliveryAddress)}`,
            `Shipment date: ${d.shipmentDate ?? '-'}  Delivery date: ${d.deliveryDate ?? '-'}`,
            `Status: ${d.status.code}`,
            `Printed: ${dateTime()}`,
          ],
        },
      ],
      `${plate.label} ${d.deliveryId}`,
    );
  }

  private shipmentDocument(plate: (typeof PLATES)[number], id: string): Buffer {
    const s = this.store.shipments.get(id);
    if (!s) throw badRequest(unknownIdStyle.quotesValue ? unknownIdMessage('shipment', 'shipmentId', id) : `deliveryIds: shipment ${JSON.stringify(id)} is unknown`);
    return buildPdf(
      [
        {
          title: `${plate.label}: shipment ${s.shipmentId}`,
          lines: [
            `Shipment id: ${s.shipmentId}`,
            `Date: ${s.date ?? '-'}  Store: ${s.store ?? '-'}`,
            `Deliveries (${s.deliveryIds.length}):`,
            ...s.deliveryIds.map((d) => `  ${d}  ${this.store.deliveries.get(d)?.trackNumber ?? ''}`),
            `Printed: ${dateTime()}`,
          ],
        },
      ],
      `${plate.label} ${s.shipmentId}`,
    );
  }

  shipmentPointList(query: Record<string, string>): CallbackReply {
    let list = [...TERMINALS];
    const country = query.country?.trim();
    const city = query.city?.trim();
    const region = query.region?.trim();
    if (country) list = list.filter((t) => t.countryIso === country.toUpperCase() || norm(t.countryIso) === norm(country));
    if (region) list = list.filter((t) => norm(t.region) === norm(region));
    if (city) list = list.filter((t) => norm(t.city) === norm(city));
    const terminals = list.map((t) => terminalView(t));
    if (this.faults?.has('points-coordinates-as-text')) terminals.forEach((t, i) => (t.coordinates = { latitude: String(list[i]!.latitude), longitude: String(list[i]!.longitude) }));
    if (this.faults?.has('points-result-not-array')) return success(Object.fromEntries(terminals.map((t) => [t.code, t])));
    return success(terminals);
  }

  shipmentSave(payload: Payload): CallbackReply {
    const editId = optString(payload, 'shipmentId', 'shipmentId');
    const existing = editId ? this.store.shipments.get(editId) : undefined;
    if (editId && !existing) throw notFound(unknownIdMessage('shipment', 'shipmentId', editId));
    if (existing?.cancelled) throw badRequest(`shipmentId ${existing.shipmentId} is cancelled and cannot be edited`);
    const date = optDate(payload, 'date', 'date');
    if (date !== undefined && date < today() && !this.options.pastShipmentDates) throw badRequest(`date must not be in the past (${date} is before ${today()})`);
    const orders = optArray(payload, 'orders', 'orders');
    const deliveryIds: string[] = [];
    (orders ?? []).forEach((o, i) => {
      if (!isObj(o)) throw badRequest(`orders[${i}] must be an object`);
      const id = reqString(o, 'deliveryId', `orders[${i}].deliveryId`);
      const d = this.store.deliveries.get(id);
      if (!d) throw badRequest(`orders[${i}].deliveryId ${JSON.stringify(id)} is unknown`);
      if (d.status.code === 'cancelled') throw badRequest(`orders[${i}].deliveryId ${id} is cancelled`);
      if (d.shipmentId && d.shipmentId !== existing?.shipmentId) throw badRequest(`orders[${i}].deliveryId ${id} already belongs to shipment ${d.shipmentId}`);
      readPackages(optArray(o, 'packages', `orders[${i}].packages`), `orders[${i}].packages`);
      if (!deliveryIds.includes(id)) deliveryIds.push(id);
    });
    if (!existing && deliveryIds.length === 0) throw badRequest('orders must hold at least one order');
    const extraData = readExtraData(payload, 'extraData');
    optEnum(extraData, 'vehicle', 'extraData.vehicle', ['car', 'van', 'truck'] as const);
    optBoolean(extraData, 'loaders', 'extraData.loaders');
    const time = readTimeInterval(payload, 'time', 'time');
    const address = readAddress(payload, 'address', 'address');
    const store = optString(payload, 'store', 'store');
    const comment = optString(payload, 'comment', 'comment');

    const shipment: ShipmentRecord = existing ?? { shipmentId: this.store.nextShipmentId(), deliveryIds: [], extraData: {}, cancelled: false, createdAt: new Date().toISOString() };
    if (orders) {
      for (const id of shipment.deliveryIds) if (!deliveryIds.includes(id)) delete this.store.deliveries.get(id)?.shipmentId;
      shipment.deliveryIds = deliveryIds;
      for (const id of deliveryIds) this.store.deliveries.get(id)!.shipmentId = shipment.shipmentId;
    }
    if (date !== undefined) shipment.date = date;
    if (time) shipment.time = time;
    if (address) shipment.address = address;
    if (store !== undefined) shipment.store = store;
    if (comment !== undefined) shipment.comment = comment;
    if (payload.extraData !== undefined) shipment.extraData = extraData;
    this.store.shipments.set(shipment.shipmentId, shipment);
    if (this.faults?.has('shipment-save-id-as-object')) return success({ shipmentId: { id: shipment.shipmentId }, extraData: { ...shipment.extraData } });
    if (this.faults?.has('shipment-save-without-shipment-id')) return success({ extraData: { ...shipment.extraData } });
    return success({ shipmentId: shipment.shipmentId, extraData: { ...shipment.extraData } });
  }

  shipmentDelete(payload: Payload): CallbackReply {
    const id = reqString(payload, 'shipmentId', 'shipmentId');
    const s = this.store.shipments.get(id);
    if (!s) throw notFound(unknownIdMessage('shipment', 'shipmentId', id));
    if (s.cancelled) throw badRequest(`shipmentId ${id} is already cancelled`);
    if (this.faults?.has('shipment-delete-refuses-saved')) throw badRequest(`shipmentId ${id} cannot be cancelled yet`);
    s.cancelled = true;
    for (const d of s.deliveryIds) delete this.store.deliveries.get(d)?.shipmentId;
    return success();
  }

  tariffList(): CallbackReply {
    const tariffs = TARIFFS.map((t) => ({ code: t.code, name: t.name, description: t.description, type: t.type }));
    if (this.faults?.has('tariff-list-result-not-array')) return success({ tariffs });
    return success(tariffs);
  }

  /** Suggestions for the `pickupPoint` autocomplete field, filtered by the typed text. */
  autocomplete(query: Record<string, string>): CallbackReply {
    const key = ['query', 'q', 'term', 'search', 'text', 'value', 'filter'].find((k) => k in query);
    const text = norm(key ? (query[key] ?? '') : (Object.values(query)[0] ?? ''));
    const hits = TERMINALS.filter((t) => !text || [t.code, t.name, t.city, t.address].some((f) => norm(f).includes(text)));
    if (this.faults?.has('autocomplete-result-as-labels')) return success(hits.slice(0, 20).map((t) => t.name));
    return success(hits.slice(0, 20).map((t) => ({ value: t.code, label: t.name, description: t.address })));
  }
}

/** The weight of a request's packages in grams (faults `calculate-resets-connection` and the hostile answers of calculate). */
function totalWeight(payload: Payload): number {
  return Array.isArray(payload.packages) ? payload.packages.reduce((s: number, p) => s + (isObj(p) && typeof p.weight === 'number' ? p.weight : 0), 0) : 0;
}

/** Fault `print-pdf-without-xref`: the cross-reference table, and `startxref` with its offset, cut out of a PDF. */
function withoutXref(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const xref = text.lastIndexOf('xref\n0 ');
  const trailer = text.lastIndexOf('trailer\n');
  if (xref < 0 || trailer < xref) return pdf;
  return Buffer.from(text.slice(0, xref) + text.slice(trailer).replace(/startxref\n\d+\n/, ''), 'latin1');
}

/** Fault `non-ascii-city-500`: HTTP 500 for a city that holds a character outside ASCII. */
function refuseNonAsciiCity(address: Obj | undefined): void {
  const city = address?.city;
  if (typeof city === 'string' && /[^\x00-\x7f]/.test(city)) throw new HttpError(500, `internal error: cannot encode city ${JSON.stringify(city)}`);
}

/** Fault `calculate-accepts-zero-weight`: package weights of zero or below dropped, as if not given. */
function withoutZeroWeights(payload: Payload): Payload {
  const packages = payload.packages;
  if (!Array.isArray(packages)) return payload;
  return { ...payload, packages: packages.map((p) => (isObj(p) && typeof p.weight === 'number' && p.weight <= 0 ? { ...p, weight: 1000 } : p)) };
}

/**
 * Variation `strict-delivery-configuration`: what the registration rules out is refused before
 * anything else (allowPackages false: one package; codAvailable false: no cash-on-delivery data;
 * save: the required fields filled).
 */
function refuseBeyondConfiguration(payload: Payload, action: 'calculate' | 'save'): void {
  const packages = Array.isArray(payload.packages) ? payload.packages : [];
  if (packages.length > 1) throw badRequest(`packages: one package per order (allowPackages is false), ${packages.length} given`);
  const delivery = isObj(payload.delivery) ? payload.delivery : {};
  const items = packages.flatMap((p) => (isObj(p) && Array.isArray(p.items) ? p.items : []));
  if (payload.cod !== undefined || delivery.withCod === true || delivery.cod !== undefined || items.some((i) => isObj(i) && i.cod !== undefined)) throw badRequest('cod: cash on delivery is not offered (codAvailable is false)');
  if (action !== 'save') return;
  const customer = isObj(payload.customer) ? payload.customer : {};
  const to = isObj(delivery.deliveryAddress) ? delivery.deliveryAddress : {};
  const first = isObj(packages[0]) ? packages[0] : {};
  const missing = [
    ...(customer.email ? [] : ['customer.email']),
    ...(['length', 'width', 'height'] as const).filter((k) => packages.length > 0 && first[k] === undefined).map((k) => `packages[0].${k}`),
    ...(delivery.shipmentDate ? [] : ['delivery.shipmentDate']),
    ...(to.flat ? [] : ['delivery.deliveryAddress.flat']),
  ];
  if (missing.length > 0) throw badRequest(`${missing[0]} is required (requiredFields)`);
}

/** Fault `vat-none-refused`: a vatRate of `none`, the delivery's or an item's, is refused as not a number. */
function refuseVatNone(payload: Payload): void {
  const delivery = isObj(payload.delivery) ? payload.delivery : {};
  if (delivery.vatRate === 'none') throw badRequest('delivery.vatRate must be a number of percent, not "none"');
  (Array.isArray(payload.packages) ? payload.packages : []).forEach((p, i) =>
    (isObj(p) && Array.isArray(p.items) ? p.items : []).forEach((item, j) => {
      if (isObj(item) && item.vatRate === 'none') throw badRequest(`packages[${i}].items[${j}].vatRate must be a number of percent, not "none"`);
    }),
  );
}

/**
 * Faults `refused-delete-takes-effect` and `refused-shipment-save-takes-effect`: a delete (a
 * shipmentSave) whose clientId is missing or unknown cancels the delivery (creates the shipment),
 * and only then is refused.
 */
function actsBeforeAuth(auth: CallbackAuth, service: DeliveryService, handler: RouteHandler, actions: ReadonlyArray<'delete' | 'shipmentSave'>): RouteHandler {
  return async (ctx) => {
    const action = actions.find((a) => ctx.form?.has(a));
    if (!auth.judge(presentedClientId(ctx)).ok && action) {
      try {
        if (action === 'delete') service.delete(jsonField(ctx, 'delete'));
        else service.shipmentSave(jsonField(ctx, 'shipmentSave'));
      } catch {
        // The refusal follows anyway.
      }
    }
    return handler(ctx);
  };
}

/** Actions the method faults serve at the other method (the one the platform calls is then answered 405 by the router). */
const FLIPPED: Partial<Record<FaultName, readonly DeliveryAction[]>> = {
  'delivery-get-actions-on-post': ['get', 'shipmentPointList', 'tariffList'],
  'delivery-post-actions-on-get': ['calculate', 'print'],
  'save-on-get': ['save'],
};

/** The method the module serves an action at: the document's, or the other one under a method fault. */
function servedAt(action: DeliveryAction, faults: FaultSet): 'GET' | 'POST' {
  const flipped = Object.entries(FLIPPED).some(([f, actions]) => faults.has(f as FaultName) && actions.includes(action));
  const method = DELIVERY_ACTION_METHODS[action];
  return flipped ? (method === 'GET' ? 'POST' : 'GET') : method;
}

/** Mounts the delivery callbacks at the registered paths (two actions at one path share a route). */
export function mountDelivery(router: Router, auth: CallbackAuth, service: DeliveryService, faults: FaultSet): void {
  const post: Partial<Record<DeliveryAction, PostHandler>> = {
    calculate: async (p, ctx) => {
      if (faults.has('calculate-resets-connection') && totalWeight(p) > 10_000) {
        ctx.req.socket.destroy();
        throw new HttpError(400, 'connection reset');
      }
      if (hasHostileCalculate(faults)) return hostileCalculate(faults, totalWeight(p), ctx, () => service.calculate(p));
      return service.calculate(p);
    },
    save: (p) => service.save(p),
    delete: (p) => service.delete(p),
    print: (p) => service.print(p),
    shipmentSave: (p) => service.shipmentSave(p),
    shipmentDelete: (p) => service.shipmentDelete(p),
  };
  const get: Partial<Record<DeliveryAction, (q: Record<string, string>) => CallbackReply>> = {
    get: (q) => service.get(q),
    shipmentPointList: (q) => service.shipmentPointList(q),
    tariffList: () => service.tariffList(),
  };
  for (const [path, actions] of deliveryServedPaths(faults)) {
    const postActions = actions.filter((a) => servedAt(a, faults) === 'POST');
    const getActions = actions.filter((a) => servedAt(a, faults) === 'GET');
    // calculate answers its errors as the document says (HTTP 200); the other actions with a 4xx (wire profile).
    const handler = postCallback(auth, Object.fromEntries(postActions.map((a) => [a, post[a]!])), { errorsAs200: faults.has('print-error-200') ? ['calculate', 'print'] : ['calculate'] });
    const acting = (['delete', 'shipmentSave'] as const).filter((a) => postActions.includes(a) && faults.has(a === 'delete' ? 'refused-delete-takes-effect' : 'refused-shipment-save-takes-effect'));
    if (postActions.length > 0) router.add('POST', path, acting.length > 0 ? actsBeforeAuth(auth, service, handler, acting) : handler);
    // Fault `tariff-list-accepts-any-client-id`: tariffList answered whatever the clientId (none, or one the module never gave).
    if (getActions[0] === 'tariffList' && faults.has('tariff-list-accepts-any-client-id')) router.add('GET', path, (ctx) => sendReply(ctx.res, service.tariffList()));
    else if (getActions.length > 0) router.add('GET', path, getCallback(auth, (q) => get[getActions[0]!]!(q)));
  }
  router.add(faults.has('delivery-get-actions-on-post') ? 'POST' : 'GET', AUTOCOMPLETE_PATH, getCallback(auth, (q) => service.autocomplete(q)));
}
