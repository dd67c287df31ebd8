/**
 * The process that plays a shared batch of the gauntlet (batch.ts started it): runs the batch
 * (src/cli/batch.ts) and writes each row's outcome as a file the waiting tests read. It ends with
 * the self-test run: when the Playwright runner it serves is gone, the batch is interrupted.
 *
 * Usage: node --import tsx test/gauntlet/batch-driver.ts <dir>   (the rows in <dir>/rows.json, each
 * with the folder of its outcome; `dirs`: the folders of the groups the batch plays)
 */
import fs from 'node:fs';
import path from 'node:path';
import { runBatch, type BatchRowSpec } from '../../src/cli/batch.ts';

const dir = process.argv[2]!;
// Each row's outcome goes to its group's folder (`outcomes`); `dirs`: every group's folder, each told when the batch is done.
const { rows: specs, workers, runnerPid, dirs } = JSON.parse(fs.readFileSync(path.join(dir, 'rows.json'), 'utf8')) as { rows: Array<BatchRowSpec & { outcomes?: string }>; workers: number; runnerPid: number; dirs?: string[] };
const outcomesOf = new Map(specs.map((r) => [r.name, r.outcomes ?? path.join(dir, 'outcomes')]));
for (const d of new Set(outcomesOf.values())) fs.mkdirSync(d, { recursive: true });
// A row is known by its name: two rows of one name in one batch are an error of the rows.
const seen = new Set<string>();
const rows: BatchRowSpec[] = specs.map(({ outcomes: _o, ...r }) => {
  if (seen.has(r.name)) throw new Error(`two rows named ${r.name} in one batch`);
  seen.add(r.name);
  return r;
});

// The self-test run ended (or was killed): the batch stops with it.
const watch = setInterval(() => {
  try {
    process.kill(runnerPid, 0);
  } catch {
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }
}, 1000);

const code = await runBatch(rows, {
  dir,
  workers,
  onRow: (outcome) => {
    const file = path.join(outcomesOf.get(outcome.name)!, `${outcome.name}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(outcome));
    fs.renameSync(`${file}.tmp`, file);
  },
});
clearInterval(watch);
// The CPU time of the batch, its processes included (Linux: this process's and its waited-for children's).
let cpuSeconds: number | undefined;
try {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  cpuSeconds = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
} catch {
  // not Linux
}
for (const d of dirs ?? [dir]) fs.writeFileSync(path.join(d, 'done.json'), JSON.stringify({ code, ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) }));
