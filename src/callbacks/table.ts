/**
 * Every call the platform makes to a module, as data: where its address comes from, its method
 * and wire form, its request and reply schemas, and the requirement ids each part carries. The
 * sender (`send.ts`) and every spec read it; nothing else knows how a callback is made.
 */
import type { ModuleKind } from '../contract/kinds.ts';

export type Encoding =
  /** POST form: `clientId` and one field named after the action holding a JSON string (wire profile 1). */
  | 'actionForm'
  /** GET: `clientId` and the parameters in the query string (wire profile 1, 4). */
  | 'query'
  /** POST JSON body with the `ClientId` header (wire profile 6). */
  | 'webhook';

/** Where a callback's address comes from. */
export type UrlSource =
  /** `baseUrl` joined with an action path of the registration (`actions.activity`, `integrations.delivery.actions.calculate`). */
  | { from: 'action'; path: readonly string[] }
  /** An absolute URL field of the registration (`integrations.telephony.makeCallUrl`, `integrations.mgTransport.webhookUrl`). */
  | { from: 'field'; path: readonly string[] }
  /** An address given with each request (a call's `recordUrl`, a data field's `autocompleteUrl`). */
  | { from: 'given'; what: string };

/** What a module answers. */
export interface ReplySpec {
  /** Schema of the success reply (JSON). */
  success?: string;
  /** Schema of the error reply (JSON), when the callback has the error form. */
  error?: string;
  /** A reply that is not JSON: document bytes (print), audio (recordUrl), or ignored (status only). */
  body?: 'document' | 'audio' | 'status-only' | 'ignored';
}

export interface CallbackSpec {
  name: CallbackName;
  /** The module kind that has it; null: every module (activity). */
  kind: ModuleKind | null;
  method: 'GET' | 'POST';
  url: UrlSource;
  encoding: Encoding;
  /** actionForm: the form field named after the action. */
  field?: string;
  /** Schema of the request payload (the action field's JSON, the query parameters, the webhook body). */
  request?: string;
  reply: ReplySpec;
  /** Requirement ids each part carries. */
  requirements: {
    /** The method and wire form the module must take. */
    transport?: string[];
    /** A valid request is answered with the success reply. */
    success?: string[];
    /** An error is answered with the error form. */
    error?: string[];
  };
}

export const CALLBACK_NAMES = ['activity', 'delivery.calculate'] as const;

export type CallbackName = (typeof CALLBACK_NAMES)[number];

export const CALLBACKS: Record<CallbackName, CallbackSpec> = {
  activity: {
    name: 'activity',
    kind: null,
    method: 'POST',
    url: { from: 'action', path: ['actions', 'activity'] },
    encoding: 'actionForm',
    field: 'activity',
    reply: { success: 'common/success-reply.json', error: 'common/error-reply.json' },
    requirements: { success: ['WIRE-REG-ACTIVITY-REPLY-SUCCESS'], error: ['WIRE-GEN-ERROR-REPLY-SHAPE'] },
  },
  'delivery.calculate': {
    name: 'delivery.calculate',
    kind: 'delivery',
    method: 'POST',
    url: { from: 'action', path: ['integrations', 'delivery', 'actions', 'calculate'] },
    encoding: 'actionForm',
    field: 'calculate',
    request: 'delivery/calculate.request.json',
    reply: { success: 'delivery/calculate.reply.json', error: 'common/error-reply.json' },
    requirements: {
      transport: ['DLV-CALCULATE-POST'],
      success: ['DLV-CALCULATE-TARIFF-FIELDS', 'DLV-CALCULATE-EXTRADATAAVAILABLE', 'WIRE-DLV-CALCULATE-RESULT-TARIFFS', 'WIRE-DLV-CALCULATE-TARIFF-TYPE', 'WIRE-GEN-SUCCESS-REPLY-SHAPE'],
      error: ['GEN-ERR-REPLY-200-ERRORMSG', 'GEN-ERR-NAMES-INCORRECT-FIELD', 'WIRE-GEN-ERROR-REPLY-SHAPE'],
    },
  },
};
