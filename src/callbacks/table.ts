/**
 * Every call the platform makes to a module, as data: where its address comes from, its method
 * and wire form, its request and reply schemas, and the ids of what binds the platform in it. The
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
  /** webhook: the envelope's `type` (`message_sent`, `template_create`...). */
  event?: string;
  /**
   * Schema of the request payload: the action field's JSON, the whole query string (`clientId`
   * included), the webhook's envelope `{type, meta, data}`.
   */
  request?: string;
  /** webhook: schema of the envelope's `data` for this type. */
  data?: string;
  reply: ReplySpec;
  /**
   * What binds the platform in this call (system or gateway: the address, method, wire form and
   * parameters of the request, how the reply is read): the sender and the simulators implement
   * them; never a module's result. What the module's answer is held to (its method, its success
   * and error forms) is in the areas' application tables (`src/checks/<area>/applications.ts`).
   */
  platform?: string[];
}

/** The webhook types of the gateway (wire profile 6). */
export const WEBHOOK_TYPES = ['message_sent', 'message_updated', 'message_deleted', 'message_read', 'reaction_add', 'reaction_delete', 'template_create', 'template_update', 'template_delete'] as const;

export const CALLBACK_NAMES = [
  'activity',
  'delivery.calculate',
  'delivery.save',
  'delivery.get',
  'delivery.delete',
  'delivery.print',
  'delivery.shipmentPointList',
  'delivery.shipmentSave',
  'delivery.shipmentDelete',
  'delivery.tariffList',
  'delivery.autocomplete',
  'payment.create',
  'payment.approve',
  'payment.cancel',
  'payment.refund',
  'telephony.makeCall',
  'telephony.changeUserStatus',
  'telephony.record',
  'transport.message_sent',
  'transport.message_updated',
  'transport.message_deleted',
  'transport.message_read',
  'transport.reaction_add',
  'transport.reaction_delete',
  'transport.template_create',
  'transport.template_update',
  'transport.template_delete',
] as const;

export type CallbackName = (typeof CALLBACK_NAMES)[number];

/** The form of every POST callback of the system (wire profile 1). */
const POST_FORM = ['WIRE-GEN-CALLBACK-ADDRESS', 'WIRE-GEN-POST-CALLBACK-FORM-ENCODED', 'WIRE-GEN-POST-CALLBACK-CLIENTID-FIELD', 'WIRE-GEN-POST-CALLBACK-JSON-FIELD', 'WIRE-GEN-CLIENTID-ONLY-CREDENTIAL'];
/** The form of the system's GET action callbacks (wire profile 1). */
const GET_QUERY = ['WIRE-GEN-CALLBACK-ADDRESS', 'WIRE-GEN-GET-CALLBACK-QUERY', 'WIRE-GEN-CLIENTID-ONLY-CREDENTIAL'];
/** The address of a delivery action (document). */
const DELIVERY_ADDRESS = ['DLV-CALLBACK-FULL-ADDRESS'];
/** A reply without `result` (wire profile 1). */
const NO_RESULT = ['WIRE-GEN-RESULT-ABSENT-ACK-ACTIONS'];
/** The form of every gateway webhook (document, Events and Authentication; wire profile 6). */
const WEBHOOK = ['WIRE-TRN-WEBHOOK-BODY', 'WIRE-TRN-WEBHOOK-CLIENTID-HEADER', 'WIRE-TRN-WEBHOOK-TYPES', 'TRN-WEBHOOK-BODY-SHAPE', 'TRN-AUTH-CLIENTID-HEADER'];
const ERROR_REPLY = 'common/error-reply.json';

/** A delivery action (`integrations.delivery.actions.<code>`). */
const deliveryAction = (code: string): UrlSource => ({ from: 'action', path: ['integrations', 'delivery', 'actions', code] });
/** A payment action (`integrations.payment.actions.<code>`). */
const paymentAction = (code: string): UrlSource => ({ from: 'action', path: ['integrations', 'payment', 'actions', code] });
/** The transport's `webhookUrl`. */
const WEBHOOK_URL: UrlSource = { from: 'field', path: ['integrations', 'mgTransport', 'webhookUrl'] };

/** A webhook of the gateway: `{type, meta: {timestamp}, data}` to `webhookUrl` with the `ClientId` header. */
function webhook(type: (typeof WEBHOOK_TYPES)[number], parts: { data?: string; reply: ReplySpec; platform?: string[] }): CallbackSpec {
  const { data, reply, platform = [] } = parts;
  return {
    name: `transport.${type}`,
    kind: 'mgTransport',
    method: 'POST',
    url: WEBHOOK_URL,
    encoding: 'webhook',
    event: type,
    request: 'chat/webhook.json',
    ...(data ? { data } : {}),
    reply,
    platform: [...WEBHOOK, ...platform],
  };
}

export const CALLBACKS: Record<CallbackName, CallbackSpec> = {
  activity: {
    name: 'activity',
    kind: null,
    method: 'POST',
    url: { from: 'action', path: ['actions', 'activity'] },
    encoding: 'actionForm',
    field: 'activity',
    reply: { success: 'common/success-reply.json', error: 'common/error-reply.json' },
    
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
    
  },
  'delivery.save': {
    name: 'delivery.save',
    kind: 'delivery',
    method: 'POST',
    url: deliveryAction('save'),
    encoding: 'actionForm',
    field: 'save',
    request: 'delivery/save.request.json',
    reply: { success: 'delivery/save.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...DELIVERY_ADDRESS, 'DLV-SAVE-REQUEST-FIELDS', 'DLV-SAVE-PICKUP-POINT-SENT', 'DLV-PACKAGEITEM-FIELDS', 'WIRE-DLV-DATES-AND-UNITS'],
  },
  'delivery.get': {
    name: 'delivery.get',
    kind: 'delivery',
    method: 'GET',
    url: deliveryAction('get'),
    encoding: 'query',
    request: 'delivery/get.query.json',
    reply: { success: 'delivery/get.reply.json', error: ERROR_REPLY },
    platform: [...GET_QUERY, ...DELIVERY_ADDRESS],
  },
  'delivery.delete': {
    name: 'delivery.delete',
    kind: 'delivery',
    method: 'POST',
    url: deliveryAction('delete'),
    encoding: 'actionForm',
    field: 'delete',
    request: 'delivery/delete.request.json',
    reply: { success: 'delivery/delete.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...DELIVERY_ADDRESS, ...NO_RESULT],
  },
  'delivery.print': {
    name: 'delivery.print',
    kind: 'delivery',
    method: 'POST',
    url: deliveryAction('print'),
    encoding: 'actionForm',
    field: 'print',
    request: 'delivery/print.request.json',
    reply: { body: 'document', error: ERROR_REPLY },
    platform: [...POST_FORM, ...DELIVERY_ADDRESS, 'WIRE-DLV-PRINT-DELIVERYIDS-SEND-NESTED'],
  },
  'delivery.shipmentPointList': {
    name: 'delivery.shipmentPointList',
    kind: 'delivery',
    method: 'GET',
    url: deliveryAction('shipmentPointList'),
    encoding: 'query',
    request: 'delivery/shipment-point-list.query.json',
    reply: { success: 'delivery/shipment-point-list.reply.json', error: ERROR_REPLY },
    platform: [...GET_QUERY, ...DELIVERY_ADDRESS],
  },
  'delivery.shipmentSave': {
    name: 'delivery.shipmentSave',
    kind: 'delivery',
    method: 'POST',
    url: deliveryAction('shipmentSave'),
    encoding: 'actionForm',
    field: 'shipmentSave',
    request: 'delivery/shipment-save.request.json',
    reply: { success: 'delivery/shipment-save.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...DELIVERY_ADDRESS, 'WIRE-DLV-DATES-AND-UNITS'],
  },
  'delivery.shipmentDelete': {
    name: 'delivery.shipmentDelete',
    kind: 'delivery',
    method: 'POST',
    url: deliveryAction('shipmentDelete'),
    encoding: 'actionForm',
    field: 'shipmentDelete',
    request: 'delivery/shipment-delete.request.json',
    reply: { success: 'delivery/shipment-delete.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...DELIVERY_ADDRESS, ...NO_RESULT],
  },
  'delivery.tariffList': {
    name: 'delivery.tariffList',
    kind: 'delivery',
    method: 'GET',
    url: deliveryAction('tariffList'),
    encoding: 'query',
    request: 'delivery/tariff-list.query.json',
    reply: { success: 'delivery/tariff-list.reply.json', error: ERROR_REPLY },
    platform: [...GET_QUERY, ...DELIVERY_ADDRESS],
  },
  // The document does not show autocomplete's parameters, reply or error (wire profile 2, L):
  // the query and reply schemas read them loosely; no error form is known.
  'delivery.autocomplete': {
    name: 'delivery.autocomplete',
    kind: 'delivery',
    method: 'GET',
    url: { from: 'given', what: 'autocompleteUrl of a data field' },
    encoding: 'query',
    request: 'delivery/autocomplete.query.json',
    reply: { success: 'delivery/autocomplete.reply.json' },
    
  },
  'payment.create': {
    name: 'payment.create',
    kind: 'payment',
    method: 'POST',
    url: paymentAction('create'),
    encoding: 'actionForm',
    field: 'create',
    request: 'payment/create.request.json',
    reply: { success: 'payment/create.reply.json', error: ERROR_REPLY },
    platform: POST_FORM,
  },
  'payment.approve': {
    name: 'payment.approve',
    kind: 'payment',
    method: 'POST',
    url: paymentAction('approve'),
    encoding: 'actionForm',
    field: 'approve',
    request: 'payment/approve.request.json',
    reply: { success: 'payment/approve.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...NO_RESULT],
  },
  'payment.cancel': {
    name: 'payment.cancel',
    kind: 'payment',
    method: 'POST',
    url: paymentAction('cancel'),
    encoding: 'actionForm',
    field: 'cancel',
    request: 'payment/cancel.request.json',
    reply: { success: 'payment/cancel.reply.json', error: ERROR_REPLY },
    platform: [...POST_FORM, ...NO_RESULT],
  },
  'payment.refund': {
    name: 'payment.refund',
    kind: 'payment',
    method: 'POST',
    url: paymentAction('refund'),
    encoding: 'actionForm',
    field: 'refund',
    request: 'payment/refund.request.json',
    reply: { success: 'payment/refund.reply.json', error: ERROR_REPLY },
    platform: POST_FORM,
  },
  // Telephony: GET with query parameters (document; the method is L in wire profile 4).
  'telephony.makeCall': {
    name: 'telephony.makeCall',
    kind: 'telephony',
    method: 'GET',
    url: { from: 'field', path: ['integrations', 'telephony', 'makeCallUrl'] },
    encoding: 'query',
    request: 'telephony/make-call.query.json',
    reply: { body: 'status-only' },
    platform: ['TEL-MAKECALL-GET-PARAMS', 'TEL-MAKECALL-EXTERNALPHONE-WHEN', 'TEL-AUTH-CLIENTID-QUERY', 'TEL-MAKECALL-BODY-IGNORED', 'TEL-ERR-NON-200-REPORTED'],
  },
  'telephony.changeUserStatus': {
    name: 'telephony.changeUserStatus',
    kind: 'telephony',
    method: 'GET',
    url: { from: 'field', path: ['integrations', 'telephony', 'changeUserStatusUrl'] },
    encoding: 'query',
    request: 'telephony/change-user-status.query.json',
    reply: { body: 'ignored' },
    platform: ['TEL-CHANGESTATUS-GET-PARAMS', 'TEL-USER-STATUS-VALUES', 'TEL-AUTH-CLIENTID-QUERY', 'TEL-CHANGESTATUS-REPLY-IGNORED'],
  },
  'telephony.record': {
    name: 'telephony.record',
    kind: 'telephony',
    method: 'GET',
    url: { from: 'given', what: 'recordUrl of a call' },
    encoding: 'query',
    request: 'telephony/record.query.json',
    reply: { body: 'audio' },
    platform: ['TEL-RECORD-GET-WITH-CLIENTID', 'TEL-AUTH-CLIENTID-QUERY'],
  },
  // Gateway webhooks. The error of `message_sent` is the `error` member of its reply; the
  // document and the profile show no data or reply of the five types without schemas.
  'transport.message_sent': webhook('message_sent', {
    data: 'chat/webhook.message-sent.data.json',
    reply: { success: 'chat/webhook.message-sent.reply.json', error: 'chat/webhook.message-sent.reply.json' },
    platform: ['TRN-WEBHOOK-MESSAGE-SENT', 'TRN-WEBHOOK-TEMPLATE-VARIABLES'],
  }),
  'transport.message_updated': webhook('message_updated', { reply: {} }),
  'transport.message_deleted': webhook('message_deleted', { reply: {} }),
  'transport.message_read': webhook('message_read', { reply: {} }),
  'transport.reaction_add': webhook('reaction_add', { reply: {} }),
  'transport.reaction_delete': webhook('reaction_delete', { reply: {} }),
  'transport.template_create': webhook('template_create', {
    data: 'chat/webhook.template-create.data.json',
    reply: { success: 'chat/webhook.template-create.reply.json' },
    platform: ['TRN-WEBHOOK-TEMPLATE-CREATE', 'WIRE-TRN-TEMPLATE-CREATE-REPLY-FORMS', 'TRN-NEW-TEMPLATE-PENDING'],
  }),
  'transport.template_update': webhook('template_update', {
    data: 'chat/webhook.template-update.data.json',
    reply: { success: 'chat/webhook.template-update.reply.json' },
    platform: ['TRN-WEBHOOK-TEMPLATE-UPDATE', 'TRN-RESUBMIT-SENDS-UPDATE-WEBHOOK'],
  }),
  'transport.template_delete': webhook('template_delete', {
    data: 'chat/webhook.template-delete.data.json',
    reply: { success: 'chat/webhook.template-delete.reply.json' },
    platform: ['TRN-WEBHOOK-TEMPLATE-DELETE'],
  }),
};
