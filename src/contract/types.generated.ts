/* eslint-disable */
/**
 * Generated from schemas/ by `npm run generate:types`; do not edit by hand.
 * A self-test (test/contract/types.spec.ts) fails when this file is out of date.
 */

/**
 * A header file of a template as the suite describes it: its attachment type, file extension (lower case, without the dot) and size in bytes, checked against the table of allowed file types and maximum sizes.
 */
export type ChatTemplateAttachmentFile = {
  type: 'image' | 'document' | 'video';
  /**
   * File extension in lower case without the dot.
   */
  extension: string;
  /**
   * File size in bytes.
   */
  size: number;
  [k: string]: unknown;
};
/**
 * Body of `POST {gateway_url}/channels/{channel_id}/templates` (transport module to gateway): a template created at the provider.
 */
export type ChatTransportTemplateCreateRequest = ChatTemplate;
/**
 * Body of `PUT {gateway_url}/channels/{channel_id}/templates/{template_code}` (transport module to gateway): the template after verification at the provider.
 */
export type ChatTransportTemplateUpdateRequest = ChatTemplate & {
  name: unknown;
  body: unknown;
  verification_status: unknown;
  [k: string]: unknown;
};
/**
 * Reply of a transport module to `message_sent`: `{external_message_id, error?: {code, message}, async?}`. Without an error the id of the message in the messenger is required.
 */
export type ChatWebhookMessageSentReply = {
  external_message_id?: string;
  error?: {
    code?: 'general' | 'customer_not_exists' | 'reply_timed_out' | 'spam_suspicion' | 'access_restricted';
    message?: string;
    [k: string]: unknown;
  };
  async?: boolean;
  [k: string]: unknown;
};
/**
 * `data` of the `template_create` webhook: the template fields of a template created in the system, and `channel_id`. It has no `code` yet: the transport assigns it in its reply.
 */
export type ChatWebhookTemplateCreateData = ChatTemplate & {
  channel_id: unknown;
  [k: string]: unknown;
};
/**
 * `data` of the `template_update` webhook: the template fields, `channel_id` and the template `code`.
 */
export type ChatWebhookTemplateUpdateData = ChatTemplate & {
  channel_id: unknown;
  code: unknown;
  [k: string]: unknown;
};
/**
 * Decoded JSON of the `statusUpdate` form field of `POST /api/v5/delivery/generic/{subcode}/tracking` (module to system): an array of order status updates, at most 100 orders per request.
 *
 * @maxItems 100
 */
export type DeliveryTrackingRequest = {
  deliveryId?: string | number;
  trackNumber?: string;
  cost?: number;
  history?: DeliveryStatusEntry[];
  /**
   * Values of data fields by code (informational fields may be filled from a status update). An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  [k: string]: unknown;
}[];
/**
 * Status of an invoice: `pending` (issued), `waitingForCapture` (funds held, check passed), `succeeded`, `canceled`, `refundSucceeded`.
 */
export type PaymentInvoiceStatus =
  'pending' | 'waitingForCapture' | 'succeeded' | 'canceled' | 'refundSucceeded';
/**
 * An alphabetic currency code that ISO 4217 lists: a current code (List One, currencies and funds) or a historic one (List Three, withdrawn codes). A code of the right form (currency.json) that is in neither list is worth a warning, not a failure.
 */
export type Iso4217ListedCurrency = (Iso4217CurrentCode | Iso4217WithdrawnCode) & string;
/**
 * ISO 4217 List One: current currency and fund codes.
 */
export type Iso4217CurrentCode =
  | 'AED'
  | 'AFN'
  | 'ALL'
  | 'AMD'
  | 'AOA'
  | 'ARS'
  | 'AUD'
  | 'AWG'
  | 'AZN'
  | 'BAM'
  | 'BBD'
  | 'BDT'
  | 'BHD'
  | 'BIF'
  | 'BMD'
  | 'BND'
  | 'BOB'
  | 'BOV'
  | 'BRL'
  | 'BSD'
  | 'BTN'
  | 'BWP'
  | 'BYN'
  | 'BZD'
  | 'CAD'
  | 'CDF'
  | 'CHE'
  | 'CHF'
  | 'CHW'
  | 'CLF'
  | 'CLP'
  | 'CNY'
  | 'COP'
  | 'COU'
  | 'CRC'
  | 'CUP'
  | 'CVE'
  | 'CZK'
  | 'DJF'
  | 'DKK'
  | 'DOP'
  | 'DZD'
  | 'EGP'
  | 'ERN'
  | 'ETB'
  | 'EUR'
  | 'FJD'
  | 'FKP'
  | 'GBP'
  | 'GEL'
  | 'GHS'
  | 'GIP'
  | 'GMD'
  | 'GNF'
  | 'GTQ'
  | 'GYD'
  | 'HKD'
  | 'HNL'
  | 'HTG'
  | 'HUF'
  | 'IDR'
  | 'ILS'
  | 'INR'
  | 'IQD'
  | 'IRR'
  | 'ISK'
  | 'JMD'
  | 'JOD'
  | 'JPY'
  | 'KES'
  | 'KGS'
  | 'KHR'
  | 'KMF'
  | 'KPW'
  | 'KRW'
  | 'KWD'
  | 'KYD'
  | 'KZT'
  | 'LAK'
  | 'LBP'
  | 'LKR'
  | 'LRD'
  | 'LSL'
  | 'LYD'
  | 'MAD'
  | 'MDL'
  | 'MGA'
  | 'MKD'
  | 'MMK'
  | 'MNT'
  | 'MOP'
  | 'MRU'
  | 'MUR'
  | 'MVR'
  | 'MWK'
  | 'MXN'
  | 'MXV'
  | 'MYR'
  | 'MZN'
  | 'NAD'
  | 'NGN'
  | 'NIO'
  | 'NOK'
  | 'NPR'
  | 'NZD'
  | 'OMR'
  | 'PAB'
  | 'PEN'
  | 'PGK'
  | 'PHP'
  | 'PKR'
  | 'PLN'
  | 'PYG'
  | 'QAR'
  | 'RON'
  | 'RSD'
  | 'RUB'
  | 'RWF'
  | 'SAR'
  | 'SBD'
  | 'SCR'
  | 'SDG'
  | 'SEK'
  | 'SGD'
  | 'SHP'
  | 'SLE'
  | 'SOS'
  | 'SRD'
  | 'SSP'
  | 'STN'
  | 'SVC'
  | 'SYP'
  | 'SZL'
  | 'THB'
  | 'TJS'
  | 'TMT'
  | 'TND'
  | 'TOP'
  | 'TRY'
  | 'TTD'
  | 'TWD'
  | 'TZS'
  | 'UAH'
  | 'UGX'
  | 'USD'
  | 'USN'
  | 'UYI'
  | 'UYU'
  | 'UYW'
  | 'UZS'
  | 'VED'
  | 'VES'
  | 'VND'
  | 'VUV'
  | 'WST'
  | 'XAD'
  | 'XAF'
  | 'XAG'
  | 'XAU'
  | 'XBA'
  | 'XBB'
  | 'XBC'
  | 'XBD'
  | 'XCD'
  | 'XCG'
  | 'XDR'
  | 'XOF'
  | 'XPD'
  | 'XPF'
  | 'XPT'
  | 'XSU'
  | 'XTS'
  | 'XUA'
  | 'XXX'
  | 'YER'
  | 'ZAR'
  | 'ZMW'
  | 'ZWG';
/**
 * ISO 4217 List Three: historic codes, no longer current.
 */
export type Iso4217WithdrawnCode =
  | 'ADP'
  | 'AFA'
  | 'ALK'
  | 'ANG'
  | 'AOK'
  | 'AON'
  | 'AOR'
  | 'ARA'
  | 'ARP'
  | 'ARY'
  | 'ATS'
  | 'AYM'
  | 'AZM'
  | 'BAD'
  | 'BEC'
  | 'BEF'
  | 'BEL'
  | 'BGJ'
  | 'BGK'
  | 'BGL'
  | 'BGN'
  | 'BOP'
  | 'BRB'
  | 'BRC'
  | 'BRE'
  | 'BRN'
  | 'BRR'
  | 'BUK'
  | 'BYB'
  | 'BYR'
  | 'CHC'
  | 'CSD'
  | 'CSJ'
  | 'CSK'
  | 'CUC'
  | 'CYP'
  | 'DDM'
  | 'DEM'
  | 'ECS'
  | 'ECV'
  | 'EEK'
  | 'ESA'
  | 'ESB'
  | 'ESP'
  | 'FIM'
  | 'FRF'
  | 'GEK'
  | 'GHC'
  | 'GHP'
  | 'GNE'
  | 'GNS'
  | 'GQE'
  | 'GRD'
  | 'GWE'
  | 'GWP'
  | 'HRD'
  | 'HRK'
  | 'IEP'
  | 'ILP'
  | 'ILR'
  | 'ISJ'
  | 'ITL'
  | 'LAJ'
  | 'LSM'
  | 'LTL'
  | 'LTT'
  | 'LUC'
  | 'LUF'
  | 'LUL'
  | 'LVL'
  | 'LVR'
  | 'MGF'
  | 'MLF'
  | 'MRO'
  | 'MTL'
  | 'MTP'
  | 'MVQ'
  | 'MXP'
  | 'MZE'
  | 'MZM'
  | 'NIC'
  | 'NLG'
  | 'PEH'
  | 'PEI'
  | 'PES'
  | 'PLZ'
  | 'PTE'
  | 'RHD'
  | 'ROK'
  | 'ROL'
  | 'RUR'
  | 'SDD'
  | 'SDP'
  | 'SIT'
  | 'SKK'
  | 'SLL'
  | 'SRG'
  | 'STD'
  | 'SUR'
  | 'TJR'
  | 'TMM'
  | 'TPE'
  | 'TRL'
  | 'UAK'
  | 'UGS'
  | 'UGW'
  | 'USS'
  | 'UYN'
  | 'UYP'
  | 'VEB'
  | 'VEF'
  | 'VNC'
  | 'XEU'
  | 'XFO'
  | 'XFU'
  | 'XRE'
  | 'YDD'
  | 'YUD'
  | 'YUM'
  | 'YUN'
  | 'ZAL'
  | 'ZMK'
  | 'ZRN'
  | 'ZRZ'
  | 'ZWC'
  | 'ZWD'
  | 'ZWL'
  | 'ZWN'
  | 'ZWR';
/**
 * An ISO 4217 alphabetic currency code in the form the standard gives it: three upper-case Latin letters. Whether the code is one ISO 4217 lists is judged apart (currency-iso4217-listed.json, a SHOULD-level check).
 */
export type Iso4217Currency = string;
/**
 * Configuration of a delivery module (`integrations.delivery`).
 */
export type DeliveryConfiguration = {
  /**
   * Map of action code to path relative to `baseUrl`. Unknown codes are allowed.
   */
  actions?: {
    /**
     * POST: delivery cost calculation, when the delivery-method popup opens.
     */
    calculate?: string;
    /**
     * POST: create (or edit, with deliveryId) a delivery when an order is saved. Without it no creation requests are sent.
     */
    save?: string;
    /**
     * GET: read a delivery when an order is created or edited through the API with order[delivery][data][externalId].
     */
    get?: string;
    /**
     * POST: cancel a delivery.
     */
    delete?: string;
    /**
     * POST: print documents; the module returns pdf or zip bytes.
     */
    print?: string;
    /**
     * GET: list shipment terminals. Required when selfShipmentAvailable is true.
     */
    shipmentPointList?: string;
    /**
     * POST: save a new or existing shipment.
     */
    shipmentSave?: string;
    /**
     * POST: shipment status became Cancelled. Without it shipments cannot be edited or deleted.
     */
    shipmentDelete?: string;
    /**
     * GET: list tariffs, to choose a default tariff in a delivery type.
     */
    tariffList?: string;
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    [k: string]: string | undefined;
  };
  /**
   * Order fields the user must fill for this delivery.
   */
  requiredFields?: (
    | 'lastName'
    | 'patronymic'
    | 'phone'
    | 'email'
    | 'length'
    | 'width'
    | 'height'
    | 'shipmentDate'
    | 'deliveryDate'
    | 'deliveryTime.from'
    | 'deliveryTime.to'
    | 'manager'
    | 'deliveryAddress.regionId'
    | 'deliveryAddress.cityId'
    | 'deliveryAddress.street'
    | 'deliveryAddress.streetId'
    | 'deliveryAddress.flat'
    | 'deliveryAddress.index'
    | 'integrationDeliveryData.shipmentpointName'
  )[];
  /**
   * Who may pay for the delivery.
   */
  payerType?: ('sender' | 'receiver')[];
  /**
   * Enables shipment terminals.
   */
  selfShipmentAvailable?: boolean;
  /**
   * Enables cash-on-delivery data.
   */
  codAvailable?: boolean;
  /**
   * Multiple packages per order.
   */
  allowPackages?: boolean;
  /**
   * When false the module does not compute cost.
   */
  rateDeliveryCost?: boolean;
  /**
   * Countries shipments may go to; empty means no restriction.
   */
  availableShipmentCountries?: string[];
  /**
   * Shown in integration settings and in the list of integrations on a delivery type; tells accounts apart.
   */
  description?: string;
  /**
   * Link to the settings page on the delivery service side.
   */
  deliveryConfigurationUrl?: string;
  /**
   * Extra fields shown in the order card.
   */
  deliveryDataFieldList?: DeliveryDataField[];
  /**
   * Extra fields of a shipment; same element format as deliveryDataFieldList.
   */
  shipmentDataFieldList?: DeliveryDataField[];
  /**
   * Printable forms. The `code` is what the print callback sends as `type`.
   */
  plateList?: {
    type?: string;
    code?: string;
    label?: string;
    [k: string]: unknown;
  }[];
  /**
   * Number of orders that can be printed at once; above 1 allows multi-order printing.
   */
  platePrintLimit?: number;
  settings?: DeliverySettings;
  /**
   * Delivery statuses of the delivery service.
   */
  statusList?: {
    code?: string | number;
    name?: string;
    isEditable?: boolean;
    isError?: boolean;
    isPreprocessing?: boolean;
    [k: string]: unknown;
  }[];
  allowTrackNumber?: boolean;
  duplicateOrderProductSupported?: boolean;
  availableCountries?: string[];
  [k: string]: unknown;
};
/**
 * Extra field of a delivery module, an element of `deliveryDataFieldList` or `shipmentDataFieldList`.
 */
export type DeliveryDataField = {
  code: string;
  label: string;
  hint?: string;
  type: 'text' | 'integer' | 'checkbox' | 'choice' | 'autocomplete' | 'date';
  required?: boolean;
  affectsCost?: boolean;
  editable?: boolean;
  multiple?: boolean;
  choices?: {
    value: string | number;
    label: string;
    [k: string]: unknown;
  }[];
  autocompleteUrl?: string;
  [k: string]: unknown;
};
/**
 * The integration module as a module sends it to `POST /api/v5/integration-modules/{code}/edit` (decoded JSON of the form field `integrationModule`).
 */
export type IntegrationModuleEdit = {
  /**
   * Unique module code; `edit` creates the module if the code is new, otherwise changes it.
   */
  code: string;
  /**
   * Code of the integration; stays the same when several accounts are connected.
   */
  integrationCode?: string;
  active?: boolean;
  name?: string;
  /**
   * Address of the module's logo.
   */
  logo?: string;
  /**
   * Unique code of the system account chosen at registration; identifies the account to the module (sent with every callback).
   */
  clientId: string;
  /**
   * Base of the callback paths of `actions` (top-level and per kind).
   */
  baseUrl?: string;
  /**
   * Link to the module's account or settings page.
   */
  accountUrl?: string;
  actions?: ModuleActions;
  integrations: Integrations;
  [k: string]: unknown;
};
/**
 * Configuration of each kind the module implements: one or more of `telephony`, `delivery`, `payment`, `mgTransport`, `mgBot`.
 */
export type Integrations = (
  | {
      telephony: unknown;
      [k: string]: unknown;
    }
  | {
      delivery: unknown;
      [k: string]: unknown;
    }
  | {
      payment: unknown;
      [k: string]: unknown;
    }
  | {
      mgTransport: unknown;
      [k: string]: unknown;
    }
  | {
      mgBot: unknown;
      [k: string]: unknown;
    }
) & {
  telephony?: TelephonyConfiguration;
  delivery?: DeliveryConfiguration;
  payment?: PaymentConfiguration;
  mgTransport?: MgTransportConfiguration;
  mgBot?: MgBotConfigurationEdit;
  [k: string]: unknown;
};
/**
 * Configuration of each kind the module implements: one or more of `telephony`, `delivery`, `payment`, `mgTransport`, `mgBot`.
 */
export type Integrations1 = (
  | {
      telephony: unknown;
      [k: string]: unknown;
    }
  | {
      delivery: unknown;
      [k: string]: unknown;
    }
  | {
      payment: unknown;
      [k: string]: unknown;
    }
  | {
      mgTransport: unknown;
      [k: string]: unknown;
    }
  | {
      mgBot: unknown;
      [k: string]: unknown;
    }
) & {
  telephony?: TelephonyConfiguration;
  delivery?: DeliveryConfiguration;
  payment?: PaymentConfiguration;
  mgTransport?: MgTransportConfiguration;
  mgBot?: MgBotConfigurationRead;
  [k: string]: unknown;
};
/**
 * Decoded JSON of the form field `calls` of `POST /api/v5/telephony/calls/upload`: the call history, at most 50 calls per request.
 *
 * @maxItems 50
 */
export type TelephonyCallsUploadRequest = TelephonyCallRecord[];

/**
 * Every message schema of the contract, by its path below schemas/.
 */
export interface ContractMessages {
  'chat/bot.command.request.json'?: ChatBotCommandRequest;
  'chat/bot.ws-frame.json'?: ChatBotWsFrame;
  'chat/channel-settings.json'?: ChatChannelSettings;
  'chat/channel.json'?: ChatChannel;
  'chat/template-attachment-file.json'?: ChatTemplateAttachmentFile;
  'chat/template-attachments.json'?: ChatTemplateAttachments;
  'chat/template-buttons.json'?: ChatTemplateButtons;
  'chat/template-examples.json'?: ChatTemplateExamples;
  'chat/template-header.json'?: ChatTemplateHeader;
  'chat/template.json'?: ChatTemplate;
  'chat/transport.error-reply.json'?: ChatTransportErrorReply;
  'chat/transport.template-create.request.json'?: ChatTransportTemplateCreateRequest;
  'chat/transport.template-update.request.json'?: ChatTransportTemplateUpdateRequest;
  'chat/webhook.json'?: ChatWebhook;
  'chat/webhook.message-sent.data.json'?: ChatWebhookMessageSentData;
  'chat/webhook.message-sent.reply.json'?: ChatWebhookMessageSentReply;
  'chat/webhook.template-create.data.json'?: ChatWebhookTemplateCreateData;
  'chat/webhook.template-create.reply.json'?: ChatWebhookTemplateCreateReply;
  'chat/webhook.template-delete.data.json'?: ChatWebhookTemplateDeleteData;
  'chat/webhook.template-delete.reply.json'?: ChatWebhookTemplateDeleteReply;
  'chat/webhook.template-update.data.json'?: ChatWebhookTemplateUpdateData;
  'chat/webhook.template-update.reply.json'?: ChatWebhookTemplateUpdateReply;
  'common/error-reply.json'?: ErrorReply;
  'common/success-reply.json'?: SuccessReply;
  'delivery/address.json'?: DeliveryAddress;
  'delivery/autocomplete.query.json'?: DeliveryAutocompleteQuery;
  'delivery/autocomplete.reply.json'?: DeliveryAutocompleteReply;
  'delivery/calculate.reply.json'?: DeliveryCalculateReply;
  'delivery/calculate.request.json'?: DeliveryCalculateRequest;
  'delivery/delete.reply.json'?: DeliveryDeleteReply;
  'delivery/delete.request.json'?: DeliveryDeleteRequest;
  'delivery/delivery-status.json'?: DeliveryStatusEntry;
  'delivery/get.query.json'?: DeliveryGetQuery;
  'delivery/get.reply.json'?: DeliveryGetReply;
  'delivery/package-item.json'?: DeliveryPackageItem;
  'delivery/package.json'?: DeliveryPackage;
  'delivery/print.request.json'?: DeliveryPrintRequest;
  'delivery/save.reply.json'?: DeliverySaveReply;
  'delivery/save.request.json'?: DeliverySaveRequest;
  'delivery/shipment-delete.reply.json'?: DeliveryShipmentDeleteReply;
  'delivery/shipment-delete.request.json'?: DeliveryShipmentDeleteRequest;
  'delivery/shipment-point-list.query.json'?: DeliveryShipmentPointListQuery;
  'delivery/shipment-point-list.reply.json'?: DeliveryShipmentPointListReply;
  'delivery/shipment-save.reply.json'?: DeliveryShipmentSaveReply;
  'delivery/shipment-save.request.json'?: DeliveryShipmentSaveRequest;
  'delivery/tariff-list.query.json'?: DeliveryTariffListQuery;
  'delivery/tariff-list.reply.json'?: DeliveryTariffListReply;
  'delivery/tariff.json'?: DeliveryTariff;
  'delivery/terminal.json'?: DeliveryTerminal;
  'delivery/tracking.reply.json'?: DeliveryTrackingReply;
  'delivery/tracking.request.json'?: DeliveryTrackingRequest;
  'payment/approve.reply.json'?: PaymentApproveReply;
  'payment/approve.request.json'?: PaymentApproveRequest;
  'payment/cancel.reply.json'?: PaymentCancelReply;
  'payment/cancel.request.json'?: PaymentCancelRequest;
  'payment/check.reply.json'?: PaymentCheckReply;
  'payment/check.request.json'?: PaymentCheckRequest;
  'payment/create.reply.json'?: PaymentCreateReply;
  'payment/create.request.json'?: PaymentCreateRequest;
  'payment/invoice-status.json'?: PaymentInvoiceStatus;
  'payment/refund.reply.json'?: PaymentRefundReply;
  'payment/refund.request.json'?: PaymentRefundRequest;
  'payment/update-invoice.reply.json'?: PaymentUpdateInvoiceReply;
  'payment/update-invoice.request.json'?: PaymentUpdateInvoiceRequest;
  'registration/activity.request.json'?: ActivityCallbackRequest;
  'registration/currency-iso4217-listed.json'?: Iso4217ListedCurrency;
  'registration/currency.json'?: Iso4217Currency;
  'registration/delivery-configuration.json'?: DeliveryConfiguration;
  'registration/delivery-data-field.json'?: DeliveryDataField;
  'registration/delivery-settings.json'?: DeliverySettings;
  'registration/edit-reply.delivery.json'?: IntegrationModuleEditReplyDelivery;
  'registration/edit-reply.generic.json'?: IntegrationModuleEditReply;
  'registration/edit-reply.legacy.json'?: IntegrationModuleEditReplyLegacy;
  'registration/edit-reply.mg-bot.json'?: IntegrationModuleEditReplyMgBot;
  'registration/edit-reply.mg-transport.json'?: IntegrationModuleEditReplyMgTransport;
  'registration/integration-module.edit.json'?: IntegrationModuleEdit;
  'registration/integration-module.read.json'?: IntegrationModuleRead;
  'registration/mg-bot-configuration.edit.json'?: MgBotConfigurationEdit;
  'registration/mg-bot-configuration.read.json'?: MgBotConfigurationRead;
  'registration/mg-transport-configuration.json'?: MgTransportConfiguration;
  'registration/payment-configuration.json'?: PaymentConfiguration;
  'registration/read-reply.json'?: IntegrationModuleReadReply;
  'registration/telephony-configuration.json'?: TelephonyConfiguration;
  'telephony/call-event.json'?: TelephonyCallEvent;
  'telephony/call-event.reply.json'?: TelephonyCallEventReply;
  'telephony/call-record.json'?: TelephonyCallRecord;
  'telephony/calls-upload.reply.json'?: TelephonyCallsUploadReply;
  'telephony/calls-upload.request.json'?: TelephonyCallsUploadRequest;
  'telephony/change-user-status.query.json'?: TelephonyChangeUserStatusQuery;
  'telephony/make-call.query.json'?: TelephonyMakeCallQuery;
  'telephony/manager.query.json'?: TelephonyManagerQuery;
  'telephony/manager.reply.json'?: TelephonyManagerReply;
  'telephony/record.query.json'?: TelephonyRecordQuery;
  [k: string]: unknown;
}
/**
 * Body of `PUT {gateway_url}/my/commands/{name}` (bot to gateway): register a command `{name, description}`; the description holds at most 64 characters.
 */
export interface ChatBotCommandRequest {
  name?: string;
  description?: string;
  [k: string]: unknown;
}
/**
 * A frame on the bot WebSocket: `{type, meta: {timestamp}, data}`. Event types include message_new, message_updated, message_deleted, chat_created, dialog_opened, dialog_closed, dialog_assign, user_joined_chat, user_left_chat, channel_updated, settings_updated; the list is open.
 */
export interface ChatBotWsFrame {
  type: string;
  meta: {
    timestamp: number;
    [k: string]: unknown;
  };
  data: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * The `settings` object of a transport channel: sending policy and template support; other settings stay open.
 */
export interface ChatChannelSettings {
  sending_policy?: {
    /**
     * What the manager may send after the reply window has expired.
     */
    after_reply_timeout?: 'no' | 'template';
    /**
     * What the manager may send as the first message to a customer.
     */
    new_customer?: 'no' | 'text' | 'template';
    [k: string]: unknown;
  };
  template?: {
    /**
     * The channel supports template creation.
     */
    creation?: boolean;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Body of the channel activation `POST /channels` (transport module to gateway): `{type, name, external_id, settings}`.
 */
export interface ChatChannel {
  type?: string;
  name?: string;
  external_id?: string;
  settings?: ChatChannelSettings;
  [k: string]: unknown;
}
/**
 * File header of a chat template; replaces `header` when the header is a file. `type` is one of `image`, `document`, `video`.
 */
export interface ChatTemplateAttachments {
  type?: 'image' | 'document' | 'video';
  [k: string]: unknown;
}
/**
 * Buttons of a chat template: `{items: [...]}`; an item is a quick reply (`plain`), a URL button (`url`, with `url`) or a call button (`phone`, with `phone`). At most 10 quick replies.
 */
export interface ChatTemplateButtons {
  items?: {
    type?: 'url' | 'phone' | 'plain';
    label?: string;
    /**
     * Link of a url button; may hold a variable such as {{1}}.
     */
    url?: string;
    phone?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * Sample values of a template's variables: `body` and `header` (one value per numbered variable), `buttons` (one array of strings per button).
 */
export interface ChatTemplateExamples {
  /**
   * Sample values of the body variables.
   */
  body?: {
    [k: string]: unknown;
  };
  /**
   * Sample values of the header variables.
   */
  header?: {
    [k: string]: unknown;
  };
  buttons?: string[][];
  [k: string]: unknown;
}
/**
 * Header of a chat template: `{content: {type, body}}`; `type` is `text` for a text header, whose `body` is the header text (it can hold variables such as {{1}}).
 */
export interface ChatTemplateHeader {
  content?: {
    /**
     * `text` for a text header; other values not shown.
     */
    type?: string;
    body?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * A chat (message) template of a transport channel. A template has either a text `header` or a file header `attachments`, not both.
 */
export interface ChatTemplate {
  /**
   * Unique within the channel; assigned by the transport; structure free.
   */
  code?: string;
  name?: string;
  lang?: string;
  /**
   * Provider category.
   */
  category?: string;
  /**
   * `media` for media templates; text templates also exist (their value is not shown), so the value is open.
   */
  type?: string;
  /**
   * Text with numbered variables {{1}}, {{2}}...
   */
  body?: string;
  header?: ChatTemplateHeader;
  attachments?: ChatTemplateAttachments;
  footer?: string;
  buttons?: ChatTemplateButtons;
  example?: ChatTemplateExamples;
  examples?: ChatTemplateExamples;
  channel_id?: number;
  /**
   * approved, pending (shown to the user as verifying), rejected.
   */
  verification_status?: 'approved' | 'pending' | 'rejected';
  rejection_reason?: 'abusive_content' | 'incorrect_category' | 'invalid_format' | 'scam';
  quality?: 'pending' | 'high' | 'medium' | 'low';
  [k: string]: unknown;
}
/**
 * Error body of the Transport API (gateway to transport module): `{errors: ["..."]}`.
 */
export interface ChatTransportErrorReply {
  errors: string[];
  [k: string]: unknown;
}
/**
 * Envelope of a webhook from the gateway to a transport module's `webhookUrl`: `{type, meta: {timestamp}, data}`. Known types: template_create, template_update, template_delete, message_sent (document); message_updated, message_deleted, message_read, reaction_add, reaction_delete (wire profile). Other types may come: the value is open.
 */
export interface ChatWebhook {
  type: string;
  meta: {
    timestamp: number;
    [k: string]: unknown;
  };
  data: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * `data` of the `message_sent` webhook: a message sent from the system that the transport must deliver.
 */
export interface ChatWebhookMessageSentData {
  external_user_id?: string;
  external_chat_id?: string;
  channel_id?: number;
  /**
   * Message type, for example text or image; the list is not shown.
   */
  type?: string;
  content?: string;
  quote_external_id?: string;
  quote_content?: string;
  in_app_id?: number;
  user?: {
    id?: number | string;
    first_name?: string;
    last_name?: string;
    avatar?: string;
    [k: string]: unknown;
  };
  customer?: {
    first_name?: string;
    last_name?: string;
    avatar?: string;
    [k: string]: unknown;
  };
  template?: {
    code: string;
    variables: {
      header?: {
        type?: string;
        args?: string[];
        attachments?: {
          id?: string;
          caption?: string;
          [k: string]: unknown;
        }[];
        [k: string]: unknown;
      };
      attachments?: {
        id?: string;
        caption?: string;
        [k: string]: unknown;
      }[];
      body?: {
        args?: string[];
        [k: string]: unknown;
      };
      buttons?: {
        type?: string;
        title?: string;
        args?: string[];
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  attachments?: {
    suggestions?: {
      type?: string;
      title?: string;
      payload?: string;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  items?: {
    id?: string;
    size?: number;
    caption?: string;
    height?: number;
    width?: number;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * Reply of a transport module to `template_create`: `{code}` with the unique template code it assigned; `verification_status` may come too.
 */
export interface ChatWebhookTemplateCreateReply {
  code: string;
  /**
   * approved, pending (shown to the user as verifying), rejected.
   */
  verification_status?: 'approved' | 'pending' | 'rejected';
  [k: string]: unknown;
}
/**
 * `data` of the `template_delete` webhook, sent when the last copy of a template in the system is deleted: `{channel_id, code, lang}`.
 */
export interface ChatWebhookTemplateDeleteData {
  channel_id: number;
  code: string;
  lang: string;
  [k: string]: unknown;
}
/**
 * Reply of a transport module to `template_delete`. Its body is not shown: any JSON object is accepted.
 */
export interface ChatWebhookTemplateDeleteReply {
  [k: string]: unknown;
}
/**
 * Reply of a transport module to `template_update`. Its body is not shown: any JSON object is accepted.
 */
export interface ChatWebhookTemplateUpdateReply {
  [k: string]: unknown;
}
/**
 * Error answer of a module to the system: `{success: false, errorMsg}`. The text is shown to the user.
 */
export interface ErrorReply {
  success: false;
  errorMsg: string;
  [k: string]: unknown;
}
/**
 * Plain success answer `{success: true}` (system to module on edit and call event; module to system on activity, delete, shipmentDelete, approve, cancel).
 */
export interface SuccessReply {
  success: true;
  [k: string]: unknown;
}
/**
 * A shipment or delivery address in delivery callbacks (`shipmentAddress`, `deliveryAddress`, shipment `address`). For pickup-point delivery the point code is sent in `terminal`.
 */
export interface DeliveryAddress {
  /**
   * Postal code.
   */
  index?: string;
  /**
   * Country code.
   */
  countryIso?: string;
  region?: string;
  /**
   * Id in an external geographic reference service.
   */
  regionId?: number | string;
  city?: string;
  /**
   * Id in an external geographic reference service.
   */
  cityId?: number | string;
  street?: string;
  /**
   * Id in an external geographic reference service.
   */
  streetId?: number | string;
  building?: string;
  flat?: string;
  house?: string;
  /**
   * The address as one line of text.
   */
  text?: string;
  /**
   * Code of the chosen terminal or pickup point.
   */
  terminal?: string;
  [k: string]: unknown;
}
/**
 * Query string of a GET to the `autocompleteUrl` of an autocomplete data field. The name of the parameter carrying the typed text is not known, so no parameter is named or required: any string-valued query is accepted.
 */
export interface DeliveryAutocompleteQuery {
  [k: string]: string;
}
/**
 * Success reply of a module to a GET on an autocomplete field's `autocompleteUrl`. Kept permissive: the document does not show this response; the wire profile (low confidence) gives an array of {value, label, description}, and the official client library also has a single item in result. Required: `success: true` and `result` (wire profile section 1: a success reply is {success: true, result}, result absent only for delete, shipmentDelete, approve, cancel and activity), and each suggestion's `value` (document: of an autocomplete `{label, value}` the value is what is sent to the module).
 */
export interface DeliveryAutocompleteReply {
  success: true;
  result: Suggestion[] | Suggestion;
  [k: string]: unknown;
}
/**
 * A suggestion: value sent to the module, label shown in the system.
 */
export interface Suggestion {
  value: string | number;
  label?: string;
  description?: string;
  [k: string]: unknown;
}
/**
 * Success reply of a module to the `calculate` callback: `{success: true, result: [tariff, ...]}`, optionally with a response-level `extraDataAvailable`.
 */
export interface DeliveryCalculateReply {
  success: true;
  result: DeliveryTariff[];
  /**
   * Codes of deliveryDataFieldList fields available for the calculation.
   */
  extraDataAvailable?: string[];
  [k: string]: unknown;
}
/**
 * A tariff entry of the `calculate` result. A tariff without `cost` is shown but cannot be chosen.
 */
export interface DeliveryTariff {
  code: string;
  group?: string;
  name?: string;
  type?: 'courier' | 'selfDelivery';
  description?: string;
  /**
   * May be omitted: the tariff is then shown but cannot be chosen.
   */
  cost?: number;
  /**
   * Minimum delivery term (wire-profile.md section 2 only).
   */
  minTerm?: number;
  /**
   * Maximum delivery term (wire-profile.md section 2 only).
   */
  maxTerm?: number;
  /**
   * Map of data-field code to value. An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  /**
   * Codes of deliveryDataFieldList fields available with this tariff.
   */
  extraDataAvailable?: string[];
  pickuppointList?: DeliveryTerminal[];
  [k: string]: unknown;
}
/**
 * A shipment terminal or pickup point: an element of the `shipmentPointList` result and of a tariff's `pickuppointList`. When a terminal is chosen only its code is sent as the sender address.
 */
export interface DeliveryTerminal {
  code: string;
  name?: string;
  address?: string;
  schedule?: string;
  phone?: string;
  cost?: number;
  description?: string;
  /**
   * Map of data-field code to value. An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  coordinates?: {
    latitude?: number;
    longitude?: number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `calculate` form field of the `calculate` callback (POST, sent when the delivery-method popup opens). Inputs: shipment warehouse, weight, city, payment type and the data fields with affectsCost true (in extraData).
 */
export interface DeliveryCalculateRequest {
  currency?: string;
  packages?: DeliveryPackage[];
  payerType?: 'sender' | 'receiver';
  declaredValue?: number;
  shipmentAddress?: DeliveryAddress1;
  deliveryAddress?: DeliveryAddress2;
  /**
   * The shipment warehouse.
   */
  store?: {
    code?: string;
    name?: string;
    [k: string]: unknown;
  };
  cod?: number;
  shipmentDate?: string;
  deliveryDate?: string;
  deliveryTime?: TimeInterval;
  /**
   * Values of the data fields with affectsCost true, by field code. An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  [k: string]: unknown;
}
/**
 * A package of a delivery (`packages[]` of `calculate`, `save` and `shipmentSave`). Weight in grams, sizes in millimetres.
 */
export interface DeliveryPackage {
  packageId?: string | number;
  weight?: number;
  width?: number;
  length?: number;
  height?: number;
  items?: DeliveryPackageItem[];
  [k: string]: unknown;
}
/**
 * An item of a package (`PackageItem`), sent by the system in `calculate`, `save` and `shipmentSave`. Weights in grams; `cod` is the cash-on-delivery amount per unit.
 */
export interface DeliveryPackageItem {
  /**
   * Offer id in the system.
   */
  offerId?: string | number;
  /**
   * Offer id in the shop.
   */
  externalId?: string | number;
  /**
   * Offer id in the warehouse system.
   */
  xmlId?: string | number;
  name?: string;
  declaredValue?: number;
  /**
   * Cash-on-delivery amount per unit. Total cash on delivery = sum of cod x quantity over items, plus delivery.cod.
   */
  cod?: number;
  /**
   * VAT rate; the value `none` means no VAT. Other values are not listed by the document, so any string or a number is accepted.
   */
  vatRate?: string | number;
  quantity?: number;
  unit?: {
    code?: string;
    name?: string;
    sym?: string;
    [k: string]: unknown;
  };
  cost?: number;
  /**
   * Weight in grams (wire-profile.md section 2).
   */
  weight?: number;
  [k: string]: unknown;
}
/**
 * A shipment or delivery address in delivery callbacks (`shipmentAddress`, `deliveryAddress`, shipment `address`). For pickup-point delivery the point code is sent in `terminal`.
 */
export interface DeliveryAddress1 {
  /**
   * Postal code.
   */
  index?: string;
  /**
   * Country code.
   */
  countryIso?: string;
  region?: string;
  /**
   * Id in an external geographic reference service.
   */
  regionId?: number | string;
  city?: string;
  /**
   * Id in an external geographic reference service.
   */
  cityId?: number | string;
  street?: string;
  /**
   * Id in an external geographic reference service.
   */
  streetId?: number | string;
  building?: string;
  flat?: string;
  house?: string;
  /**
   * The address as one line of text.
   */
  text?: string;
  /**
   * Code of the chosen terminal or pickup point.
   */
  terminal?: string;
  [k: string]: unknown;
}
/**
 * A shipment or delivery address in delivery callbacks (`shipmentAddress`, `deliveryAddress`, shipment `address`). For pickup-point delivery the point code is sent in `terminal`.
 */
export interface DeliveryAddress2 {
  /**
   * Postal code.
   */
  index?: string;
  /**
   * Country code.
   */
  countryIso?: string;
  region?: string;
  /**
   * Id in an external geographic reference service.
   */
  regionId?: number | string;
  city?: string;
  /**
   * Id in an external geographic reference service.
   */
  cityId?: number | string;
  street?: string;
  /**
   * Id in an external geographic reference service.
   */
  streetId?: number | string;
  building?: string;
  flat?: string;
  house?: string;
  /**
   * The address as one line of text.
   */
  text?: string;
  /**
   * Code of the chosen terminal or pickup point.
   */
  terminal?: string;
  [k: string]: unknown;
}
export interface TimeInterval {
  from?: string;
  to?: string;
  custom?: string;
  [k: string]: unknown;
}
/**
 * Success reply of a module to the `delete` callback: `{success: true}` without result.
 */
export interface DeliveryDeleteReply {
  success: true;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `delete` form field of the `delete` callback (POST, sent when the Cancel delivery button is pressed, the delivery type is changed, or the order status enters the Cancelled group).
 */
export interface DeliveryDeleteRequest {
  deliveryId: string;
  [k: string]: unknown;
}
/**
 * A status of a delivery order: `status` of the `get` result and an element of `history[]` in a tracking update.
 */
export interface DeliveryStatusEntry {
  /**
   * Status code of the delivery service (mapped by settings.statuses[].trackingStatusCode).
   */
  code?: string | number;
  updatedAt?: string;
  comment?: string;
  [k: string]: unknown;
}
/**
 * Query string of the `get` callback (GET `?clientId=..&deliveryId=..`), sent when an order is created or edited through the API with order[delivery][data][externalId].
 */
export interface DeliveryGetQuery {
  clientId: string;
  deliveryId: string;
  [k: string]: string;
}
/**
 * Success reply of a module to the `get` callback: `{success: true, result: {trackNumber, cost, shipmentDate, deliveryDate, status, extraData, ...}}`. An unknown id gets the error reply.
 */
export interface DeliveryGetReply {
  success: true;
  result: {
    trackNumber?: string;
    cost?: number;
    shipmentDate?: string;
    deliveryDate?: string;
    status?: DeliveryStatusEntry;
    /**
     * Values of data fields by code. An empty array is accepted: PHP serialises an empty map as [].
     *
     * @maxItems 0
     */
    extraData?:
      | {
          [k: string]: unknown;
        }
      | [];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `print` form field of the `print` callback (POST, documents printed from an order card or the order list). The reply is the document bytes (pdf, or zip with Content-Type application/zip); an error is HTTP 400 with the error body.
 */
export interface DeliveryPrintRequest {
  entityType?: 'order' | 'shipment';
  /**
   * Code of the printable form (plateList).
   */
  type?: string;
  /**
   * Ids of the deliveries to print: a flat array of strings (official client library) or an array of arrays of strings (documentation text, an official module; the form the suite sends).
   */
  deliveryIds?: string[] | string[][];
  [k: string]: unknown;
}
/**
 * Success reply of a module to the `save` callback: `{success: true, result: {deliveryId, trackNumber, cost, status, extraData}}`.
 */
export interface DeliverySaveReply {
  success: true;
  result: {
    /**
     * Id of the delivery in the delivery service; the system sends it back in get, delete, print and shipmentSave.
     */
    deliveryId: string | number;
    trackNumber?: string;
    cost?: number;
    /**
     * Status code of the delivery service (the official client sends a string); a status object is accepted too.
     */
    status?: string | DeliveryStatusEntry;
    /**
     * Values of informational (editable false) data fields by code. An empty array is accepted: PHP serialises an empty map as [].
     *
     * @maxItems 0
     */
    extraData?:
      | {
          [k: string]: unknown;
        }
      | [];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `save` form field of the `save` callback (POST, sent when an order with the integrated delivery type is saved; carries `deliveryId` when an existing delivery is edited). For pickup-point delivery the point code (deliveryAddress.terminal) and the delivery address are sent.
 */
export interface DeliverySaveRequest {
  /**
   * Id of the delivery in the delivery service; present when an existing delivery is edited.
   */
  deliveryId?: string;
  order?: string | number;
  orderNumber?: string;
  site?: string;
  siteName?: string;
  store?: {
    [k: string]: unknown;
  };
  /**
   * Optional.
   */
  legalEntity?: string;
  customer?: {
    [k: string]: unknown;
  };
  manager?: {
    [k: string]: unknown;
  };
  packages?: DeliveryPackage[];
  delivery?: {
    shipmentAddress?: DeliveryAddress3;
    deliveryAddress?: DeliveryAddress4;
    codPaymentType?: {
      [k: string]: unknown;
    };
    /**
     * Cash on delivery is used.
     */
    withCod?: boolean;
    /**
     * Cash-on-delivery amount of the delivery itself, added to the items' cod x quantity.
     */
    cod?: number;
    cost?: number;
    /**
     * VAT rate of the delivery; `none` means no VAT.
     */
    vatRate?: string | number;
    /**
     * Code of the chosen tariff.
     */
    tariff?: string;
    payerType?: 'sender' | 'receiver';
    shipmentDate?: string;
    deliveryDate?: string;
    deliveryTime?: TimeInterval;
    /**
     * Values of the editable data fields by code. An empty array is accepted: PHP serialises an empty map as [].
     *
     * @maxItems 0
     */
    extraData?:
      | {
          [k: string]: unknown;
        }
      | [];
    [k: string]: unknown;
  };
  currency?: string;
  [k: string]: unknown;
}
/**
 * A shipment or delivery address in delivery callbacks (`shipmentAddress`, `deliveryAddress`, shipment `address`). For pickup-point delivery the point code is sent in `terminal`.
 */
export interface DeliveryAddress3 {
  /**
   * Postal code.
   */
  index?: string;
  /**
   * Country code.
   */
  countryIso?: string;
  region?: string;
  /**
   * Id in an external geographic reference service.
   */
  regionId?: number | string;
  city?: string;
  /**
   * Id in an external geographic reference service.
   */
  cityId?: number | string;
  street?: string;
  /**
   * Id in an external geographic reference service.
   */
  streetId?: number | string;
  building?: string;
  flat?: string;
  house?: string;
  /**
   * The address as one line of text.
   */
  text?: string;
  /**
   * Code of the chosen terminal or pickup point.
   */
  terminal?: string;
  [k: string]: unknown;
}
/**
 * A shipment or delivery address in delivery callbacks (`shipmentAddress`, `deliveryAddress`, shipment `address`). For pickup-point delivery the point code is sent in `terminal`.
 */
export interface DeliveryAddress4 {
  /**
   * Postal code.
   */
  index?: string;
  /**
   * Country code.
   */
  countryIso?: string;
  region?: string;
  /**
   * Id in an external geographic reference service.
   */
  regionId?: number | string;
  city?: string;
  /**
   * Id in an external geographic reference service.
   */
  cityId?: number | string;
  street?: string;
  /**
   * Id in an external geographic reference service.
   */
  streetId?: number | string;
  building?: string;
  flat?: string;
  house?: string;
  /**
   * The address as one line of text.
   */
  text?: string;
  /**
   * Code of the chosen terminal or pickup point.
   */
  terminal?: string;
  [k: string]: unknown;
}
/**
 * Success reply of a module to the `shipmentDelete` callback: `{success: true}` without result.
 */
export interface DeliveryShipmentDeleteReply {
  success: true;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `shipmentDelete` form field of the `shipmentDelete` callback (POST, sent when a shipment status becomes Cancelled).
 */
export interface DeliveryShipmentDeleteRequest {
  shipmentId: string;
  /**
   * Values of shipment data fields by code. An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  [k: string]: unknown;
}
/**
 * Query string of the `shipmentPointList` callback (GET, sent when a shipment terminal is picked in the order card).
 */
export interface DeliveryShipmentPointListQuery {
  clientId: string;
  country?: string;
  region?: string;
  regionId?: string;
  city?: string;
  cityId?: string;
  /**
   * Code of the store (wire-profile.md section 2, confidence M).
   */
  code?: string;
  [k: string]: string | undefined;
}
/**
 * Success reply of a module to the `shipmentPointList` callback: `{success: true, result: [terminal, ...]}`.
 */
export interface DeliveryShipmentPointListReply {
  success: true;
  result: DeliveryTerminal[];
  [k: string]: unknown;
}
/**
 * Success reply of a module to the `shipmentSave` callback: `{success: true, result: {shipmentId, extraData}}`.
 */
export interface DeliveryShipmentSaveReply {
  success: true;
  result: {
    shipmentId?: string | number;
    /**
     * Values of shipment data fields by code. An empty array is accepted: PHP serialises an empty map as [].
     *
     * @maxItems 0
     */
    extraData?:
      | {
          [k: string]: unknown;
        }
      | [];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `shipmentSave` form field of the `shipmentSave` callback (POST, sent when a new or existing shipment is saved; carries `shipmentId` when editing).
 */
export interface DeliveryShipmentSaveRequest {
  /**
   * Id of the shipment in the delivery service; present when an existing shipment is edited.
   */
  shipmentId?: string;
  manager?: {
    [k: string]: unknown;
  };
  date?: string;
  time?: TimeInterval;
  address?: DeliveryAddress;
  /**
   * Code of the store.
   */
  store?: string;
  orders?: {
    deliveryId?: string;
    packages?: DeliveryPackage[];
    [k: string]: unknown;
  }[];
  comment?: string;
  /**
   * Values of the shipmentDataFieldList fields by code. An empty array is accepted: PHP serialises an empty map as [].
   *
   * @maxItems 0
   */
  extraData?:
    | {
        [k: string]: unknown;
      }
    | [];
  [k: string]: unknown;
}
/**
 * Query string of the `tariffList` callback (GET, sent when a default tariff is chosen in a delivery type integrated with the generic delivery).
 */
export interface DeliveryTariffListQuery {
  clientId: string;
  [k: string]: string;
}
/**
 * Success reply of a module to the `tariffList` callback: `{success: true, result: [{code, name, description, type}, ...]}`.
 */
export interface DeliveryTariffListReply {
  success: true;
  result: {
    code?: string;
    name?: string;
    description?: string;
    type?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * Success reply of the system to a tracking request: `{success: true}`.
 */
export interface DeliveryTrackingReply {
  success: true;
  [k: string]: unknown;
}
/**
 * Success reply of a payment module to `approve`: `{success: true}` without result.
 */
export interface PaymentApproveReply {
  success: true;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `approve` form field: capture the held funds of a payment in `waitingForCapture`.
 */
export interface PaymentApproveRequest {
  /**
   * Id of the payment returned by the module from create (or reported by update-invoice).
   */
  paymentId: string;
  /**
   * Amount to capture; absent: the whole held amount.
   */
  amount?: number;
  [k: string]: unknown;
}
/**
 * Success reply of a payment module to `cancel`: `{success: true}` without result.
 */
export interface PaymentCancelReply {
  success: true;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `cancel` form field: stop accepting payments (from `pending`) or release held funds (from `waitingForCapture`).
 */
export interface PaymentCancelRequest {
  /**
   * Id of the payment returned by the module from create (or reported by update-invoice).
   */
  paymentId: string;
  [k: string]: unknown;
}
/**
 * Reply of the system to `POST /api/v5/payment/check`: `{success: true, result: {success, errorMsg?}}`; `result.success` false means the parameters do not match the invoice.
 */
export interface PaymentCheckReply {
  success: true;
  result: {
    success: boolean;
    errorMsg?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `check` form field of `POST /api/v5/payment/check` (module to system): the payment parameters the system compares with the invoice.
 */
export interface PaymentCheckRequest {
  invoiceUuid?: string;
  amount?: number;
  currency?: string;
  [k: string]: unknown;
}
/**
 * Success reply of a payment module to `create`: `{success: true, result: {paymentId, invoiceUrl, cancellable}}`. The payment link is mandatory.
 */
export interface PaymentCreateReply {
  success: true;
  result: {
    /**
     * Id of the payment in the module; later callbacks (approve, cancel, refund) carry it.
     */
    paymentId?: string | number;
    /**
     * The payment link.
     */
    invoiceUrl: string;
    cancellable?: boolean;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `create` form field of the `create` callback (system to payment module): the invoice to create.
 */
export interface PaymentCreateRequest {
  /**
   * Shop of the client in the payment system (a `code` from `shops`).
   */
  shopId?: string;
  /**
   * Id of the invoice in the system; `check` and `update-invoice` refer to it.
   */
  invoiceUuid?: string;
  invoiceType?: 'link';
  amount?: number;
  currency?: string;
  orderNumber?: string;
  orderId?: number;
  siteUrl?: string;
  returnUrl?: string;
  items?: {
    name?: string;
    price?: number;
    quantity?: number;
    vat?: string;
    paymentMethod?: string;
    paymentObject?: string;
    [k: string]: unknown;
  }[];
  customer?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Success reply of a payment module to `refund`: `{success: true, result: {id, status, amount, comment}}`.
 */
export interface PaymentRefundReply {
  success: true;
  /**
   * The refund created in the payment system.
   */
  result: {
    /**
     * Id of the refund in the payment system.
     */
    id?: string | number;
    /**
     * Status of the refund in the payment system; its values are not shown.
     */
    status?: string;
    amount?: number;
    comment?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `refund` form field: refund a `succeeded` payment; without `amount` the whole payment is refunded.
 */
export interface PaymentRefundRequest {
  /**
   * Id of the payment returned by the module from create (or reported by update-invoice).
   */
  paymentId: string;
  /**
   * Amount to refund; absent: full refund.
   */
  amount?: number;
  [k: string]: unknown;
}
/**
 * Reply of the system to `POST /api/v5/payment/update-invoice`. Its body shape is not shown (neither source gives it): any JSON object.
 */
export interface PaymentUpdateInvoiceReply {
  [k: string]: unknown;
}
/**
 * Decoded JSON of the `updateInvoice` form field of `POST /api/v5/payment/update-invoice` (module to system): the changed parameters of an invoice.
 */
export interface PaymentUpdateInvoiceRequest {
  invoiceUuid?: string;
  paymentId?: string | number;
  amount?: number;
  status?: PaymentInvoiceStatus;
  invoiceUrl?: string;
  /**
   * When the invoice was paid.
   */
  paidAt?: string;
  /**
   * When the invoice expires.
   */
  expiredAt?: string;
  /**
   * The refund reported with status refundSucceeded.
   */
  refund?: {
    /**
     * Id of the refund in the payment system.
     */
    id?: string | number;
    /**
     * Status of the refund in the payment system; its values are not shown.
     */
    status?: string;
    amount?: number;
    comment?: string | null;
    [k: string]: unknown;
  };
  refundable?: boolean;
  cancellable?: boolean;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the form field `activity` of the activity callback (POST to baseUrl + actions.activity, with clientId and systemUrl): whether the module is active and frozen in the account.
 */
export interface ActivityCallbackRequest {
  active: boolean;
  freeze: boolean;
  [k: string]: unknown;
}
/**
 * Settings a delivery module configures (`integrations.delivery.settings`); hidden in the system's integration settings once passed.
 */
export interface DeliverySettings {
  /**
   * Default payer.
   */
  defaultPayerType?: string;
  /**
   * Cost calculated automatically or entered by hand.
   */
  costCalculateBy?: 'auto' | 'manual';
  /**
   * Zero declared value by default.
   */
  nullDeclaredValue?: boolean;
  /**
   * Do not synchronise with the delivery service by default.
   */
  lockedByDefault?: boolean;
  /**
   * Payment types of the system usable with this delivery.
   */
  paymentTypes?: {
    /**
     * Code of the system payment type.
     */
    code?: string;
    active?: boolean;
    /**
     * Cash on delivery.
     */
    cod?: boolean;
    [k: string]: unknown;
  }[];
  /**
   * Default shipment terminal per warehouse.
   */
  shipmentPoints?: {
    /**
     * Code of the warehouse (store).
     */
    code?: string;
    /**
     * Id of the terminal in the delivery service.
     */
    shipmentPointId?: string | number;
    shipmentPointLabel?: string;
    [k: string]: unknown;
  }[];
  /**
   * Mapping of system delivery status codes to tracking status codes of the delivery service.
   */
  statuses?: {
    /**
     * Code of the system status.
     */
    code?: string;
    /**
     * Status code of the delivery service (a statusList code, which may be an integer: wire-profile.md section 9).
     */
    trackingStatusCode?: string | number;
    [k: string]: unknown;
  }[];
  /**
   * Map of delivery data-field code to default value (any JSON; for an autocomplete field an object {label, value}).
   */
  deliveryExtraData?: {
    [k: string]: unknown;
  };
  /**
   * Map of shipment data-field code to default value (any JSON; for an autocomplete field an object {label, value}).
   */
  shipmentExtraData?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Reply of the system to `edit` when it creates a delivery module (v5): `{success, info: {deliveryType: {id, code}}}` with the delivery type created at registration.
 */
export interface IntegrationModuleEditReplyDelivery {
  /**
   * Always true in a success reply.
   */
  success: true;
  info: {
    /**
     * The delivery type created at registration.
     */
    deliveryType: {
      id: number;
      /**
       * Symbolic code (transliterated name).
       */
      code: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Success reply of the system to `POST /api/v5/integration-modules/{code}/edit` for telephony and the generic case: `{success: true}`. Telephony answers it with HTTP 201.
 */
export interface IntegrationModuleEditReply {
  /**
   * Always true in a success reply.
   */
  success: true;
  [k: string]: unknown;
}
/**
 * Legacy reply of delivery registration (API v4, CRM v7): `{code, success}`.
 */
export interface IntegrationModuleEditReplyLegacy {
  code: string;
  /**
   * Always true in a success reply.
   */
  success: true;
  [k: string]: unknown;
}
/**
 * Reply of the system to `edit` for a chat bot module: `{success, info: {mgBot: {endpointUrl, token}}}`.
 */
export interface IntegrationModuleEditReplyMgBot {
  /**
   * Always true in a success reply.
   */
  success: true;
  info: {
    mgBot: {
      /**
       * Base address of the chat gateway.
       */
      endpointUrl: string;
      /**
       * Access token, sent as header X-Bot-Token.
       */
      token: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Reply of the system to `edit` for a chat transport module: `{success, info: {mgTransport: {endpointUrl, token}}}`.
 */
export interface IntegrationModuleEditReplyMgTransport {
  /**
   * Always true in a success reply.
   */
  success: true;
  info: {
    mgTransport: {
      /**
       * Base address of the chat gateway.
       */
      endpointUrl: string;
      /**
       * Access token, sent as header X-Transport-Token.
       */
      token: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Map of action name to path relative to `baseUrl`. Unknown action names are allowed.
 */
export interface ModuleActions {
  /**
   * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
   */
  activity?: string;
  /**
   * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
   */
  [k: string]: string | undefined;
}
/**
 * Configuration of a telephony module (`integrations.telephony`).
 */
export interface TelephonyConfiguration {
  /**
   * Address the system calls (GET, query clientId, code, phone, userId, externalPhone) to start a call. The call icon is shown only when it is set.
   */
  makeCallUrl?: string;
  /**
   * Address the system calls (GET, query clientId, userId, code, status) on a user status change.
   */
  changeUserStatusUrl?: string;
  /**
   * When false, settings can be edited only through the API and users can only delete the integration.
   */
  allowEdit?: boolean;
  /**
   * Accepted at registration; meaning given by its name only.
   */
  inputEventSupported?: boolean;
  /**
   * Maps system users to extension codes.
   */
  additionalCodes?: {
    /**
     * Id of the system user.
     */
    userId?: number | string;
    /**
     * Extension code; extension codes are strings (see call event `codes`).
     */
    code?: string;
    [k: string]: unknown;
  }[];
  /**
   * Maps shops (by symbolic code) to external phone numbers.
   */
  externalPhones?: {
    /**
     * Symbolic code of the shop.
     */
    siteCode?: string;
    externalPhone?: string;
    [k: string]: unknown;
  }[];
  /**
   * Link to the telephony personal account.
   */
  personalAccountUrl?: string;
  [k: string]: unknown;
}
/**
 * Configuration of a payment module (`integrations.payment`).
 */
export interface PaymentConfiguration {
  /**
   * Map of action to path relative to `baseUrl`; all callbacks are POST.
   */
  actions: {
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    create: string;
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    approve?: string;
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    cancel?: string;
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    refund?: string;
    /**
     * Path of a callback relative to `baseUrl`: the system calls `baseUrl` followed by this path. Must not be an absolute URL.
     */
    [k: string]: string | undefined;
  };
  /**
   * ISO 4217 codes accepted.
   */
  currencies?: Iso4217Currency[];
  /**
   * Invoice types; `link`: the module must create a payment link.
   */
  invoiceTypes?: 'link'[];
  /**
   * Shops of the client in the payment system. Each new shop gets a payment type; an inactive shop triggers a warning; a shop missing on update is removed.
   */
  shops?: {
    name: string;
    code: string;
    active: boolean;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * Configuration of a chat transport module (`integrations.mgTransport`).
 */
export interface MgTransportConfiguration {
  /**
   * Where the chat gateway sends webhooks (template_create, message_sent...) to the module.
   */
  webhookUrl?: string;
  [k: string]: unknown;
}
/**
 * Configuration of a chat bot module at registration (`integrations.mgBot`): an empty object.
 */
export interface MgBotConfigurationEdit {
  [k: string]: unknown;
}
/**
 * The integration module as the system returns it from `GET /api/v5/integration-modules/{code}` (`integrationModule` of the reply): the edit fields plus `freeze`, `native` and `availableCountries`; `mgBot` carries `token` and `isActive`.
 */
export interface IntegrationModuleRead {
  /**
   * Unique module code; `edit` creates the module if the code is new, otherwise changes it.
   */
  code: string;
  /**
   * Code of the integration; stays the same when several accounts are connected.
   */
  integrationCode?: string;
  active?: boolean;
  /**
   * Returned on read.
   */
  freeze?: boolean;
  name?: string;
  /**
   * Address of the module's logo.
   */
  logo?: string;
  /**
   * Returned on read.
   */
  native?: boolean;
  /**
   * Unique code of the system account chosen at registration; identifies the account to the module (sent with every callback).
   */
  clientId: string;
  /**
   * Base of the callback paths of `actions` (top-level and per kind).
   */
  baseUrl?: string;
  /**
   * Link to the module's account or settings page.
   */
  accountUrl?: string;
  actions?: ModuleActions;
  /**
   * Returned on read.
   */
  availableCountries?: string[];
  integrations: Integrations1;
  [k: string]: unknown;
}
/**
 * Configuration of a chat bot module as read back (`integrations.mgBot` in GET integration-modules/{code}).
 */
export interface MgBotConfigurationRead {
  /**
   * Bot API token (header X-Bot-Token).
   */
  token: string;
  isActive: boolean;
  [k: string]: unknown;
}
/**
 * Reply of the system to `GET /api/v5/integration-modules/{code}`: `{success, integrationModule}`.
 */
export interface IntegrationModuleReadReply {
  /**
   * Always true in a success reply.
   */
  success: true;
  integrationModule: IntegrationModuleRead;
  [k: string]: unknown;
}
/**
 * Decoded JSON of the form field `event` of `POST /api/v5/telephony/call/event`: incoming call, outgoing call or call end.
 */
export interface TelephonyCallEvent {
  /**
   * Customer number.
   */
  phone?: string;
  /**
   * Event kind: `in` incoming call, `out` outgoing call, `hangup` call end.
   */
  type?: 'in' | 'out' | 'hangup';
  /**
   * Extension codes addressed by the event, as strings.
   */
  codes?: string[];
  /**
   * Ids of the system users addressed by the event.
   */
  userIds?: (number | string)[];
  /**
   * Symbolic code of the shop.
   */
  site?: string;
  /**
   * Outcome of the call, with `hangup`.
   */
  hangupStatus?: string;
  /**
   * External number called; when it matches a configured number the popup shows the shop.
   */
  externalPhone?: string;
  /**
   * Id of the call in the telephony.
   */
  callExternalId?: string;
  [k: string]: unknown;
}
/**
 * Reply of the system to a call event: HTTP 200 `{success: true}`, with the codes and users it did not find.
 */
export interface TelephonyCallEventReply {
  success: true;
  /**
   * Codes of the event unknown to the system.
   */
  notExistCodes?: string[];
  /**
   * User ids of the event unknown to the system.
   */
  notExistUsers?: (number | string)[];
  [k: string]: unknown;
}
/**
 * A call of the call history, an element of `calls[]` of `POST /api/v5/telephony/calls/upload`.
 */
export interface TelephonyCallRecord {
  /**
   * Date and time of the call.
   */
  date?: string;
  /**
   * Direction of the call.
   */
  type?: 'in' | 'out';
  /**
   * Customer phone number.
   */
  phone?: string;
  /**
   * Extension code of the user.
   */
  code?: string;
  /**
   * Id of the system user.
   */
  userId?: number | string;
  /**
   * Outcome of the call.
   */
  result?: 'answered' | 'busy' | 'failed' | 'no answer' | 'not allowed' | 'unknown';
  /**
   * Call duration in seconds.
   */
  duration?: number;
  /**
   * Waiting time in seconds.
   */
  durationWaiting?: number;
  /**
   * Id of the call in the telephony.
   */
  externalId?: string;
  /**
   * Link to the call recording; the system requests it with GET and `clientId` and expects audio.
   */
  recordUrl?: string;
  /**
   * External number of the shop the call went through.
   */
  externalPhone?: string;
  /**
   * Symbolic code of the shop.
   */
  site?: string;
  [k: string]: unknown;
}
/**
 * Success reply of the system to the calls upload.
 */
export interface TelephonyCallsUploadReply {
  success: true;
  /**
   * Number of calls stored.
   */
  processedCallsCount?: number;
  /**
   * Calls already known to the system.
   */
  duplicateCalls?: unknown[];
  [k: string]: unknown;
}
/**
 * Query string of the request the system sends to `changeUserStatusUrl` when a user's status changes. Status and body of the answer are ignored.
 */
export interface TelephonyChangeUserStatusQuery {
  /**
   * The account's clientId.
   */
  clientId: string;
  /**
   * Id of the user.
   */
  userId: string;
  /**
   * Extension code of the user.
   */
  code: string;
  /**
   * New status of the user.
   */
  status: 'free' | 'busy' | 'dinner' | 'break';
  [k: string]: string | 'free' | 'busy' | 'dinner' | 'break';
}
/**
 * Query string of the request the system sends to `makeCallUrl` to start a call. HTTP 200 means success; the body is ignored.
 */
export interface TelephonyMakeCallQuery {
  /**
   * The account's clientId.
   */
  clientId: string;
  /**
   * Extension code of the calling user.
   */
  code: string;
  /**
   * Number to call.
   */
  phone: string;
  /**
   * Id of the calling user.
   */
  userId: string;
  /**
   * Only when external numbers are configured and the call starts from an entity tied to a shop.
   */
  externalPhone?: string;
  [k: string]: string | undefined;
}
/**
 * Query string of `GET /api/v5/telephony/manager`: the customer's phone number.
 */
export interface TelephonyManagerQuery {
  phone: string;
  [k: string]: string;
}
/**
 * Reply of the system to the manager lookup: the free responsible manager of the customer, when one exists; without `manager` when none is free.
 */
export interface TelephonyManagerReply {
  success: true;
  manager?: {
    id?: number;
    firstName?: string;
    lastName?: string;
    email?: string;
    /**
     * Extension code of the manager.
     */
    code?: string;
    [k: string]: unknown;
  };
  customer?: {
    [k: string]: unknown;
  };
  links?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * Query string of the request the system sends to a call's `recordUrl`; the module answers with the audio and a correct Content-Type.
 */
export interface TelephonyRecordQuery {
  /**
   * The account's clientId.
   */
  clientId: string;
  [k: string]: string;
}
