/**
 * Launch mode: the suite starts the module with a command, a working directory and an env map
 * whose placeholders are filled, keeps the tail of its output for the report, and stops it at
 * the end. The module runs in its own process group (POSIX): at the end the whole group, the
 * module and every process it started, gets SIGTERM, then SIGKILL after the grace period
 * (setting `launch.stopGraceMs`), and the stop says whether anything had to be killed. Should
 * the suite be killed outright, a watchdog process does the same.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { fill } from './config.ts';

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

/** What a launched module's stream keeps for the whole run: its last lines, within these bounds. */
export const OUTPUT_BOUNDS = { maxLines: 5_000, maxChars: 512 * 1024, maxLineChars: 8 * 1024 };

/** What results.json and conformance.html show of each stream (the files in the output folder hold the whole tail). */
export const REPORT_BOUNDS = { maxLines: 200, maxChars: 32 * 1024 };

/** The end of one stream of the module's output, as the reports show it. */
export interface StreamTail {
  /** The last lines the module printed (a line not ended yet included), secrets redacted. */
  lines: string[];
  /** Lines the module printed on this stream in all. */
  totalLines: number;
  /** Lines printed before `lines` that are not kept. */
  droppedLines: number;
  /** Bytes of output not kept: the dropped lines, and the ends of lines longer than the line bound. */
  droppedBytes: number;
}

/** The launched module's stdout and stderr, for the whole run (results.json `run.moduleOutput`). */
export interface ModuleOutput {
  stdout: StreamTail;
  stderr: StreamTail;
}

/**
 * The end of one output stream, bounded in lines and characters (old lines dropped, counted), a
 * line longer than `maxLineChars` kept by its start. Lines split across chunks, and characters
 * split across bytes, are joined. `seq` orders the lines of several tails (stdout and stderr).
 */
export class OutputTail {
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly maxLineChars: number;
  private readonly decoder = new StringDecoder('utf8');
  private entries: Array<{ seq: number; text: string }> = [];
  private head = 0;
  private chars = 0;
  private pending = '';
  private pendingCut = 0;
  private pendingSeq = -1;
  private droppedLines = 0;
  private droppedBytes = 0;
  private total = 0;

  constructor(bounds: { maxLines?: number; maxChars?: number; maxLineChars?: number } = {}, private readonly seq: () => number = counter()) {
    this.maxLines = bounds.maxLines ?? OUTPUT_BOUNDS.maxLines;
    this.maxChars = bounds.maxChars ?? OUTPUT_BOUNDS.maxChars;
    this.maxLineChars = Math.min(bounds.maxLineChars ?? OUTPUT_BOUNDS.maxLineChars, this.maxChars);
  }

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      this.extend(text.slice(from, nl < 0 ? text.length : nl));
      if (nl < 0) break;
      this.endLine();
      from = nl + 1;
    }
  }

  /** The stream ended: a last line not ended is kept as it is. */
  end(): void {
    this.extend(this.decoder.end());
    if (this.pending.length > 0 || this.pendingCut > 0) this.endLine();
  }

  /** Adds a line of the suite's own (e.g. why the module could not start). */
  note(line: string): void {
    if (this.pending.length > 0 || this.pendingCut > 0) this.endLine();
    this.extend(line);
    this.endLine();
  }

  private extend(part: string): void {
    if (part.length === 0) return;
    if (this.pendingSeq < 0) this.pendingSeq = this.seq();
    const room = this.maxLineChars - this.pending.length;
    if (part.length <= room) this.pending += part;
    else {
      this.pending += part.slice(0, Math.max(room, 0));
      const cut = part.slice(Math.max(room, 0));
      this.pendingCut += cut.length;
      this.droppedBytes += Buffer.byteLength(cut);
    }
  }

  private endLine(): void {
    const text = this.pendingCut > 0 ? `${this.pending}… (${this.pendingCut} more characters)` : this.pending.replace(/\r$/, '');
    this.push({ seq: this.pendingSeq < 0 ? this.seq() : this.pendingSeq, text });
    this.pending = '';
    this.pendingCut = 0;
    this.pendingSeq = -1;
  }

  private push(entry: { seq: number; text: string }): void {
    this.total++;
    this.entries.push(entry);
    this.chars += entry.text.length;
    while (this.entries.length - this.head > this.maxLines || (this.chars > this.maxChars && this.entries.length - this.head > 1)) {
      const old = this.entries[this.head++]!;
      this.chars -= old.text.length;
      this.droppedLines++;
      this.droppedBytes += Buffer.byteLength(old.text) + 1;
    }
    // Dropped entries are let go now and then, not one by one (a flood stays linear).
    if (this.head > 1_024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept lines with their order among the module's streams, a line not ended yet last. */
  ordered(): Array<{ seq: number; text: string }> {
    const kept = this.entries.slice(this.head);
    if (this.pending.length > 0 || this.pendingCut > 0) kept.push({ seq: this.pendingSeq, text: this.pendingCut > 0 ? `${this.pending}… (${this.pendingCut} more characters)` : this.pending });
    return kept;
  }

  /** The kept lines, a line not ended yet last. */
  lines(): string[] {
    return this.ordered().map((e) => e.text);
  }

  /** What was not kept: whole lines from the start, and bytes (those lines', and the ends of over-long lines). */
  dropped(): { lines: number; bytes: number } {
    return { lines: this.droppedLines, bytes: this.droppedBytes };
  }

  /** Lines printed in all (a line not ended yet included). */
  totalLines(): number {
    return this.total + (this.pending.length > 0 || this.pendingCut > 0 ? 1 : 0);
  }

  /** The end of the stream, each line passed through `map` (the redactor) first, within `bounds` (see `narrow`). */
  snapshot(bounds: { maxLines?: number; maxChars?: number } = {}, map: (line: string) => string = (l) => l): StreamTail {
    return narrow({ lines: this.lines().map(map), totalLines: this.totalLines(), droppedLines: this.droppedLines, droppedBytes: this.droppedBytes }, bounds);
  }
}

/** The end of a stream's tail within narrower bounds: its last lines, what is left out counted as dropped. */
export function narrow(tail: StreamTail, bounds: { maxLines?: number; maxChars?: number }): StreamTail {
  const maxLines = bounds.maxLines ?? Number.POSITIVE_INFINITY;
  const maxChars = bounds.maxChars ?? Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  let chars = 0;
  for (let i = tail.lines.length - 1; i >= 0 && lines.length < maxLines; i--) {
    let line = tail.lines[i]!;
    if (chars + line.length > maxChars) {
      if (lines.length > 0) break;
      line = `${line.slice(0, maxChars)}… (${line.length - maxChars} more characters)`;
    }
    lines.unshift(line);
    chars += line.length;
  }
  const left = tail.lines.slice(0, tail.lines.length - lines.length);
  return {
    lines,
    totalLines: tail.totalLines,
    droppedLines: tail.droppedLines + left.length,
    droppedBytes: tail.droppedBytes + left.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
  };
}

function counter(): () => number {
  let n = 0;
  return () => n++;
}

/** Node's last line when it dies of an uncaught error (`Node.js v20.20.2`). */
const NODE_TRAILER = /^Node\.js v\d+\.\d+\.\d+\s*$/;

/** Lines that say nothing of why: stack frames, source excerpts' carets, the error object's fields, require stacks. */
const NOISE = [
  /^\s*$/,
  NODE_TRAILER,
  /^\s+at\s/,
  /^\s*\^+\s*$/,
  /^\s*[{}[\]]\s*,?\s*$/,
  /^\s+[\w$]+: .*,?$/,
  /^Require stack:$/,
  /^- \S/,
  /^(node:)?[\w./\\:-]+:\d+$/,
  /^\s+File ".*", line \d+/,
  /^Traceback \(most recent call last\):$/,
  /^goroutine \d+ \[/,
];

/** A line that states an error: `Error: ...`, `TypeError [ERR_X]: ...`, `ModuleNotFoundError: ...`, `panic: ...`. */
const ERROR_LINE = /(?:^|[\s:\]])(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?:\s*\[[^\]]*\])?: \S|^\s*(?:panic|fatal error|FATAL|Fatal):\s/;

/** Removes ANSI escapes and control characters, folds whitespace: one line. */
function oneLine(s: string): string {
  return s
    .replace(/\u001b\[[0-9;?]*[ -\/]*[@-~]/g, '')
    .replace(/\u001b[\]P^_][^\u0007\u001b]*(\u0007|\u001b\\)?/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What a module said before it died, in one bounded line: the last line of its output that
 * states an error (`Error: Cannot find module 'x'`), else its last meaningful lines; never
 * Node's version trailer, blank lines, stack frames or the error object's fields. Undefined when
 * it said nothing meaningful.
 */
export function lastWords(lines: readonly string[], max = 300): string | undefined {
  const meaningful = lines.map(oneLine).filter((l, i) => l.length > 0 && !NOISE.some((re) => re.test(lines[i]!)) && !NODE_TRAILER.test(l));
  if (meaningful.length === 0) return undefined;
  const error = [...meaningful].reverse().find((l) => ERROR_LINE.test(l));
  const said = error ?? meaningful.slice(-2).join(' | ');
  return said.length > max ? `${said.slice(0, max - 1)}…` : said;
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

/**
 * The live processes of a process group (Linux: read from /proc, zombies — ended, not yet
 * reaped — left out); undefined where /proc cannot tell.
 */
export function groupMembers(pgid: number): number[] | undefined {
  if (process.platform !== 'linux') return undefined;
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(e));
  }
  return members;
}

/** Whether a process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether one process is alive (a zombie is not). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

/**
 * The watchdog of a module's process group, for when the suite itself is killed (SIGKILL, a
 * crash): a small process of its own group that reads a pipe from the suite and, when the pipe
 * closes without the suite having stopped the module, gives the group SIGTERM, then SIGKILL
 * after the grace period. Arguments: the group id, the grace period in ms.
 */
const WATCHDOG = `
const group = Number(process.argv[1]);
const grace = Number(process.argv[2]);
const kill = (signal) => { try { process.kill(-group, signal); } catch {} };
let fired = false;
const fire = () => {
  if (fired) return;
  fired = true;
  kill('SIGTERM');
  setTimeout(() => { kill('SIGKILL'); process.exit(0); }, grace);
};
process.stdin.on('end', fire);
process.stdin.on('error', fire);
process.stdin.resume();
`;

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
  /** Kills the group if the suite is killed before it stops the module (see `WATCHDOG`). */
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
      if (GROUPS) {
        this.watchdog = spawn(process.execPath, ['-e', WATCHDOG, String(this.child.pid), String(graceMs)], {
          detached: true,
          stdio: ['pipe', 'ignore', 'ignore'],
          env: { PATH: process.env.PATH ?? '' },
        });
        this.watchdog.on('error', () => undefined);
        this.watchdog.stdin?.on('error', () => undefined);
        // Neither keeps the suite alive.
        this.watchdog.unref();
        (this.watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      }
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
