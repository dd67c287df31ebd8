import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { RECORD_ATTACHMENT, sessionRecordsDir, type TestRecord } from '../run/conformance.ts';
import { buildResults, type Results } from './results.ts';
import { renderHtml } from './html.ts';
import { junitXml } from './junit.ts';
import { RUN_RULES } from '../checks/run/applications.ts';
import { recordedResult } from '../checks/apply.ts';
import { internalDir, outDir, readAborted, runConfig } from '../run/environment.ts';
import { BATCH_ROW_LINE, ENV_BATCH, batchRowEndedFile, readBatch, slotTitlePath } from '../run/batch-row.ts';
import { isAttachedProject, parallelRun, removeAttachFiles, writeAttachedEnded, writeAttachedHosts } from '../run/attach.ts';
import type { ModuleStop } from '../module/launcher.ts';
import type { ModuleOutput } from '../module/output-tail.ts';

/** How the session stopped the launched module (written by the worker's session, `module-stop.json`). */
function readModuleStop(dir: string): ModuleStop | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(internalDir(dir), 'module-stop.json'), 'utf8')) as ModuleStop;
  } catch {
    return undefined;
  }
}

/** What the launched module printed during the run (written by the worker's session, `module-output.json`). */
function readModuleOutput(dir: string): ModuleOutput | undefined {
  try {
    const output = JSON.parse(fs.readFileSync(path.join(internalDir(dir), 'module-output.json'), 'utf8')) as ModuleOutput;
    return output.stdout && output.stderr ? output : undefined;
  } catch {
    return undefined;
  }
}

/** A test's title path in its file, as its run names it (in a batch's slot, without the slot's blocks). */
const ownTitle = (test: TestCase): string[] => slotTitlePath(test.titlePath()).titlePath.slice(3);

/** What the reporter gathers for one run: the whole Playwright run, or one row of a batch (src/run/batch-row.ts). */
interface Row {
  /** The run's output folder. */
  dir: string;
  /** The run's configuration file (a row of a batch); else the run's own (`runConfig()`). */
  configFile?: string;
  /** A row of a batch: its name, printed when its results are written. */
  batch?: string;
  records: TestRecord[];
  broken: Array<{ title: string; error: string }>;
  startedAt?: Date;
  /** Every test of the run, and those that ended, for the tests the run deadline stopped. */
  all: TestCase[];
  ended: Set<TestCase>;
  /** A row of a batch: when its last test so far ended; its results are written once its worker ended after that. */
  lastEndedAt: number;
  written: boolean;
}

/**
 * Gathers the records the conformance tests attached and writes `results.json`,
 * `conformance.html` and `junit.xml` (made from the check results) into the run's output folder.
 * In a batch, each row's into its own folder, as soon as the row has ended.
 */
export default class ConformanceReporter implements Reporter {
  private readonly rows = new Map<string, Row>();
  private poll: NodeJS.Timeout | undefined;
  /** Rows are written one at a time. */
  private writing: Promise<void> = Promise.resolve();

  /** The row a test belongs to: in a batch, its row block's (src/run/batch-slot.ts), else the one run's. */
  private rowOf(test: TestCase): Row {
    const inSlot = slotTitlePath(test.titlePath()).row;
    const batch = inSlot !== undefined ? this.batchRows?.[inSlot] : undefined;
    const key = batch ? batch.out : '';
    let row = this.rows.get(key);
    if (!row) {
      row = { dir: batch ? path.resolve(batch.out) : outDir(), ...(batch ? { configFile: batch.runConfig, batch: batch.name } : {}), records: [], broken: [], all: [], ended: new Set(), lastEndedAt: 0, written: false };
      this.rows.set(key, row);
    }
    return row;
  }

  /** A batch's runner (src/run/batch-row.ts). */
  private readonly batch = process.env[ENV_BATCH] !== undefined;
  /** A batch's rows. */
  private readonly batchRows = readBatch();

  /** Areas at the same time (src/run/attach.ts): the attached project's tests not yet ended. */
  private attachedLeft = 0;
  /** Areas at the same time: where each test's record stands one at a time (its file, then its place in it). */
  private readonly places = new Map<TestRecord, string>();
  private order = new Map<TestCase, number>();

  onBegin(_config: FullConfig, suite: Suite): void {
    if (!this.batch) this.rows.set('', { dir: outDir(), records: [], broken: [], all: [], ended: new Set(), lastEndedAt: 0, written: false, startedAt: new Date() });
    for (const test of suite.allTests()) this.rowOf(test).all.push(test);
    if (!this.batch && parallelRun()) {
      // Before any worker starts: nothing of an earlier run in the same folder is taken for this one's.
      removeAttachFiles(outDir());
      this.attachedLeft = suite.allTests().filter((t) => isAttachedProject(t.parent.project() ?? {})).length;
      if (this.attachedLeft === 0) writeAttachedEnded(outDir());
      // No test of the host's project selected: the attached worker launches the module.
      if (this.attachedLeft === suite.allTests().length) writeAttachedHosts(outDir());
      this.order = new Map(suite.allTests().map((t, i) => [t, i]));
    }
    if (this.batch) {
      this.poll = setInterval(() => this.writeEndedRows(), 200);
      this.poll.unref();
    }
  }

  onTestBegin(test: TestCase): void {
    const row = this.rowOf(test);
    row.startedAt ??= new Date();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // The last test of the attached worker ended: the host's session may stop the module.
    if (this.attachedLeft > 0 && isAttachedProject(test.parent.project() ?? {}) && --this.attachedLeft === 0) writeAttachedEnded(outDir());
    const row = this.rowOf(test);
    if (result.status !== 'interrupted') row.ended.add(test);
    row.lastEndedAt = Date.now();
    const attachment = result.attachments.find((a) => a.name === RECORD_ATTACHMENT);
    if (attachment?.body) {
      const record = JSON.parse(attachment.body.toString('utf8')) as TestRecord;
      row.records.push(record);
      if (this.order.size > 0) this.places.set(record, `${test.location.file}\u0000${String(this.order.get(test) ?? 0).padStart(8, '0')}`);
    }
    // A check that does not hold does not fail its test: a failed test is a spec that broke,
    // whether or not its fixture still attached the checks made before it broke.
    if (result.status === 'failed' || result.status === 'timedOut') {
      row.broken.push({ title: ownTitle(test).join(' > '), error: (result.error?.message ?? result.status).replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]! });
    }
  }

  /** A batch: the rows whose every test ended and whose worker then ended are written. */
  private writeEndedRows(): void {
    for (const row of this.rows.values()) {
      if (row.written || !row.batch || row.ended.size < row.all.length) continue;
      let endedAt: number | undefined;
      try {
        endedAt = (JSON.parse(fs.readFileSync(batchRowEndedFile(row.dir), 'utf8')) as { at: number }).at;
      } catch {
        continue;
      }
      if (endedAt < row.lastEndedAt) continue;
      row.written = true;
      this.writing = this.writing.then(() => this.writeRow(row, undefined));
    }
  }

  async onEnd(result: FullResult): Promise<void> {
    clearInterval(this.poll);
    await this.writing;
    for (const row of this.rows.values()) {
      if (row.written) continue;
      row.written = true;
      await this.writeRow(row, result);
    }
  }

  /** Writes a run's results; `result`: how the Playwright run ended, for a run (or row) written at its end. */
  private async writeRow(row: Row, result: FullResult | undefined): Promise<void> {
    const dir = row.dir;
    // The run deadline (runTimeoutMs): the checks still running and those never started are marked.
    // Read once: without a run's configuration file, each reading draws a seed of its own.
    const config = runConfig(row.configFile);
    // Areas at the same time: the tests' records in the order of a run one at a time (a stable sort).
    if (this.places.size > 0) row.records.sort((a, b) => ((this.places.get(a) ?? '') < (this.places.get(b) ?? '') ? -1 : (this.places.get(a) ?? '') > (this.places.get(b) ?? '') ? 1 : 0));
    let deadline: Results['run']['deadline'];
    if (result?.status === 'timedout' && !readAborted(dir)) {
      const runTimeoutMs = config.runTimeoutMs ?? 900_000;
      row.records.push({
        results: row.all
          .filter((t) => !row.ended.has(t))
          .map((t) => {
            const spec = ownTitle(t).join(' > ');
            const rule = RUN_RULES.specNotRun;
            return recordedResult(rule.check, rule, { status: 'skipped', message: `Checked: the conformance spec "${spec}" ran to its end.\nSkipped: stopped at the run deadline (runTimeoutMs ${runTimeoutMs})\nRequirements: (suite rule) (${rule.severity})`, spec });
          }),
        exchanges: [],
      });
      fs.mkdirSync(dir, { recursive: true });
      deadline = { runTimeoutMs, reached: true, stopped: row.all.filter((t) => !row.ended.has(t)).length };
    }
    const dirOfSessions = sessionRecordsDir(dir);
    if (fs.existsSync(dirOfSessions)) {
      for (const f of fs.readdirSync(dirOfSessions).sort()) row.records.push(JSON.parse(fs.readFileSync(path.join(dirOfSessions, f), 'utf8')) as TestRecord);
      fs.rmSync(dirOfSessions, { recursive: true, force: true });
    }
    const startedAt = row.startedAt ?? new Date();
    const results = await buildResults({
      records: row.records,
      brokenSpecs: row.broken,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      ...(readAborted(dir) ? { aborted: readAborted(dir)! } : {}),
      profile: config.profile,
      mode: config.mode,
      ...(config.file ? { config: config.file } : {}),
      ...(readModuleStop(dir) ? { moduleStop: readModuleStop(dir)! } : {}),
      ...(config.selection ? { selection: config.selection } : {}),
      ...(readModuleOutput(dir) ? { moduleOutput: readModuleOutput(dir)! } : {}),
      ...(config.generation ? { generation: config.generation } : {}),
      ...(config.shard ? { shard: config.shard } : {}),
    });
    if (deadline) results.run.deadline = deadline;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, 'conformance.html'), renderHtml(results));
    fs.writeFileSync(path.join(dir, 'junit.xml'), junitXml(results));
    if (row.batch) {
      fs.rmSync(batchRowEndedFile(dir), { force: true });
      process.stdout.write(`${BATCH_ROW_LINE}${JSON.stringify({ name: row.batch, out: dir })}\n`);
    }
  }

  /** In a batch, it prints the line of each row written (and no other reporter is wanted). */
  printsToStdio(): boolean {
    return this.batch;
  }
}
