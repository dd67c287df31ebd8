/**
 * The benchmark of a run against hostile modules: per fault variant of the reference module
 * (and the clean module), the run's wall time, the suite's peak memory (its processes summed,
 * the module's process group left out, sampled from /proc every 100 ms), the exit code and the
 * size of the reports. Prints a table and writes `reports/bench-hostile.json`.
 *
 *   npm run bench:hostile [-- --faults flood-system,body-64mb] [--root ../older-checkout] [--repeat 3]
 *
 * `--root` measures another checkout of the suite (its reference module must know the faults);
 * `--no-settings` leaves `runTimeoutMs` and `stopGraceMs` out of the configuration (a checkout
 * older than those settings refuses them). Linux only (/proc).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runSuite } from '../test/gauntlet/run-suite.ts';
import { HOSTILE_CASES } from '../test/gauntlet/faults.ts';
import { cleanUp, groupMembers, readPids, referenceConfig, running } from '../test/gauntlet/process-tree.ts';
import { PACKAGE_ROOT } from '../src/contract/paths.ts';

const { values } = parseArgs({
  options: {
    faults: { type: 'string' },
    root: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    'no-settings': { type: 'boolean', default: false },
  },
});

const root = path.resolve(values.root ?? PACKAGE_ROOT);
const faults = values.faults ? values.faults.split(',').map((f) => f.trim()) : ['', ...HOSTILE_CASES.map((c) => c.fault)];
const repeat = Math.max(1, Number(values.repeat));

interface Row {
  fault: string;
  exitCode: number;
  seconds: number;
  peakRssMB: number;
  resultsMB: number;
  htmlMB: number;
  processesLeft: number;
}

const size = (file: string): number => (fs.existsSync(file) ? Math.round((fs.statSync(file).size / 1024 / 1024) * 100) / 100 : -1);

const rows: Row[] = [];
for (const fault of faults) {
  for (let i = 0; i < repeat; i++) {
    // A row's own settings and narrowing (the hostile answers of calculate: a short per-request timeout, the calculate properties alone).
    const row0 = HOSTILE_CASES.find((c) => c.fault === fault);
    const { file, pidFile } = referenceConfig(values['no-settings'] ? { root } : { root, stopGraceMs: 1_500, runTimeoutMs: 300_000, more: row0?.settings });
    const run = await runSuite(['--config', file, ...(row0?.narrow ?? [])], { FAULTS: fault, PID_FILE: pidFile }, { measure: true, root });
    const pids = readPids(pidFile);
    // What of the module is still running a moment after the run (the last SIGKILL may still be landing).
    await new Promise((r) => setTimeout(r, 500));
    const alive = pids ? [...new Set([pids.module, ...pids.children, ...groupMembers(pids.module)])].filter(running) : [];
    cleanUp(alive);
    const row: Row = {
      fault: fault || '(none)',
      exitCode: run.exitCode,
      seconds: Math.round(run.durationMs / 100) / 10,
      peakRssMB: Math.round((run.peakRssBytes ?? 0) / 1024 / 1024),
      resultsMB: size(path.join(run.out, 'results.json')),
      htmlMB: size(path.join(run.out, 'conformance.html')),
      processesLeft: alive.length,
    };
    rows.push(row);
    fs.rmSync(run.out, { recursive: true, force: true });
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
}

const out = path.join(PACKAGE_ROOT, 'reports', 'bench-hostile.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify({ root, at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
console.table(rows);
console.log(`written to ${path.relative(process.cwd(), out)}`);
