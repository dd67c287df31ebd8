/**
 * A run's processes as Linux shows them (/proc): the processes below one, and the resident
 * memory of the suite's own processes while it runs (the module's process group excluded), for
 * the gauntlet's process-tree and hostile tests and for the benchmark; and the reference
 * module's configuration with its pid file (env PID_FILE: the module's pid and its children's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { processAlive } from '../../src/module/process-group.ts';
import { compiledReferenceModule } from './compiled-module.ts';

interface Proc {
  pid: number;
  parent: number;
  group: number;
  /** Ended, not yet reaped (a zombie: nothing of it runs; a container's pid 1 may never reap it). */
  zombie: boolean;
}

/** Every process with its state, parent and process group (fields 3, 4 and 5 of /proc/PID/stat). */
function processes(): Proc[] {
  const out: Proc[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const [state, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(e), parent: Number(parent), group: Number(group), zombie: state === 'Z' });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function below(root: number, all: Proc[]): Proc[] {
  const found: Proc[] = [];
  const walk = (pid: number): void => {
    for (const p of all) if (p.parent === pid) (found.push(p), walk(p.pid));
  };
  walk(root);
  return found;
}

/** The processes below `root`. */
export function descendants(root: number): number[] {
  return below(root, processes()).map((p) => p.pid);
}

/** Resident memory of one process in bytes (VmRSS), 0 once it is gone. */
export function rssBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The suite's own processes: `root` (the `conformance run` process) and those below it that are
 * in its process group. The module runs in a group of its own, so it and what it started are
 * left out.
 */
export function suiteProcesses(root: number): number[] {
  const all = processes();
  const group = all.find((p) => p.pid === root)?.group;
  return [root, ...below(root, all).filter((p) => p.group === group).map((p) => p.pid)];
}

/**
 * Samples the summed resident memory of the suite's processes below `root` every `everyMs`
 * until `stop()`; resolves the highest sum seen (bytes).
 */
export function samplePeakRss(root: number, everyMs = 100): { stop: () => number } {
  let peak = 0;
  const sample = (): void => {
    const sum = suiteProcesses(root).reduce((s, pid) => s + rssBytes(pid), 0);
    if (sum > peak) peak = sum;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * The reference module's configuration in a fresh folder, with the pid file passed to the module
 * and `settings` merged over it (for example a short `stopGraceMs` in `launch`, a `runTimeoutMs`,
 * and in `more` any other top-level settings such as `callbacks`); `root`: the checkout whose
 * reference module runs (default this one).
 */
export function referenceConfig(settings: { stopGraceMs?: number; runTimeoutMs?: number; root?: string; more?: Record<string, unknown>; compiled?: boolean } = {}): { file: string; pidFile: string } {
  const root = settings.root ?? PACKAGE_ROOT;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'process-tree-'));
  const reference = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, any>;
  const file = path.join(dir, 'conformance.config.json');
  // `compiled`: the compiled reference module (compiled-module.ts), the same code without tsx's loader at each launch.
  const launch = { ...reference.launch, cwd: root, ...(settings.compiled ? { args: [compiledReferenceModule()] } : {}), env: { ...reference.launch.env, PID_FILE: '{env:PID_FILE:-}' }, ...(settings.stopGraceMs !== undefined ? { stopGraceMs: settings.stopGraceMs } : {}) };
  fs.writeFileSync(file, JSON.stringify({ ...reference, ...settings.more, launch, ...(settings.runTimeoutMs !== undefined ? { runTimeoutMs: settings.runTimeoutMs } : {}) }));
  return { file, pidFile: path.join(dir, 'pids.json') };
}

/** The pids the reference module wrote: its own, and those of the processes it started. */
export interface Pids {
  module: number;
  children: number[];
}

export function readPids(pidFile: string): Pids | undefined {
  try {
    return JSON.parse(fs.readFileSync(pidFile, 'utf8')) as Pids;
  } catch {
    return undefined;
  }
}

/** True while a process runs (a zombie has ended). */
export function running(pid: number): boolean {
  return processes().some((p) => p.pid === pid && !p.zombie);
}

/** The live processes of a process group (zombies are ended). */
export function groupMembers(group: number): number[] {
  return processes().filter((p) => p.group === group && !p.zombie).map((p) => p.pid);
}

/** Waits a moment for the pids to be gone (the last SIGKILL may still be landing), then lists the live ones. */
export async function survivors(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 40 && pids.some(processAlive); i++) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(processAlive);
}

/** SIGKILL to each pid still there (a failed test leaves nothing behind). */
export function cleanUp(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
