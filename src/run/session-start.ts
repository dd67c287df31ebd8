/**
 * One session, one launch of the module, per run: the first session start of a run claims it in
 * the run's output folder (`session-start.json`); a second start (Playwright started a new worker
 * after a spec broke) is refused, and the run's own results say so (`secondStartResult`,
 * `notRunResult`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { internalDir, outDir } from './environment.ts';
import type { CheckResult } from '../checks/result.ts';
import type { Check, Verdict } from '../checks/check.ts';
import { appOf, message, recordedResult } from '../checks/apply.ts';
import { RUN_RULES } from '../checks/run/applications.ts';

/** The run's session start, in its output folder's `internal/`: one per run (`claimSessionStart`). */
export const SESSION_START_FILE = 'session-start.json';

interface SessionStartRecord {
  run: string;
  pid: number;
  at: string;
  /** Conformance specs that broke after the start (`noteBrokenSpec`). */
  broken?: string[];
}

/** The run a worker belongs to: its Playwright runner, the parent of every worker of the run (a restarted one too). */
function currentRun(): string {
  return `runner ${process.ppid}`;
}

function readSessionStart(dir: string): SessionStartRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(internalDir(dir), SESSION_START_FILE), 'utf8')) as SessionStartRecord;
  } catch {
    return undefined;
  }
}

/**
 * One session, one launch of the module, per run. The first session start of a run claims the
 * run (recorded in the output folder) and gets undefined; a second start in the same run
 * (Playwright started a new worker after a spec broke) is refused: it gets the reason, and
 * starts nothing. A record left by another run (an earlier one in the same folder) is replaced.
 */
export function claimSessionStart(options: { run?: string; dir?: string } = {}): string | undefined {
  const run = options.run ?? currentRun();
  const dir = options.dir ?? outDir();
  const earlier = readSessionStart(dir);
  if (earlier?.run === run) {
    const broke = earlier.broken?.length ? `the conformance spec ${earlier.broken.map((t) => JSON.stringify(t)).join(', ')} broke` : 'a conformance spec broke';
    return `a second session start in this run, refused: ${broke} and Playwright started a new worker for the tests left; the module is not launched again (the run's session started at ${earlier.at} in process ${earlier.pid})`;
  }
  fs.mkdirSync(internalDir(dir), { recursive: true });
  fs.writeFileSync(path.join(internalDir(dir), SESSION_START_FILE), `${JSON.stringify({ run, pid: process.pid, at: new Date().toISOString() } satisfies SessionStartRecord)}\n`);
  return undefined;
}

/** Notes, on the run's session start, a conformance spec that broke: a refused second start names it. */
export function noteBrokenSpec(title: string, options: { run?: string; dir?: string } = {}): void {
  const dir = options.dir ?? outDir();
  const record = readSessionStart(dir);
  if (!record || record.run !== (options.run ?? currentRun())) return;
  try {
    fs.writeFileSync(path.join(internalDir(dir), SESSION_START_FILE), `${JSON.stringify({ ...record, broken: [...(record.broken ?? []), title] })}\n`);
  } catch {
    // The refusal then names no spec.
  }
}

/** The suite rule a refused second session start fails (its row: `RUN_RULES.oneSession`): the run's own result, with the reason. */
export function secondStartResult(reason: string): CheckResult {
  const rule = RUN_RULES.oneSession;
  return recordedResult(rule.check, rule, { status: 'failed', message: message(rule.check as Check<never>, rule.check.run(reason) as Verdict, appOf(rule), undefined), spec: 'run' });
}

/** The result of a conformance test skipped because a second session start was refused (`claimSessionStart`; its row: `RUN_RULES.specNotRun`). */
export function notRunResult(spec: string, reason: string): CheckResult {
  const rule = RUN_RULES.specNotRun;
  return recordedResult(rule.check, rule, { status: 'skipped', message: `Checked: the conformance spec "${spec}" ran to its end.\nSkipped: ${reason}\nRequirements: (suite rule) (${rule.severity})`, spec });
}
