/**
 * A module cannot break the run: its process tree ends with the run. The launched module runs in
 * its own process group; at the end the group gets SIGTERM, then SIGKILL after the grace period
 * (`launch.stopGraceMs`), also when the suite itself is interrupted. The process faults of the
 * reference module break no rule (exit 0, no failing check); the report says what had to be
 * killed, and afterwards no process of the run is alive.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { failedChecks, runSuite, type SuiteRun } from './run-suite.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { childEnv } from '../../src/cli/child-env.ts';
import { cleanUp, descendants, groupMembers, readPids, referenceConfig, running, survivors, type Pids } from './process-tree.ts';

test.describe.configure({ mode: 'parallel', timeout: 180_000 });

const GRACE_MS = 1_500;
/** One short spec is enough: the stop happens at the end of any run. */
const GREP = 'the module acknowledges activity';

/** A short run of the reference module with `faults`, its pids read, and whatever is left killed afterwards. */
async function shortRun(faults: string, judge: (run: SuiteRun, pids: Pids | undefined) => Promise<void>): Promise<void> {
  const { file, pidFile } = referenceConfig({ stopGraceMs: GRACE_MS, compiled: true });
  const run = await runSuite(['--config', file, '--grep', GREP], { FAULTS: faults, PID_FILE: pidFile });
  const pids = readPids(pidFile);
  try {
    await judge(run, pids);
  } finally {
    if (pids) cleanUp([pids.module, ...pids.children]);
  }
}

/**
 * Starts the whole suite on the reference module with both process faults (no --grep: the run
 * is still going when it is interrupted) and waits until the module is up and registered: it
 * wrote its pid file and the run counted its launch. `detached`: a process group of its own, as a
 * terminal's foreground job.
 */
async function wholeRun(detached: boolean, args: string[] = []): Promise<{ cli: ChildProcess; pids: Pids; stderr: () => string; exited: Promise<number | null>; out: string }> {
  const { file, pidFile } = referenceConfig({ stopGraceMs: GRACE_MS, compiled: true });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const cli = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), 'run', '--out', out, '--config', file, ...args], {
    cwd: PACKAGE_ROOT,
    env: childEnv({ FAULTS: 'module-ignores-sigterm,child-ignores-sigterm', PID_FILE: pidFile }),
    detached,
  });
  let stderr = '';
  cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  cli.stdout.resume();
  const exited = new Promise<number | null>((r) => cli.once('exit', (code) => r(code)));
  const deadline = Date.now() + 60_000;
  let pids: Pids | undefined;
  while (!(pids = readPids(pidFile)) || !fs.existsSync(path.join(out, 'internal', 'launches.log'))) {
    if (Date.now() > deadline || cli.exitCode !== null) {
      cli.kill('SIGKILL');
      throw new Error(`the module never started: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { cli, pids, stderr: () => stderr, exited, out };
}

test.skip(process.platform !== 'linux', 'process groups and /proc: Linux');

test('a module that ignores SIGTERM is killed after the grace period; the report says so (exit 0)', () =>
  shortRun('module-ignores-sigterm', async (run, pids) => {
    expect(run.results, run.stderr).toBeDefined();
    expect(failedChecks(run.results)).toEqual([]);
    expect(run.exitCode).toBe(0);
    const stop = run.results!.run.moduleStop;
    expect(stop).toMatchObject({ graceMs: GRACE_MS, exitedBefore: false, killed: true, childrenKilled: false });
    expect(stop!.afterMs).toBeGreaterThanOrEqual(GRACE_MS);
    const valid = contract().validate('suite/results.json', run.results);
    expect(valid.valid, formatErrors(valid.errors)).toBe(true);
    expect(run.stdout).toMatch(/stopping the module: the module did not end on SIGTERM and was killed \(SIGKILL\) after 1500 ms/);
    expect(fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8')).toMatch(/id="module-stop">Stopping the module: the module did not end on SIGTERM and was killed/);
    expect(pids?.module).toBeGreaterThan(0);
    expect(await survivors([pids!.module])).toEqual([]);
  }));

test('a module that leaves a child ignoring SIGTERM: its process group is killed; nothing survives (exit 0)', () =>
  shortRun('child-ignores-sigterm', async (run, pids) => {
    expect(run.results, run.stderr).toBeDefined();
    expect(failedChecks(run.results)).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.results!.run.moduleStop).toMatchObject({ graceMs: GRACE_MS, killed: false, childrenKilled: true });
    expect(run.stdout).toMatch(/processes it started were still running after 1500 ms and were killed/);
    expect(pids?.children).toHaveLength(1);
    expect(await survivors([pids!.module, ...pids!.children])).toEqual([]);
  }));

test('the clean module ends on SIGTERM: nothing is killed and the report says nothing of it', () =>
  shortRun('', async (run, pids) => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.results!.run.moduleStop).toMatchObject({ killed: false, childrenKilled: false });
    expect(run.results!.run.moduleStop!.afterMs).toBeLessThan(GRACE_MS);
    expect(run.stdout).not.toMatch(/stopping the module/);
    expect(fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8')).not.toMatch(/id="module-stop"/);
    expect(await survivors([pids!.module])).toEqual([]);
  }));

/**
 * To the run: a CI runner that signals the command it started. To its process group: Ctrl-C in a
 * terminal, or a CI cancel that signals the whole tree, so that Playwright's runner and its worker
 * get the signal at the same moment as `conformance run`.
 */
const INTERRUPTIONS = [
  { signal: 'SIGINT', to: 'run', parallel: false },
  { signal: 'SIGTERM', to: 'run', parallel: false },
  { signal: 'SIGINT', to: 'group', parallel: false },
  { signal: 'SIGTERM', to: 'group', parallel: false },
  // Areas at the same time (src/run/attach.ts): the host stops waiting for the attached worker's tests.
  { signal: 'SIGINT', to: 'run', parallel: true },
  { signal: 'SIGTERM', to: 'group', parallel: true },
] as const;

for (const { signal, to, parallel } of INTERRUPTIONS) {
  test(`an interrupted run (${signal} to ${to === 'run' ? 'conformance run' : 'its process group'}${parallel ? ', --parallel 2' : ''}) ends promptly and no process of the run survives`, async () => {
    const { cli, pids, stderr, exited, out } = await wholeRun(to === 'group', parallel ? ['--parallel', '2'] : []);
    let tree: number[] = [];
    try {
      tree = descendants(cli.pid!);
      expect(tree).toContain(pids.module);
      expect(tree).toEqual(expect.arrayContaining(pids.children));
      const sent = Date.now();
      if (to === 'run') cli.kill(signal);
      else process.kill(-cli.pid!, signal);
      const code = await exited;
      // Promptly: the grace period, Playwright's own shutdown, and no more.
      expect(Date.now() - sent).toBeLessThan(20_000);
      expect(code).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(stderr()).toMatch(new RegExp(`conformance run: interrupted \\(${signal}\\); no verdict`));
      expect(await survivors([cli.pid!, ...tree])).toEqual([]);
      // No file of the run's coordination left (the handoff of --parallel 2 holds the clientId).
      expect(fs.readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
    } finally {
      cli.kill('SIGKILL');
      cleanUp([...tree, pids.module, ...pids.children]);
    }
  });
}

test('a suite killed outright (SIGKILL to its process group) still leaves no process of the module: the watchdog ends its group', async () => {
  const { cli, pids } = await wholeRun(true);
  try {
    const suite = [cli.pid!, ...descendants(cli.pid!)].filter((pid) => !groupMembers(pids.module).includes(pid));
    process.kill(-cli.pid!, 'SIGKILL');
    // Nothing of the suite can act now; the watchdog gives the module's group SIGTERM, then SIGKILL after the grace period.
    const module = [pids.module, ...pids.children];
    const until = Date.now() + GRACE_MS + 8_000;
    while (Date.now() < until && (module.some(running) || groupMembers(pids.module).length > 0)) await new Promise((r) => setTimeout(r, 100));
    expect(module.filter(running)).toEqual([]);
    expect(groupMembers(pids.module)).toEqual([]);
    expect(suite.filter(running)).toEqual([]);
  } finally {
    try {
      process.kill(-cli.pid!, 'SIGKILL');
    } catch {
      // gone
    }
    cleanUp([pids.module, ...pids.children, ...groupMembers(pids.module)]);
  }
});
