/**
 * Areas at the same time (`conformance run --parallel 2`): the specs that only send callbacks and
 * judge the module's replies (`ATTACHED_SPECS`) run in a second worker, at the same time as the
 * others, against the module the first worker (the host) launched once.
 *
 * - The host, once the module registered and is ready, writes the handoff (`handoffFile`, mode
 *   0600: the registration carries the clientId): the registration and the placeholders.
 * - The attached worker waits for it (or for aborted.json) and opens a light session on it
 *   (`RunSession.attach`): its own callback client, evidence log (exchange ids of its own prefix)
 *   and accepted calls; it judges no call of the module (the host's session does, at its end).
 * - The conformance reporter, which sees every test end, writes `attachedEndedFile` once every
 *   test of the attached project ended (at once when it has none); the host's session waits for
 *   it before its own judgements and the module's stop, so the module is never stopped under a
 *   test of the attached worker.
 *
 * Why only these specs: the others fire triggers or observe the module's calls to the system or
 * the gateway "since a mark", or act on the system's invoices (payment), which live in the
 * host's simulators: two tests at once there would see each other's calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Registration } from '../simulators/system-endpoints.ts';
import { outDir, readAborted } from './environment.ts';

/** How many areas at once (`--parallel N`), given by `conformance run` to its Playwright. */
export const ENV_PARALLEL = 'CONFORMANCE_PARALLEL';

/** The specs that run in the attached worker (relative to `specs/`, without the extension). */
export const ATTACHED_SPECS = ['delivery/*.spec'];

/**
 * The areas of those specs. A test of the host in one of them (a flow of module-calls.spec.ts)
 * comes after them one at a time, and may read what they left in the module (the deliveries
 * they saved): it starts once every attached test ended.
 */
export const ATTACHED_AREAS = ['delivery'];

/** The metadata that marks the attached project (playwright.config.ts). */
export const ATTACHED_METADATA = 'conformanceAttached';

/** True when this run plays its areas at the same time (the attached project exists). */
export function parallelRun(env: NodeJS.ProcessEnv = process.env): boolean {
  return Number(env[ENV_PARALLEL] ?? '1') > 1;
}

/** True for the attached project. */
export function isAttachedProject(project: { metadata?: unknown }): boolean {
  return (project.metadata as Record<string, unknown> | undefined)?.[ATTACHED_METADATA] === true;
}

export interface Handoff {
  /** Undefined when the system refused every registration attempt (`notRegistered` says why). */
  registration?: Registration;
  notRegistered?: string;
  placeholders: Record<string, string>;
}

export function handoffFile(dir: string = outDir()): string {
  return path.join(dir, '.session-handoff.json');
}

/** Written by the reporter when the selection leaves the host's project no test: the attached worker is the host then. */
export function attachedHostsFile(dir: string = outDir()): string {
  return path.join(dir, '.attached-hosts.json');
}

export function attachedEndedFile(dir: string = outDir()): string {
  return path.join(dir, '.attached-ended.json');
}

/** The host: what the attached worker needs of its session (the registration's exchange left out). */
export function writeHandoff(session: { registration?: Registration; notRegistered?: string; placeholders(): Readonly<Record<string, string>> }): void {
  const handoff: Handoff = { placeholders: { ...session.placeholders() } };
  if (session.registration) {
    const { call: _call, ...taken } = session.registration;
    handoff.registration = taken;
  }
  if (session.notRegistered !== undefined) handoff.notRegistered = session.notRegistered;
  const file = handoffFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(handoff), { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}

export function removeHandoff(): void {
  fs.rmSync(handoffFile(), { force: true });
}

/** Written by `conformance run` when it is interrupted: the host stops waiting for the attached worker. */
export function interruptedFile(dir: string = outDir()): string {
  return path.join(dir, '.interrupted.json');
}

export function writeInterrupted(dir: string): void {
  fs.writeFileSync(interruptedFile(dir), JSON.stringify({ at: Date.now() }));
}

/** `conformance run`, once its Playwright ended: no file of the run's coordination is left (the handoff holds the clientId). */
export function removeAttachFiles(dir: string): void {
  for (const f of [handoffFile(dir), attachedEndedFile(dir), attachedHostsFile(dir), interruptedFile(dir)]) fs.rmSync(f, { force: true });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The attached worker: the host's handoff once written; `{ aborted }` when the run could not
 * start (or the host left no handoff within `ms`); `{ host: true }` when there is no host (the
 * selection left its project no test): this worker launches the module itself.
 */
export async function awaitHandoff(ms: number): Promise<Handoff | { aborted: string } | { host: true }> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (fs.existsSync(attachedHostsFile())) return { host: true };
    const aborted = readAborted();
    if (aborted) return { aborted };
    // Interrupted before the host's session started (the run ends now, without a verdict): nothing to wait for.
    if (fs.existsSync(interruptedFile())) return { aborted: 'the run was interrupted before the session this worker attaches to started' };
    try {
      return JSON.parse(fs.readFileSync(handoffFile(), 'utf8')) as Handoff;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) return { aborted: `the session this worker attaches to gave no module within ${ms} ms` };
    await sleep(50);
  }
}

/** The reporter: the selection left the host's project no test. */
export function writeAttachedHosts(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(attachedHostsFile(dir), JSON.stringify({ at: Date.now() }));
}

/** The reporter: every test of the attached project ended. */
export function writeAttachedEnded(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(attachedEndedFile(dir), JSON.stringify({ at: Date.now() }));
}

/**
 * The host, before its judgements and the module's stop: waits until every attached test ended;
 * false at `deadline` (a time), once the run is interrupted, or as soon as `over()` (the module stopped).
 */
export async function awaitAttachedEnded(deadline: number, over: () => boolean = () => false): Promise<boolean> {
  while (!fs.existsSync(attachedEndedFile())) {
    if (Date.now() > deadline || over() || fs.existsSync(interruptedFile())) return false;
    await sleep(50);
  }
  return true;
}
