/**
 * The processes of a launched module's process group (POSIX): which are alive (read from /proc on
 * Linux), and the watchdog that gives the group SIGTERM, then SIGKILL, should the suite itself be
 * killed before it stops the module.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

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

/** Starts the watchdog of the process group `group` (see `WATCHDOG`); it keeps the suite alive no more than its pipe does. */
export function startWatchdog(group: number, graceMs: number): ChildProcess {
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG, String(group), String(graceMs)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '' },
  });
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // Neither keeps the suite alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}
