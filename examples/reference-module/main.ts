/**
 * The reference module: one integration module of all five kinds (telephony, delivery,
 * payment, chat transport, chat bot) that the conformance suite certifies by default.
 *
 *   node --import tsx examples/reference-module/main.ts
 *
 * Env: SYSTEM_URL, API_KEY, PORT (required); PUBLIC_URL, MODULE_CODE, CLIENT_ID, FAULTS,
 * BOT_RECONNECT_MS, REGISTER_ATTEMPTS, REGISTER_RETRY_MS, REQUEST_TIMEOUT_MS, ANSWER_DELAY_MS, PID_FILE (optional).
 * It listens on 127.0.0.1:PORT, then registers; logs go to stderr; SIGTERM stops it cleanly.
 * Multi-account: the hook registration.connect {systemUrl, apiKey} adds an account (its own
 * clientId, registration, gateway connections and state); a request is its clientId's account's.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { CallbackAuth, Router, badRequest, carriedClientId, sendBytes, sendJson, sendText, unknownIdStyle } from './http.ts';
import type { Obj } from './input.ts';
import { ActivityStore, mountActivity } from './activity.ts';
import { DeliveryService, DeliveryStore, mountDelivery, trackingEntry } from './delivery.ts';
import { PaymentService, mountPayment } from './payment.ts';
import { TelephonyService, mountTelephony } from './telephony.ts';
import { TransportService, mountTransport } from './transport.ts';
import { Bot } from './bot.ts';
import { mountTriggers } from './triggers.ts';
import { LOGO_SVG } from './documents.ts';
import { SystemClient } from './outbound.ts';
import { register, type RegistrationOutcome } from './registration.ts';
import { log } from './log.ts';
import { startProcesses } from './processes.ts';
import { Hostile } from './hostile.ts';

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

/** Where the module listens and how the system calls it: known once the server listens. */
interface Where {
  port: number;
  publicUrl: string;
}

/**
 * One account of the module: a system (its URL and API key) the module is connected to, with its
 * own clientId, registration, gateway connections (from that registration's answer) and state.
 * Every callback, webhook and trigger is answered by the account of the clientId it carries.
 */
interface Account {
  clientId: string;
  systemUrl: string;
  apiKey: string;
  router: Router;
  register: () => Promise<RegistrationOutcome>;
  stop: () => void;
}

/** What a trigger that registers answers. */
function answerOf(o: RegistrationOutcome): Obj {
  return { success: o.registered, ...(o.error ? { errorMsg: o.error } : {}), status: o.status ?? null, reply: o.reply ?? null };
}

/** Builds an account: its services, its routes (on a router of its own) and its registration. */
function openAccount(config: Config, where: Where, connect: (p: Obj) => Promise<Obj>): Account {
  const router = new Router(config.answerDelayMs);
  const auth = new CallbackAuth(config.clientId, config.faults);
  const system = new SystemClient(config.systemUrl, config.apiKey, config.requestTimeoutMs, {
    multipart: config.variations.has('multipart'),
    apiKeyHeader: config.variations.has('api-key-header'),
    queryApiKey: config.variations.has('query-api-key'),
    putExceptEdit: config.faults.has('system-calls-put'),
    ...(config.faults.has('system-calls-wrong-field') ? { fieldExceptEdit: 'data' } : {}),
  });
  const activity = new ActivityStore();
  const deliveryStore = new DeliveryStore();
  const delivery = new DeliveryService(deliveryStore, config.faults, config.variations.has('strict-delivery-configuration'), { pastShipmentDates: config.variations.has('accepts-past-shipment-date') });
  const payment = new PaymentService(system, () => where.publicUrl, config.faults, config.variations);
  const telephony = new TelephonyService(system, () => where.publicUrl, config.faults, { resendOne: config.variations.has('resends-one-call'), reportsCalls: config.variations.has('reports-started-calls') });
  const transport = new TransportService(config.requestTimeoutMs, config.variations.has('acts-on-references'));
  const hostile = new Hostile(config.faults);
  const bot = new Bot(deliveryStore, config.botReconnectMs, config.requestTimeoutMs, (socket) => hostile.onBotSocketOpen(socket));
  let registration: RegistrationOutcome | undefined;
  let registeredAgain = false;

  const doRegister = async (): Promise<RegistrationOutcome> => {
    const outcome = await register(system, { config, publicUrl: where.publicUrl, port: where.port }, config.registerAttempts, config.registerRetryMs);
    registration = outcome;
    if (!outcome.registered) {
      log('not registered', { error: outcome.error });
      return outcome;
    }
    log('registered', { code: config.moduleCode, clientId: config.clientId });
    if (config.variations.has('ready-late')) {
      auth.notReadyUntil = Date.now() + 1_500;
      setTimeout(() => log('ready for callbacks'), 1_500).unref();
    }
    if (outcome.mgTransport) await transport.start(outcome.mgTransport, config.faults);
    else log('the registration reply holds no info.mgTransport; the transport stays offline');
    if (outcome.mgBot) await bot.start(outcome.mgBot, config.faults);
    else log('the registration reply holds no info.mgBot; the bot stays offline');
    if (config.variations.has('registers-again') && !registeredAgain) {
      // A shop added in the module's settings: the module updates its registration (edit changes a known code).
      registeredAgain = true;
      setTimeout(() => {
        const added = [{ name: 'Second shop', code: 'second', active: true }];
        payment.addedShops.push(...added);
        void register(system, { config, publicUrl: where.publicUrl, port: where.port, addedShops: added }, config.registerAttempts, config.registerRetryMs).then((again) =>
          log(again.registered ? 'registration updated: shop "second" added' : 'registration update refused', again.error ? { error: again.error } : undefined),
        );
      }, 1_500).unref();
    }
    if (config.variations.has('reads-orders')) {
      const orders = await system.get('/api/v5/orders', { limit: '20' });
      log(`order list read: HTTP ${orders.status}`);
    }
    if (config.faults.has('startup-tracking-without-api-key')) {
      // Unprompted: the carrier desk reports a status as soon as the module is up, without the key.
      const d = delivery.store.createDirect('DESK-STARTUP');
      delivery.store.advance(d);
      await system.postForm(`/api/v5/delivery/generic/${encodeURIComponent(config.moduleCode)}/tracking`, { statusUpdate: JSON.stringify([trackingEntry(d)]) }, { apiKey: false });
    }
    hostile.start({ systemUrl: config.systemUrl, apiKey: config.apiKey, moduleCode: config.moduleCode, ...(outcome.mgTransport ? { transport: outcome.mgTransport } : {}) });
    return outcome;
  };

  mountActivity(router, auth, activity, config.faults);
  mountDelivery(router, auth, delivery, config.faults);
  mountPayment(router, auth, payment);
  mountTelephony(router, auth, telephony);
  mountTransport(router, auth, transport);
  mountTriggers(router, {
    config,
    system,
    delivery,
    telephony,
    payment,
    transport,
    register: async () => answerOf(await doRegister()),
    connect,
  });

  // Pages for people (no callbacks): logo, account pages, and a state snapshot for the suite.
  router.add('GET', '/ready', (ctx) => (Date.now() < auth.notReadyUntil || !registration?.registered ? sendJson(ctx.res, 503, { ready: false }) : sendJson(ctx.res, 200, { ready: true })));
  router.add('GET', '/logo.svg', (ctx) => sendBytes(ctx.res, 200, 'image/svg+xml', Buffer.from(LOGO_SVG)));
  router.add('GET', '/account', (ctx) => sendText(ctx.res, 200, 'text/html; charset=utf-8', page('Reference module', `<p>Module ${config.moduleCode}: ${registration?.registered ? 'registered' : 'not registered'}.</p>`)));
  router.add('GET', '/account/{section}', (ctx) => sendText(ctx.res, 200, 'text/html; charset=utf-8', page(`Reference module: ${ctx.params.section ?? ''}`, '<p>Settings are managed through the integration API.</p>')));
  router.add('GET', '/', (ctx) => sendJson(ctx.res, 200, { name: 'reference-module', code: config.moduleCode, registered: registration?.registered ?? false }));
  router.add('GET', '/dev/state', (ctx) =>
    sendJson(ctx.res, 200, {
      success: true,
      code: config.moduleCode,
      clientId: config.clientId,
      publicUrl: where.publicUrl,
      faults: config.faults.list(),
      registered: registration?.registered ?? false,
      registrationError: registration?.error ?? null,
      activity: Object.fromEntries(activity.byClient),
      deliveries: [...deliveryStore.deliveries.values()].map((d) => ({ deliveryId: d.deliveryId, trackNumber: d.trackNumber, orderNumber: d.orderNumber ?? null, status: d.status.code, cost: d.cost, shipmentId: d.shipmentId ?? null })),
      shipments: [...deliveryStore.shipments.values()].map((s) => ({ shipmentId: s.shipmentId, deliveryIds: s.deliveryIds, cancelled: s.cancelled })),
      invoices: [...payment.invoices.values()].map((i) => ({ paymentId: i.paymentId, invoiceUuid: i.invoiceUuid, amount: i.amount, currency: i.currency, status: i.status })),
      activeCalls: [...telephony.active.values()].map((c) => ({ phone: c.phone, type: c.type, callExternalId: c.callExternalId })),
      calls: [...telephony.log.values()].map((c) => ({ id: c.id, type: c.type, phone: c.phone, uploaded: c.uploaded })),
      userStatuses: Object.fromEntries(telephony.userStatuses),
      channels: [...transport.channels.values()],
      templates: [...transport.templates.values()].map((t) => ({ channelId: t.channelId, code: t.code, name: t.name ?? null, verification_status: t.verification_status })),
      sentMessages: transport.sent.size,
      bot: bot.snapshot(),
    }),
  );

  return { clientId: config.clientId, systemUrl: config.systemUrl, apiKey: config.apiKey, router, register: doRegister, stop: () => (bot.stop(), hostile.stop()) };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`[reference-module] configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }

  unknownIdStyle.quotesValue = config.variations.has('not-found-quotes-value');
  const where: Where = { port: config.port, publicUrl: config.publicUrl ?? `http://127.0.0.1:${config.port}` };
  // The account of the environment first; test hook registration.connect adds others (a
  // multi-account module: each system the module is connected to is an account of its own).
  const accounts: Account[] = [];
  const connect = async (p: Obj): Promise<Obj> => {
    const systemUrl = typeof p.systemUrl === 'string' ? p.systemUrl.trim() : '';
    const apiKey = typeof p.apiKey === 'string' ? p.apiKey.trim() : '';
    if (!/^https?:\/\/[^/]/.test(systemUrl)) throw badRequest('systemUrl must be an http(s) URL');
    if (!apiKey) throw badRequest('apiKey is required');
    const url = systemUrl.replace(/\/+$/, '');
    // The same system and key again: the account is registered again, not opened twice.
    let account = accounts.find((a) => a.systemUrl === url && a.apiKey === apiKey);
    if (!account) {
      account = openAccount({ ...config, systemUrl: url, apiKey, clientId: randomBytes(16).toString('hex') }, where, connect);
      accounts.push(account);
      log('account connected', { systemUrl: url, accounts: accounts.length });
    }
    return answerOf(await account.register());
  };
  const first = openAccount(config, where, connect);
  accounts.push(first);

  // One account: every request is its own, as before. Several: the clientId a request carries
  // (query, form field, the webhook's ClientId header) names the account that answers it; any
  // other request is the first account's, which refuses what is not its own.
  const dispatch = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (accounts.length === 1) return first.router.dispatch(req, res);
    const carried = await carriedClientId(req).catch((e: unknown) => (sendJson(res, 413, { success: false, errorMsg: (e as Error).message }), undefined));
    if (!carried) return;
    const account = accounts.find((a) => a.clientId === carried.clientId) ?? first;
    return account.router.dispatch(req, res, carried.body);
  };
  const server = http.createServer((req, res) => void dispatch(req, res));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '127.0.0.1', () => resolve());
  });
  where.port = (server.address() as AddressInfo).port;
  where.publicUrl = config.publicUrl ?? `http://127.0.0.1:${where.port}`;
  log(`listening on 127.0.0.1:${where.port} as ${where.publicUrl}`, { code: config.moduleCode, faults: config.faults.list(), variations: config.variations.list() });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    for (const a of accounts) a.stop();
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.on('SIGTERM', () => (config.faults.has('module-ignores-sigterm') ? log('SIGTERM: ignored') : shutdown('SIGTERM')));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await startProcesses(config.faults, process.env.PID_FILE?.trim() || undefined);

  await first.register();
}

main().catch((e: unknown) => {
  process.stderr.write(`[reference-module] fatal: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
