/**
 * The application table of the system-api area: which check is applied to which property, call or
 * session judgement, with its requirement ids and severity (`Row`, `src/checks/apply.ts`).
 *
 * - `ENDPOINT_ROWS`: how each call of the module to a system endpoint is judged (the payload's
 *   form field and shape, the API key, the version, the endpoint's limit and rules; registration,
 *   `edit`, has checks of its own), applied by `src/run/system-calls.ts` in the order given, and
 *   the method the endpoint is called with, applied by the specs over the session's calls.
 * - `FLOW_ROWS`: the flows of specs/system-api/module-calls.spec.ts (the call a trigger leads
 *   to, the items it asked for, what a telephony flow asked for).
 * - `RECORDING_ROWS`: the recordings of the uploaded calls, fetched with the clientId
 *   (specs/telephony/records.spec.ts).
 */
import { row, type Row } from '../apply.ts';
import type { Exchange } from '../../evidence/exchange.ts';
import type { InboundCall, SystemEndpoint } from '../../simulators/system-endpoints.ts';
import type { Reply } from '../../client/callback-client.ts';
import { ensureMessageMatchesSchema, type RegionSubject, type SchemaSubject } from '../schema-rule.ts';
import { ensureSystemCallCarriesApiKey, ensureSystemCallPayloadDecodes, ensureSystemCallUsesDocumentedMethod, ensureTrackingSubcodeIsModuleCode, ensureTriggerLeadsToSystemCall, type FlowCalls } from './calls.ts';
import { ensureSystemCallsUseApiV5 } from '../registration/edit-call.ts';
import { ensureCallsUploadHoldsAtMost50, ensureTrackingHoldsAtMost100 } from './limits.ts';
import { ensureUploadedCallsHaveRecordUrl } from './record-url.ts';
import { ensureInvoiceStatusIsKnown } from './invoice-status.ts';
import { ensureRequestedItemsArrive, type RequestedItems } from './counts.ts';
import { ensureCallEventPhoneIsAsked, ensureCallEventReportsAskedKind, type AskedCallEvent, type CallEventKind } from './call-event.ts';
import { ensureManagerLookupCopesWithAnswer, type ManagerLookupOutcome } from './manager.ts';
import { ensureRecordIsAudioOfItsContentType, overRecordings } from '../telephony/record.ts';
import { ensureCallbackIsAnswered } from '../callbacks/answered.ts';

/** How the calls to one endpoint are judged. */
export interface EndpointRows {
  /** Applied to each call (`src/run/system-calls.ts`), in this order: decodes, apiKey, version, subcode, limit, rules, schema. */
  decodes: Row<InboundCall>;
  apiKey: Row<InboundCall>;
  version: Row<readonly InboundCall[]>;
  /** Tracking only, when the module's code is known. */
  subcode?: Row<{ call: InboundCall; code: string }>;
  limit?: Row<SchemaSubject>;
  /** Rules over the decoded payload beyond the schema. */
  rules: Array<Row<SchemaSubject>>;
  /** The whole payload, less what the limit and the rules own (the payload's ids, as `decodes`). */
  schema: Row<RegionSubject>;
  /** The endpoint is called with its method (the document's endpoint table): applied by the specs. */
  method: Row<{ endpoint: string; refused: Exchange[] }>;
}

/** What a call judgement is applied to: `call to tracking`. */
export const callTo = (endpoint: SystemEndpoint): string => `call to ${endpoint}`;

function endpoint(
  e: SystemEndpoint,
  ids: { payload: string[]; method: string[] },
  more: { subcode?: string[]; limit?: Row<SchemaSubject>; rules?: Array<Row<SchemaSubject>> } = {},
): EndpointRows {
  const to = callTo(e);
  return {
    decodes: row(to, ensureSystemCallPayloadDecodes, ids.payload),
    apiKey: row(to, ensureSystemCallCarriesApiKey, ['WIRE-GEN-APIKEY-PARAM-OR-HEADER']),
    version: row(to, ensureSystemCallsUseApiV5, ['GEN-VERSION-SYSTEM-V5']),
    ...(more.subcode ? { subcode: row(to, ensureTrackingSubcodeIsModuleCode, more.subcode) } : {}),
    ...(more.limit ? { limit: more.limit } : {}),
    rules: more.rules ?? [],
    schema: row(to, ensureMessageMatchesSchema, ids.payload),
    method: row(`method of ${to}`, ensureSystemCallUsesDocumentedMethod, ids.method),
  };
}

/** The endpoints whose calls are judged, in the order the suite lists them. */
export const ENDPOINT_ROWS: Partial<Record<SystemEndpoint, EndpointRows>> = {
  tracking: endpoint(
    'tracking',
    { payload: ['WIRE-DLV-TRACKING-STATUSUPDATE-FIELD', 'WIRE-DLV-TRACKING-UPDATEDAT-ISO8601'], method: ['GEN-METHOD-TRACKING-POST'] },
    {
      subcode: ['DLV-TRACKING-SUBCODE-IS-CODE'],
      // The profile restates the document's limit ("at most 100 items" of statusUpdate): one rule, both ids.
      limit: row(callTo('tracking'), ensureTrackingHoldsAtMost100, ['DLV-TRACKING-MAX-100', 'WIRE-DLV-TRACKING-MAX-100-ITEMS']),
    },
  ),
  'calls.upload': endpoint(
    'calls.upload',
    { payload: ['WIRE-TEL-UPLOAD-CALLS-FIELD'], method: ['GEN-METHOD-CALLS-UPLOAD-POST'] },
    {
      limit: row(callTo('calls.upload'), ensureCallsUploadHoldsAtMost50, ['TEL-UPLOAD-MAX-50']),
      // The upload row says "each has `recordUrl`" too, so TEL-UPLOAD-MAX-50 holds only with it.
      rules: [row(callTo('calls.upload'), ensureUploadedCallsHaveRecordUrl, ['TEL-CALL-HAS-RECORDURL', 'TEL-UPLOAD-MAX-50'])],
    },
  ),
  'call.event': endpoint('call.event', { payload: ['TEL-EVENT-PARAM-JSON', 'TEL-EVENT-PHONE', 'TEL-EVENT-CODES-STRINGS', 'WIRE-TEL-EVENT-FIELD', 'WIRE-TEL-EVENT-TYPE-VALUES'], method: ['GEN-METHOD-CALL-EVENT-POST'] }),
  manager: endpoint('manager', { payload: ['WIRE-TEL-MANAGER-PHONE-QUERY'], method: ['GEN-METHOD-MANAGER-GET'] }),
  'update-invoice': endpoint(
    'update-invoice',
    { payload: ['WIRE-PAY-UPDATE-INVOICE-FIELD'], method: ['GEN-METHOD-UPDATE-INVOICE-POST'] },
    { rules: [row(callTo('update-invoice'), ensureInvoiceStatusIsKnown, ['PAY-INVOICE-STATUS-VALUES', 'WIRE-PAY-UPDATE-INVOICE-STATUS'])] },
  ),
  'payment.check': endpoint('payment.check', { payload: ['WIRE-PAY-CHECK-FIELD'], method: ['GEN-METHOD-PAYMENT-CHECK-POST'] }),
};

/** The rows of an endpoint's call judgement, in the order applied (the method's last: the specs apply it). */
export function endpointRows(r: EndpointRows): Array<Row<never>> {
  return [r.decodes, r.apiKey, r.version, ...(r.subcode ? [r.subcode] : []), ...(r.limit ? [r.limit] : []), ...r.rules, r.schema, r.method] as Array<Row<never>>;
}

/** A flow of module-calls.spec.ts: the call its trigger leads to; the items it asked for; its own checks. */
export interface FlowRows {
  reached: Row<FlowCalls>;
  items?: Row<RequestedItems>;
  /** What the flow judges beyond the endpoint's checks, in the order applied. */
  extra: Array<Row<never>>;
}

const reached = (to: string, ids: string[]): Row<FlowCalls> => row(to, ensureTriggerLeadsToSystemCall, ids);

/** The call event flow of a kind: `in` is the value the document gives (for the incoming call). */
function callEventFlow(type: CallEventKind): FlowRows & { kind: Row<AskedCallEvent>; phone: Row<AskedCallEvent> } {
  const to = `call event flow (${type})`;
  const kind = row(to, ensureCallEventReportsAskedKind, [...(type === 'in' ? ['TEL-EVENT-TYPE-IN'] : []), 'TEL-EVENT-KINDS', 'WIRE-TEL-EVENT-TYPE-VALUES']);
  const phone = row(to, ensureCallEventPhoneIsAsked, ['TEL-EVENT-PHONE']);
  return { reached: reached(to, ['TEL-EVENT-KINDS']), kind, phone, extra: [kind, phone] as Array<Row<never>> };
}

const managerCopes = row('manager lookup flow', ensureManagerLookupCopesWithAnswer, ['WIRE-TEL-MANAGER-REPLY-FORMS']);

/** The flows, by what they push or ask. */
export const FLOW_ROWS = {
  tracking: {
    reached: reached('tracking flow', ['REG-PUSH-CURRENT-DATA']),
    items: row('tracking flow', ensureRequestedItemsArrive, ['REG-PUSH-CURRENT-DATA', 'DLV-TRACKING-MAX-100']),
    extra: [],
  } satisfies FlowRows,
  callsUpload: {
    reached: reached('calls upload flow', ['REG-PUSH-CURRENT-DATA']),
    items: row('calls upload flow', ensureRequestedItemsArrive, ['REG-PUSH-CURRENT-DATA', 'TEL-UPLOAD-MAX-50']),
    extra: [],
  } satisfies FlowRows,
  callEvent: { in: callEventFlow('in'), out: callEventFlow('out'), hangup: callEventFlow('hangup') } satisfies Record<CallEventKind, FlowRows>,
  manager: {
    // The endpoint table's row: the module looks the manager up with GET /api/v5/telephony/manager.
    reached: reached('manager lookup flow', ['GEN-METHOD-MANAGER-GET']),
    copes: managerCopes,
    extra: [managerCopes] as Array<Row<never>>,
  } satisfies FlowRows & { copes: Row<ManagerLookupOutcome> },
};

/** The checks of the recordings fetched with the clientId, each over all of them. */
export const RECORDING_ROWS: Array<Row<ReadonlyArray<{ url: string; reply: Reply }>>> = [
  row('recordings fetched', overRecordings(ensureRecordIsAudioOfItsContentType), ['TEL-RECORD-AUDIO-CONTENT-TYPE']),
  row('recordings fetched', overRecordings(ensureCallbackIsAnswered), []),
];

const flows = (f: FlowRows): Array<Row<never>> => [f.reached, ...(f.items ? [f.items] : []), ...f.extra] as Array<Row<never>>;

/** Every row of the area, in the order they are applied. */
export const SYSTEM_API_ROWS: ReadonlyArray<Row<never>> = [
  ...Object.values(ENDPOINT_ROWS).flatMap((r) => endpointRows(r!)),
  ...flows(FLOW_ROWS.tracking),
  ...flows(FLOW_ROWS.callsUpload),
  ...Object.values(FLOW_ROWS.callEvent).flatMap(flows),
  ...flows(FLOW_ROWS.manager),
  ...(RECORDING_ROWS as Array<Row<never>>),
];
