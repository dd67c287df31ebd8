/**
 * The console of a conformance run: for each test, one line per check result of its record,
 * each status with its own mark (passed ✓, failed ✗, warning !, skipped –, not applicable ·,
 * info i), in colour on a terminal; words (PASS, FAIL, WARN, SKIP, N/A, INFO) and no colour
 * when `NO_COLOR` is set or stdout is not a terminal. A spec that broke prints its error in one
 * line; the full stack, and whatever the tests wrote to stdout and stderr, go to `run.log` in
 * the output folder. The run's seed is said first; while a property runs, its progress (cases
 * done of the total, checks failing so far) is one line rewritten in place on a terminal, else
 * a line at every quarter and at the end.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { RECORD_ATTACHMENT, sessionRecordsDir, type TestRecord } from '../run/conformance.ts';
import { ENV_CONFIG, internalDir, outDir, readAborted, runConfig, vendorCwd } from '../run/environment.ts';
import { PROGRESS_PREFIX, type CheckResult, type PropertyProgress, type Status } from '../checks/result.ts';
import { DEFAULT_CONFIG_FILE, type ResolvedConfig } from '../module/config.ts';
import { curlNote } from '../evidence/curl.ts';
import { AREAS } from '../run/areas.ts';

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

/** The labels that start the parts of a check result's message (`message` in src/checks/apply.ts). */
const LABEL = /^(Checked|Received|Expected|Held|Skipped|Not applicable|Requirements|Reproduce with|Evidence): /;

/** Parts the console leaves to the reports (the reproduction line and its note are in conformance.html). */
const NOT_PRINTED = new Set(['Checked', 'Requirements', 'Reproduce with', 'Evidence']);

/** The most the console shows of each part: what the module sent is cut shorter than what the suite says. */
const PART_MAX: Record<string, number> = { Received: 160 };
const PART_MAX_DEFAULT = 300;

/** A message in its labelled parts; a line without a label continues the part before it. */
function parts(message: string): Array<{ label?: string; lines: string[] }> {
  const out: Array<{ label?: string; lines: string[] }> = [];
  for (const line of message.split(/\r\n|\r|\n/)) {
    const label = LABEL.exec(line)?.[1];
    if (label !== undefined || out.length === 0) out.push({ ...(label !== undefined ? { label } : {}), lines: [line] });
    else out.at(-1)!.lines.push(line);
  }
  return out;
}

/**
 * What a result that did not pass says: received and expected, or why it was skipped; empty for
 * a pass. Each part is cut on its own, so what was expected is never lost behind a long value.
 */
function reason(r: CheckResult): string {
  if (r.status === 'passed') return '';
  return parts(r.message)
    .filter((p) => p.label === undefined || !NOT_PRINTED.has(p.label))
    .map((p) => oneLine(p.lines.join('; '), PART_MAX[p.label ?? ''] ?? PART_MAX_DEFAULT))
    .filter((t) => t !== '')
    .join('; ');
}

/**
 * What to set before running the curl line that reproduces a failure (`curlNote`): said once by
 * the reporter, not on every line. Undefined when the result has no reproduction line.
 */
export function reproductionNote(r: CheckResult): string | undefined {
  const reproduce = r.reproduce ?? parts(r.message).find((p) => p.label === 'Reproduce with')?.lines.join('\n').replace(LABEL, '');
  return reproduce ? curlNote(reproduce) : undefined;
}

/**
 * A property failure's message says how many cases broke the check, the shrink, the seed and the
 * path before what was received (src/properties/run.ts); the line says the first three in its
 * hint, so that what was received is not cut behind a long path.
 */
const PROPERTY_RECEIVED = /^(Received: )\d+ of \d+ generated case\(s\) broke it; .*?\(seed \d+, path [\d:]+\): /;

/** Where a run's reports are, and its configuration file when it is not the default one: for the replay command of a failure. */
export interface ReplayContext {
  outDir: string;
  config?: string;
}

/**
 * Where a run's replay commands point: its output folder, and its configuration file unless it
 * is the default one (`conformance replay` reads the default configuration unless told another).
 */
export function replayContext(outDir: string, configFile: string | undefined): ReplayContext {
  return configFile && path.resolve(configFile) !== DEFAULT_CONFIG_FILE ? { outDir, config: configFile } : { outDir };
}

/** A path relative to the vendor's working folder (where `conformance run` was typed) when that is shorter. */
const shortPath = (abs: string): string => {
  const rel = path.relative(vendorCwd(), abs);
  return rel !== '' && rel.length < abs.length ? rel : abs;
};

/**
 * What a property result adds to its line: its cases (` (100 cases)`, ` (37 of 100 cases)`), and
 * for a failure the cases that broke it, the seed and the command that replays the shrunk case
 * (the saved file in the output folder).
 */
function propertyHint(r: CheckResult, where: ReplayContext | undefined): string {
  const p = r.property;
  if (!p) return '';
  const cases = p.cases === p.runs ? `${p.cases} cases` : `${p.cases} of ${p.runs} cases`;
  const c = p.counterexample;
  if (r.status !== 'failed' && r.status !== 'warning') return ` (${cases})`;
  const broke = `${p.failed} of ${cases} failed, seed ${p.seed}`;
  if (!c?.file) return ` (${broke}${c ? `, path ${oneLine(c.path, 40)}` : ''})`;
  const file = where ? shortPath(path.resolve(where.outDir, c.file)) : c.file;
  const config = where?.config ? ` --config ${shortPath(where.config)}` : '';
  return ` (${broke}; conformance replay ${oneLine(`${file}${config}`, 300)})`;
}

/**
 * One check result on one line: mark, check, requirement ids, for a property its cases (and a
 * failure's replay command), and for anything but a pass its reason. `where`: the run's output
 * folder and configuration, for the replay command.
 */
export function resultLine(r: CheckResult, style: ConsoleStyle, where?: ReplayContext): string {
  const message = r.property ? r.message.replace(/^Received: .*$/m, (line) => line.replace(PROPERTY_RECEIVED, '$1')) : r.message;
  const why = reason({ ...r, message });
  return `  ${mark(r.status, style)} ${r.check} [${r.requirements.join(', ') || 'suite rule'}]${propertyHint(r, where)}${why ? `  ${why}` : ''}`;
}

/** `, about 1 min 20 s left` from the pace of the tests ended so far; nothing before the first. */
export function timeLeft(elapsedMs: number, ended: number, total: number): string {
  if (ended === 0 || total <= ended) return '';
  const s = Math.round(((elapsedMs / ended) * (total - ended)) / 1000);
  return `, about ${s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`} left`;
}

/** A property's progress on one line: `  … delivery.calculate: valid requests: 40/100 cases, 0 failing`. */
export function progressLine(p: PropertyProgress): string {
  return `  … ${oneLine(p.property, 120)}: ${p.done}/${p.total} cases, ${p.failing} failing`;
}

/** A worker's progress line (`PROGRESS_PREFIX` + JSON), or undefined for any other line. */
export function readProgress(line: string): PropertyProgress | undefined {
  if (!line.startsWith(PROGRESS_PREFIX)) return undefined;
  try {
    const p = JSON.parse(line.slice(PROGRESS_PREFIX.length)) as Partial<PropertyProgress>;
    if (typeof p.property !== 'string' || typeof p.done !== 'number' || typeof p.total !== 'number' || typeof p.failing !== 'number') return undefined;
    return p as PropertyProgress;
  } catch {
    return undefined;
  }
}

/** The run's configuration, when the run has its configuration file (`conformance run`); else none to tell. */
function runConfiguration(): ResolvedConfig | undefined {
  if (!process.env[ENV_CONFIG]) return undefined;
  try {
    return runConfig();
  } catch {
    return undefined;
  }
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
  /** The run's configuration: its seed, its file (default: the run's, when `conformance run` gave one). */
  config?: () => Pick<ResolvedConfig, 'generation' | 'file'> | undefined;
}

export default class ConsoleReporter implements Reporter {
  private readonly style: ConsoleStyle;
  private readonly write: (text: string) => void;
  private readonly logFile: string;
  private readonly out: string;
  private readonly sessionRecords: string;
  private readonly aborted: () => string | undefined;
  private readonly config: () => Pick<ResolvedConfig, 'generation' | 'file'> | undefined;
  /** For the replay command of a property failure. */
  private replay: ReplayContext;
  private abortShown = false;
  /** A progress line is on the terminal, not ended (colour style): cleared before the next line. */
  private progressShown = false;
  /** Per property, the last quarter said (words style). */
  private readonly quarters = new Map<string, number>();
  /** Reproduction notes already said. */
  private readonly notes = new Set<string>();
  /** The run's tests, those ended, when it began, and the areas already announced (progress by area). */
  private total = 0;
  private ended = 0;
  private begunAt = Date.now();
  private readonly areasSaid = new Set<string>();

  constructor(options: ConsoleReporterOptions = {}) {
    this.style = options.style ?? consoleStyle();
    this.write = options.write ?? ((t) => process.stdout.write(t));
    this.logFile = options.logFile ?? path.join(internalDir(), 'run.log');
    this.sessionRecords = options.sessionRecords ?? sessionRecordsDir();
    this.aborted = options.aborted ?? readAborted;
    this.config = options.config ?? runConfiguration;
    // The output folder (the log sits in its internal/ folder; a test's own log, beside its reports).
    this.out = options.logFile ? path.dirname(options.logFile) : outDir();
    this.replay = { outDir: this.out };
  }

  private log(text: string): void {
    try {
      fs.appendFileSync(this.logFile, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      // The log is a convenience; the console and the reports stand without it.
    }
  }

  private line(text: string): void {
    this.clearProgress();
    this.write(`${text}\n`);
  }

  /** Removes the progress line rewritten in place, if one is shown. */
  private clearProgress(): void {
    if (!this.progressShown) return;
    this.progressShown = false;
    this.write('\r\u001b[2K');
  }

  /**
   * A property's progress: on a terminal one line rewritten in place; else a line when a further
   * quarter of the cases is done, and the last one.
   */
  private progress(p: PropertyProgress): void {
    if (this.style === 'color') {
      this.write(`\r\u001b[2K${progressLine(p)}`);
      this.progressShown = true;
      return;
    }
    const quarter = p.total > 0 ? Math.min(4, Math.floor((p.done * 4) / p.total)) : 4;
    const said = this.quarters.get(p.property) ?? 0;
    if (quarter <= said) return;
    // The last line of a property ends its count: a property run again starts afresh.
    if (quarter === 4) this.quarters.delete(p.property);
    else this.quarters.set(p.property, quarter);
    this.line(progressLine(p));
  }

  private printResults(results: readonly CheckResult[]): void {
    for (const r of results) this.line(resultLine(r, this.style, this.replay));
    // What to set before running a failure's curl line: said once for the run (once more only if it changes).
    for (const r of results) {
      const note = r.status === 'passed' ? undefined : reproductionNote(r);
      if (!note || this.notes.has(note)) continue;
      this.notes.add(note);
      const html = path.join(this.out, 'conformance.html');
      this.line(`  note: the curl line of each failure is in ${html}; ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
    }
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    fs.mkdirSync(path.dirname(this.logFile), { recursive: true });
    fs.writeFileSync(this.logFile, `conformance run started ${new Date().toISOString()}\n`);
    const n = suite.allTests().length;
    this.total = n;
    this.begunAt = Date.now();
    this.line(`Running ${n} conformance ${n === 1 ? 'test' : 'tests'}`);
    const config = this.config();
    this.replay = replayContext(this.replay.outDir, config?.file);
    const g = config?.generation;
    if (g) this.line(`seed ${g.seed} (generated requests: ${g.runs} per property; conformance run --seed ${g.seed} sends the same ones again)`);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    // A property's progress lines are shown as progress, never logged as output.
    const rest: string[] = [];
    for (const line of chunk.toString().split('\n')) {
      const p = readProgress(line);
      if (p) this.progress(p);
      else rest.push(line);
    }
    const text = rest.join('\n');
    if (text.trim() !== '') this.log(`[stdout${test ? ` ${test.title}` : ''}] ${text}`);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    this.log(`[stderr${test ? ` ${test.title}` : ''}] ${chunk.toString()}`);
  }

  /**
   * Before the lines of the first test of an area: the area, the test's place in the run and the
   * time left (from the pace so far). Said when the test ended, so that a run that could not start
   * says nothing of its areas.
   */
  private announceArea(test: TestCase): void {
    const area = (test.tags ?? []).map((t) => t.slice(1)).find((t) => (AREAS as readonly string[]).includes(t));
    if (!area || this.areasSaid.has(area)) return;
    this.areasSaid.add(area);
    const count = this.total > 0 ? `, test ${this.ended} of ${this.total}` : '';
    this.line(`${this.style === 'color' ? '\u25b8' : '>'} ${area}${count}${timeLeft(Date.now() - this.begunAt, this.ended - 1, this.total)}`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.ended += 1;
    const title = test.titlePath().slice(3).join(' › ');
    const attachment = result.attachments.find((a) => a.name === RECORD_ATTACHMENT);
    const record = attachment?.body ? (JSON.parse(attachment.body.toString('utf8')) as TestRecord) : undefined;
    const broke = result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted';
    // A run that could not start skips every test: no line each (`conformance run` says why, once).
    if (result.status === 'skipped' && !record && this.aborted()) return;
    if (!(broke && !record && this.aborted())) this.announceArea(test);
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
    this.clearProgress();
    // The session's own checks (calls the module made on its own), judged when it ended.
    const dir = this.sessionRecords;
    if (fs.existsSync(dir)) {
      for (const f of fs.readdirSync(dir).sort()) {
        const record = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as TestRecord;
        // Run-level rules (spec `run`) are printed once, by `conformance run`, with the others.
        const own = record.results.filter((r) => r.spec !== 'run');
        if (own.length === 0) continue;
        this.line(oneLine(own[0]!.spec ?? 'session', 300));
        this.printResults(own);
      }
    }
    // The run-level rules (something reached the module) and the tally of every result are
    // printed by `conformance run` from results.json, so that the console counts what the
    // reports count.
  }

  printsToStdio(): boolean {
    return true;
  }
}
