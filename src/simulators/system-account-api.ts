/**
 * What official modules call on the system besides the contract (wire profile section 8): the
 * API key check (`GET /api/credentials`), the API versions, the system information, the reference books they read
 * to fill their settings, and the catalogue (`GET /api/v5/store/products`, read by the official bot). Answers in the shapes of the official client libraries
 * (`retailcrm/api-client-go` response.go), drawn from the run's account.
 */
import { Account, API_CREDENTIALS, API_SCOPES, API_VERSIONS, SYSTEM_VERSION } from './account.ts';
import { json, systemError, type Answer, type InboundRequest } from './http.ts';

/** The endpoints answered here (`SYSTEM_ENDPOINTS` of system.ts: wire profile section 8). */
export type AccountApiEndpoint = 'credentials' | 'api-versions' | 'system-info' | 'users' | 'store.products' | 'reference';

/** The answer of one of these endpoints to an authorised call. */
export function accountApi(endpoint: AccountApiEndpoint, account: Account, url: string, req: InboundRequest): Answer {
  switch (endpoint) {
    case 'credentials':
      return credentials(account);
    case 'api-versions':
      return apiVersions();
    case 'system-info':
      return systemInfo(url);
    case 'users':
      return users(account);
    case 'store.products':
      return storeProducts(account, req.url.searchParams);
    case 'reference': {
      const book = req.params.book as ReferenceBook;
      if (!(REFERENCE_BOOKS as readonly string[]).includes(book)) return systemError(404, `API method not found: /api/v5/reference/${book}`);
      return referenceBook(account, book);
    }
  }
}

/** The reference books served under `/api/v5/reference/`, by path segment. */
export const REFERENCE_BOOKS = ['sites', 'stores', 'payment-types', 'delivery-types', 'statuses', 'status-groups', 'order-methods', 'order-types', 'countries'] as const;

export type ReferenceBook = (typeof REFERENCE_BOOKS)[number];

/** `GET /api/credentials`: the key's rights; `sitesAvailable` lists the account's sites. */
export function credentials(account: Account): Answer {
  return json(200, {
    success: true,
    scopes: [...API_SCOPES],
    credentials: [...API_CREDENTIALS],
    siteAccess: 'access_full',
    sitesAvailable: account.sites.map((s) => s.code),
  });
}

/** `GET /api/api-versions`. */
export function apiVersions(): Answer {
  return json(200, { success: true, versions: [...API_VERSIONS] });
}

/**
 * `GET /api/system-info`: the system's version and its addresses. The simulator has one address,
 * the one given to the module, so the public and the technical address are the same.
 */
export function systemInfo(url: string): Answer {
  return json(200, { success: true, systemVersion: SYSTEM_VERSION, publicUrl: url, technicalUrl: url });
}

/** `GET /api/v5/users`: the account's users (telephony modules map extension codes to them). */
export function users(account: Account): Answer {
  return json(200, {
    success: true,
    pagination: { limit: 20, totalCount: account.users.length, currentPage: 1, totalPageCount: 1 },
    users: account.users.map((u) => ({ ...u, isAdmin: false, isManager: true, groups: [] })),
  });
}

/**
 * `GET /api/v5/store/products`: the account's catalogue, one page (`retailcrm/api-client-go`
 * ProductsResponse: `{success, pagination, products}`). `limit` (20, 50 or 100) and `page` are
 * read; filters are not applied (the whole catalogue is the answer to any filter).
 */
export function storeProducts(account: Account, query: URLSearchParams): Answer {
  const asked = Number(query.get('limit'));
  const limit = [20, 50, 100].includes(asked) ? asked : 20;
  const page = Math.max(1, Math.floor(Number(query.get('page')) || 1));
  const total = account.products.length;
  return json(200, {
    success: true,
    pagination: { limit, totalCount: total, currentPage: page, totalPageCount: Math.max(1, Math.ceil(total / limit)) },
    products: account.products.slice((page - 1) * limit, page * limit),
  });
}

/** `GET /api/v5/reference/{book}`: keyed by code where the platform keys them, an array for stores. */
export function referenceBook(account: Account, book: ReferenceBook): Answer {
  switch (book) {
    case 'sites':
      return json(200, { success: true, sites: Account.byCode(account.sites) });
    case 'stores':
      return json(200, { success: true, stores: account.stores });
    case 'payment-types':
      // The shop a payment type is tied to is the system's own record, not a field of the book.
      return json(200, { success: true, paymentTypes: Account.byCode(account.paymentTypes.map(({ shop: _shop, ...t }) => t)) });
    case 'delivery-types':
      return json(200, {
        success: true,
        deliveryTypes: Account.byCode(account.deliveryTypes.map(({ integrationCode, ...t }) => ({ ...t, ...(integrationCode ? { integrationCode, isDeliveryIntegrated: true } : {}) }))),
      });
    case 'statuses':
      return json(200, { success: true, statuses: Account.byCode(account.statuses) });
    case 'status-groups': {
      const groups = [...new Set(account.statuses.map((s) => s.group))];
      return json(200, {
        success: true,
        statusGroups: Object.fromEntries(groups.map((g, i) => [g, { code: g, name: g, active: true, ordering: (i + 1) * 10, process: g !== 'complete' && g !== 'cancel', statuses: account.statuses.filter((s) => s.group === g).map((s) => s.code) }])),
      });
    }
    case 'order-methods':
      return json(200, { success: true, orderMethods: { shopping_cart: { code: 'shopping_cart', name: 'Shopping cart', active: true, defaultForCrm: true } } });
    case 'order-types':
      return json(200, { success: true, orderTypes: { 'eshop-individual': { code: 'eshop-individual', name: 'Individual', active: true, defaultForCrm: true } } });
    case 'countries':
      return json(200, { success: true, countriesIso: [...new Set(account.stores.map((s) => s.address.countryIso))] });
  }
}
