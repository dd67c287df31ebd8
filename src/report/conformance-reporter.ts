import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { RECORD_ATTACHMENT, sessionRecordsDir, type TestRecord } from '../run/conformance.ts';
import { buildResults, type Results } from './results.ts';
import { renderHtml } from './html.ts';
import { junitXml } from './junit.ts';
import { RUN_RULES } from '../checks/run/applications.ts';
import { recordedResult } from '../checks/apply.ts';
import { outDir, readAborted, runConfig } from '../run/environment.ts';
import type { ModuleStop } from '../module/launcher.ts';
import type { ModuleOutput } from '../module/output-tail.ts';

/** How the session stopped the launched module (written by the worker's session, `module-stop.json`). */
function readModuleStop(dir: string): ModuleStop | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'module-stop.json'), 'utf8')) as ModuleStop;
  } catch {
    return undefined;
  }
}

/** What the launched module printed during the run (written by the worker's session, `module-output.json`). */
function readModuleOutput(dir: string): ModuleOutput | undefined {
  try {
    const output = JSON.parse(fs.readFileSync(path.join(dir, 'module-output.json'), 'utf8')) as ModuleOutput;
    return output.stdout && output.stderr ? output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Gathers the records the conformance tests attached and writes `results.json`,
 * `conformance.html` and `junit.xml` (made from the check results) into the run's output folder.
 */
export default class ConformanceReporter implements Reporter {
  private readonly records: TestRecord[] = [];
  private readonly broken: Array<{ title: string; error: string }> = [];
  private startedAt = new Date();

  /** Every test of the run, and those that ended, for the tests the run deadline stopped. */
  private all: TestCase[] = [];
  private readonly ended = new Set<TestCase>();
  private deadline: Results['run']['deadline'];

  onBegin(_config: FullConfig, suite: Suite): void {
    this.startedAt = new Date();
    this.all = suite.allTests();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'interrupted') this.ended.add(test);
    const attachment = result.attachments.find((a) => a.name === RECORD_ATTACHMENT);
    if (attachment?.body) this.records.push(JSON.parse(attachment.body.toString('utf8')) as TestRecord);
    // A check that does not hold does not fail its test: a failed test is a spec that broke,
    // whether or not its fixture still attached the checks made before it broke.
    if (result.status === 'failed' || result.status === 'timedOut') {
      this.broken.push({ title: test.titlePath().slice(3).join(' > '), error: (result.error?.message ?? result.status).replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]! });
    }
  }

  async onEnd(result: FullResult): Promise<void> {
    // The run deadline (runTimeoutMs): the checks still running and those never started are marked.
    // Read once: without a run's configuration file, each reading draws a seed of its own.
    const config = runConfig();
    if (result.status === 'timedout' && !readAborted()) {
      const runTimeoutMs = config.runTimeoutMs ?? 900_000;
      this.records.push({
        results: this.all
          .filter((t) => !this.ended.has(t))
          .map((t) => {
            const spec = t.titlePath().slice(3).join(' > ');
            const rule = RUN_RULES.specNotRun;
            return recordedResult(rule.check, rule, { status: 'skipped', message: `Checked: the conformance spec "${spec}" ran to its end.\nSkipped: stopped at the run deadline (runTimeoutMs ${runTimeoutMs})\nRequirements: (suite rule) (${rule.severity})`, spec });
          }),
        exchanges: [],
      });
      fs.mkdirSync(outDir(), { recursive: true });
      this.deadline = { runTimeoutMs, reached: true, stopped: this.all.filter((t) => !this.ended.has(t)).length };
    }
    const dirOfSessions = sessionRecordsDir();
    if (fs.existsSync(dirOfSessions)) {
      for (const f of fs.readdirSync(dirOfSessions).sort()) this.records.push(JSON.parse(fs.readFileSync(path.join(dirOfSessions, f), 'utf8')) as TestRecord);
      fs.rmSync(dirOfSessions, { recursive: true, force: true });
    }
    const results = await buildResults({
      records: this.records,
      brokenSpecs: this.broken,
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt.getTime(),
      ...(readAborted() ? { aborted: readAborted()! } : {}),
      profile: config.profile,
      mode: config.mode,
      ...(config.file ? { config: config.file } : {}),
      ...(readModuleStop(outDir()) ? { moduleStop: readModuleStop(outDir())! } : {}),
      ...(config.selection ? { selection: config.selection } : {}),
      ...(readModuleOutput(outDir()) ? { moduleOutput: readModuleOutput(outDir())! } : {}),
      ...(config.generation ? { generation: config.generation } : {}),
      ...(config.shard ? { shard: config.shard } : {}),
    });
    if (this.deadline) results.run.deadline = this.deadline;
    const dir = outDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, 'conformance.html'), renderHtml(results));
    fs.writeFileSync(path.join(dir, 'junit.xml'), junitXml(results));
  }

  printsToStdio(): boolean {
    return false;
  }
}
