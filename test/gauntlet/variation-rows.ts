/**
 * The legitimate variations' rows (variations.spec.ts): each variation's run and what it must
 * show (runs of the compiled reference module: compiled-module.ts), and the rows of the shared batch (batch.ts) that plays them, which the batch selection
 * reporter starts as the self-test run begins.
 */
import { expect } from '@playwright/test';
import type { GauntletRow } from './batch.ts';
import { compiledReferenceConfig } from './compiled-module.ts';
import type { Results } from '../../src/report/results.ts';

export type Exchanges = Results['exchanges'];

export const toSystem = (x: Exchanges): Exchanges => x.filter((e) => e.direction === 'module->system');
export const pathOf = (e: Exchanges[number]): string => new URL(e.request.url ?? '/', 'http://x').pathname;

/** `args`: the run's narrowing, for a variation that speaks to one area only. */
/**
 * `expectWarnings`: the warnings (SHOULD rules) a variation is certified with, exactly; none when
 * absent. `passed`: the fewest passed results of the row (more than 40 when absent), for a row
 * narrowed to one part of an area.
 */
export const CASES: Array<{ variation: string; args?: string[]; expectWarnings?: string[]; passed?: number; witness: (exchanges: Exchanges) => void }> = [
  {
    variation: 'auto-capture',
    args: ['--area', 'payment', '--runs', '30'],
    witness: (x) => {
      const reports = toSystem(x).filter((e) => pathOf(e) === '/api/v5/payment/update-invoice').map((e) => JSON.parse(new URLSearchParams(e.request.body!).get('updateInvoice')!) as Record<string, unknown>);
      expect(reports.length).toBeGreaterThan(10);
      expect(reports.some((r) => r.status === 'waitingForCapture')).toBe(false);
      expect(reports.some((r) => r.status === 'succeeded')).toBe(true);
      for (const r of reports) expect(Object.keys(r).sort()).toEqual(['invoiceUuid', 'paymentId', 'status']);
    },
  },
  {
    variation: 'whole-amounts-only',
    args: ['--area', 'payment', '--runs', '30'],
    witness: (x) => {
      // A part of the amount asked (approve or refund with an amount below the whole) and refused with the error form.
      const refused = x.filter((e) => /\/payment\/(approve|refund)$/.test(pathOf(e)) && e.response?.status === 400 && /partial (capture|refund) is not supported/.test(e.response.body ?? ''));
      expect(refused.length).toBeGreaterThan(0);
    },
  },
  {
    variation: 'multipart',
    // The way system calls are sent: the areas that call the system (chat modules call the gateway, with their tokens).
    args: ['--area', 'delivery,payment,telephony', '--runs', '30'],
    witness: (x) => {
      const edit = toSystem(x).find((e) => e.label === 'edit')!;
      expect(edit.request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(edit.response?.status).toBeLessThan(300);
      expect(toSystem(x).filter((e) => e.request.method === 'POST').every((e) => e.request.headers['content-type']?.startsWith('multipart/form-data'))).toBe(true);
    },
  },
  {
    variation: 'credentials-first',
    args: ['--area', 'registration'],
    witness: (x) => {
      const first = toSystem(x).slice(0, 5).map((e) => `${e.request.method} ${pathOf(e)} ${e.response?.status}`);
      expect(first).toEqual([
        'GET /api/credentials 200',
        'GET /api/api-versions 200',
        'GET /api/v5/reference/sites 200',
        'GET /api/v5/reference/stores 200',
        'POST /api/v5/integration-modules/reference-module/edit 201',
      ]);
      const credentials = JSON.parse(toSystem(x)[0]!.response!.body!) as { scopes: string[] };
      expect(credentials.scopes).toEqual(expect.arrayContaining(['integration_read', 'integration_write']));
    },
  },
  {
    variation: 'nulls',
    args: ['--area', 'registration'],
    witness: (x) => {
      const edit = toSystem(x).find((e) => e.label === 'edit')!;
      const module = JSON.parse(new URLSearchParams(edit.request.body!).get('integrationModule')!) as Record<string, unknown>;
      expect(module.availableCountries).toBeNull();
      expect(JSON.stringify(module).match(/:null/g)!.length).toBeGreaterThan(10);
    },
  },
  {
    variation: 'api-key-header',
    // The way system calls are sent: the areas that call the system (chat modules call the gateway, with their tokens).
    args: ['--area', 'delivery,payment,telephony', '--runs', '30'],
    witness: (x) => {
      for (const e of toSystem(x)) {
        expect(e.request.headers['x-api-key']).toMatch(/^<redacted:/);
        expect(e.request.url).not.toContain('apiKey=');
        expect(e.request.body ?? '').not.toContain('apiKey=');
      }
    },
  },
  {
    variation: 'query-api-key',
    // The way system calls are sent: the areas that call the system (chat modules call the gateway, with their tokens).
    args: ['--area', 'delivery,payment,telephony', '--runs', '30'],
    witness: (x) => {
      const posts = toSystem(x).filter((e) => e.request.method === 'POST');
      expect(posts.length).toBeGreaterThan(3);
      for (const e of posts) expect(e.request.url).toContain('apiKey=');
    },
  },
  {
    variation: 'registers-again',
    args: ['--area', 'payment', '--runs', '30'],
    witness: (x) => {
      const edits = toSystem(x).filter((e) => e.label === 'edit');
      expect(edits.map((e) => e.response?.status)).toEqual([201, 201]);
      const shops = edits.map((e) => (JSON.parse(new URLSearchParams(e.request.body!).get('integrationModule')!) as { integrations: { payment: { shops: unknown[] } } }).integrations.payment.shops.length);
      expect(shops).toEqual([2, 3]);
      // The delivery type is created once: the update's answer carries no new one.
      const replies = edits.map((e) => JSON.parse(e.response!.body!) as { info?: { deliveryType?: unknown } });
      expect(replies[0]!.info?.deliveryType).toBeDefined();
      expect(replies[1]!.info?.deliveryType).toBeUndefined();
    },
  },
  {
    variation: 'resends-one-call',
    args: ['--area', 'telephony', '--runs', '30'],
    witness: (x) => {
      const uploads = toSystem(x).filter((e) => pathOf(e) === '/api/v5/telephony/calls/upload');
      const duplicates = uploads.flatMap((e) => (JSON.parse(e.response!.body!) as { duplicateCalls: string[] }).duplicateCalls);
      expect(duplicates).toHaveLength(1);
    },
  },
  {
    // A PBX that reports the calls it starts (issue 31, item 5): the refused makeCall probes are then observed, and pass.
    variation: 'reports-started-calls',
    args: ['--area', 'telephony', '--grep', 'makeCallUrl', '--runs', '10'],
    passed: 25,
    witness: (x) => {
      const events = toSystem(x).filter((e) => pathOf(e) === '/api/v5/telephony/call/event').map((e) => JSON.parse(new URLSearchParams(e.request.body!).get('event')!) as { type: string });
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.type === 'out')).toBe(true);
    },
  },
  {
    variation: 'tracking-syncs-others',
    args: ['--area', 'delivery', '--runs', '30'],
    witness: (x) => {
      const trigger = x.find((e) => e.label === 'trigger delivery.tracking')!;
      const asked = (JSON.parse(trigger.request.body!) as { deliveryIds: string[] }).deliveryIds;
      expect(asked).toHaveLength(120);
      const pushed = toSystem(x)
        .filter((e) => pathOf(e).endsWith('/tracking'))
        .flatMap((e) => (JSON.parse(new URLSearchParams(e.request.body!).get('statusUpdate')!) as Array<{ deliveryId: string }>).map((i) => i.deliveryId));
      // Every asked delivery, and others the suite never asked about (two of them never saved through it).
      expect(pushed).toEqual(expect.arrayContaining(asked));
      expect(pushed.filter((id) => !asked.includes(id)).length).toBeGreaterThanOrEqual(2);
    },
  },
  {
    variation: 'strict-delivery-configuration',
    args: ['--area', 'delivery', '--runs', '30'],
    witness: (x) => {
      // The suite sent what such a registration lets the system send: one package, no cash on delivery, the required fields.
      const saves = x.filter((e) => e.direction === 'system->module' && pathOf(e) === '/delivery/save' && e.request.body);
      expect(saves.length).toBeGreaterThan(50);
      for (const e of saves) {
        let save: { packages?: unknown; delivery?: { cod?: unknown; withCod?: unknown } };
        try {
          save = JSON.parse(new URLSearchParams(e.request.body!).get('save') ?? '') as typeof save;
        } catch {
          continue; // the wrong input that is not JSON
        }
        if (Array.isArray(save.packages)) expect(save.packages.length).toBeLessThanOrEqual(1);
        expect(save.delivery?.cod).toBeUndefined();
        expect(save.delivery?.withCod).toBeUndefined();
      }
      // Tariffs without cost (rateDeliveryCost false) are right.
      const calc = x.find((e) => e.direction === 'system->module' && pathOf(e) === '/delivery/calculate' && e.response?.status === 200 && e.response.body?.includes('"success":true'))!;
      expect((JSON.parse(calc.response!.body!) as { result: Array<Record<string, unknown>> }).result.every((t) => !('cost' in t))).toBe(true);
    },
  },
  {
    variation: 'accepts-past-shipment-date',
    // Issue 31, item 1: a past shipment date is no wrong input (document, Errors 7 names a past delivery date).
    args: ['--area', 'delivery', '--runs', '20', '--seed', '1'],
    witness: (x) => {
      const today = new Date().toISOString().slice(0, 10);
      const pastShipments = x.filter((e) => e.direction === 'system->module' && e.response?.body?.includes('"success":true')).filter((e) => {
        const form = new URLSearchParams(e.request.body ?? '');
        const read = (field: string): Record<string, unknown> | undefined => {
          try {
            return JSON.parse(form.get(field) ?? '') as Record<string, unknown>;
          } catch {
            return undefined;
          }
        };
        const date = pathOf(e) === '/delivery/calculate' ? read('calculate')?.shipmentDate : pathOf(e) === '/delivery/save' ? (read('save')?.delivery as Record<string, unknown> | undefined)?.shipmentDate : pathOf(e) === '/delivery/shipment/save' ? read('shipmentSave')?.date : undefined;
        return typeof date === 'string' && date.slice(0, 10) < today;
      });
      // Sent, and answered success: priced, saved, or a pickup saved.
      expect(pastShipments.length).toBeGreaterThan(0);
    },
  },
  {
    variation: 'not-found-quotes-value',
    // Issue 31, item 2: "payment <id> not found" names the incorrect field by the value it quotes.
    args: ['--area', 'delivery,payment', '--runs', '15'],
    witness: (x) => {
      const notFound = (path: RegExp, what: string) =>
        x.filter((e) => e.direction === 'system->module' && path.test(pathOf(e)) && new RegExp(`^${what} \\S+ not found$`).test((JSON.parse(e.response?.body ?? '{}') as { errorMsg?: string }).errorMsg ?? ''));
      expect(notFound(/^\/payment\/(approve|cancel|refund)$/, 'payment').length).toBeGreaterThan(0);
      expect(notFound(/^\/delivery\/get$/, 'delivery').length).toBeGreaterThan(0);
    },
  },
  {
    variation: 'acts-on-references',
    // The webhooks only (issue 31, item 3): the transport acts on the chats, quoted messages and files they name.
    args: ['--area', 'chat', '--grep', 'transport webhooks', '--runs', '60'],
    // Two properties and the session's gateway-call checks (35 results passed on a narrowed run).
    passed: 30,
    witness: (x) => {
      const sent = x.filter((e) => e.direction === 'gateway->module' && e.label === 'webhook message_sent' && e.response?.status === 200);
      const data = sent.map((e) => (JSON.parse(e.request.body!) as { data: Record<string, unknown> }).data);
      // Quoted messages and files were named, and the transport took them.
      expect(data.filter((d) => typeof d.quote_external_id === 'string').length).toBeGreaterThan(0);
      expect(data.filter((d) => Array.isArray(d.items) && d.items.length > 0).length).toBeGreaterThan(0);
      // Every file it fetched was served: none unknown (404); a fetch over the gateway's 30 requests a second may be
      // answered 429, as the real gateway answers (Errors 6: the transport fetches every item at once, webhooks come fast).
      const fetched = x.filter((e) => e.direction === 'module->gateway' && /\/files\/[^/]+$/.test(pathOf(e)) && e.request.method === 'GET');
      expect(fetched.filter((e) => e.response?.status === 200).length).toBeGreaterThan(0);
      expect(fetched.filter((e) => e.response?.status !== 200 && e.response?.status !== 429).map((e) => `${pathOf(e)} ${e.response?.status}`)).toEqual([]);
      // Its channel was opened by a customer's message (transport.inboundMessage, count 1) before any webhook.
      expect(x.some((e) => e.label === 'trigger transport.inboundMessage')).toBe(true);
    },
  },
  {
    variation: 'bot-redials-at-once',
    // Issue 31, item 7: a redial ~10 ms after a close, as the official bot does: certified, with the one warning that quotes "reconnecting after a timeout".
    args: ['--area', 'chat', '--grep', 'chat bot'],
    expectWarnings: ['ensureBotPausesBeforeRedialing'],
    passed: 25,
    witness: (x) => {
      const upgrades = x.filter((e) => /\/api\/bot\/v1\/ws/.test(e.request.url ?? '') && e.response?.status === 101);
      // The first connection and one after each of the three closes.
      expect(upgrades.length).toBeGreaterThanOrEqual(4);
    },
  },
];

/** Each variation's run, and the one of a module calling an endpoint the suite does not simulate: the rows of one shared batch (batch.ts). */
export const READS_ORDERS: GauntletRow = {
  name: 'reads-orders',
  title: 'a call to an endpoint the suite does not simulate is answered 404 and reported as information, not a failure',
  args: () => ['--area', 'registration', '--config', compiledReferenceConfig()],
  env: { FAULTS: '', VARIATIONS: 'reads-orders' },
};
export const VARIATION_ROWS: GauntletRow[] = [
  ...CASES.map((c) => ({
    name: c.variation,
    title: `variation ${c.variation}: certified like the plain module (exit 0, no failure, ${c.expectWarnings ? `no warning but ${c.expectWarnings.join(', ')}` : 'no warning'})`,
    args: () => [...(c.args ?? []), '--config', compiledReferenceConfig()],
    env: { FAULTS: '', VARIATIONS: c.variation },
  })),
  READS_ORDERS,
];
