/**
 * A run session: the two simulators up, the module under test launched (or reached remotely),
 * its registration taken. One session serves the specs of a Playwright worker. How it waits for
 * the module is in module-wait.ts, what it writes of the launched module in module-files.ts, the
 * one session start of a run in session-start.ts.
 */
import type { ResolvedConfig } from '../module/config.ts';
import { LaunchedModule, STOP_GRACE_MS, freePort } from '../module/launcher.ts';
import { Triggers, triggerFailure } from '../module/triggers.ts';
import { EvidenceLog, type Exchange } from '../evidence/exchange.ts';
import { Redactor } from '../evidence/redact.ts';
import { CallbackClient, type Reply } from '../client/callback-client.ts';
import { send, telephonyMethods, type SendOptions } from '../callbacks/send.ts';
import type { CallbackName } from '../callbacks/table.ts';
import type { SystemAction } from '../contract/invoice-machine.ts';
import { SystemSimulator } from '../simulators/system.ts';
import { type Registration } from '../simulators/system-endpoints.ts';
import { GatewaySimulator } from '../simulators/gateway.ts';
import { hostOf, makeRunTls, writeCaFile, type CaFile, type RunTls } from '../simulators/tls.ts';
import { AcceptedCalls } from '../checks/callbacks/acceptance.ts';
import { countLaunch, writeModuleOutput, writeModuleStop } from './module-files.ts';
import { ready, registrationWithin, unreachable, whyNoRegistration } from './module-wait.ts';

/** The run could not start: bad configuration, module never registered. Exit code 2. */
export class SessionStartError extends Error {}

export class RunSession {
  readonly log: EvidenceLog;
  readonly client: CallbackClient;
  readonly system: SystemSimulator;
  readonly gateway: GatewaySimulator;
  readonly triggers: Triggers;
  readonly config: ResolvedConfig;
  launched?: LaunchedModule;
  /** The registration the system accepted; undefined when it refused every attempt (see `notRegistered`). */
  registration?: Registration;
  /** Why the module is not registered, when the system refused every registration attempt (the run goes on to judge them). */
  notRegistered?: string;
  /** What the module exchanged with the simulators before its registration was taken (no test was running). */
  startup: Exchange[] = [];
  /** Exchange ids of the module's system calls already judged by a check. */
  readonly judged = new Set<string>();
  /** The authorised calls the module accepted, per callback (webhook type): what a refusal's credit rests on (`src/checks/callbacks/acceptance.ts`). */
  readonly accepted = new AcceptedCalls();
  /** With `tls`: the run's certificates and the CA file given to the module as `{caFile}`. */
  readonly tls?: RunTls & { caFile: CaFile };
  private readonly vars: Record<string, string> = {};
  /** While a launched module runs: stops it when the suite's process is interrupted. */
  private readonly onInterrupt = (signal: NodeJS.Signals): void => {
    const launched = this.launched;
    if (launched && !launched.stopReport()) {
      writeModuleStop(launched.stopNow(this.stopGraceMs(), signal));
      writeModuleOutput(launched, (t) => this.log.redactor.text(t));
    }
    this.releaseSignals();
    // SIGINT: the test runner ends the run (its workers wait for it); SIGTERM ends this process.
    if (signal === 'SIGTERM') process.exit(143);
  };

  private constructor(config: ResolvedConfig, sessionId: string, tls?: RunTls & { caFile: CaFile }) {
    this.config = config;
    if (tls) this.tls = tls;
    const serve = tls ? { tls: { key: tls.key, cert: tls.cert } } : {};
    const redactor = new Redactor();
    redactor.add('apiKey', config.apiKey);
    this.log = new EvidenceLog(redactor, sessionId);
    this.client = new CallbackClient({ log: this.log, timeoutMs: config.callbacks?.timeoutMs, maxBodyBytes: config.callbacks?.maxBodyBytes });
    this.gateway = new GatewaySimulator({
      log: this.log,
      client: this.client,
      bind: config.gateway?.bind ?? '127.0.0.1',
      port: config.gateway?.port ?? 0,
      ...(config.gateway?.publicUrl ? { publicUrl: config.gateway.publicUrl } : {}),
      ...(config.limits ? { limits: config.limits } : {}),
      ...serve,
    });
    this.system = new SystemSimulator({
      log: this.log,
      apiKey: config.apiKey,
      bind: config.system?.bind ?? '127.0.0.1',
      port: config.system?.port ?? 0,
      ...(config.system?.publicUrl ? { publicUrl: config.system.publicUrl } : {}),
      ...(config.limits ? { limits: config.limits } : {}),
      gatewayUrl: () => this.gateway.url(),
      ...serve,
    });
    this.system.on('registration', (r: Registration) => this.connectToGateway(r));
    this.triggers = new Triggers(config.triggers ?? {}, this.client, () => this.vars);
  }

  /**
   * A session attached to the one another worker of the run launched (`src/run/attach.ts`): its
   * own callback client and evidence log, the module's registration and placeholders as that
   * session took them; its simulators are never started (the module calls the host's).
   */
  static attach(config: ResolvedConfig, handoff: { registration?: Registration; notRegistered?: string; placeholders: Record<string, string> }, sessionId = `a${process.pid}`): RunSession {
    const s = new RunSession(config, sessionId);
    s.attached = true;
    Object.assign(s.vars, handoff.placeholders);
    if (handoff.notRegistered !== undefined) s.notRegistered = handoff.notRegistered;
    if (!handoff.registration) return s;
    const tokens = handoff.registration.tokens;
    for (const kind of ['mgTransport', 'mgBot'] as const) if (tokens[kind]) s.log.redactor.add(`${kind}Token`, tokens[kind]);
    s.taken(handoff.registration);
    return s;
  }

  /** Attached to another worker's session (`attach`): it launched nothing and judges no call of the module. */
  attached = false;

  /** Starts everything and waits for the registration; throws SessionStartError. */
  static async start(config: ResolvedConfig, sessionId = `s${process.pid}`): Promise<RunSession> {
    let tls: (RunTls & { caFile: CaFile }) | undefined;
    if (config.tls) {
      try {
        const material = await makeRunTls({ hosts: tlsHosts(config) });
        tls = { ...material, caFile: writeCaFile(material.caPem) };
      } catch (e) {
        throw new SessionStartError(`the TLS certificates for the simulators could not be made: ${(e as Error).message}`);
      }
    }
    const s = new RunSession(config, sessionId, tls);
    try {
      await s.gateway.start();
      await s.system.start();
    } catch (e) {
      await s.stop();
      throw new SessionStartError(`the simulators could not start: ${(e as Error).message}`);
    }
    Object.assign(s.vars, { systemUrl: s.system.url(), gatewayUrl: s.gateway.url(), apiKey: config.apiKey });
    if (s.tls) s.vars.caFile = s.tls.caFile.path;
    try {
      if (config.mode === 'launch') await s.launch();
      else await s.remote();
    } catch (e) {
      await s.stop();
      throw e;
    }
    s.followUpdates();
    s.startup = [...s.log.all()];
    return s;
  }

  private async launch(): Promise<void> {
    const spec = this.config.launch!;
    const port = await freePort();
    this.vars.port = String(port);
    this.vars.moduleUrl = spec.moduleUrl ? spec.moduleUrl.replace('{port}', String(port)) : `http://127.0.0.1:${port}`;
    const timeoutMs = spec.registrationTimeoutMs ?? 20_000;
    this.launched = new LaunchedModule(spec, this.vars, this.stopGraceMs());
    process.on('SIGINT', this.onInterrupt);
    process.on('SIGTERM', this.onInterrupt);
    countLaunch();
    await this.awaitRegistration(timeoutMs, this.launched.whenExited());
  }

  private async remote(): Promise<void> {
    const spec = this.config.remote!;
    this.vars.moduleUrl = spec.moduleUrl;
    // Nothing at the module's address: a run that cannot start (exit 2, one line), not failures of its checks.
    const away = await unreachable(spec.moduleUrl);
    if (away) throw new SessionStartError(`the module could not be reached: ${away}`);
    const given = spec.registration;
    if (given && typeof given === 'object') {
      this.taken(this.system.adopt(given));
      return;
    }
    const timeoutMs = spec.registrationTimeoutMs ?? 60_000;
    // A multi-account staging module (one account per run or shard): the run's own system and key
    // are connected as a user does on the module's settings page; the module then registers here.
    let connectFailure: string | undefined;
    if (this.triggers.declared('registration.connect')) {
      connectFailure = triggerFailure(await this.triggers.fire('registration.connect', { systemUrl: this.system.url(), apiKey: this.config.apiKey }));
    }
    try {
      await this.awaitRegistration(timeoutMs);
    } catch (e) {
      if (connectFailure && e instanceof SessionStartError) throw new SessionStartError(`${e.message}; the trigger registration.connect failed: ${connectFailure}`);
      throw e;
    }
  }

  /**
   * Waits for an accepted registration. A module whose registration attempts the system refused
   * (or that called the system but never registered) is not a run that cannot start: once it
   * has been quiet for a moment, the session goes on unregistered and the registration checks
   * judge what it sent. Only a module that never called the system at all aborts the run.
   */
  private async awaitRegistration(timeoutMs: number, exited?: Promise<void>): Promise<void> {
    const registration = await registrationWithin(this.system, timeoutMs, exited);
    if (registration) {
      this.taken(registration);
      await ready(this);
      return;
    }
    // A module that exited: what it printed last is read whole before saying why.
    if (this.launched?.exit()) await this.launched.drained(500);
    if (this.system.callCount() + this.system.unsimulatedCount() === 0) throw new SessionStartError(whyNoRegistration(this, timeoutMs));
    this.notRegistered = whyNoRegistration(this, timeoutMs).replace(/^module never registered/, 'the module is not registered');
  }

  private taken(registration: Registration): void {
    this.registration = registration;
    // Reproduction lines name the module's address `$MODULE_URL`: its port is gone after the run.
    if (typeof registration.module.baseUrl === 'string') this.log.curlBases.moduleUrl = registration.module.baseUrl;
    this.vars.code = registration.code;
    if (typeof registration.module.clientId === 'string') {
      this.vars.clientId = registration.module.clientId;
      // The only credential of a callback (wire profile section 1): a secret of every report from
      // now on. What was recorded before (the registration itself) is redacted again when written.
      this.log.redactor.add('clientId', registration.module.clientId);
    }
  }

  /**
   * A module may register again to change itself (`edit` "creates the module if the code is new,
   * otherwise changes it"): later callbacks use the module as it stands after its last accepted
   * registration of the same code.
   */
  private followUpdates(): void {
    const code = this.registration?.code;
    if (code === undefined) return;
    const latest = this.system.registrations.filter((r) => r.code === code).at(-1);
    if (latest && latest !== this.registration) this.taken(latest);
    this.system.on('registration', (r: Registration) => {
      if (r.code === code) this.taken(r);
    });
  }

  /** Gives the gateway the tokens the system handed out, with the module's clientId and webhook. */
  private connectToGateway(r: Registration): void {
    const clientId = typeof r.module.clientId === 'string' ? r.module.clientId : '';
    const integrations = (r.module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>;
    if (r.tokens.mgTransport) {
      const webhookUrl = integrations.mgTransport?.webhookUrl;
      this.gateway.registerTransport({ token: r.tokens.mgTransport, clientId, ...(typeof webhookUrl === 'string' ? { webhookUrl } : {}) });
    }
    if (r.tokens.mgBot) this.gateway.registerBot({ token: r.tokens.mgBot, clientId });
  }

  /**
   * Sends a callback to the module as it stands (its last accepted registration): `src/callbacks/send.ts`.
   * A payment callback is what the system does with an invoice: create issues it first, and a
   * manager's action makes its report due (`simulators/invoices.ts`); a probe (a refused clientId) is none.
   */
  async send(name: CallbackName, payload: unknown, options: SendOptions): Promise<Reply> {
    const answered = options.probe ? undefined : this.paymentAct(name, payload);
    const reply = await send({ client: this.client, module: () => this.registration?.module, methods: telephonyMethods(this.config.telephony) }, name, payload, options);
    answered?.(reply);
    if (options.clientId !== undefined && options.clientId === this.clientId()) this.accepted.note(name, reply);
    return reply;
  }

  /** What the system's invoices make of a payment callback about to be sent; returns what to do with the answer. */
  private paymentAct(name: CallbackName, payload: unknown): ((reply: Reply) => void) | undefined {
    if (!name.startsWith('payment.') || typeof payload !== 'object' || payload === null) return undefined;
    const p = payload as Record<string, unknown>;
    const book = this.system.invoices;
    const success = (reply: Reply): boolean => reply.status !== undefined && reply.status < 300 && (reply.json as { success?: unknown } | undefined)?.success === true;
    if (name === 'payment.create') {
      if (typeof p.invoiceUuid !== 'string') return undefined;
      book.issue(p);
      return (reply) => {
        const id = (reply.json as { result?: { paymentId?: unknown } } | undefined)?.result?.paymentId;
        book.created(p.invoiceUuid as string, success(reply), typeof id === 'string' || typeof id === 'number' ? String(id) : undefined);
      };
    }
    const action = name.slice('payment.'.length) as SystemAction;
    if (typeof p.paymentId !== 'string' && typeof p.paymentId !== 'number') return undefined;
    const answered = book.sending(String(p.paymentId), action);
    return (reply) => answered(success(reply));
  }

  /** The module's `baseUrl`, where callback paths start. */
  baseUrl(): string | undefined {
    const b = this.registration?.module.baseUrl;
    return typeof b === 'string' ? b : undefined;
  }

  clientId(): string | undefined {
    const c = this.registration?.module.clientId;
    return typeof c === 'string' ? c : undefined;
  }

  /** Placeholder values of the run ({systemUrl}, {gatewayUrl}, {moduleUrl}, {port}, {caFile} with tls, ...). */
  placeholders(): Readonly<Record<string, string>> {
    return this.vars;
  }

  /** The grace period between SIGTERM and SIGKILL when the module is stopped (setting `launch.stopGraceMs`). */
  stopGraceMs(): number {
    return this.config.launch?.stopGraceMs ?? STOP_GRACE_MS;
  }

  private releaseSignals(): void {
    process.off('SIGINT', this.onInterrupt);
    process.off('SIGTERM', this.onInterrupt);
  }

  async stop(): Promise<void> {
    if (this.launched) {
      const already = this.launched.stopReport();
      const stop = already ?? (await this.launched.stop(this.stopGraceMs()));
      if (!already) writeModuleStop(stop);
      // What it printed to its end (the lines of its way out included).
      await this.launched.drained(500);
      writeModuleOutput(this.launched, (t) => this.log.redactor.text(t));
      this.releaseSignals();
    }
    await Promise.allSettled([this.system.stop(), this.gateway.stop(), this.client.close()]);
    this.tls?.caFile.remove();
  }
}

/**
 * The hosts, beyond loopback, the simulators' certificate must cover: those of the public URLs
 * and the specific addresses they bind to (not the wildcards 0.0.0.0 and ::).
 */
function tlsHosts(config: ResolvedConfig): string[] {
  const hosts: string[] = [];
  for (const sim of [config.system, config.gateway]) {
    const pub = hostOf(sim?.publicUrl);
    if (pub) hosts.push(pub);
    if (sim?.bind && !['0.0.0.0', '::', '[::]'].includes(sim.bind)) hosts.push(sim.bind);
  }
  return hosts;
}
