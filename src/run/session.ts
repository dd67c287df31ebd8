/**
 * A run session: the two simulators up, the module under test launched (or reached remotely),
 * its registration taken. One session serves the specs of a Playwright worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fill, type ResolvedConfig } from '../module/config.ts';
import { outDir } from './environment.ts';
import { LaunchedModule, REPORT_BOUNDS, STOP_GRACE_MS, freePort, lastWords, narrow, type ModuleOutput, type ModuleStop } from '../module/launcher.ts';
import { Triggers } from '../module/triggers.ts';
import { EvidenceLog, type Exchange } from '../evidence/exchange.ts';
import { Redactor } from '../evidence/redact.ts';
import { CallbackClient, type Reply } from '../client/callback-client.ts';
import { NoCallbackAddress, send, telephonyMethods, type SendOptions } from '../callbacks/send.ts';
import type { CallbackName } from '../callbacks/table.ts';
import type { SystemAction } from '../contract/invoice-machine.ts';
import { SystemSimulator, type Registration } from '../simulators/system.ts';
import { GatewaySimulator } from '../simulators/gateway.ts';
import { hostOf, makeRunTls, writeCaFile, type CaFile, type RunTls } from '../simulators/tls.ts';
import type { CheckResult } from '../checks/result.ts';
import { AcceptedCalls } from '../checks/callbacks/acceptance.ts';

/** The run could not start: bad configuration, module never registered. Exit code 2. */
export class SessionStartError extends Error {}

/** Tries of the readiness check of a module that refuses callbacks (settle periods apart). */
const READINESS_TRIES = 5;

/** How long a module whose registration was refused must stay quiet before the run goes on to judge it. */
const REFUSED_QUIET_MS = 2_000;

/** The settle period after the registration (setting `readiness.settleMs`). */
export function settleMs(config: ResolvedConfig): number {
  return config.readiness?.settleMs ?? 1_000;
}

/** How the run stopped the launched module (read by the conformance reporter into `run.moduleStop`). */
export function moduleStopFile(): string {
  return path.join(outDir(), 'module-stop.json');
}

function writeModuleStop(stop: ModuleStop): void {
  try {
    fs.mkdirSync(outDir(), { recursive: true });
    fs.writeFileSync(moduleStopFile(), `${JSON.stringify(stop)}\n`);
  } catch {
    // The report then says nothing of the stop; the module is stopped all the same.
  }
}

/** The launched module's output, for the conformance reporter (results.json `run.moduleOutput`). */
export function moduleOutputFile(): string {
  return path.join(outDir(), 'module-output.json');
}

/** The files, in the run's output folder, that hold the end of the module's stdout and stderr (redacted, bounded). */
export const MODULE_OUTPUT_LOGS = { stdout: 'module.stdout.log', stderr: 'module.stderr.log' } as const;

/**
 * Writes what the launched module printed, for the whole run, secrets redacted: the end of each
 * stream to its log file (a first line says how much was dropped), and a narrower end of both
 * to `module-output.json` for the reporter.
 */
function writeModuleOutput(launched: LaunchedModule, redact: (text: string) => string): void {
  try {
    fs.mkdirSync(outDir(), { recursive: true });
    const report: Partial<ModuleOutput> = {};
    for (const stream of ['stdout', 'stderr'] as const) {
      const whole = launched[stream]().snapshot({}, redact);
      const dropped =
        whole.droppedLines > 0 || whole.droppedBytes > 0
          ? `[conformance: the module's ${stream}, ${whole.totalLines} line(s) in all; ${whole.droppedLines} earlier line(s) and ${whole.droppedBytes} byte(s) in all not kept; the last ${whole.lines.length} line(s) follow]\n`
          : '';
      fs.writeFileSync(path.join(outDir(), MODULE_OUTPUT_LOGS[stream]), `${dropped}${whole.lines.map((l) => `${l}\n`).join('')}`);
      report[stream] = narrow(whole, REPORT_BOUNDS);
    }
    fs.writeFileSync(moduleOutputFile(), `${JSON.stringify(report)}\n`);
  } catch {
    // The reports then lack the module's output; the run goes on.
  }
}

/** Counts a launch of the module in the run's output folder (the suite's tests assert one per run). */
function countLaunch(): void {
  fs.mkdirSync(outDir(), { recursive: true });
  fs.appendFileSync(path.join(outDir(), 'launches.log'), `${new Date().toISOString()} ${process.pid}\n`);
}

/** The run's session start, in its output folder: one per run (`claimSessionStart`). */
export const SESSION_START_FILE = 'session-start.json';

interface SessionStartRecord {
  run: string;
  pid: number;
  at: string;
  /** Conformance specs that broke after the start (`noteBrokenSpec`). */
  broken?: string[];
}

/** The run a worker belongs to: its Playwright runner, the parent of every worker of the run (a restarted one too). */
export function currentRun(): string {
  return `runner ${process.ppid}`;
}

function readSessionStart(dir: string): SessionStartRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, SESSION_START_FILE), 'utf8')) as SessionStartRecord;
  } catch {
    return undefined;
  }
}

/**
 * One session, one launch of the module, per run. The first session start of a run claims the
 * run (recorded in the output folder) and gets undefined; a second start in the same run
 * (Playwright started a new worker after a spec broke) is refused: it gets the reason, and
 * starts nothing. A record left by another run (an earlier one in the same folder) is replaced.
 */
export function claimSessionStart(options: { run?: string; dir?: string } = {}): string | undefined {
  const run = options.run ?? currentRun();
  const dir = options.dir ?? outDir();
  const earlier = readSessionStart(dir);
  if (earlier?.run === run) {
    const broke = earlier.broken?.length ? `the conformance spec ${earlier.broken.map((t) => JSON.stringify(t)).join(', ')} broke` : 'a conformance spec broke';
    return `a second session start in this run, refused: ${broke} and Playwright started a new worker for the tests left; the module is not launched again (the run's session started at ${earlier.at} in process ${earlier.pid})`;
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, SESSION_START_FILE), `${JSON.stringify({ run, pid: process.pid, at: new Date().toISOString() } satisfies SessionStartRecord)}\n`);
  return undefined;
}

/** Notes, on the run's session start, a conformance spec that broke: a refused second start names it. */
export function noteBrokenSpec(title: string, options: { run?: string; dir?: string } = {}): void {
  const dir = options.dir ?? outDir();
  const record = readSessionStart(dir);
  if (!record || record.run !== (options.run ?? currentRun())) return;
  try {
    fs.writeFileSync(path.join(dir, SESSION_START_FILE), `${JSON.stringify({ ...record, broken: [...(record.broken ?? []), title] })}\n`);
  } catch {
    // The refusal then names no spec.
  }
}

/** The suite rule a refused second session start fails (MUST): the run's own result, with the reason. */
export function secondStartResult(reason: string): CheckResult {
  return {
    check: 'ensureOneSessionPerRun',
    title: 'the run has one session: the module is launched once',
    requirements: [],
    profile: false,
    severity: 'MUST',
    status: 'failed',
    message: `Checked: the run has one session: the module is launched once.\nReceived: ${reason}; every conformance test left was skipped\nExpected: one session for the whole run: a spec that breaks must not force a second start\nRequirements: (suite rule) (MUST)`,
    evidence: [],
    spec: 'run',
  };
}

/** The result of a conformance test skipped because a second session start was refused (`claimSessionStart`). */
export function notRunResult(spec: string, reason: string): CheckResult {
  return {
    check: 'ensureSpecRanToTheEnd',
    title: 'the conformance spec ran to its end',
    requirements: [],
    profile: false,
    severity: 'INFO',
    status: 'skipped',
    message: `Checked: the conformance spec "${spec}" ran to its end.\nSkipped: ${reason}\nRequirements: (suite rule) (INFO)`,
    evidence: [],
    spec,
  };
}

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
    const given = spec.registration;
    if (given && typeof given === 'object') {
      this.taken(this.system.adopt(given));
      return;
    }
    const timeoutMs = spec.registrationTimeoutMs ?? 60_000;
    await this.awaitRegistration(timeoutMs);
  }

  /**
   * Waits for an accepted registration. A module whose registration attempts the system refused
   * (or that called the system but never registered) is not a run that cannot start: once it
   * has been quiet for a moment, the session goes on unregistered and the registration checks
   * judge what it sent. Only a module that never called the system at all aborts the run.
   */
  private async awaitRegistration(timeoutMs: number, exited?: Promise<void>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let gone = false;
    void exited?.then(() => (gone = true));
    let lastCount = -1;
    let quietSince = Date.now();
    for (;;) {
      if (this.system.registrations.length > 0) break;
      const count = this.system.callCount() + this.system.unsimulatedCount();
      if (count !== lastCount) (lastCount = count), (quietSince = Date.now());
      const refused = this.system.calls.some((c) => c.endpoint === 'edit' && !c.accepted);
      if (gone || Date.now() >= deadline || (refused && Date.now() - quietSince >= REFUSED_QUIET_MS)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const registration = this.system.registrations[0];
    if (registration) {
      this.taken(registration);
      await this.ready();
      return;
    }
    // A module that exited: what it printed last is read whole before saying why.
    if (this.launched?.exit()) await this.launched.drained(500);
    if (this.system.callCount() + this.system.unsimulatedCount() === 0) throw new SessionStartError(this.whyNoRegistration(timeoutMs));
    this.notRegistered = this.whyNoRegistration(timeoutMs).replace(/^module never registered/, 'the module is not registered');
  }

  /**
   * Callbacks start once the module is ready: after its registration, at the readiness signal
   * the configuration names (a URL answering 2xx, a line of its output), else after the settle
   * period (wire profile section 9: a module can still be storing its account) and once it
   * accepts callbacks (`acceptsCallbacks`). Every callback of a spec is then sent once.
   */
  private async ready(): Promise<void> {
    const r = this.config.readiness ?? {};
    const deadline = Date.now() + (r.timeoutMs ?? 30_000);
    if (r.url) {
      const url = fill(r.url, this.vars);
      while (Date.now() < deadline) {
        const reply = await this.client.get(url, {}, { label: 'readiness', probe: true, direction: 'system->module' });
        if (reply.status !== undefined && reply.status >= 200 && reply.status < 300) return;
        await new Promise((res) => setTimeout(res, 200));
      }
      return;
    }
    if (r.stdout) {
      const pattern = new RegExp(r.stdout);
      while (Date.now() < deadline && !(this.launched?.output() ?? []).some((line) => pattern.test(line))) await new Promise((res) => setTimeout(res, 50));
      return;
    }
    const settle = settleMs(this.config);
    await new Promise((res) => setTimeout(res, settle));
    await this.acceptsCallbacks(settle, deadline);
  }

  /**
   * Without a readiness signal: the module is ready once it accepts callbacks carrying its
   * clientId. The `activity` callback (active, not frozen: what the platform tells a module it
   * has just registered) is sent; while the module refuses it (401, 403) the session waits the
   * settle period again, at most READINESS_TRIES tries within the readiness deadline. Each try is evidence, as a probe: the
   * readiness check never counts as the module being reached. Skipped when the registration
   * gives no clientId or no activity path (the registration checks say so).
   */
  private async acceptsCallbacks(settle: number, deadline: number): Promise<void> {
    const clientId = this.clientId();
    if (clientId === undefined) return;
    const systemUrl = this.system.url();
    for (let tries = 1; ; tries++) {
      let reply: Reply;
      try {
        reply = await this.send('activity', { active: true, freeze: false }, { clientId, extra: { systemUrl }, label: 'readiness: activity', probe: true });
      } catch (e) {
        if (e instanceof NoCallbackAddress) return;
        throw e;
      }
      if (reply.status !== 401 && reply.status !== 403) return;
      // A module that refuses every callback is judged by the specs, not waited out.
      if (tries >= READINESS_TRIES || Date.now() + settle > deadline) return;
      await new Promise((res) => setTimeout(res, settle));
    }
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

  /** One line that says why the module never registered. */
  private whyNoRegistration(timeoutMs: number): string {
    const edits = this.system.calls.filter((c) => c.endpoint === 'edit');
    const refused = edits.filter((c) => !c.accepted);
    const exit = this.launched?.exit();
    const said = this.lastWordsOfModule();
    if (refused.length > 0 && edits.every((c) => !c.accepted)) {
      const last = refused.at(-1)!;
      return `module never registered: the system refused its ${refused.length} edit call(s), last with HTTP ${last.exchange.response?.status}: ${last.exchange.response?.body ?? ''}`;
    }
    // With tls, a module that does not trust the run's CA fails its handshake: no call is recorded.
    const tlsHint =
      this.tls && !this.log.all().some((x) => x.direction === 'module->system')
        ? `; the simulators serve https (tls): does the module trust the run's CA, e.g. NODE_EXTRA_CA_CERTS={caFile} (README "HTTPS simulators")?`
        : '';
    if (exit) return `module never registered: it exited (${exit.signal ?? `code ${exit.code}`}) before registering${said}${tlsHint}`;
    const unknown = this.log.all().filter((x) => x.direction === 'module->system' && x.label === 'unknown endpoint');
    if (unknown.length > 0) return `module never registered within ${timeoutMs} ms: it called ${unknown.map((x) => `${x.request.method} ${new URL(x.request.url ?? '', 'http://x').pathname}`).join(', ')} instead of POST /api/v5/integration-modules/{code}/edit`;
    return `module never registered within ${timeoutMs} ms (no call to POST /api/v5/integration-modules/{code}/edit at ${this.system.url()})${said}${tlsHint}`;
  }

  /**
   * What the launched module said last, for the one-line reason: the error line of its stderr
   * (else its last meaningful lines; else those of its stdout), secrets redacted; empty when it
   * said nothing meaningful.
   */
  private lastWordsOfModule(): string {
    const launched = this.launched;
    if (!launched) return '';
    const redact = (t: string): string => this.log.redactor.text(t);
    for (const stream of ['stderr', 'stdout'] as const) {
      const said = lastWords(launched[stream]().lines().slice(-200).map(redact));
      if (said) return `; its ${stream}: ${redact(said)} (${MODULE_OUTPUT_LOGS[stream]})`;
    }
    return '';
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
