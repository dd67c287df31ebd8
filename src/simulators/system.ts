/**
 * The system simulator: every module-to-system endpoint of the contract (`/api/v5/...`), and
 * what official modules call besides it (wire profile section 8: the API key check, the API
 * versions, the system information, the reference books, the users). It reads parameters from
 * urlencoded and multipart forms and from the query string; accepts the API key as `apiKey`
 * parameter or `X-API-KEY` header and refuses other keys; answers as the contract says per
 * kind; enforces the limits (50 calls, 100 orders) with an error; keeps state; and records every
 * inbound request, decoded and validated against its schema, for the checks to judge. Any other
 * path answers HTTP 404 with the system's error body and is kept as a call the suite does not
 * simulate. Its endpoint table and what it records of a call are in `system-endpoints.ts`; the
 * modules it holds (what `edit` and `read` do) in `system-modules.ts`.
 */
import { EventEmitter } from 'node:events';
import type { EvidenceLog, Exchange } from '../evidence/exchange.ts';
import { contract, withoutNulls } from '../contract/schemas.ts';
import { declaredKinds } from '../contract/kinds.ts';
import { waitForMatch } from './wait.ts';
import { Account, type PaymentShop, type PaymentType } from './account.ts';
import { accountApi } from './system-account-api.ts';
import { json, systemError, type Answer, type InboundRequest, type ServerLimits, type TlsMaterial } from './http.ts';
import { RecordingServer } from './http-server.ts';
import { formJson } from './http-decode.ts';
import { BoundedList, BoundedMap, pushBounded } from '../evidence/bounded.ts';
import { InvoiceBook, type InvoiceCheck, type InvoiceReport } from './invoices.ts';
import { managerReply } from './telephony-manager.ts';
import { editModule, readModule, type HeldModule } from './system-modules.ts';
import { apiKeyOf, attemptedModule, distinctValues, SERVED_VERSIONS, SYSTEM_ENDPOINTS, type InboundCall, type Registration, type SystemEndpoint } from './system-endpoints.ts';


export interface SystemSimulatorOptions {
  log: EvidenceLog;
  apiKey: string;
  bind?: string;
  port?: number;
  /** The address the module is told to use (defaults to the listening address). */
  publicUrl?: string;
  /** The gateway's public address, returned as `endpointUrl` to transport and bot modules. */
  gatewayUrl: () => string;
  /** Serve HTTPS with this key and certificate. */
  tls?: TlsMaterial;
  /** The account the system plays (default: a fresh one). */
  account?: Account;
  /** Request size and time limits (default `DEFAULT_LIMITS` of http.ts). */
  limits?: Partial<ServerLimits>;
}

export class SystemSimulator extends EventEmitter {
  private readonly callList = new BoundedList<InboundCall>();
  /**
   * Calls to the contract endpoints, in order: per endpoint the first 2,000 and the last 1,000
   * kept (a flood is counted, not kept: `callCount()`); a flow reads its own with `callsSince()`.
   */
  readonly calls: InboundCall[] = this.callList.items;
  /** Accepted registrations: per module code the first 10 and the last 100 kept (a registration loop is counted, not kept). */
  private readonly registrationList = new BoundedList<Registration>(10, 100);
  /** Modules by code, as the system holds them (at most `MAX_HELD` codes). */
  readonly modules = new BoundedMap<string, HeldModule>();
  /** Tracking state: delivery id to its last status update (the latest `MAX_HELD` deliveries). */
  readonly deliveries = new BoundedMap<string, unknown>();
  /** The invoices the system issued, with the state machine enforced on every update-invoice (`invoices.ts`). */
  readonly invoices = new InvoiceBook();
  /** Reports and checks of calls in flight: their exchange is attached when recorded. */
  private readonly invoiceRecords = new WeakMap<InboundRequest, InvoiceReport | InvoiceCheck>();
  /** Calls uploaded (`calls.upload`), the latest `MAX_HELD` of them (a flood evicts the oldest: `evicted()`). */
  readonly uploadedCalls: unknown[] = [];
  /** externalIds of the calls uploaded so far (the last 10,000), for `duplicateCalls`. */
  private readonly uploadedCallIds = new Set<string>();
  /** Call events received (`call.event`), the latest `MAX_HELD` of them (a flood evicts the oldest: `evicted()`). */
  readonly callEvents: unknown[] = [];
  private readonly evictedCounts = { uploadedCalls: 0, callEvents: 0 };
  private readonly unsimulatedList = new BoundedList<Exchange>();
  /** Requests to paths the system does not have (answered 404), in order; bounded per path like `calls`. */
  readonly unsimulated: Exchange[] = this.unsimulatedList.items;
  /** The account: sites, stores, reference books, users. */
  readonly account: Account;
  private readonly server: RecordingServer;
  private readonly options: SystemSimulatorOptions;
  private readonly pending = new WeakMap<InboundRequest, Omit<InboundCall, 'exchange'>>();

  constructor(options: SystemSimulatorOptions) {
    super();
    this.options = options;
    this.account = options.account ?? new Account();
    this.server = new RecordingServer({
      log: options.log,
      direction: 'module->system',
      bind: options.bind ?? '127.0.0.1',
      port: options.port ?? 0,
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      onExchange: (label, req, exchange) => (label === 'unknown endpoint' ? this.unsimulatedCall(exchange) : this.completed(req, exchange)),
    });
    for (const [name, ep] of Object.entries(SYSTEM_ENDPOINTS)) {
      this.server.route(ep.route, name, (req) => this.handle(name as SystemEndpoint, req));
    }
    // The same endpoints under another version: legacy v3/v4 are served, others answer 404; all are judged.
    for (const [name, ep] of Object.entries(SYSTEM_ENDPOINTS)) {
      if (ep.route.includes('/api/v5/')) this.server.route(ep.route.replace('/api/v5/', '/api/{apiVersion}/'), name, (req) => this.handle(name as SystemEndpoint, req));
    }
  }

  async start(): Promise<string> {
    await this.server.listen();
    return this.url();
  }

  stop(): Promise<void> {
    return this.server.close();
  }

  /** Connections that ended before one request was complete (see `RecordingServer.connectionTrouble`). */
  connectionTrouble(): { stalled: number; malformed: number } {
    return this.server.connectionTrouble();
  }

  /** The address given to the module. */
  url(): string {
    return this.options.publicUrl ?? this.server.baseUrl();
  }

  /** Every call to the contract endpoints so far, kept or not; a position for `callsSince`. */
  callCount(): number {
    return this.callList.count;
  }

  /** The calls (kept) made after the first `n` (`n` from `callCount()`). */
  callsSince(n: number): InboundCall[] {
    return this.callList.since(n);
  }

  /** How many uploaded calls and call events were evicted (oldest first) to stay within `MAX_HELD`. */
  evicted(): { uploadedCalls: number; callEvents: number } {
    return { ...this.evictedCounts };
  }

  /** Every request to a path the system does not have so far, kept or not. */
  unsimulatedCount(): number {
    return this.unsimulatedList.count;
  }

  /** The requests to unsimulated paths (kept) made after the first `n`. */
  unsimulatedSince(n: number): Exchange[] {
    return this.unsimulatedList.since(n);
  }

  /** Waits for the next call to an endpoint that satisfies `predicate`, or undefined at the timeout. */
  waitFor(endpoint: SystemEndpoint, timeoutMs: number, predicate: (c: InboundCall) => boolean = () => true, since = 0): Promise<InboundCall | undefined> {
    return waitForMatch<InboundCall>(this, 'call', this.callList.since(since), (c) => c.endpoint === endpoint && predicate(c), timeoutMs);
  }

  private async handle(endpoint: SystemEndpoint, req: InboundRequest): Promise<Answer> {
    const ep = SYSTEM_ENDPOINTS[endpoint];
    const { key, via } = apiKeyOf(req);
    const version = req.params.apiVersion ?? (ep.route.includes('/api/v5/') ? 'v5' : 'none');
    const call: Omit<InboundCall, 'exchange'> = { endpoint, params: req.params, apiKeyVia: via, schemaErrors: [], accepted: false, version, apiKeyValid: key === this.options.apiKey };
    const anomalies = [
      ...(req.invalidUtf8 ?? []).map((name) => `parameter "${name}" is not valid UTF-8 (read with replacement characters)`),
      ...(req.duplicated ?? []).map((name) => `parameter "${name}" given more than once${distinctValues(req, name) > 1 ? ' with different values' : ''}: the last value is taken, as the PHP system does`),
    ];
    if (anomalies.length > 0) call.anomalies = anomalies;
    let answer: Answer;
    if (req.bodyError) call.decodeError = req.bodyError;
    else if (ep.field !== undefined) {
      const decoded = formJson(req, ep.field);
      if (!decoded.present) call.decodeError = `form field "${ep.field}" is missing${req.encoding === 'json' ? ' (the body is JSON, not form parameters)' : ''}`;
      else if (decoded.error) call.decodeError = decoded.error;
      else call.payload = decoded.value;
    } else if (req.method === 'GET') {
      call.payload = Object.fromEntries([...req.url.searchParams].filter(([k]) => k !== 'apiKey'));
    }
    if (endpoint === 'edit') {
      const attempted = attemptedModule(call.payload, req.json);
      if (attempted) call.attempted = attempted;
    }
    if (endpoint === 'edit' && call.payload && typeof call.payload === 'object') {
      const clientId = (call.payload as Record<string, unknown>).clientId;
      if (typeof clientId === 'string') this.options.log.redactor.add('clientId', clientId);
    }
    if (ep.schema && call.payload !== undefined) call.schemaErrors = contract().validate(ep.schema, call.payload).errors;

    if (version !== 'v5' && version !== 'none' && !(SERVED_VERSIONS as readonly string[]).includes(version)) answer = systemError(404, `API method not found: ${req.path}`);
    else if (key === undefined) answer = systemError(401, 'Parameter "apiKey" is missing');
    else if (key !== this.options.apiKey) answer = systemError(403, 'Wrong "apiKey" value');
    else if (call.decodeError) answer = systemError(400, call.decodeError);
    else answer = this.act(endpoint, req, call);
    call.accepted = answer.status < 300;

    this.pending.set(req, call);
    return answer;
  }

  /** The server recorded the exchange of a request: the call is complete and announced. */
  private completed(req: InboundRequest, exchange: Exchange): void {
    const call = this.pending.get(req);
    if (!call) return;
    this.pending.delete(req);
    const full: InboundCall = { ...call, exchange };
    this.callList.push(full, full.endpoint);
    if (full.endpoint === 'edit' && full.accepted) this.recordRegistration(full);
    const invoiceRecord = this.invoiceRecords.get(req);
    if (invoiceRecord) this.invoices.attach(invoiceRecord, exchange.id);
    this.emit('call', full);
  }

  /** A request to a path the system does not have: kept for the report, never a crash. */
  private unsimulatedCall(exchange: Exchange): void {
    this.unsimulatedList.push(exchange, `${exchange.request.method} ${new URL(exchange.request.url ?? '/', 'http://system.invalid').pathname}`);
    this.emit('unsimulated', exchange);
  }

  private recordRegistration(call: InboundCall): void {
    // JSON null in a member means the member is absent (wire profile section 9).
    const module = withoutNulls(call.payload as Record<string, unknown>);
    const held = this.modules.get(String(call.params.code));
    const registration: Registration = {
      code: String(call.params.code),
      module,
      call,
      kinds: declaredKinds(module),
      tokens: held?.tokens ?? {},
    };
    this.registrationList.push(registration, registration.code);
    this.emit('registration', registration);
  }

  /**
   * Takes a registration given in the configuration (remote mode, the module registered
   * elsewhere): the system holds the module as if it had called edit.
   */
  adopt(module: Record<string, unknown>): Registration {
    const code = String(module.code ?? 'module');
    const req = { params: { code } } as unknown as InboundRequest;
    this.edit(req, module);
    if (typeof module.clientId === 'string') this.options.log.redactor.add('clientId', module.clientId);
    const registration: Registration = {
      code,
      module: withoutNulls(module),
      kinds: declaredKinds(module),
      tokens: this.modules.get(code)?.tokens ?? {},
    };
    this.registrationList.push(registration, registration.code);
    this.emit('registration', registration);
    return registration;
  }

  /** The accepted registrations kept, oldest first (the first one always). */
  get registrations(): Registration[] {
    return this.registrationList.kept();
  }

  /** Every accepted registration so far, kept or not; a position for `waitForRegistration`. */
  registrationCount(): number {
    return this.registrationList.count;
  }

  /** Waits for the first accepted registration (or the next one after the first `since`, from `registrationCount()`). */
  waitForRegistration(timeoutMs: number, since = 0): Promise<Registration | undefined> {
    return waitForMatch<Registration>(this, 'registration', this.registrationList.since(since), () => true, timeoutMs);
  }

  /** The account's payment types, those the system created for payment modules' shops among them (`Account.syncShops`). */
  paymentTypes(): PaymentType[] {
    return this.account.paymentTypes.map((t) => ({ ...t }));
  }

  /** The shops of payment modules the system holds (of one module, or of all): a shop missing from a later registration is gone. */
  shops(moduleCode?: string): PaymentShop[] {
    return this.account.shops(moduleCode);
  }

  /** A shop the system holds, by code (of one payment module, or of any), with its payment type; undefined once removed. */
  shopOf(code: string, moduleCode?: string): PaymentShop | undefined {
    return this.account.shopOf(code, moduleCode);
  }

  private act(endpoint: SystemEndpoint, req: InboundRequest, call: Omit<InboundCall, 'exchange'>): Answer {
    switch (endpoint) {
      case 'edit': {
        const answer = this.edit(req, call.payload);
        // Legacy versions answer `{code, success}` (document, Endpoints > edit; Versioning 2).
        return call.version === 'v5' || answer.status >= 300 ? answer : json(200, { success: true, code: req.params.code });
      }
      case 'read':
        return readModule(this.modules, req.params.code!);
      case 'calls.upload': {
        const calls = call.payload;
        if (!Array.isArray(calls)) return systemError(400, 'calls must be a JSON array');
        if (calls.length > 50) return systemError(400, `at most 50 calls a request, received ${calls.length}`);
        this.evictedCounts.uploadedCalls += pushBounded(this.uploadedCalls, calls);
        // A call uploaded before (same externalId) is reported, not refused (wire profile section 4).
        const duplicateCalls: string[] = [];
        for (const c of calls) {
          const id = c && typeof c === 'object' ? (c as Record<string, unknown>).externalId : undefined;
          if (typeof id !== 'string' && typeof id !== 'number') continue;
          if (this.uploadedCallIds.has(String(id))) duplicateCalls.push(String(id));
          else {
            this.uploadedCallIds.add(String(id));
            if (this.uploadedCallIds.size > 10_000) this.uploadedCallIds.delete(this.uploadedCallIds.values().next().value!);
          }
        }
        return json(200, { success: true, processedCallsCount: calls.length - duplicateCalls.length, duplicateCalls });
      }
      case 'manager':
        // The free responsible manager of the customer, when one exists (telephony-manager.ts).
        return managerReply(this.account, this.modules.values(), req.url.searchParams.getAll('phone').at(-1), this.url());
      case 'call.event': {
        this.evictedCounts.callEvents += pushBounded(this.callEvents, [call.payload]);
        return json(200, { success: true, notExistCodes: [], notExistUsers: [] });
      }
      case 'tracking': {
        const updates = call.payload;
        if (!this.modules.has(req.params.subcode!)) return systemError(404, `no delivery module with code ${req.params.subcode}`);
        if (!Array.isArray(updates)) return systemError(400, 'statusUpdate must be a JSON array');
        if (updates.length > 100) return systemError(400, `at most 100 orders a request, received ${updates.length}`);
        for (const u of updates as Array<Record<string, unknown>>) this.deliveries.set(String(u.deliveryId), u);
        return json(200, { success: true });
      }
      case 'update-invoice': {
        const judged = this.invoices.report(call.payload);
        if (judged.record) this.invoiceRecords.set(req, judged.record);
        return judged.accepted ? json(200, { success: true }) : systemError(judged.status, judged.errorMsg ?? 'update-invoice refused');
      }
      case 'credentials':
      case 'api-versions':
      case 'system-info':
      case 'users':
      case 'store.products':
      case 'reference':
        return accountApi(endpoint, this.account, this.url(), req);
      case 'payment.check': {
        const answered = this.invoices.check(call.payload);
        if (answered.record) this.invoiceRecords.set(req, answered.record);
        return json(200, { success: true, result: answered.result });
      }
    }
  }

  /** Registers an invoice the system issued (the payment `create` callback). */
  issueInvoice(invoice: Record<string, unknown>): void {
    this.invoices.issue(invoice);
  }

  private edit(req: InboundRequest, payload: unknown): Answer {
    return editModule({ modules: this.modules, account: this.account, redactor: this.options.log.redactor, gatewayUrl: () => this.options.gatewayUrl() }, req.params.code!, payload);
  }
}
