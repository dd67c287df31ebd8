/**
 * The module's own processes: the pid file (env PID_FILE: the module's pid and those of the
 * processes it started, for the suite's process-tree tests) and the fault `child-ignores-sigterm`
 * (a helper process that ignores SIGTERM and is left running when the module stops). The fault
 * `module-ignores-sigterm` lives where SIGTERM is handled (main.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { FaultSet } from './faults.ts';
import { log } from './log.ts';

/** A process that ignores SIGTERM and runs for an hour (only SIGKILL ends it); it says `ready` once it ignores SIGTERM. */
const STUBBORN_CHILD = "process.on('SIGTERM', () => {}); setInterval(() => {}, 3_600_000); process.stdout.write('ready\\n');";

/**
 * Starts the processes the faults ask for; once each is ready, writes the pid file (env
 * PID_FILE). Resolves with the pids of the started processes.
 */
export async function startProcesses(faults: FaultSet, pidFile: string | undefined): Promise<number[]> {
  const children: number[] = [];
  if (faults.has('child-ignores-sigterm')) {
    const child = spawn(process.execPath, ['-e', STUBBORN_CHILD], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', () => resolve());
    });
    // Left running: the module neither waits for it nor stops it.
    child.stdout.destroy();
    child.unref();
    if (child.pid !== undefined) children.push(child.pid);
    log('started a helper process that ignores SIGTERM', { pid: child.pid });
  }
  if (pidFile) fs.writeFileSync(pidFile, `${JSON.stringify({ module: process.pid, children })}\n`);
  return children;
}
