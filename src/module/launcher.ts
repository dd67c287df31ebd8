/**
 * Launch mode: the suite starts the module with a command, a working directory and an env map
 * whose placeholders are filled, keeps the tail of its output for the report, and stops it at
 * the end. The module runs in its own process group (POSIX): at the end the whole group, the
 * module and every process it started, gets SIGTERM, then SIGKILL after the grace period
 * (setting `launch.stopGraceMs`), and the stop says whether anything had to be killed. Should
 * the suite be killed outright, a watchdog process does the same.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fill } from './placeholders.ts';
import { OUTPUT_BOUNDS, OutputTail, counter } from './output-tail.ts';
import { groupAlive, groupMembers, processAlive, startWatchdog } from './process-group.ts';

/** A free TCP port on the given address. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface LaunchSpec {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  inheritEnv?: boolean;
}

/** What a launched module gets of the suite's environment by default: the path, home, locale and temporary folder. */
const BASE_ENV = /^(PATH|Path|HOME|USERPROFILE|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|TMP|TEMP|SystemRoot|windir|ComSpec|PATHEXT)$/;

/** The test runner's own variables, never passed to the module (also with `inheritEnv`). */
const RUNNER_ENV = /^(PLAYWRIGHT_|PW_|TEST_WORKER_INDEX$|TEST_PARALLEL_INDEX$|FORCE_COLOR$|NO_COLOR$|NODE_OPTIONS$|NODE_UNIQUE_ID$|CONFORMANCE_|npm_)/;

/**
 * The environment of a launched module: a minimal base (path, home, locale, temporary folder),
 * or with `inheritEnv: true` the suite's whole environment but the runner's own variables;
 * then the configuration's `env`, placeholders filled.
 */
export function moduleEnv(spec: Pick<LaunchSpec, 'env' | 'inheritEnv'>, vars: Record<string, string>, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const inherited = Object.entries(from).filter(([k, v]) => v !== undefined && !RUNNER_ENV.test(k) && (spec.inheritEnv === true || BASE_ENV.test(k)));
  const own = Object.entries(spec.env ?? {}).map(([k, v]) => [k, fill(v, vars)]);
  return Object.fromEntries([...inherited, ...own]) as Record<string, string>;
}

/** The default grace period between SIGTERM and SIGKILL (setting `launch.stopGraceMs`). */
export const STOP_GRACE_MS = 3_000;

/** Own process groups: POSIX only (on Windows the module's own process alone is signalled). */
const GROUPS = process.platform !== 'win32';

/** How the module's processes ended when the run stopped them (results.json `run.moduleStop`). */
export interface ModuleStop {
  /** The grace period between SIGTERM and SIGKILL. */
  graceMs: number;
  /** The module's own process had exited before it was told to stop. */
  exitedBefore: boolean;
  /** Milliseconds from SIGTERM to the end of the module's own process. */
  afterMs: number;
  /** The module's own process ignored SIGTERM and was killed (SIGKILL) after the grace period. */
  killed: boolean;
  /** Processes the module started were still alive after the grace period and were killed (SIGKILL to its process group). */
  childrenKilled: boolean;
  /** The run was interrupted (SIGINT, SIGTERM) and stopped the module on the way out. */
  interrupted?: string;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class LaunchedModule {
  readonly child: ChildProcess;
  private readonly seq = counter();
  /** The module's stdout and stderr, for the whole run (bounded, the end kept). */
  private readonly out = new OutputTail(OUTPUT_BOUNDS, this.seq);
  private readonly err = new OutputTail(OUTPUT_BOUNDS, this.seq);
  private readonly streamsClosed: Promise<void>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  /** Set once the module's whole process group is known to be gone (no signal may then reach a reused id). */
  private groupGone = false;
  private stopped?: ModuleStop;
  /** Kills the group if the suite is killed before it stops the module (see `WATCHDOG`, process-group.ts). */
  private readonly watchdog?: ChildProcess;
  private readonly lastResort = (): void => {
    this.killGroup('SIGKILL');
    this.watchdog?.kill('SIGKILL');
  };

  /** `graceMs`: the grace period the watchdog gives the group should the suite be killed. */
  constructor(spec: LaunchSpec, vars: Record<string, string>, graceMs = STOP_GRACE_MS) {
    this.child = spawn(fill(spec.command, vars), (spec.args ?? []).map((a) => fill(a, vars)), {
      cwd: spec.cwd,
      env: moduleEnv(spec, vars),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: the run signals the module and every process it started.
      detached: GROUPS,
    });
    const keep = (stream: NodeJS.ReadableStream | null, tail: OutputTail): Promise<void> =>
      new Promise((resolve) => {
        if (!stream) return resolve();
        stream.on('data', (chunk: Buffer) => tail.write(chunk));
        stream.on('error', () => undefined);
        stream.once('close', () => (tail.end(), resolve()));
      });
    this.streamsClosed = Promise.all([keep(this.child.stdout, this.out), keep(this.child.stderr, this.err)]).then(() => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
      this.child.once('error', (e) => {
        this.err.note(`could not start: ${e.message}`);
        this.exitInfo = { code: null, signal: null };
        this.groupGone = true;
        resolve();
      });
    });
    // Whatever ends the suite's process, the module's processes do not outlive it: on its exit,
    // and, should it be killed outright, through the watchdog.
    if (this.child.pid !== undefined) {
      process.on('exit', this.lastResort);
      if (GROUPS) this.watchdog = startWatchdog(this.child.pid, graceMs);
    }
  }

  /** Resolves when the process has exited. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** How it exited, or undefined while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  /** The last lines it printed, stdout and stderr together, in order. */
  output(): string[] {
    return [...this.out.ordered(), ...this.err.ordered()].sort((a, b) => a.seq - b.seq).map((e) => e.text);
  }

  /** Its stdout, for the whole run (bounded, the end kept). */
  stdout(): OutputTail {
    return this.out;
  }

  /** Its stderr, for the whole run (bounded, the end kept; why it could not start, when it could not). */
  stderr(): OutputTail {
    return this.err;
  }

  /**
   * Resolves once its output streams are closed (what it printed before its exit is then read
   * whole), or after `timeoutMs`: a process it started may hold them open.
   */
  async drained(timeoutMs = 1_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.streamsClosed, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** How the stop went, once stopped. */
  stopReport(): ModuleStop | undefined {
    return this.stopped;
  }

  /** Sends a signal to the module's process group (its own process alone without groups); never throws. */
  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined || this.groupGone) return;
    try {
      if (GROUPS) process.kill(-pid, signal);
      else this.child.kill(signal);
    } catch {
      // ESRCH: nothing of the group is left.
    }
  }

  private anyAlive(): boolean {
    const pid = this.child.pid;
    if (pid === undefined || this.groupGone) return false;
    if (!GROUPS) return this.exitInfo === undefined;
    return groupAlive(pid);
  }

  private finish(report: ModuleStop): ModuleStop {
    this.groupGone = !this.anyAlive() || this.groupGone;
    if (this.groupGone) {
      process.off('exit', this.lastResort);
      this.watchdog?.kill('SIGKILL');
    }
    this.stopped = report;
    return report;
  }

  /** Whether the module's own process, and whether processes it started, are alive. */
  private alive(): { own: boolean; others: boolean } {
    const pid = this.child.pid;
    if (pid === undefined || this.groupGone) return { own: false, others: false };
    const own = this.exitInfo === undefined && processAlive(pid);
    if (!GROUPS) return { own, others: false };
    const members = groupMembers(pid);
    if (members) return { own, others: members.some((p) => p !== pid) };
    return { own, others: !own && groupAlive(pid) };
  }

  /**
   * Stops the module's process group: SIGTERM, then SIGKILL to what is still alive after the
   * grace period (the module's own process, or processes it started and left running).
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<ModuleStop> {
    if (this.stopped) return this.stopped;
    const steps = this.stopSteps(graceMs);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      // Woken early by the module's exit while it runs (once it has exited, only the timer).
      await Promise.race([...(this.exitInfo === undefined ? [this.exited] : []), new Promise((r) => setTimeout(r, step.value))]);
    }
  }

  /**
   * The same stop, synchronously, for a suite that is being interrupted: SIGTERM to the group,
   * a blocking wait of at most the grace period, then SIGKILL to what is left.
   */
  stopNow(graceMs = STOP_GRACE_MS, interrupted?: string): ModuleStop {
    if (this.stopped) return this.stopped;
    const steps = this.stopSteps(graceMs, interrupted);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      sleepSync(step.value);
    }
  }

  /** The stop as steps, for `stop` and `stopNow`: yields how long to wait before looking again, returns how it went. */
  private *stopSteps(graceMs: number, interrupted?: string): Generator<number, ModuleStop, void> {
    const exitedBefore = this.exitInfo !== undefined;
    const started = Date.now();
    this.killGroup('SIGTERM');
    let at = this.alive();
    while ((at.own || at.others) && Date.now() - started < graceMs) {
      yield 20;
      at = this.alive();
    }
    if (at.own || at.others) this.killGroup('SIGKILL');
    const afterMs = exitedBefore ? 0 : Date.now() - started;
    for (let i = 0; i < 50 && this.anyAlive(); i++) yield 10;
    return this.finish({ graceMs, exitedBefore, afterMs, killed: at.own, childrenKilled: at.others, ...(interrupted ? { interrupted } : {}) });
  }
}
