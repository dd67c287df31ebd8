/**
 * Launch mode: the suite starts the module with a command, a working directory and an env map
 * whose placeholders are filled, keeps the tail of its output for the report, and stops it at
 * the end (SIGTERM, then SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
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

const TAIL_LINES = 200;

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

export class LaunchedModule {
  readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  constructor(spec: LaunchSpec, vars: Record<string, string>) {
    this.child = spawn(fill(spec.command, vars), (spec.args ?? []).map((a) => fill(a, vars)), {
      cwd: spec.cwd,
      env: moduleEnv(spec, vars),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (prefix: string) => (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.length === 0) continue;
        this.tail.push(`${prefix}${line}`);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
      }
    };
    this.child.stdout?.on('data', keep(''));
    this.child.stderr?.on('data', keep(''));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
      this.child.once('error', (e) => {
        this.tail.push(`could not start: ${e.message}`);
        this.exitInfo = { code: null, signal: null };
        resolve();
      });
    });
  }

  /** Resolves when the process has exited. */
  whenExited(): Promise<void> {
    return this.exited;
  }

  /** How it exited, or undefined while it runs. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  /** The last lines it printed. */
  output(): string[] {
    return [...this.tail];
  }

  async stop(graceMs = 3000): Promise<void> {
    if (this.exitInfo) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
