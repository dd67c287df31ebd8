/**
 * The callback table: every row's schemas exist and compile in both views of the contract, every
 * requirement id is in the catalogue and names the right party, each kind has exactly the
 * callbacks the catalogue lists for it, and each row's method, wire form and address agree.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { METHOD_IDS } from '../../src/checks/callbacks/applications.ts';
import { CALLBACK_NAMES, CALLBACKS, WEBHOOK_TYPES, type CallbackSpec } from '../../src/callbacks/table.ts';
import { areaOf, catalogue, type Area } from '../../src/contract/catalogue.ts';
import { MODULE_KINDS, type ModuleKind } from '../../src/contract/kinds.ts';
import { SCHEMAS_DIR } from '../../src/contract/paths.ts';
import { contract } from '../../src/contract/schemas.ts';

const rows = CALLBACK_NAMES.map((n) => CALLBACKS[n]);

/** Every schema a row names. */
const schemasOf = (s: CallbackSpec): string[] => [s.request, s.data, s.reply.success, s.reply.error].filter((x): x is string => x !== undefined);

/** The backticked words of a catalogue statement (a comma list inside one pair of backticks too). */
function listed(id: string): string[] {
  return [...catalogue().get(id).quote.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.split(/,\s*/));
}

test('the table has one row per name, under its own name', () => {
  expect(Object.keys(CALLBACKS).sort()).toEqual([...CALLBACK_NAMES].sort());
  for (const name of CALLBACK_NAMES) expect(CALLBACKS[name].name).toBe(name);
});

test('every schema of the table exists and compiles, with the profile and without', () => {
  const named = [...new Set(rows.flatMap(schemasOf))];
  expect(named.length).toBeGreaterThan(20);
  for (const ref of named) {
    expect(fs.existsSync(path.join(SCHEMAS_DIR, ref)), ref).toBe(true);
    for (const profile of [true, false]) expect(() => contract({ profile }).validator(ref), `${ref} (profile ${profile})`).not.toThrow();
  }
});

/** The catalogue area of each kind's statements; activity is a registration statement. */
const AREA: Record<ModuleKind, Area> = { telephony: 'TEL', delivery: 'DLV', payment: 'PAY', mgTransport: 'TRN', mgBot: 'BOT' };

test('every requirement id is in the catalogue, of its area; the platform bound by its own statements, the methods the module serves at by module statements', () => {
  const cat = catalogue();
  for (const s of rows) {
    const areas = ['GEN', s.kind === null ? 'REG' : AREA[s.kind]];
    for (const [part, ids] of [['platform', s.platform ?? []], ['method', METHOD_IDS[s.name] ?? []]] as const) {
      for (const id of ids) {
        const what = `${s.name} ${part}: ${id}`;
        expect(cat.has(id), what).toBe(true);
        expect(areas, what).toContain(areaOf(id));
        const r = cat.get(id);
        if (part === 'platform') expect(r.actor, what).not.toBe('module');
        else expect({ actor: r.actor, testable: r.testable }, what).toEqual({ actor: 'module', testable: true });
      }
    }
  }
});

test("every kind's callbacks: the ones the catalogue lists, and no other", () => {
  const byKind = (kind: ModuleKind | null): string[] => rows.filter((s) => s.kind === kind).map((s) => s.name).sort();
  const deliveryActions = listed('DLV-ACTIONS-CODES');
  expect(deliveryActions).toHaveLength(9);
  const paymentActions = listed('PAY-ACTIONS-CODES-PATHS');
  expect(paymentActions).toEqual(['create', 'approve', 'cancel', 'refund']);
  const webhookTypes = listed('WIRE-TRN-WEBHOOK-TYPES');
  expect(webhookTypes).toEqual([...WEBHOOK_TYPES]);

  expect(byKind(null)).toEqual(['activity']);
  expect(byKind('delivery')).toEqual([...deliveryActions.map((a) => `delivery.${a}`), 'delivery.autocomplete'].sort());
  expect(byKind('payment')).toEqual(paymentActions.map((a) => `payment.${a}`).sort());
  expect(byKind('telephony')).toEqual(['telephony.changeUserStatus', 'telephony.makeCall', 'telephony.record']);
  expect(byKind('mgTransport')).toEqual(webhookTypes.map((t) => `transport.${t}`).sort());
  // A bot is not called: it listens on the gateway's WebSocket.
  expect(byKind('mgBot')).toEqual([]);
  expect(rows.every((s) => s.kind === null || MODULE_KINDS.includes(s.kind))).toBe(true);

  // Each action is read from its own registration path.
  for (const a of deliveryActions) expect(CALLBACKS[`delivery.${a}` as 'delivery.save'].url).toEqual({ from: 'action', path: ['integrations', 'delivery', 'actions', a] });
  for (const a of paymentActions) expect(CALLBACKS[`payment.${a}` as 'payment.create'].url).toEqual({ from: 'action', path: ['integrations', 'payment', 'actions', a] });
  expect(CALLBACKS['telephony.makeCall'].url).toEqual({ from: 'field', path: ['integrations', 'telephony', 'makeCallUrl'] });
  expect(CALLBACKS['telephony.changeUserStatus'].url).toEqual({ from: 'field', path: ['integrations', 'telephony', 'changeUserStatusUrl'] });
  expect(CALLBACKS['telephony.record'].url.from).toBe('given');
  expect(CALLBACKS['delivery.autocomplete'].url.from).toBe('given');
});

test("each row's method, wire form and address agree", () => {
  const prefix: Record<string, ModuleKind | null> = { activity: null, delivery: 'delivery', payment: 'payment', telephony: 'telephony', transport: 'mgTransport' };
  for (const s of rows) {
    expect(prefix[s.name.split('.')[0]!], s.name).toBe(s.kind);
    if (s.encoding === 'actionForm') {
      // POST, one field named after the action: the last segment of its registration path.
      expect(s.method, s.name).toBe('POST');
      expect(s.url.from, s.name).toBe('action');
      if (s.url.from === 'action') expect(s.field, s.name).toBe(s.url.path.at(-1));
      expect(s.event, s.name).toBeUndefined();
    } else if (s.encoding === 'query') {
      expect(s.method, s.name).toBe('GET');
      expect(s.field, s.name).toBeUndefined();
    } else {
      expect({ method: s.method, url: s.url, request: s.request }, s.name).toEqual({ method: 'POST', url: { from: 'field', path: ['integrations', 'mgTransport', 'webhookUrl'] }, request: 'chat/webhook.json' });
      expect(`transport.${s.event}`, s.name).toBe(s.name);
    }
    if (s.encoding !== 'webhook') expect(s.data, s.name).toBeUndefined();
    // A reply is JSON or bytes, not both.
    expect(s.reply.body !== undefined && s.reply.success !== undefined, s.name).toBe(false);
  }
  // The system's GET callbacks (wire profile 1) and the telephony ones are queries.
  expect(rows.filter((s) => s.encoding === 'query').map((s) => s.name).sort()).toEqual(
    ['delivery.get', 'delivery.shipmentPointList', 'delivery.tariffList', 'delivery.autocomplete', 'telephony.makeCall', 'telephony.changeUserStatus', 'telephony.record'].sort(),
  );
});
