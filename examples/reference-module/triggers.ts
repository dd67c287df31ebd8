/**
 * Triggers: how the suite makes the module start a flow of its own. `POST /dev/triggers/{name}`
 * with a JSON object of parameters; the answer comes once the flow has run:
 * `{success: true, ...}`, or `{success: false, errorMsg}` (4xx for bad parameters, 200 when a
 * call of the flow was refused by the system or the gateway).
 */
import type { Config } from './config.ts';
import { HttpError, badRequest, notFound, sendJson, type Router } from './http.ts';
import { isObj, type Obj } from './input.ts';
import { trackingEntry, type DeliveryRecord, type DeliveryService } from './delivery.ts';
import type { TelephonyService } from './telephony.ts';
import type { PaymentService } from './payment.ts';
import type { TransportService } from './transport.ts';
import { chunks, describeFailure, systemOk, type SystemClient } from './outbound.ts';

/** Orders per tracking request (contract limit). */
export const ORDERS_PER_TRACKING = 100;

export interface TriggerDeps {
  config: Config;
  system: SystemClient;
  delivery: DeliveryService;
  telephony: TelephonyService;
  payment: PaymentService;
  transport: TransportService;
  /** Registers again; resolves to the outcome. */
  register: () => Promise<Obj>;
  /** Connects another account (params systemUrl, apiKey) and registers it with that system; resolves to the outcome. */
  connect: (params: Obj) => Promise<Obj>;
}

type Trigger = (params: Obj) => Promise<Obj>;

function optCount(p: Obj): number | undefined {
  const v = p.count;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 10_000) throw badRequest('count must be an integer between 1 and 10000');
  return v;
}

function reqText(p: Obj, key: string): string {
  const v = p[key];
  if (typeof v !== 'string' || v.trim() === '') throw badRequest(`${key} is required`);
  return v.trim();
}

function optStrings(p: Obj, key: string): string[] | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === '')) throw badRequest(`${key} must be an array of non-empty strings`);
  return v as string[];
}

export function triggers(deps: TriggerDeps): Record<string, Trigger> {
  const { delivery, telephony, payment, transport, system, config } = deps;
  return {
    /** Advances the carrier status of deliveries and reports them, at most 100 per request. */
    'delivery.tracking': async (p) => {
      const ids = optStrings(p, 'deliveryIds');
      const count = optCount(p);
      const store = delivery.store;
      let selected: DeliveryRecord[];
      if (ids) {
        selected = ids.map((id) => store.delivery(id));
      } else {
        const active = [...store.deliveries.values()].filter((d) => d.status.code !== 'cancelled');
        const wanted = count ?? Math.max(1, active.length);
        selected = active.slice(0, wanted);
        while (selected.length < wanted) selected.push(store.createDirect(`DESK-${store.deliveries.size + 1}`));
      }
      const f = config.faults;
      if (f.has('tracking-trigger-fails')) throw new HttpError(500, 'the carrier desk is unreachable');
      // The sync job (variation tracking-syncs-others): every other active delivery, and two registered at the carrier desk meanwhile.
      const asked = new Set(selected.map((d) => d.deliveryId));
      let synced: DeliveryRecord[] = [];
      if (config.variations.has('tracking-syncs-others')) {
        synced = [...store.deliveries.values()].filter((d) => d.status.code !== 'cancelled' && !asked.has(d.deliveryId));
        synced.push(store.createDirect('SYNC-1'), store.createDirect('SYNC-2'));
      }
      // tracking-drops-one-syncs-others: the first asked delivery left out, a desk delivery pushed in its place.
      if (f.has('tracking-drops-one-syncs-others')) selected = [...selected.slice(1), store.createDirect('SYNC-1')];
      for (const d of [...selected, ...synced]) store.advance(d);
      if (f.has('tracking-ignored')) return { success: true, deliveries: selected.length, requests: 0 };
      const subcode = f.has('tracking-wrong-subcode') ? `${config.moduleCode}-desk` : config.moduleCode;
      const path = `/api/v5/delivery/generic/${encodeURIComponent(subcode)}/tracking`;
      const replies = [];
      const size = f.has('tracking-unchunked') ? Number.MAX_SAFE_INTEGER : ORDERS_PER_TRACKING;
      const options = {
        apiKey: !f.has('tracking-without-api-key'),
        ...(f.has('tracking-wrong-api-key') ? { apiKeyValue: 'not-the-key-the-user-gave' } : {}),
      };
      // tracking-truncated: the first request only, the rest dropped.
      const asChunks = f.has('tracking-truncated') ? chunks(selected, size).slice(0, 1) : chunks(selected, size);
      // The sync job's requests go out after the first asked one.
      const sent = [...asChunks.slice(0, 1), ...chunks(synced, size), ...asChunks.slice(1)];
      const entry = (d: DeliveryRecord): Record<string, unknown> => {
        const e = trackingEntry(d);
        // tracking-track-number-as-id: the track number where the deliveryId the module answered belongs.
        if (f.has('tracking-track-number-as-id')) e.deliveryId = d.trackNumber;
        // tracking-updatedat-ymd: `Y-m-d H:i:s` where the profile gives ISO 8601.
        if (f.has('tracking-updatedat-ymd')) e.history = (e.history as Array<Record<string, unknown>>).map((h) => ({ ...h, updatedAt: String(h.updatedAt).replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d\d:?\d\d)$/, '') }));
        return e;
      };
      for (const chunk of sent) {
        replies.push(await system.postForm(path, { statusUpdate: JSON.stringify(chunk.map(entry)) }, options));
      }
      const failed = replies.find((r) => !systemOk(r));
      return {
        success: !failed,
        ...(failed ? { errorMsg: `tracking refused: ${describeFailure(failed)}` } : {}),
        deliveries: selected.length,
        ...(synced.length > 0 ? { synced: synced.length } : {}),
        requests: replies.length,
        statuses: selected.map((d) => ({ deliveryId: d.deliveryId, status: d.status.code })),
        replies: replies.map((r) => ({ status: r.status, body: r.json ?? r.text })),
      };
    },

    'telephony.callsUpload': async (p) => telephony.uploadCalls(optCount(p), optStrings(p, 'externalIds')),

    'telephony.callEvent': async (p) => {
      const phone = reqText(p, 'phone');
      const type = p.type;
      if (type !== 'in' && type !== 'out' && type !== 'hangup') throw badRequest('type must be in, out or hangup');
      const params: Parameters<TelephonyService['callEvent']>[0] = { phone, type };
      const codes = optStrings(p, 'codes');
      if (codes) params.codes = codes;
      if (typeof p.externalPhone === 'string' && p.externalPhone) params.externalPhone = p.externalPhone;
      if (Array.isArray(p.userIds)) params.userIds = p.userIds.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number');
      return telephony.callEvent(params);
    },

    'telephony.managerLookup': async (p) => telephony.managerLookup(reqText(p, 'phone')),

    'payment.notify': async (p) => {
      const paymentId = reqText(p, 'paymentId');
      const event = p.event;
      if (event !== 'held' && event !== 'paid' && event !== 'failed') throw badRequest('event must be held, paid or failed');
      return payment.notify(paymentId, event);
    },

    'transport.templateVerdict': async (p) => transport.templateVerdict(p),

    'transport.inboundMessage': async (p) => transport.inboundMessage(p),

    'transport.templateReport': async (p) => transport.templateReport(p),

    'registration.repeat': async () => deps.register(),

    /** A user connects another system on the settings page: an account of its own (clientId, gateway, state), registered with that system. */
    'registration.connect': async (p) => deps.connect(p),
  };
}

export function mountTriggers(router: Router, deps: TriggerDeps): void {
  const table = triggers(deps);
  router.add('GET', '/dev/triggers', (ctx) => sendJson(ctx.res, 200, { success: true, triggers: Object.keys(table) }));
  router.add('POST', '/dev/triggers/{name}', async (ctx) => {
    const name = ctx.params.name ?? '';
    const trigger = table[name];
    if (!trigger) throw notFound(`unknown trigger ${JSON.stringify(name)} (known: ${Object.keys(table).join(', ')})`);
    const text = ctx.body.toString('utf8').trim();
    let params: unknown = {};
    if (text) {
      try {
        params = JSON.parse(text);
      } catch (e) {
        throw badRequest(`the trigger body is not valid JSON: ${(e as Error).message}`);
      }
    }
    if (!isObj(params)) throw badRequest('the trigger body must be a JSON object');
    try {
      sendJson(ctx.res, 200, await trigger(params));
    } catch (e) {
      if (e instanceof HttpError) throw e;
      // A call of the flow could not be made (system or gateway unreachable).
      sendJson(ctx.res, 502, { success: false, errorMsg: `${name} failed: ${(e as Error).message}` });
    }
  });
}
