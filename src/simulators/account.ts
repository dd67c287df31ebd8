/**
 * The system account the simulators play: its sites, stores, payment types, delivery types,
 * order statuses and users, and the API key's rights. One account per run, small and
 * consistent: the reference books a module reads (`/api/v5/reference/...`, wire profile
 * section 8) and the callbacks the suite sends draw their codes from the same object, so a
 * module that fills its settings from the books recognises the codes of the callbacks.
 */

export interface Site {
  code: string;
  name: string;
  url: string;
  currency: string;
  defaultForCrm: boolean;
}

export interface Store {
  code: string;
  name: string;
  type: string;
  active: boolean;
  address: { countryIso: string; city: string; street: string; building: string; text: string };
}

export interface PaymentType {
  code: string;
  name: string;
  active: boolean;
  defaultForCrm: boolean;
  deliveryTypes: string[];
  paymentStatuses: string[];
}

export interface DeliveryType {
  id: number;
  code: string;
  name: string;
  active: boolean;
  defaultCost: number;
  defaultNetCost: number;
  paymentTypes: string[];
  /** The integration module that created it at registration, if any. */
  integrationCode?: string;
}

export interface Status {
  code: string;
  name: string;
  active: boolean;
  ordering: number;
  group: string;
}

export interface User {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  status: 'free' | 'busy' | 'dinner' | 'break';
  online: boolean;
}

/**
 * What the API key may do: `scopes` for current accounts, `credentials` (paths) for older ones
 * (wire profile section 8: official modules need integration_read and integration_write, or the
 * two integration-module paths).
 */
export const API_SCOPES = [
  'integration_read', 'integration_write', 'order_read', 'order_write', 'customer_read', 'customer_write',
  'reference_read', 'reference_write', 'store_read', 'user_read', 'telephony_read', 'telephony_write',
  'delivery_read', 'delivery_write', 'payments_read', 'payments_write', 'custom_fields_read',
] as const;

/**
 * The method paths a key with full rights may call, as `GET /api/credentials` lists them: without
 * the API version, `{...}` for path parameters (`retailcrm/mg-transport-core` DefaultCredentials;
 * `retailcrm/mg-bot-helper` worker.go, which refuses to register unless the integration-module
 * paths, the payment and delivery type books and `/api/store/products` are listed; wire profile
 * section 8). Every method of the API v5 an official client calls, whether the suite simulates it
 * or not: a module that checks a right before calling finds it.
 */
export const API_CREDENTIALS = [
  // the key itself and the system
  '/api/credentials', '/api/api-versions', '/api/system-info',
  // integration modules
  '/api/integration-modules/{code}', '/api/integration-modules/{code}/edit',
  // orders
  '/api/orders', '/api/orders/create', '/api/orders/{externalId}', '/api/orders/{externalId}/edit', '/api/orders/fix-external-ids',
  '/api/orders/history', '/api/orders/statuses', '/api/orders/upload', '/api/orders/combine', '/api/orders/links/create',
  '/api/orders/{externalId}/payments/create', '/api/orders/payments/{id}/edit', '/api/orders/payments/{id}/delete',
  '/api/orders/packs', '/api/orders/packs/create', '/api/orders/packs/history', '/api/orders/packs/{id}', '/api/orders/packs/{id}/edit', '/api/orders/packs/{id}/delete',
  // customers
  '/api/customers', '/api/customers/create', '/api/customers/{externalId}', '/api/customers/{externalId}/edit', '/api/customers/fix-external-ids',
  '/api/customers/history', '/api/customers/upload', '/api/customers/combine', '/api/customers/notes', '/api/customers/notes/create',
  '/api/customers/notes/{id}/delete', '/api/customers-corporate', '/api/customers-corporate/create', '/api/customers-corporate/{externalId}',
  '/api/customers-corporate/{externalId}/edit', '/api/customers-corporate/history',
  // the store
  '/api/store/products', '/api/store/product-groups', '/api/store/offers', '/api/store/inventories', '/api/store/inventories/upload',
  '/api/store/prices/upload', '/api/store/setting/{code}', '/api/store/setting/{code}/edit', '/api/store/products/batch/create',
  '/api/store/products/batch/edit', '/api/store/product-groups/create', '/api/store/product-groups/{externalId}/edit',
  // reference books
  '/api/reference/sites', '/api/reference/sites/{code}/edit', '/api/reference/stores', '/api/reference/stores/{code}/edit',
  '/api/reference/payment-types', '/api/reference/payment-types/{code}/edit', '/api/reference/payment-statuses',
  '/api/reference/payment-statuses/{code}/edit', '/api/reference/delivery-types', '/api/reference/delivery-types/{code}/edit',
  '/api/reference/delivery-services', '/api/reference/delivery-services/{code}/edit', '/api/reference/statuses',
  '/api/reference/statuses/{code}/edit', '/api/reference/status-groups', '/api/reference/order-methods',
  '/api/reference/order-methods/{code}/edit', '/api/reference/order-types', '/api/reference/order-types/{code}/edit',
  '/api/reference/countries', '/api/reference/currencies', '/api/reference/price-types', '/api/reference/price-types/{code}/edit',
  '/api/reference/product-statuses', '/api/reference/product-statuses/{code}/edit', '/api/reference/units', '/api/reference/units/{code}/edit',
  '/api/reference/legal-entities', '/api/reference/legal-entities/{code}/edit', '/api/reference/couriers', '/api/reference/couriers/create',
  '/api/reference/couriers/{id}/edit', '/api/reference/cost-groups', '/api/reference/cost-items', '/api/reference/subscriptions',
  // custom fields, costs, files, segments, tasks, loyalty
  '/api/custom-fields', '/api/custom-fields/{entity}/create', '/api/custom-fields/{entity}/{code}', '/api/custom-fields/{entity}/{code}/edit',
  '/api/custom-fields/dictionaries', '/api/custom-fields/dictionaries/create', '/api/custom-fields/dictionaries/{code}',
  '/api/custom-fields/dictionaries/{code}/edit', '/api/costs', '/api/costs/create', '/api/costs/{id}', '/api/costs/{id}/edit', '/api/costs/delete',
  '/api/costs/upload', '/api/files', '/api/files/upload', '/api/files/{id}', '/api/files/{id}/download', '/api/files/{id}/edit', '/api/files/{id}/delete',
  '/api/segments', '/api/tasks', '/api/tasks/create', '/api/tasks/{id}', '/api/tasks/{id}/edit', '/api/loyalty/accounts',
  '/api/loyalty/account/create', '/api/loyalty/account/{id}', '/api/loyalty/account/{id}/edit', '/api/loyalty/calculate', '/api/loyalty/loyalties',
  // users
  '/api/users', '/api/users/{id}', '/api/users/{id}/status', '/api/user-groups',
  // telephony
  '/api/telephony/calls/upload', '/api/telephony/call/event', '/api/telephony/manager',
  // delivery
  '/api/delivery/generic/{subcode}/tracking', '/api/delivery/shipments', '/api/delivery/shipments/create', '/api/delivery/shipments/{id}',
  '/api/delivery/shipments/{id}/edit',
  // payment
  '/api/payment/update-invoice', '/api/payment/check',
  // statistics, web analytics, notifications
  '/api/statistic/update', '/api/web-analytics/visits/upload', '/api/notifications/send',
] as const;

/**
 * What `GET /api/system-info` reports besides the system's addresses (`retailcrm/api-client-go`
 * SystemInfoResponse: `{success, systemVersion, publicUrl, technicalUrl}`).
 */
export const SYSTEM_VERSION = '8.0.0';

/** The API versions the system serves (`GET /api/api-versions`). */
export const API_VERSIONS = ['3.0', '4.0', '5.0'] as const;

export class Account {
  readonly sites: Site[] = [
    { code: 'main-shop', name: 'Main shop', url: 'https://shop.example.com', currency: 'EUR', defaultForCrm: true },
    { code: 'outlet', name: 'Outlet', url: 'https://outlet.example.com', currency: 'EUR', defaultForCrm: false },
  ];

  readonly stores: Store[] = [
    { code: 'warehouse-1', name: 'Central warehouse', type: 'store-type-warehouse', active: true, address: { countryIso: 'ES', city: 'Madrid', street: 'Calle Mayor', building: '1', text: 'Calle Mayor 1, Madrid' } },
    { code: 'warehouse-2', name: 'North warehouse', type: 'store-type-warehouse', active: true, address: { countryIso: 'ES', city: 'Bilbao', street: 'Gran Via', building: '10', text: 'Gran Via 10, Bilbao' } },
  ];

  readonly paymentTypes: PaymentType[] = [
    { code: 'cash', name: 'Cash', active: true, defaultForCrm: true, deliveryTypes: [], paymentStatuses: ['not-paid', 'paid'] },
    { code: 'bank-card', name: 'Bank card', active: true, defaultForCrm: false, deliveryTypes: [], paymentStatuses: ['not-paid', 'paid'] },
    { code: 'cod', name: 'Cash on delivery', active: true, defaultForCrm: false, deliveryTypes: [], paymentStatuses: ['not-paid', 'paid'] },
  ];

  readonly deliveryTypes: DeliveryType[] = [
    { id: 1, code: 'self-delivery', name: 'Pickup at the store', active: true, defaultCost: 0, defaultNetCost: 0, paymentTypes: ['cash', 'bank-card'] },
    { id: 2, code: 'courier', name: 'Own courier', active: true, defaultCost: 5, defaultNetCost: 4, paymentTypes: ['cash', 'bank-card', 'cod'] },
  ];

  readonly statuses: Status[] = [
    { code: 'new', name: 'New', active: true, ordering: 10, group: 'new' },
    { code: 'assembling', name: 'Assembling', active: true, ordering: 20, group: 'assembling' },
    { code: 'send-to-delivery', name: 'Sent to delivery', active: true, ordering: 30, group: 'delivery' },
    { code: 'delivering', name: 'Delivering', active: true, ordering: 40, group: 'delivery' },
    { code: 'complete', name: 'Complete', active: true, ordering: 50, group: 'complete' },
    { code: 'cancel-other', name: 'Cancelled', active: true, ordering: 60, group: 'cancel' },
  ];

  readonly users: User[] = [
    { id: 1, firstName: 'Ana', lastName: 'Garcia', email: 'ana@shop.example.com', active: true, status: 'free', online: true },
    { id: 2, firstName: 'Luis', lastName: 'Martin', email: 'luis@shop.example.com', active: true, status: 'busy', online: true },
  ];

  /** The delivery type the system creates for a delivery module at its first registration. */
  addDeliveryType(code: string, name: string, integrationCode: string): DeliveryType {
    const taken = new Set(this.deliveryTypes.map((t) => t.code));
    let unique = code;
    for (let i = 2; taken.has(unique); i++) unique = `${code}-${i}`;
    const type: DeliveryType = {
      id: Math.max(0, ...this.deliveryTypes.map((t) => t.id)) + 1,
      code: unique,
      name,
      // A newly connected delivery type is inactive until the user activates it (document, Preconditions).
      active: false,
      defaultCost: 0,
      defaultNetCost: 0,
      paymentTypes: this.paymentTypes.map((p) => p.code),
      integrationCode,
    };
    this.deliveryTypes.push(type);
    return type;
  }

  /** `{code: entry}`: how the reference books of sites, payment and delivery types and statuses are keyed. */
  static byCode<T extends { code: string }>(entries: readonly T[]): Record<string, T> {
    return Object.fromEntries(entries.map((e) => [e.code, e]));
  }
}
