/**
 * No check holds on what it checks being absent (issue 31, item 6). For every check that judges
 * the shape of a reply, a valid canned reply is stripped of each member that the document or the
 * wire profile lists for it, one at a time, and judged by the checks its property applies:
 *
 * - a REQUIRED member (a sentence of the document or the profile requires it, or it is the id the
 *   platform sends back in later calls and has no other way to learn) fails some check of the
 *   property, and none of the checks that judge that member passes;
 * - an OPTIONAL member fails no check, and each check that judges it is not applicable (with its
 *   reason), or passes on the rest of what it judged while its detail names the member as absent
 *   ("absent, not judged: ..."): never a pass that credits the member.
 *
 * The table below is the closing note's table of reply members (member, level, source).
 * Replies whose body the documents do not judge have no row: telephony (makeCall "the body is
 * ignored", changeUserStatus "Status and body are ignored", a recording is audio), print (the
 * document's bytes: test/checks/print-lists.spec.ts), and the acknowledged webhooks
 * (template_update, template_delete, message_updated/deleted/read: 2xx, body not shown).
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome, CaseIntent } from '../../src/checks/case.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import type { Check, Verdict } from '../../src/checks/check.ts';
import { onReply } from '../../src/checks/adapt.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { AUTOCOMPLETE, CALCULATE_VALID, DELETE_SAVED, GET_SAVED, SAVE_VALID, SEQUENCES, SHIPMENT_POINT_LIST, TARIFF_LIST } from '../../src/checks/delivery/applications.ts';
import { CREATE_VALID, PAYMENT_SEQUENCES } from '../../src/checks/payment/applications.ts';
import { CHAT_WEBHOOKS } from '../../src/checks/chat/applications.ts';
import { ensureActivityAcknowledged } from '../../src/checks/callbacks/activity.ts';
import { ensureCalculateAnswersTariffList, ensureExtraDataAvailableAreDeclaredFields, ensureTariffCostIsNumberOrAbsent, ensureTariffTypeIsKnown } from '../../src/checks/delivery/calculate-reply.ts';
import { ensureSaveReturnsDeliveryId } from '../../src/checks/delivery/save-reply.ts';
import * as getReply from '../../src/checks/delivery/get-reply.ts';
import { ensureShipmentDeleteAcknowledged, ensureShipmentSaveAnswersShipment } from '../../src/checks/delivery/shipment-reply.ts';
import { ensureAutocompleteAnswersSuggestions, ensureShipmentPointListAnswersTerminals, ensureTariffListAnswersTariffs, ensureTerminalsMatchTerminalShape } from '../../src/checks/delivery/lists-reply.ts';
import { ensureCreateReturnsPaymentLink, ensureRefundAnswersRefund } from '../../src/checks/payment/replies.ts';
import { ensureErrorBodyCarriesErrorMsg, ensureErrorBodyMatchesErrorShape } from '../../src/checks/callbacks/error-reply.ts';
import { ensureMessageSentAnswersReply, ensureMessageSentErrorCodeKnown, ensureTemplateCreateAnswersCode, type WebhookOutcome } from '../../src/checks/chat/webhooks.ts';
import {
  ensureTemplateButtonTypesAreKnown,
  ensureTemplateQuickRepliesWithinLimit,
  ensureTemplateRejectionReasonIsKnown,
  ensureTemplateReportCarriesFields,
  ensureTemplateUpdateCarriesFields,
} from '../../src/checks/chat/templates.ts';
import type { TemplateCallView, TemplateSubject } from '../../src/checks/chat/template-views.ts';
import { judgeReport, judgeUpdate } from '../../src/contract/template-machine.ts';

type Json = Record<string, unknown>;
type AnyCheck = Check<CaseOutcome>;

const { ensureGetAnswersDelivery, ensureGetDatesAreYmd, ensureDeleteAcknowledged } = getReply;
/** The check of get's status.updatedAt, where there is one of its own (else the shape check judges it). */
const updatedAtJudge = (): AnyCheck => ((getReply as Record<string, unknown>).ensureGetStatusUpdatedAtIsIso8601 as AnyCheck | undefined) ?? ensureGetAnswersDelivery;

interface Member {
  /** Dotted path in the reply body (array indexes as numbers). */
  path: string;
  level: 'required' | 'optional';
  /** The sentence (or the reason) that makes it so. */
  source: string;
  /** The checks that judge this member (by name, among the family's). */
  judges: string[];
  /** The name an absent member is called in a pass's detail (default: the last segment of the path). */
  named?: string;
}

interface Family {
  name: string;
  callback: CallbackName;
  /** A valid canned reply body, with every listed member. */
  body: Json;
  /** The registration the reply is judged against. */
  module?: Json;
  /** The checks the property applies (and any more that judge the reply). */
  checks: () => AnyCheck[];
  members: Member[];
  /** The outcome for a body (default: HTTP 200 JSON, valid intent, the family's callback). */
  outcome?: (body: Json) => CaseOutcome;
}

const exchange = { id: 'x1', request: {} } as unknown as Exchange;
const replyOf = (status: number, json: unknown): Reply => ({ exchange, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json)), json });
const valid: CaseIntent = { kind: 'valid' };
const MODULE = {
  integrations: {
    delivery: {
      actions: { calculate: '/calculate', save: '/save', get: '/get', delete: '/delete', shipmentSave: '/shipment-save', shipmentDelete: '/shipment-delete', tariffList: '/tariffs', shipmentPointList: '/points' },
      deliveryDataFieldList: [{ code: 'places' }, { code: 'insurance' }],
    },
  },
};
const MODULE_NO_SHIPMENT_DELETE = { integrations: { delivery: { ...MODULE.integrations.delivery, actions: { calculate: '/calculate', save: '/save', shipmentSave: '/shipment-save' } } } };

const checksOf = (property: string) => (): AnyCheck[] => propertyChecks(property, true).map((c) => c.check);
/** The error rules of a property (callback-agnostic), for families judged outside one. */
const errorRules = (): AnyCheck[] => checksOf(CALCULATE_VALID)().filter((c) => c.name.startsWith('ensureError') || c.name === 'ensureCallbackIsAnswered');

const opt = (path: string, judges: string[], source: string, named?: string): Member => ({ path, level: 'optional', judges, source, ...(named ? { named } : {}) });
const req = (path: string, judges: string[], source: string): Member => ({ path, level: 'required', judges, source });

const SUCCESS = 'wire profile 1: success reply {"success": true, "result": <payload>}';
const RESULT = 'wire profile 1: result is absent only for delete, shipmentDelete, approve, cancel, activity';
const NO_SENTENCE = 'listed, no sentence requires it';

const L = ensureCalculateAnswersTariffList.name;
const TARIFF = { code: 'standard', group: 'courier', name: 'Courier', type: 'courier', description: 'two days', cost: 5.4, minTerm: 1, maxTerm: 2, extraData: { places: 1 }, extraDataAvailable: ['places'], pickuppointList: [{ code: 'P1', name: 'Point' }] };
const TERMINAL = { code: 'BER-1', name: 'Berlin', address: 'Invalidenstr. 50', schedule: 'Mo-Fr', phone: '+4930111', cost: 1.5, description: 'terminal', extraData: { places: 1 }, coordinates: { latitude: 52.5, longitude: 13.3 } };
const T = ensureTerminalsMatchTerminalShape.name;

const FAMILIES: Family[] = [
  {
    name: 'delivery.calculate',
    callback: 'delivery.calculate',
    body: { success: true, result: [TARIFF], extraDataAvailable: ['insurance'] },
    module: MODULE,
    checks: checksOf(CALCULATE_VALID),
    members: [
      req('success', [L], SUCCESS),
      req('result', [L], 'wire profile 1 and 2: result is the array of tariffs'),
      req('result.0.code', [L], 'wire profile 2: tariff {code, ..., cost?, ...}, cost alone optional; the chosen tariff is sent back by its code (save: delivery.tariff)'),
      opt('result.0.group', [L], NO_SENTENCE),
      opt('result.0.name', [L], NO_SENTENCE),
      opt('result.0.type', [ensureTariffTypeIsKnown.name], NO_SENTENCE),
      opt('result.0.description', [ensureTariffCostIsNumberOrAbsent.name], 'document: per tariff cost (may be omitted), description; no sentence requires it'),
      opt('result.0.cost', [ensureTariffCostIsNumberOrAbsent.name], 'document: cost (may be omitted)'),
      opt('result.0.minTerm', [L], NO_SENTENCE),
      opt('result.0.maxTerm', [L], NO_SENTENCE),
      opt('result.0.extraData', [L], NO_SENTENCE),
      opt('result.0.extraDataAvailable', [ensureExtraDataAvailableAreDeclaredFields.name], NO_SENTENCE, 'extraDataAvailable of a tariff'),
      opt('result.0.pickuppointList', [L], NO_SENTENCE),
      opt('extraDataAvailable', [ensureExtraDataAvailableAreDeclaredFields.name], 'document: response-level extraDataAvailable, no sentence requires it', 'extraDataAvailable of the reply'),
    ],
  },
  {
    name: 'delivery.save',
    callback: 'delivery.save',
    body: { success: true, result: { deliveryId: 'D1', trackNumber: 'TR1', cost: 7.5, status: 'new', extraData: { places: 1 } } },
    module: MODULE,
    checks: checksOf(SAVE_VALID),
    members: [
      req('success', [ensureSaveReturnsDeliveryId.name], SUCCESS),
      req('result', [ensureSaveReturnsDeliveryId.name], RESULT),
      req('result.deliveryId', [ensureSaveReturnsDeliveryId.name], 'wire profile 2: deliveryId (required)'),
      ...['trackNumber', 'cost', 'status', 'extraData'].map((m) => opt(`result.${m}`, [ensureSaveReturnsDeliveryId.name], NO_SENTENCE)),
    ],
  },
  {
    name: 'delivery.get',
    callback: 'delivery.get',
    body: { success: true, result: { trackNumber: 'TR1', cost: 7.5, shipmentDate: '2026-12-01', deliveryDate: '2026-12-03', status: { code: 'new', updatedAt: '2026-11-27T10:00:00+00:00', comment: 'taken' }, extraData: { places: 1 } } },
    module: MODULE,
    checks: () => [...checksOf(GET_SAVED)(), updatedAtJudge()],
    members: [
      req('success', [ensureGetAnswersDelivery.name], SUCCESS),
      req('result', [ensureGetAnswersDelivery.name], RESULT),
      ...['trackNumber', 'cost', 'extraData', 'status', 'status.code', 'status.comment'].map((m) => opt(`result.${m}`, [ensureGetAnswersDelivery.name], NO_SENTENCE)),
      opt('result.status.updatedAt', [updatedAtJudge().name], 'wire profile 2: status{code, updatedAt (ISO 8601), comment}, no sentence requires it'),
      opt('result.shipmentDate', [ensureGetDatesAreYmd.name], NO_SENTENCE),
      opt('result.deliveryDate', [ensureGetDatesAreYmd.name], NO_SENTENCE),
    ],
  },
  {
    name: 'delivery.delete',
    callback: 'delivery.delete',
    body: { success: true },
    module: MODULE,
    checks: checksOf(DELETE_SAVED),
    members: [req('success', [ensureDeleteAcknowledged.name], SUCCESS)],
  },
  {
    name: 'delivery.shipmentSave',
    callback: 'delivery.shipmentSave',
    body: { success: true, result: { shipmentId: 'S1', extraData: { places: 1 } } },
    module: MODULE,
    checks: checksOf(SEQUENCES),
    members: [
      req('success', [ensureShipmentSaveAnswersShipment.name], SUCCESS),
      req('result', [ensureShipmentSaveAnswersShipment.name], RESULT),
      req('result.shipmentId', [ensureShipmentSaveAnswersShipment.name], 'wire profile 2: result {shipmentId, extraData}; the system edits (shipmentSave shipmentId?) and deletes (shipmentDelete {shipmentId}) the shipment by it, and learns it nowhere else'),
      opt('result.extraData', [ensureShipmentSaveAnswersShipment.name], NO_SENTENCE),
    ],
  },
  {
    name: 'delivery.shipmentSave, no shipmentDelete declared',
    callback: 'delivery.shipmentSave',
    body: { success: true, result: { shipmentId: 'S1', extraData: { places: 1 } } },
    module: MODULE_NO_SHIPMENT_DELETE,
    checks: checksOf(SEQUENCES),
    members: [opt('result.shipmentId', [ensureShipmentSaveAnswersShipment.name], 'document, rule 5: without shipmentDelete shipments cannot be edited or deleted, so the id is never sent back')],
  },
  {
    name: 'delivery.shipmentDelete',
    callback: 'delivery.shipmentDelete',
    body: { success: true },
    module: MODULE,
    checks: checksOf(SEQUENCES),
    members: [req('success', [ensureShipmentDeleteAcknowledged.name], SUCCESS)],
  },
  {
    name: 'delivery.tariffList',
    callback: 'delivery.tariffList',
    body: { success: true, result: [{ code: 'standard', name: 'Courier', description: 'two days', type: 'courier' }] },
    module: MODULE,
    checks: checksOf(TARIFF_LIST),
    members: [
      req('success', [ensureTariffListAnswersTariffs.name], SUCCESS),
      req('result', [ensureTariffListAnswersTariffs.name], RESULT),
      req('result.0.code', [ensureTariffListAnswersTariffs.name], 'wire profile 2: {code, name, description, type}; the default tariff is chosen by its code'),
      req('result.0.name', [ensureTariffListAnswersTariffs.name], 'wire profile 2: {code, name, ...}; the user chooses the default tariff by its name (kept as the check had it)'),
      opt('result.0.description', [ensureTariffListAnswersTariffs.name], NO_SENTENCE),
      opt('result.0.type', [ensureTariffListAnswersTariffs.name], NO_SENTENCE),
    ],
  },
  {
    name: 'delivery.shipmentPointList',
    callback: 'delivery.shipmentPointList',
    body: { success: true, result: [TERMINAL] },
    module: MODULE,
    checks: checksOf(SHIPMENT_POINT_LIST),
    members: [
      req('success', [ensureShipmentPointListAnswersTerminals.name], SUCCESS),
      req('result', [ensureShipmentPointListAnswersTerminals.name], RESULT),
      req('result.0.code', [T], 'document: "When a terminal is chosen only its code is sent as the sender address"'),
      ...['name', 'address', 'schedule', 'phone', 'cost', 'description', 'extraData', 'coordinates', 'coordinates.latitude', 'coordinates.longitude'].map((m) => opt(`result.0.${m}`, [T], NO_SENTENCE)),
    ],
  },
  {
    name: 'delivery.autocomplete',
    callback: 'delivery.autocomplete',
    body: { success: true, result: [{ value: 'v1', label: 'Label', description: 'more' }] },
    module: MODULE,
    checks: checksOf(AUTOCOMPLETE),
    members: [
      req('success', [ensureAutocompleteAnswersSuggestions.name], SUCCESS),
      req('result', [ensureAutocompleteAnswersSuggestions.name], RESULT),
      req('result.0.value', [ensureAutocompleteAnswersSuggestions.name], 'document: autocomplete {label, value}, "value sent to the module"'),
      opt('result.0.label', [ensureAutocompleteAnswersSuggestions.name], NO_SENTENCE),
      opt('result.0.description', [ensureAutocompleteAnswersSuggestions.name], NO_SENTENCE),
    ],
  },
  {
    name: 'payment.create',
    callback: 'payment.create',
    body: { success: true, result: { paymentId: 'p-1', invoiceUrl: 'https://pay.example.com/i/1', cancellable: true } },
    checks: checksOf(CREATE_VALID),
    members: [
      req('success', [ensureCreateReturnsPaymentLink.name], SUCCESS),
      req('result', [ensureCreateReturnsPaymentLink.name], RESULT),
      req('result.invoiceUrl', [ensureCreateReturnsPaymentLink.name], 'document: "Create the invoice and return a payment link"'),
      opt('result.paymentId', [ensureCreateReturnsPaymentLink.name], 'wire profile 3: {paymentId, invoiceUrl, cancellable}, none marked required; update-invoice {invoiceUuid, paymentId, ...} can name it'),
      opt('result.cancellable', [ensureCreateReturnsPaymentLink.name], NO_SENTENCE),
    ],
  },
  {
    name: 'payment.refund',
    callback: 'payment.refund',
    body: { success: true, result: { id: 'r-1', status: 'succeeded', amount: 10, comment: 'returned' } },
    checks: checksOf(PAYMENT_SEQUENCES),
    members: [
      req('success', [ensureRefundAnswersRefund.name], SUCCESS),
      req('result', [ensureRefundAnswersRefund.name], RESULT),
      ...['id', 'status', 'amount', 'comment'].map((m) => opt(`result.${m}`, [ensureRefundAnswersRefund.name], 'wire profile 3: {id, status, amount, comment}, none marked required')),
    ],
  },
  {
    name: 'payment.approve',
    callback: 'payment.approve',
    body: { success: true },
    checks: checksOf(PAYMENT_SEQUENCES),
    members: [req('success', [], 'wire profile 1: {"success": true}, no result for approve')],
  },
  {
    name: 'payment.cancel',
    callback: 'payment.cancel',
    body: { success: true },
    checks: checksOf(PAYMENT_SEQUENCES),
    members: [req('success', [], 'wire profile 1: {"success": true}, no result for cancel')],
  },
  {
    name: 'activity',
    callback: 'delivery.calculate',
    body: { success: true },
    checks: () => [onReply(ensureActivityAcknowledged)],
    members: [req('success', [ensureActivityAcknowledged.name], 'wire profile 1: activity reply {"success": true}')],
  },
  {
    name: 'error reply',
    callback: 'delivery.calculate',
    body: { success: false, errorMsg: 'weight must be above zero' },
    checks: errorRules,
    members: [
      req('success', [ensureErrorBodyMatchesErrorShape.name], 'wire profile 1: error reply {"success": false, "errorMsg"}'),
      req('errorMsg', [ensureErrorBodyCarriesErrorMsg.name, ensureErrorBodyMatchesErrorShape.name], 'document, Errors 1: {success: false, errorMsg: <text>}'),
    ],
  },
  {
    name: 'message_sent',
    callback: 'transport.message_sent' as CallbackName,
    body: { external_message_id: 'm-1' },
    checks: checksOf(CHAT_WEBHOOKS),
    outcome: (body) => webhook('message_sent', body),
    members: [req('external_message_id', [ensureMessageSentAnswersReply.name], 'wire profile 6: reply {external_message_id, error?, async?}')],
  },
  {
    name: 'message_sent, the error form',
    callback: 'transport.message_sent' as CallbackName,
    body: { error: { code: 'general', message: 'the messenger is down' } },
    checks: checksOf(CHAT_WEBHOOKS),
    outcome: (body) => webhook('message_sent', body),
    members: [
      req('error.code', [ensureMessageSentErrorCodeKnown.name], 'wire profile 6: error?{code, message}, code one of five'),
      opt('error.message', [ensureMessageSentAnswersReply.name], 'wire profile 6: error?{code, message}, no sentence requires message'),
    ],
  },
  {
    name: 'template_create',
    callback: 'transport.template_create' as CallbackName,
    body: { code: 'tpl-1' },
    checks: checksOf(CHAT_WEBHOOKS),
    outcome: (body) => webhook('template_create', body),
    members: [req('code', [ensureTemplateCreateAnswersCode.name], 'document, Events: "The response must be {code}"')],
  },
];

function webhook(type: string, body: Json): WebhookOutcome {
  return { case: { callback: `transport.${type}` as CallbackName, payload: {}, intent: valid }, reply: replyOf(200, body), module: {}, profile: true, webhook: { type, channelId: 1, batch: true, name: 't', earlier: [] } };
}

function outcomeOf(f: Family, body: Json): CaseOutcome {
  if (f.outcome) return f.outcome(body);
  return { case: { callback: f.callback, payload: {}, intent: valid }, reply: replyOf(200, body), module: f.module ?? {}, profile: true };
}

/** A deep copy of `body` without the member at `path`. */
function without(body: Json, path: string): Json {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node: unknown = copy;
  for (const k of keys.slice(0, -1)) node = (node as Record<string, unknown>)[k];
  delete (node as Record<string, unknown>)[keys.at(-1)!];
  return copy;
}

async function judge(f: Family, body: Json): Promise<Map<string, Verdict>> {
  const out = new Map<string, Verdict>();
  const o = outcomeOf(f, body);
  for (const c of f.checks()) out.set(c.name, await c.run(o));
  return out;
}

const show = (v: Map<string, Verdict>): string => [...v].map(([n, x]) => `${n}: ${x.outcome}${x.detail ? ` (${x.detail})` : ''}${x.received ? ` [${x.received}]` : ''}`).join('\n');
const names = (m: Member): string => m.named ?? m.path.split('.').filter((s) => !/^\d+$/.test(s)).at(-1)!;

for (const f of FAMILIES) {
  test.describe(`reply members: ${f.name}`, () => {
    test('the valid canned reply fails no check, and each member is judged', async () => {
      const v = await judge(f, f.body);
      expect([...v].filter(([, x]) => x.outcome === 'fail').map(([n]) => n), show(v)).toEqual([]);
      for (const m of f.members) for (const j of m.judges) expect(v.get(j)?.outcome, `${j} on the whole reply\n${show(v)}`).toBe('pass');
    });
    for (const m of f.members) {
      test(`without ${m.path}: ${m.level} (${m.source})`, async () => {
        const v = await judge(f, without(f.body, m.path));
        const failing = [...v].filter(([, x]) => x.outcome === 'fail').map(([n]) => n);
        if (m.level === 'required') {
          expect(failing.length, `some check fails without the required ${m.path}\n${show(v)}`).toBeGreaterThan(0);
          for (const j of m.judges) expect(v.get(j)?.outcome, `${j} must not pass without ${m.path}\n${show(v)}`).not.toBe('pass');
        } else {
          expect(failing, `no check fails without the optional ${m.path}\n${show(v)}`).toEqual([]);
          for (const j of m.judges) {
            const x = v.get(j)!;
            expect(x, `${j} is applied`).toBeDefined();
            if (x.outcome === 'notApplicable') expect(x.detail ?? '', `${j}: not applicable, with its reason`).not.toBe('');
            else {
              expect(x.outcome, `${j} without ${m.path}\n${show(v)}`).toBe('pass');
              // A pass judged the rest, and says it did not judge this member.
              expect(x.detail ?? '', `${j} passes without ${m.path}: its detail names it absent\n${show(v)}`).toMatch(new RegExp(`absent, not judged: [^;]*\\b${names(m).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
            }
          }
        }
      });
    }
  });
}

/**
 * The module's template calls to the gateway (document, Chat transport and chat bot): a report
 * (POST) lists code, name, type, body, verification_status, header, examples, footer, buttons; an
 * update (PUT) name, body, verification_status, optional rejection_reason, header or
 * attachments, footer, buttons. The fields rule requires what the gateway needs (a report's code,
 * and name, body, verification_status of both); the value rules are not applicable without the
 * member they judge.
 */
const TEMPLATE = { code: 'tpl_1', name: 'order_ready', type: 'text', body: 'Order {{1}} is ready', verification_status: 'approved', footer: 'Shop', buttons: { items: [{ type: 'plain', label: 'OK' }] }, rejection_reason: 'scam' };
let calls = 0;
function templateCall(kind: 'report' | 'update', payload: Json): TemplateCallView {
  const j = kind === 'report' ? judgeReport(payload) : judgeUpdate('pending', payload);
  const refused = j.breaches.some((b) => b.refuse);
  const code = kind === 'report' ? (typeof payload.code === 'string' ? payload.code : undefined) : 'tpl_1';
  return {
    exchange: `t${++calls}`,
    method: kind === 'report' ? 'POST' : 'PUT',
    path: kind === 'report' ? '/channels/1/templates' : '/channels/1/templates/tpl_1',
    kind,
    channelId: 1,
    ...(code ? { code } : {}),
    status: refused ? 400 : 200,
    accepted: !refused,
    payload,
    schemaErrors: [],
    judgement: { kind, channelId: 1, code: code ?? '', from: kind === 'report' ? 'new' : 'pending', ...(j.to ? { to: j.to } : {}), breaches: j.breaches },
  };
}
const TEMPLATE_MEMBERS: Array<{ kind: 'report' | 'update'; member: string; level: 'required' | 'optional'; judges: Array<Check<TemplateSubject>> }> = [
  ...(['code', 'name', 'body', 'verification_status'] as const).map((member) => ({ kind: 'report' as const, member, level: 'required' as const, judges: [ensureTemplateReportCarriesFields] })),
  ...(['name', 'body', 'verification_status'] as const).map((member) => ({ kind: 'update' as const, member, level: 'required' as const, judges: [ensureTemplateUpdateCarriesFields] })),
  ...(['report', 'update'] as const).flatMap((kind) => [
    { kind, member: 'buttons', level: 'optional' as const, judges: [ensureTemplateButtonTypesAreKnown, ensureTemplateQuickRepliesWithinLimit] },
    { kind, member: 'rejection_reason', level: 'optional' as const, judges: [ensureTemplateRejectionReasonIsKnown] },
  ]),
];

test.describe('reply members: the module\'s template calls', () => {
  for (const m of TEMPLATE_MEMBERS) {
    test(`${m.kind} without ${m.member}: ${m.level}`, async () => {
      const whole = { calls: [templateCall(m.kind, { ...TEMPLATE })] };
      for (const j of m.judges) expect((await j.run(whole)).outcome, `${j.name} on the whole ${m.kind}`).toBe('pass');
      const stripped = { calls: [templateCall(m.kind, without(TEMPLATE, m.member))] };
      for (const j of m.judges) {
        const v = await j.run(stripped);
        if (m.level === 'required') expect(v.outcome, `${j.name} without ${m.member}`).toBe('fail');
        else {
          expect(v.outcome, `${j.name} without ${m.member}`).toBe('notApplicable');
          expect(v.detail ?? '').not.toBe('');
        }
      }
    });
  }
});
