/**
 * The integration module the reference module registers: ONE module holding all five kinds
 * (telephony, delivery, payment, mgTransport, mgBot), and the paths it serves them at.
 * Every path the routers serve comes from here, so the registration and the behaviour cannot
 * drift apart. Fault variants that change the registration are applied here.
 */
import type { Config } from './config.ts';
import { FaultSet } from './faults.ts';
import { SystemClient, type OutboundReply } from './outbound.ts';
import { log } from './log.ts';

/** The required fields of variation `strict-delivery-configuration` beyond the reference ones (document, allowed values of requiredFields). */
export const STRICT_REQUIRED_FIELDS = ['email', 'length', 'width', 'height', 'shipmentDate', 'deliveryAddress.flat'];

/** Code of the integration: the same for every account the module is connected to. */
export const INTEGRATION_CODE = 'reference-module';

export const ACTIVITY_PATH = '/activity';

export const TELEPHONY_PATHS = {
  makeCall: '/telephony/call',
  changeUserStatus: '/telephony/user-status',
  /** Call recordings: `/records/{callId}.wav?clientId=...`. */
  recordPrefix: '/records/',
} as const;

export const TRANSPORT_WEBHOOK_PATH = '/transport/webhook';
export const AUTOCOMPLETE_PATH = '/delivery/autocomplete/pickup-points';

export type DeliveryAction =
  | 'calculate'
  | 'save'
  | 'get'
  | 'delete'
  | 'print'
  | 'shipmentPointList'
  | 'shipmentSave'
  | 'shipmentDelete'
  | 'tariffList';

/** HTTP method the system uses for each delivery action. */
export const DELIVERY_ACTION_METHODS: Record<DeliveryAction, 'GET' | 'POST'> = {
  calculate: 'POST',
  save: 'POST',
  get: 'GET',
  delete: 'POST',
  print: 'POST',
  shipmentPointList: 'GET',
  shipmentSave: 'POST',
  shipmentDelete: 'POST',
  tariffList: 'GET',
};

const DELIVERY_PATHS: Record<DeliveryAction, string> = {
  calculate: '/delivery/calculate',
  save: '/delivery/save',
  get: '/delivery/get',
  delete: '/delivery/delete',
  print: '/delivery/print',
  shipmentPointList: '/delivery/shipment-points',
  shipmentSave: '/delivery/shipment/save',
  shipmentDelete: '/delivery/shipment/delete',
  tariffList: '/delivery/tariffs',
};

/** The delivery actions as registered (fault-aware). */
export function deliveryActionPaths(faults: FaultSet): Partial<Record<DeliveryAction, string>> {
  const actions: Partial<Record<DeliveryAction, string>> = { ...DELIVERY_PATHS };
  if (faults.has('delivery-duplicate-action-path')) actions.shipmentDelete = DELIVERY_PATHS.shipmentSave;
  if (faults.has('delivery-self-shipment-without-point-list')) delete actions.shipmentPointList;
  if (faults.has('delivery-save-without-delete')) delete actions.delete;
  return actions;
}

/** Every (path, action) the delivery router serves: the canonical paths plus the registered ones. */
export function deliveryServedPaths(faults: FaultSet): Map<string, DeliveryAction[]> {
  const served = new Map<string, DeliveryAction[]>();
  const add = (path: string, action: DeliveryAction): void => {
    const list = served.get(path) ?? [];
    if (!list.includes(action)) list.push(action);
    served.set(path, list);
  };
  for (const [action, path] of Object.entries(DELIVERY_PATHS)) add(path, action as DeliveryAction);
  for (const [action, path] of Object.entries(deliveryActionPaths(faults))) add(path, action as DeliveryAction);
  return served;
}

export type PaymentAction = 'create' | 'approve' | 'cancel' | 'refund';

const PAYMENT_PATHS: Record<PaymentAction, string> = {
  create: '/payment/create',
  approve: '/payment/approve',
  cancel: '/payment/cancel',
  refund: '/payment/refund',
};

export function paymentActionPaths(faults: FaultSet): Partial<Record<PaymentAction, string>> {
  const actions: Partial<Record<PaymentAction, string>> = { ...PAYMENT_PATHS };
  if (faults.has('payment-without-create')) delete actions.create;
  return actions;
}

/** Paths the payment router serves (always all four: a fault only hides one from the system). */
export const PAYMENT_SERVED_PATHS: Readonly<Record<PaymentAction, string>> = PAYMENT_PATHS;

/** Currencies the payment service accepts (the registration's `currencies`). */
export function paymentCurrencies(faults: FaultSet): string[] {
  if (faults.has('payment-currency-not-iso')) return ['EUR', 'USD', 'RUB', 'EURO'];
  if (faults.has('payment-currency-unlisted')) return ['EUR', 'USD', 'RUB', 'ABC'];
  return ['EUR', 'USD', 'RUB'];
}

export const PAYMENT_SHOPS = [
  { name: 'Main shop', code: 'main', active: true },
  { name: 'Outlet', code: 'outlet', active: false },
] as const;

/** Printable forms: `code` is what the print callback sends as `type`. */
export const PLATES = [
  { type: 'order', code: 'label', label: 'Shipping label' },
  { type: 'order', code: 'waybill', label: 'Waybill' },
  { type: 'shipment', code: 'act', label: 'Handover act' },
] as const;

export const PLATE_PRINT_LIMIT = 10;

/** Delivery statuses of the carrier, in the order a parcel normally goes through them. */
export const DELIVERY_STATUSES = [
  { code: 'created', name: 'Created', isEditable: true, isError: false, isPreprocessing: true },
  { code: 'accepted', name: 'Accepted by the carrier', isEditable: false, isError: false, isPreprocessing: false },
  { code: 'in_transit', name: 'In transit', isEditable: false, isError: false, isPreprocessing: false },
  { code: 'ready_for_pickup', name: 'Ready for pickup', isEditable: false, isError: false, isPreprocessing: false },
  { code: 'delivered', name: 'Delivered', isEditable: false, isError: false, isPreprocessing: false },
  { code: 'returned', name: 'Returned to sender', isEditable: false, isError: true, isPreprocessing: false },
  { code: 'cancelled', name: 'Cancelled', isEditable: false, isError: false, isPreprocessing: false },
] as const;

export const TELEPHONY_CODES = [
  { userId: 1, code: '101' },
  { userId: 2, code: '102' },
] as const;

export const EXTERNAL_PHONES = [{ siteCode: 'main', externalPhone: '+4930123456' }] as const;

function deliveryDataFields(publicUrl: string, faults: FaultSet): Record<string, unknown>[] {
  const comment: Record<string, unknown> = {
    code: 'courierComment',
    label: 'Comment for the courier',
    hint: 'Printed on the shipping label',
    type: faults.has('delivery-data-field-type-unknown') ? 'select' : 'text',
    required: false,
    affectsCost: false,
    editable: true,
  };
  const choice: Record<string, unknown> = {
    code: 'deliveryWindow',
    label: 'Delivery window',
    type: 'choice',
    multiple: false,
    choices: [
      { value: 'morning', label: 'Morning (9:00-12:00)' },
      { value: 'afternoon', label: 'Afternoon (12:00-17:00)' },
      { value: 'evening', label: 'Evening (17:00-21:00), surcharge' },
    ],
    required: false,
    affectsCost: true,
    editable: true,
  };
  if (faults.has('delivery-choice-without-choices')) delete choice.choices;
  const autocomplete: Record<string, unknown> = {
    code: 'pickupPoint',
    label: 'Pickup point',
    hint: 'Type a city, street or terminal code',
    type: 'autocomplete',
    autocompleteUrl: `${publicUrl}${AUTOCOMPLETE_PATH}`,
    required: false,
    affectsCost: false,
    editable: true,
  };
  if (faults.has('delivery-autocomplete-without-url')) delete autocomplete.autocompleteUrl;
  return [
    comment,
    { code: 'places', label: 'Number of places', hint: 'Each place after the first costs extra', type: 'integer', required: false, affectsCost: true, editable: true },
    { code: 'insurance', label: 'Insure the parcel', hint: '1% of the declared value', type: 'checkbox', required: false, affectsCost: true, editable: true },
    choice,
    autocomplete,
    { code: 'preferredDate', label: 'Preferred delivery date', type: 'date', required: false, affectsCost: false, editable: true },
  ];
}

export interface RegistrationInput {
  config: Config;
  /** The module's base URL (PUBLIC_URL or http://127.0.0.1:PORT), without a trailing slash. */
  publicUrl: string;
  /** The port actually listened on. */
  port: number;
  /** Shops added in the module's settings after its first registration (variation `registers-again`). */
  addedShops?: ReadonlyArray<{ name: string; code: string; active: boolean }>;
}

/** The integration module JSON (the `integrationModule` form field). */
export function buildIntegrationModule(input: RegistrationInput): Record<string, unknown> {
  const { config, publicUrl, port } = input;
  const { faults } = config;
  const telephony = {
    makeCallUrl: faults.has('url-malformed') ? `localhost:${port}${TELEPHONY_PATHS.makeCall}` : `${publicUrl}${TELEPHONY_PATHS.makeCall}`,
    changeUserStatusUrl: `${publicUrl}${TELEPHONY_PATHS.changeUserStatus}`,
    allowEdit: true,
    inputEventSupported: true,
    additionalCodes: TELEPHONY_CODES.map((c) => ({ ...c })),
    externalPhones: EXTERNAL_PHONES.map((p) => ({ ...p })),
    personalAccountUrl: `${publicUrl}/account/telephony`,
  };
  const strict = config.variations.has('strict-delivery-configuration');
  const requiredFields = ['lastName', 'phone', 'deliveryAddress.index', ...(strict ? STRICT_REQUIRED_FIELDS : [])];
  if (faults.has('delivery-required-field-unknown')) requiredFields.push('middleName');
  const payerType = ['sender', 'receiver'];
  if (faults.has('delivery-payer-type-unknown')) payerType.push('thirdParty');
  const delivery = {
    description: 'Reference carrier: courier and pickup-point delivery',
    deliveryConfigurationUrl: `${publicUrl}/account/delivery`,
    actions: deliveryActionPaths(faults),
    payerType,
    selfShipmentAvailable: true,
    codAvailable: !strict,
    allowPackages: !strict,
    rateDeliveryCost: !strict,
    availableShipmentCountries: [],
    requiredFields,
    deliveryDataFieldList: deliveryDataFields(publicUrl, faults),
    shipmentDataFieldList: [
      {
        code: 'vehicle',
        label: 'Vehicle',
        type: 'choice',
        choices: [
          { value: 'car', label: 'Car' },
          { value: 'van', label: 'Van' },
          { value: 'truck', label: 'Truck' },
        ],
        required: false,
        affectsCost: false,
        editable: true,
      },
      { code: 'loaders', label: 'Loaders needed', type: 'checkbox', required: false, affectsCost: false, editable: true },
    ],
    plateList: PLATES.map((p) => ({ ...p })),
    platePrintLimit: PLATE_PRINT_LIMIT,
    statusList: DELIVERY_STATUSES.map((s) => ({ ...s })),
    allowTrackNumber: true,
    settings: {
      defaultPayerType: 'receiver',
      costCalculateBy: 'auto',
      nullDeclaredValue: false,
      lockedByDefault: false,
      paymentTypes: [
        { code: 'cash', active: true, cod: true },
        { code: 'bank-card', active: true, cod: false },
      ],
      shipmentPoints: [{ code: 'main', shipmentPointId: 'T-BER-01', shipmentPointLabel: 'Berlin Mitte terminal' }],
      statuses: [
        { code: 'delivering', trackingStatusCode: 'in_transit' },
        { code: 'complete', trackingStatusCode: 'delivered' },
        { code: 'cancel-other', trackingStatusCode: 'cancelled' },
      ],
      deliveryExtraData: {
        deliveryWindow: 'afternoon',
        insurance: false,
        pickupPoint: faults.has('delivery-autocomplete-default-not-label-value') ? 'T-BER-01' : { label: 'Berlin Mitte terminal', value: 'T-BER-01' },
        ...(faults.has('delivery-extra-data-unknown-key') ? { parcelSize: 'M' } : {}),
      },
      shipmentExtraData: { vehicle: 'van', loaders: false },
    },
  };
  const payment = {
    actions: paymentActionPaths(faults),
    currencies: paymentCurrencies(faults),
    invoiceTypes: faults.has('payment-invoice-type-unknown') ? ['qr'] : ['link'],
    shops: [...PAYMENT_SHOPS, ...(input.addedShops ?? [])].map((s) => ({ ...s })),
  };
  // Fault `payment-shop-without-active`: the second shop lacks `active` (PAY-SHOPS-SHAPE).
  if (faults.has('payment-shop-without-active')) delete (payment.shops[1] as { active?: boolean }).active;
  const module: Record<string, unknown> = {
    code: config.moduleCode,
    integrationCode: INTEGRATION_CODE,
    active: true,
    name: 'Reference module',
    logo: `${publicUrl}/logo.svg`,
    clientId: config.clientId,
    baseUrl: publicUrl,
    accountUrl: `${publicUrl}/account`,
    actions: faults.has('activity-action-missing') ? {} : { activity: ACTIVITY_PATH },
    integrations: {
      telephony,
      delivery,
      payment,
      mgTransport: faults.has('transport-without-webhook-url') ? {} : { webhookUrl: `${publicUrl}${TRANSPORT_WEBHOOK_PATH}` },
      mgBot: faults.has('mgbot-not-empty') ? { isActive: true } : {},
    },
  };
  if (faults.has('client-id-missing')) delete module.clientId;
  if (faults.has('url-malformed')) malformUrls(module, port);
  if (faults.has('registration-field-types-wrong')) wrongFieldTypes(module);
  // telephony-additional-codes-as-map: {userId: code} where the document gives an array of {userId, code}.
  if (faults.has('telephony-additional-codes-as-map')) (telephony as Json).additionalCodes = Object.fromEntries(TELEPHONY_CODES.map((c) => [String(c.userId), c.code]));
  // telephony-external-phones-as-strings: the bare numbers where the document gives an array of {siteCode, externalPhone}.
  if (faults.has('telephony-external-phones-as-strings')) (telephony as Json).externalPhones = EXTERNAL_PHONES.map((p) => p.externalPhone);
  if (config.variations.has('nulls')) return withNullsForUnset(module);
  return module;
}

type Json = Record<string, any>;

/**
 * Fault `url-malformed`: every URL of the registration but `baseUrl` (which the suite needs to
 * reach the module at all) is written without a scheme: `localhost:PORT/...`.
 */
function malformUrls(module: Json, port: number): void {
  const bare = (url: unknown): string => `localhost:${port}${new URL(String(url)).pathname}`;
  const i = module.integrations as Json;
  module.logo = new URL(String(module.logo)).pathname.slice(1); // a relative name: not a URI at all
  module.accountUrl = bare(module.accountUrl);
  i.telephony.changeUserStatusUrl = bare(i.telephony.changeUserStatusUrl);
  i.telephony.personalAccountUrl = bare(i.telephony.personalAccountUrl);
  i.delivery.deliveryConfigurationUrl = bare(i.delivery.deliveryConfigurationUrl);
  for (const f of i.delivery.deliveryDataFieldList as Json[]) if (f.autocompleteUrl) f.autocompleteUrl = bare(f.autocompleteUrl);
  i.mgTransport.webhookUrl = bare(i.mgTransport.webhookUrl);
}

/**
 * Fault `registration-field-types-wrong`: fields of every kind sent with a type the document
 * does not give them (strings for booleans, numbers for strings, an unknown action that is not a
 * path, ...). Only the registration changes; the module works from its own constants.
 */
function wrongFieldTypes(module: Json): void {
  const i = module.integrations as Json;
  Object.assign(module, { code: 12345, integrationCode: 7, active: 'yes', name: 42, actions: { ...module.actions, status: 5 } });
  Object.assign(i.telephony, { allowEdit: 'true', inputEventSupported: 1, additionalCodes: [{ userId: 'one', code: 101 }], externalPhones: 'none' });
  const d = i.delivery as Json;
  Object.assign(d, {
    actions: { ...d.actions, status: 5 },
    selfShipmentAvailable: 'true',
    codAvailable: 1,
    allowPackages: 'no',
    rateDeliveryCost: 'yes',
    availableShipmentCountries: 'ALL',
    description: 5,
    plateList: 'all',
    platePrintLimit: '5',
    allowTrackNumber: 'yes',
    shipmentDataFieldList: [
      ...(d.shipmentDataFieldList as Json[]).map((f) => (f.code === 'loaders' ? { ...f, label: 5, hint: 7, required: 'no', affectsCost: 'no', editable: 'no' } : f.type === 'choice' ? { ...f, multiple: 'no' } : f)),
      { code: 5, label: 'Floor', type: 'integer' },
    ],
  });
  Object.assign(d.settings, {
    costCalculateBy: 'sometimes',
    nullDeclaredValue: 'no',
    lockedByDefault: 'no',
    paymentTypes: [{ code: 'cash', active: 'yes', cod: 'no' }],
    shipmentPoints: 'main',
    statuses: 'all',
    shipmentExtraData: 'van',
  });
  // The shops are left alone: their shape is ensureShopsHaveCodeNameActive's (fault `payment-shop-without-active`).
  Object.assign(i.payment, { actions: { ...i.payment.actions, status: 5 } });
}

/**
 * The registration as a PHP serializer writes it (variation `nulls`): every optional member the
 * module leaves unset is present as JSON null, and unset lists are null instead of empty.
 */
function withNullsForUnset(module: Record<string, unknown>): Record<string, unknown> {
  const integrations = module.integrations as Record<string, Record<string, unknown>>;
  const delivery = integrations.delivery!;
  const dataField = (f: Record<string, unknown>): Record<string, unknown> => ({ hint: null, multiple: null, choices: null, autocompleteUrl: null, ...f });
  return {
    ...module,
    freeze: null,
    native: null,
    availableCountries: null,
    integrations: {
      ...integrations,
      telephony: { ...integrations.telephony, inputEventSupported: null },
      delivery: {
        ...delivery,
        availableShipmentCountries: null,
        deliveryDataFieldList: (delivery.deliveryDataFieldList as Array<Record<string, unknown>>).map(dataField),
        shipmentDataFieldList: (delivery.shipmentDataFieldList as Array<Record<string, unknown>>).map(dataField),
      },
      payment: { ...integrations.payment, shops: (integrations.payment!.shops as Array<Record<string, unknown>>).map((shop) => ({ ...shop, description: null })) },
    },
  };
}

/**
 * What an official module does before registering (variation `credentials-first`): checks that
 * the API key may read and write integration modules (`scopes`, or `credentials` on older
 * accounts), that API v5 is served, and reads the sites and stores it shows in its settings.
 * Returns why it will not register, or nothing.
 */
export async function checkAccess(system: SystemClient, code: string): Promise<string | undefined> {
  const reply = await system.get('/api/credentials', {});
  const body = reply.json as { success?: unknown; scopes?: unknown; credentials?: unknown } | undefined;
  if (reply.status !== 200 || body?.success !== true) return `the API key was refused (HTTP ${reply.status})`;
  const scopes = Array.isArray(body.scopes) ? body.scopes : [];
  const credentials = Array.isArray(body.credentials) ? body.credentials : [];
  const byScope = ['integration_read', 'integration_write'].every((s) => scopes.includes(s));
  const byCredentials = ['/api/integration-modules/{code}', '/api/integration-modules/{code}/edit'].every((c) => credentials.includes(c));
  if (!byScope && !byCredentials) return 'the API key lacks the integration_read and integration_write scopes';
  const versions = (await system.get('/api/api-versions', {})).json as { versions?: unknown } | undefined;
  if (!Array.isArray(versions?.versions) || !versions.versions.some((v) => String(v).startsWith('5.'))) return 'the system does not serve API v5';
  const sites = (await system.get('/api/v5/reference/sites', {})).json as { sites?: Record<string, unknown> } | undefined;
  const stores = (await system.get('/api/v5/reference/stores', {})).json as { stores?: unknown[] } | undefined;
  log('account read before registering', { code, sites: Object.keys(sites?.sites ?? {}), stores: (stores?.stores ?? []).length });
  return undefined;
}

/** The gateway access handed out at registration. */
export interface GatewayAccess {
  endpointUrl: string;
  token: string;
}

export interface RegistrationOutcome {
  registered: boolean;
  status?: number;
  reply?: unknown;
  error?: string;
  mgTransport?: GatewayAccess;
  mgBot?: GatewayAccess;
}

function gatewayAccess(info: unknown, key: 'mgTransport' | 'mgBot'): GatewayAccess | undefined {
  if (!info || typeof info !== 'object') return undefined;
  const v = (info as Record<string, unknown>)[key];
  if (!v || typeof v !== 'object') return undefined;
  const { endpointUrl, token } = v as Record<string, unknown>;
  if (typeof endpointUrl !== 'string' || typeof token !== 'string' || !endpointUrl || !token) return undefined;
  return { endpointUrl: endpointUrl.replace(/\/+$/, ''), token };
}

function interpret(reply: OutboundReply): RegistrationOutcome {
  const body = reply.json as Record<string, unknown> | undefined;
  const ok = reply.status >= 200 && reply.status < 300 && body?.success === true;
  if (!ok) {
    const errorMsg = typeof body?.errorMsg === 'string' ? body.errorMsg : reply.text.slice(0, 300);
    return { registered: false, status: reply.status, reply: reply.json ?? reply.text, error: `system refused the registration (HTTP ${reply.status}): ${errorMsg}` };
  }
  const outcome: RegistrationOutcome = { registered: true, status: reply.status, reply: body };
  const t = gatewayAccess(body.info, 'mgTransport');
  const b = gatewayAccess(body.info, 'mgBot');
  if (t) outcome.mgTransport = t;
  if (b) outcome.mgBot = b;
  return outcome;
}

/**
 * Registers with `POST /api/v5/integration-modules/{code}/edit`. Retries (bounded) while the
 * system is unreachable or answers 5xx; a 4xx or `success: false` is final.
 */
export async function register(system: SystemClient, input: RegistrationInput, attempts: number, retryMs: number): Promise<RegistrationOutcome> {
  const { config } = input;
  const f = config.faults;
  const built = buildIntegrationModule(input);
  const integrationModule = f.has('registration-malformed-json') ? JSON.stringify(built).slice(0, -1) : JSON.stringify(built);
  const withApiKey = !f.has('registration-missing-api-key');
  const path = `/api/${f.has('registration-api-v4') ? 'v4' : 'v5'}/integration-modules/${encodeURIComponent(config.moduleCode)}/edit`;
  const field = f.has('registration-without-integration-module') ? 'module' : 'integrationModule';
  const edit = (): Promise<OutboundReply> =>
    f.has('registration-json-body')
      ? system.postJson(path, { integrationModule: built })
      : system.postForm(path, { [field]: integrationModule }, { apiKey: withApiKey, ...(f.has('registration-wrong-api-key') ? { apiKeyValue: 'not-the-key-the-user-gave' } : {}) });
  let last: RegistrationOutcome = { registered: false, error: 'not attempted' };
  if (f.has('registration-never-sent')) {
    // Checks its key, then never registers.
    await system.get('/api/credentials', {}).catch(() => undefined);
    return { registered: false, error: 'not registering (fault registration-never-sent)' };
  }
  if (config.variations.has('credentials-first')) {
    const refused = await checkAccess(system, config.moduleCode).catch((e: unknown) => `system unreachable: ${(e as Error).message}`);
    if (refused) return { registered: false, error: `not registering: ${refused}` };
  }
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const reply = await edit();
      last = interpret(reply);
      // registration-201-as-failure: a 201 (telephony's success) taken for a failure, retried while
      // attempts last, at most 100 ms apart (a loop that shows within the shortest narrowed run).
      if (f.has('registration-201-as-failure') && reply.status === 201 && attempt < attempts) {
        log(`registration attempt ${attempt}/${attempts}: HTTP 201 taken for a failure`);
        await new Promise((r) => setTimeout(r, Math.min(retryMs, 100)));
        continue;
      }
      if (last.registered || reply.status < 500) return last;
    } catch (e) {
      last = { registered: false, error: `system unreachable: ${(e as Error).message}` };
    }
    log(`registration attempt ${attempt}/${attempts} failed`, { error: last.error });
    if (attempt < attempts) await new Promise((r) => setTimeout(r, retryMs));
  }
  return last;
}
