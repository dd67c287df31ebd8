/**
 * The process that plays a shared batch of the gauntlet (batch.ts started it): runs the batch
 * (src/cli/batch.ts) and writes each row's outcome as a file the waiting tests read. It ends with
 * the self-test run: when the Playwright runner it serves is gone, the batch is interrupted.
 *
 * Usage: node --import tsx test/gauntlet/batch-driver.ts <dir>   (the rows in <dir>/rows.json)
 */
import fs from 'node:fs';
import path from 'node:path';
import { runBatch, type BatchRowSpec } from '../../src/cli/batch.ts';

const dir = process.argv[2]!;
const { rows, workers, runnerPid } = JSON.parse(fs.readFileSync(path.join(dir, 'rows.json'), 'utf8')) as { rows: BatchRowSpec[]; workers: number; runnerPid: number };
fs.mkdirSync(path.join(dir, 'outcomes'), { recursive: true });

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
    const file = path.join(dir, 'outcomes', `${outcome.name}.json`);
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
fs.writeFileSync(path.join(dir, 'done.json'), JSON.stringify({ code, ...(cpuSeconds !== undefined ? { cpuSeconds } : {}) }));
