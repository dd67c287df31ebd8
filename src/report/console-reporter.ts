/**
 * The console of a conformance run: for each test, one line per check result of its record,
 * each status with its own mark (passed ✓, failed ✗, warning !, skipped –, not applicable ·,
 * info i), in colour on a terminal; words (PASS, FAIL, WARN, SKIP, N/A, INFO) and no colour
 * when `NO_COLOR` is set or stdout is not a terminal. A spec that broke prints its error in one
 * line; the full stack, and whatever the tests wrote to stdout and stderr, go to `run.log` in
 * the output folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { RECORD_ATTACHMENT, sessionRecordsDir, type TestRecord } from '../run/conformance.ts';
import { outDir, readAborted } from '../run/environment.ts';
import type { CheckResult, Status } from '../checks/result.ts';

export type ConsoleStyle = 'color' | 'words';

/** Words without colour when `NO_COLOR` is set (non-empty, as no-color.org says) or stdout is not a terminal. */
export function consoleStyle(env: NodeJS.ProcessEnv = process.env, isTTY: boolean = process.stdout.isTTY === true): ConsoleStyle {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || !isTTY ? 'words' : 'color';
}

const MARKS: Record<Status, { mark: string; word: string; color: number }> = {
  passed: { mark: '✓', word: 'PASS', color: 32 },
  failed: { mark: '✗', word: 'FAIL', color: 31 },
  warning: { mark: '!', word: 'WARN', color: 33 },
  skipped: { mark: '–', word: 'SKIP', color: 90 },
  notApplicable: { mark: '·', word: 'N/A', color: 90 },
  info: { mark: 'i', word: 'INFO', color: 36 },
};

/** The mark of a status: a coloured sign, or a word padded to four characters. */
export function mark(status: Status, style: ConsoleStyle): string {
  const m = MARKS[status];
  return style === 'color' ? `\u001b[${m.color}m${m.mark}\u001b[39m` : m.word.padEnd(4);
}

/**
 * Text made safe for one console line: escape sequences, control characters and bidirectional
 * overrides (what the module sent is hostile) removed, whitespace collapsed, cut at `max`.
 */
export function oneLine(s: string, max = 200): string {
  const flat = s
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What a result that did not pass says: received and expected, or why it was skipped; empty for a pass. */
function reason(r: CheckResult): string {
  if (r.status === 'passed') return '';
  return r.message
    .split(/\r\n|\r|\n/)
    .filter((l) => !/^(Checked|Requirements|Reproduce with|Evidence): /.test(l))
    .join('; ');
}

/** One check result on one line: mark, check, requirement ids, and for anything but a pass its reason. */
export function resultLine(r: CheckResult, style: ConsoleStyle): string {
  const why = reason(r);
  return `  ${mark(r.status, style)} ${r.check} [${r.requirements.join(', ') || 'suite rule'}]${why ? `  ${oneLine(why)}` : ''}`;
}

export interface ConsoleReporterOptions {
  style?: ConsoleStyle;
  /** Where lines go (default stdout). */
  write?: (text: string) => void;
  /** The log of full errors and test output (default `run.log` in the output folder). */
  logFile?: string;
  /** Folder of the session records (default: the run's). */
  sessionRecords?: string;
  /** Why the run could not start, if it could not (default: the run's `aborted.json`). */
  aborted?: () => string | undefined;
}

export default class ConsoleReporter implements Reporter {
  private readonly style: ConsoleStyle;
  private readonly write: (text: string) => void;
  private readonly logFile: string;
  private readonly sessionRecords: string;
  private readonly aborted: () => string | undefined;
  private readonly counts: Record<Status, number> = { passed: 0, failed: 0, warning: 0, skipped: 0, notApplicable: 0, info: 0 };
  private broken = 0;
  private abortShown = false;

  constructor(options: ConsoleReporterOptions = {}) {
    this.style = options.style ?? consoleStyle();
    this.write = options.write ?? ((t) => process.stdout.write(t));
    this.logFile = options.logFile ?? path.join(outDir(), 'run.log');
    this.sessionRecords = options.sessionRecords ?? sessionRecordsDir();
    this.aborted = options.aborted ?? readAborted;
  }

  private log(text: string): void {
    try {
      fs.appendFileSync(this.logFile, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      // The log is a convenience; the console and the reports stand without it.
    }
  }

  private line(text: string): void {
    this.write(`${text}\n`);
  }

  private printResults(results: readonly CheckResult[]): void {
    for (const r of results) {
      this.counts[r.status] += 1;
      this.line(resultLine(r, this.style));
    }
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    fs.mkdirSync(path.dirname(this.logFile), { recursive: true });
    fs.writeFileSync(this.logFile, `conformance run started ${new Date().toISOString()}\n`);
    const n = suite.allTests().length;
    this.line(`Running ${n} conformance ${n === 1 ? 'test' : 'tests'}`);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    this.log(`[stdout${test ? ` ${test.title}` : ''}] ${chunk.toString()}`);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    this.log(`[stderr${test ? ` ${test.title}` : ''}] ${chunk.toString()}`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const title = test.titlePath().slice(3).join(' › ');
    const attachment = result.attachments.find((a) => a.name === RECORD_ATTACHMENT);
    const record = attachment?.body ? (JSON.parse(attachment.body.toString('utf8')) as TestRecord) : undefined;
    const broke = result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted';
    if (broke && !record) {
      // A run that could not start fails every test the same way: said once.
      const aborted = this.aborted();
      if (aborted) {
        if (!this.abortShown) this.line(`${mark('failed', this.style)} the run could not start: ${oneLine(aborted)}`);
        this.abortShown = true;
        return;
      }
    }
    this.line(oneLine(title, 300));
    if (record) this.printResults(record.results);
    if (broke) {
      this.broken += 1;
      const error = result.error;
      const first = oneLine((error?.message ?? result.status).split('\n')[0] ?? '');
      this.line(`  ${mark('failed', this.style)} the spec broke: ${first} (full error in ${this.logFile})`);
      this.log(`[${result.status}] ${title}\n${error?.stack ?? error?.message ?? result.status}`);
    } else if (result.status === 'skipped') this.line(`  ${mark('skipped', this.style)} skipped by the spec`);
    else if (!record || record.results.length === 0) this.line('  (no checks recorded)');
  }

  onError(error: TestError): void {
    this.line(`${mark('failed', this.style)} error: ${oneLine((error.message ?? error.value ?? 'unknown').split('\n')[0] ?? '')} (full error in ${this.logFile})`);
    this.log(`[error] ${error.stack ?? error.message ?? error.value ?? 'unknown'}`);
  }

  onEnd(_result: FullResult): void {
    // The session's own checks (calls the module made on its own), judged when it ended.
    const dir = this.sessionRecords;
    if (fs.existsSync(dir)) {
      for (const f of fs.readdirSync(dir).sort()) {
        const record = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as TestRecord;
        if (record.results.length === 0) continue;
        this.line(oneLine(record.results[0]!.spec ?? 'session', 300));
        this.printResults(record.results);
      }
    }
    if (this.abortShown) return;
    // The run-level rules (something reached the module) are judged by the conformance
    // reporter, after this: results.json and the verdict line count them.
    const c = this.counts;
    const tally = (
      [
        ['passed', 'passed'],
        ['failed', 'failed'],
        ['warning', 'warnings'],
        ['skipped', 'skipped'],
        ['notApplicable', 'not applicable'],
        ['info', 'info'],
      ] as Array<[Status, string]>
    ).map(([s, words]) => (this.style === 'color' ? `${mark(s, 'color')} ${c[s]} ${words}` : `${c[s]} ${words}`));
    const broke = this.broken > 0 ? `; ${this.broken} ${this.broken === 1 ? 'spec' : 'specs'} broke` : '';
    this.line(`\nspec checks: ${tally.join(this.style === 'color' ? '  ' : ', ')}${broke}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
