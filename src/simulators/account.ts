/**
 * The system account the simulators play: its sites, stores, payment types, delivery types,
 * order statuses and users, the API key's rights, and the shops of payment modules (each with
 * the payment type the system gave it, `syncShops`). One account per run, small and
 * consistent: the reference books a module reads (`/api/v5/reference/...`, wire profile
 * section 8) and the callbacks the suite sends draw their codes from the same object, so a
 * module that fills its settings from the books recognises the codes of the callbacks.
 */

import { MAX_HELD, pushBounded } from '../evidence/bounded.ts';

/** Most shops of payment modules the account holds in all: far above any real module's, it bounds what a flood of shops makes the system hold. */
export const MAX_SHOPS = MAX_HELD;

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
  /** For a payment type the system created for a shop of a payment module: that module's code and the shop's (`syncShops`). */
  shop?: { moduleCode: string; code: string };
}

/**
 * A shop of a payment module as the system holds it (integration-interface.md, Payment
 * configuration: "Each newly passed shop automatically gets a payment type in the system. A shop
 * that is inactive triggers a warning when a payment method is added to an order. A shop missing
 * from the list on update is removed from the system, and payments and payment types tied to it
 * can no longer be used.").
 */
export interface PaymentShop {
  /** The payment module that passed it. */
  moduleCode: string;
  code: string;
  name: string;
  /** As the module passed it: a shop not said to be active (`active: true`) is inactive. */
  active: boolean;
  /** The code of the payment type the system created for it. */
  paymentType: string;
}

/** What one registration did to a module's shops. */
export interface ShopChanges {
  added: PaymentShop[];
  /** Shops passed again whose name or active changed. */
  changed: PaymentShop[];
  removed: PaymentShop[];
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

/** A customer of the account, found by phone number; `managerId` is the user responsible for them (the telephony manager lookup, `telephony-manager.ts`). */
export interface Customer {
  id: number;
  firstName: string;
  lastName: string;
  phones: string[];
  managerId: number;
}

/** An offer of a product (`retailcrm/api-client-go` v5 Offer: the members the simulator fills). */
export interface ProductOffer {
  id: number;
  externalId: string;
  name: string;
  article: string;
  price: number;
  quantity: number;
  weight: number;
}

/** A product of the account's catalogue (`GET /api/v5/store/products`; api-client-go v5 Product). */
export interface Product {
  id: number;
  externalId: string;
  name: string;
  article: string;
  manufacturer: string;
  active: boolean;
  quantity: number;
  minPrice: number;
  maxPrice: number;
  offers: ProductOffer[];
  groups: Array<{ id: number; name: string; site: string; active: boolean }>;
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

  /** Customers, each with the user responsible for them: one of a free user, one of a busy user (the manager lookup answers for the first only). */
  readonly customers: Customer[] = [
    { id: 1, firstName: 'Marta', lastName: 'Lopez', phones: ['+34911000101'], managerId: 1 },
    { id: 2, firstName: 'Jorge', lastName: 'Ruiz', phones: ['+34911000102'], managerId: 2 },
  ];

  /** The catalogue (the official bot `retailcrm/mg-bot-helper` reads it; `/api/credentials` lists `/api/store/products`). */
  readonly products: Product[] = [
    product(101, 'Ceramic mug', 'MUG-1', 'Tierra', [{ id: 1011, name: 'Ceramic mug, white', price: 8.5, quantity: 40, weight: 350 }, { id: 1012, name: 'Ceramic mug, blue', price: 9, quantity: 12, weight: 350 }]),
    product(102, 'Cotton tote bag', 'BAG-1', 'Lino', [{ id: 1021, name: 'Cotton tote bag', price: 12, quantity: 25, weight: 180 }]),
    product(103, 'Olive oil 500 ml', 'OIL-5', 'Olivar', [{ id: 1031, name: 'Olive oil 500 ml', price: 7.25, quantity: 0, weight: 560 }]),
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

  /** The shops of payment modules the system holds, by module code then shop code (at most `MAX_SHOPS` in all). */
  private readonly shopsByModule = new Map<string, Map<string, PaymentShop>>();
  private shopCount = 0;
  /** Shops removed because a later registration no longer passed them (the last `MAX_SHOPS`). */
  readonly removedShops: PaymentShop[] = [];
  /** New shops not taken because the account already held `MAX_SHOPS` (a flood is counted, not held). */
  shopsOverLimit = 0;

  /**
   * The shops one accepted registration of a payment module passes (`integrations.payment.shops`,
   * read with null as absent; no list, or no payment integration, is no shop): each new shop gets
   * a payment type (code `<module code>-<shop code>`, made unique among the account's payment
   * types; named after the shop; active as the shop is), a shop passed again keeps its payment
   * type (its name and active follow the shop), and a shop of this module missing from the list is
   * removed with its payment type. A shop is known by its code (a non-empty string, or a number
   * read as its text); an entry without one names no shop and is passed over, and of a code given
   * twice the first entry counts (the document does not say codes are unique; the registration
   * rule PAY-SHOPS-SHAPE judges the module, the system takes what it can).
   */
  syncShops(moduleCode: string, shops: unknown): ShopChanges {
    const passed = new Map<string, { name: string; active: boolean }>();
    for (const entry of Array.isArray(shops) ? shops : []) {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) continue;
      const { code: raw, name, active } = entry as Record<string, unknown>;
      const code = typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : '';
      if (code === '' || passed.has(code)) continue;
      passed.set(code, { name: typeof name === 'string' && name !== '' ? name : code, active: active === true });
    }
    const held = this.shopsByModule.get(moduleCode) ?? new Map<string, PaymentShop>();
    const changes: ShopChanges = { added: [], changed: [], removed: [] };
    for (const [code, shop] of held) {
      if (passed.has(code)) continue;
      held.delete(code);
      this.shopCount--;
      changes.removed.push(shop);
    }
    if (changes.removed.length > 0) {
      const gone = new Set(changes.removed.map((s) => s.paymentType));
      for (let i = this.paymentTypes.length - 1; i >= 0; i--) if (gone.has(this.paymentTypes[i]!.code)) this.paymentTypes.splice(i, 1);
      pushBounded(this.removedShops, changes.removed, MAX_SHOPS);
    }
    let taken: Set<string> | undefined;
    for (const [code, { name, active }] of passed) {
      const shop = held.get(code);
      if (shop) {
        if (shop.name === name && shop.active === active) continue;
        Object.assign(shop, { name, active });
        const type = this.paymentTypes.find((t) => t.code === shop.paymentType);
        if (type) Object.assign(type, { name, active });
        changes.changed.push(shop);
        continue;
      }
      if (this.shopCount >= MAX_SHOPS) {
        this.shopsOverLimit++;
        continue;
      }
      taken ??= new Set(this.paymentTypes.map((t) => t.code));
      const base = `${moduleCode}-${code}`;
      let unique = base;
      for (let i = 2; taken.has(unique); i++) unique = `${base}-${i}`;
      taken.add(unique);
      this.paymentTypes.push({ code: unique, name, active, defaultForCrm: false, deliveryTypes: [], paymentStatuses: ['not-paid', 'paid'], shop: { moduleCode, code } });
      const added: PaymentShop = { moduleCode, code, name, active, paymentType: unique };
      held.set(code, added);
      this.shopCount++;
      changes.added.push(added);
    }
    if (held.size > 0) this.shopsByModule.set(moduleCode, held);
    else this.shopsByModule.delete(moduleCode);
    return changes;
  }

  /** The shops the system holds (of one payment module, or of all), in the order they were passed. */
  shops(moduleCode?: string): PaymentShop[] {
    const modules = moduleCode === undefined ? [...this.shopsByModule.values()] : [this.shopsByModule.get(moduleCode) ?? new Map<string, PaymentShop>()];
    return modules.flatMap((m) => [...m.values()].map((s) => ({ ...s })));
  }

  /** A shop the system holds, by its code (of one payment module, or of any): undefined once removed. */
  shopOf(code: string, moduleCode?: string): PaymentShop | undefined {
    if (moduleCode !== undefined) {
      const shop = this.shopsByModule.get(moduleCode)?.get(code);
      return shop ? { ...shop } : undefined;
    }
    for (const m of this.shopsByModule.values()) {
      const shop = m.get(code);
      if (shop) return { ...shop };
    }
    return undefined;
  }

  /** `{code: entry}`: how the reference books of sites, payment and delivery types and statuses are keyed. */
  static byCode<T extends { code: string }>(entries: readonly T[]): Record<string, T> {
    return Object.fromEntries(entries.map((e) => [e.code, e]));
  }
}

/** A product of the catalogue with its offers (articles and external ids derived from its own). */
function product(id: number, name: string, article: string, manufacturer: string, offers: Array<Omit<ProductOffer, 'externalId' | 'article'>>): Product {
  const prices = offers.map((o) => o.price);
  return {
    id,
    externalId: `p-${id}`,
    name,
    article,
    manufacturer,
    active: true,
    quantity: offers.reduce((n, o) => n + o.quantity, 0),
    minPrice: Math.min(...prices),
    maxPrice: Math.max(...prices),
    offers: offers.map((o, i) => ({ ...o, externalId: `o-${o.id}`, article: `${article}-${i + 1}` })),
    groups: [{ id: 1, name: 'Shop', site: 'main-shop', active: true }],
  };
}
