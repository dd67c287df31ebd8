/**
 * How a session waits for its module: for an accepted registration (or, when the system refused
 * every attempt, for the module to fall quiet), then until it is ready for callbacks; and, when it
 * never registered, the one line that says why.
 */
import type { ResolvedConfig } from '../module/config.ts';
import type { LaunchedModule } from '../module/launcher.ts';
import { lastWords } from '../module/output-tail.ts';
import { fill } from '../module/placeholders.ts';
import type { EvidenceLog } from '../evidence/exchange.ts';
import type { CallbackClient, Reply } from '../client/callback-client.ts';
import { NoCallbackAddress, type SendOptions } from '../callbacks/send.ts';
import type { CallbackName } from '../callbacks/table.ts';
import type { SystemSimulator } from '../simulators/system.ts';
import type { Registration } from '../simulators/system-endpoints.ts';
import type { CaFile, RunTls } from '../simulators/tls.ts';
import { MODULE_OUTPUT_LOGS } from './module-files.ts';
import net from 'node:net';

/** Tries of the readiness check of a module that refuses callbacks (settle periods apart). */
const READINESS_TRIES = 5;

/** How long a module whose registration was refused must stay quiet before the run goes on to judge it. */
const REFUSED_QUIET_MS = 2_000;

/** The settle period after the registration (setting `readiness.settleMs`). */
function settleMs(config: ResolvedConfig): number {
  return config.readiness?.settleMs ?? 1_000;
}

/** What the waits read of a session (`RunSession`). */
export interface WaitingSession {
  readonly config: ResolvedConfig;
  readonly client: CallbackClient;
  readonly system: SystemSimulator;
  readonly log: EvidenceLog;
  readonly launched?: LaunchedModule;
  readonly tls?: RunTls & { caFile: CaFile };
  placeholders(): Readonly<Record<string, string>>;
  clientId(): string | undefined;
  send(name: CallbackName, payload: unknown, options: SendOptions): Promise<Reply>;
}

/**
 * Waits until the system accepted a registration, the module exited (`exited`), the timeout
 * passed, or, with an edit call refused, the module's calls to the system stayed quiet for
 * REFUSED_QUIET_MS; returns the first accepted registration, if any.
 */
export async function registrationWithin(system: SystemSimulator, timeoutMs: number, exited?: Promise<void>): Promise<Registration | undefined> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited?.then(() => (gone = true));
  let lastCount = -1;
  let quietSince = Date.now();
  for (;;) {
    if (system.registrations.length > 0) break;
    const count = system.callCount() + system.unsimulatedCount();
    if (count !== lastCount) (lastCount = count), (quietSince = Date.now());
    const refused = system.calls.some((c) => c.endpoint === 'edit' && !c.accepted);
    if (gone || Date.now() >= deadline || (refused && Date.now() - quietSince >= REFUSED_QUIET_MS)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return system.registrations[0];
}

/**
 * Callbacks start once the module is ready: after its registration, at the readiness signal
 * the configuration names (a URL answering 2xx, a line of its output), else after the settle
 * period (wire profile section 9: a module can still be storing its account) and once it
 * accepts callbacks (`acceptsCallbacks`). Every callback of a spec is then sent once.
 */
export async function ready(s: WaitingSession): Promise<void> {
  const r = s.config.readiness ?? {};
  const deadline = Date.now() + (r.timeoutMs ?? 30_000);
  if (r.url) {
    const url = fill(r.url, s.placeholders());
    while (Date.now() < deadline) {
      const reply = await s.client.get(url, {}, { label: 'readiness', probe: true, direction: 'system->module' });
      if (reply.status !== undefined && reply.status >= 200 && reply.status < 300) return;
      await new Promise((res) => setTimeout(res, 200));
    }
    return;
  }
  if (r.stdout) {
    const pattern = new RegExp(r.stdout);
    while (Date.now() < deadline && !(s.launched?.output() ?? []).some((line) => pattern.test(line))) await new Promise((res) => setTimeout(res, 50));
    return;
  }
  const settle = settleMs(s.config);
  await new Promise((res) => setTimeout(res, settle));
  await acceptsCallbacks(s, settle, deadline);
}

/**
 * Without a readiness signal: the module is ready once it accepts callbacks carrying its
 * clientId. The `activity` callback (active, not frozen: what the platform tells a module it
 * has just registered) is sent; while the module refuses it (401, 403) the session waits the
 * settle period again, at most READINESS_TRIES tries within the readiness deadline. Each try is evidence, as a probe: the
 * readiness check never counts as the module being reached. Skipped when the registration
 * gives no clientId or no activity path (the registration checks say so).
 */
async function acceptsCallbacks(s: WaitingSession, settle: number, deadline: number): Promise<void> {
  const clientId = s.clientId();
  if (clientId === undefined) return;
  const systemUrl = s.system.url();
  for (let tries = 1; ; tries++) {
    let reply: Reply;
    try {
      reply = await s.send('activity', { active: true, freeze: false }, { clientId, extra: { systemUrl }, label: 'readiness: activity', probe: true });
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

/** One line that says why the module never registered. */
export function whyNoRegistration(s: WaitingSession, timeoutMs: number): string {
  const edits = s.system.calls.filter((c) => c.endpoint === 'edit');
  const refused = edits.filter((c) => !c.accepted);
  const exit = s.launched?.exit();
  const said = lastWordsOfModule(s);
  if (refused.length > 0 && edits.every((c) => !c.accepted)) {
    const last = refused.at(-1)!;
    return `module never registered: the system refused its ${refused.length} edit call(s), last with HTTP ${last.exchange.response?.status}: ${last.exchange.response?.body ?? ''}`;
  }
  // With tls, a module that does not trust the run's CA fails its handshake: no call is recorded.
  const tlsHint =
    s.tls && !s.log.all().some((x) => x.direction === 'module->system')
      ? `; the simulators serve https (tls): does the module trust the run's CA, e.g. NODE_EXTRA_CA_CERTS={caFile} (README "HTTPS simulators")?`
      : '';
  if (exit) return `module never registered: it exited (${exit.signal ?? `code ${exit.code}`}) before registering${said}${tlsHint}`;
  const unknown = s.log.all().filter((x) => x.direction === 'module->system' && x.label === 'unknown endpoint');
  if (unknown.length > 0) return `module never registered within ${timeoutMs} ms: it called ${unknown.map((x) => `${x.request.method} ${new URL(x.request.url ?? '', 'http://x').pathname}`).join(', ')} instead of POST /api/v5/integration-modules/{code}/edit`;
  return `module never registered within ${timeoutMs} ms (no call to POST /api/v5/integration-modules/{code}/edit at ${s.system.url()})${said}${tlsHint}`;
}

/**
 * What the launched module said last, for the one-line reason: the error line of its stderr
 * (else its last meaningful lines; else those of its stdout), secrets redacted; empty when it
 * said nothing meaningful.
 */
function lastWordsOfModule(s: WaitingSession): string {
  const launched = s.launched;
  if (!launched) return '';
  const redact = (t: string): string => s.log.redactor.text(t);
  for (const stream of ['stderr', 'stdout'] as const) {
    const said = lastWords(launched[stream]().lines().slice(-200).map(redact));
    if (said) return `; its ${stream}: ${redact(said)} (${MODULE_OUTPUT_LOGS[stream]})`;
  }
  return '';
}

/**
 * Remote mode: whether something accepts connections at the module's address (a TCP connection
 * to its host and port, no request sent: any HTTP answer, 404 included, is the module's own).
 * Undefined when it does; else why not, in one line (a run against it could not start).
 */
export async function unreachable(moduleUrl: string, timeoutMs = 5_000): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(moduleUrl);
  } catch {
    return `the module URL ${moduleUrl} is not a URL`;
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (why: string | undefined): void => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`nothing answered at ${moduleUrl} within ${timeoutMs} ms (no connection to ${host}:${port})`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (e: NodeJS.ErrnoException) => done(`nothing listens at ${moduleUrl} (${e.code ?? e.message} connecting to ${host}:${port})`));
  });
}
