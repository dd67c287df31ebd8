/**
 * What a conformance spec works with: it applies checks (with their requirement ids and
 * severity) and the results and the exchanges of the test are attached to it, for the
 * conformance reporter to gather into `results.json`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import { apply, appOf, recordedResult, type Application, type ApplyContext, type Row } from '../checks/apply.ts';
import type { Check } from '../checks/check.ts';
import type { CheckResult } from '../checks/result.ts';
import type { EndpointEvidence, Exchange } from '../evidence/exchange.ts';
import type { TokenRate } from '../evidence/bounded.ts';
import type { RunSession } from './session.ts';
import { slotTitlePath } from './batch-row.ts';
import { NeedsTrigger } from '../module/triggers.ts';
import { internalDir, outDir } from './environment.ts';
import { curlNote, redactCurl } from '../evidence/curl.ts';
import type { Redactor } from '../evidence/redact.ts';

/** What the run saw of each endpoint, and of each gateway token (the session's record carries it). */
export interface RunEvidence {
  endpoints: EndpointEvidence[];
  gateway: TokenRate[];
}

/** The attachment a conformance test leaves for the reporter. */
export interface TestRecord {
  results: CheckResult[];
  exchanges: Exchange[];
  evidence?: RunEvidence;
  /** The session's record: the triggers the configuration declares and those the run fired. */
  triggers?: { declared: string[]; fired: string[] };
  module?: { code: string; kinds: string[]; baseUrl?: string; mode: string; launchOutput?: string[] };
}

export const RECORD_ATTACHMENT = 'conformance-record';

/** Folder of the records written outside tests (one per session, at its end). */
export function sessionRecordsDir(dir: string = outDir()): string {
  return path.join(internalDir(dir), 'session-records');
}

/** Where a recorder's results go: a test's attachment, or a session's record file. */
export interface RecordSink {
  /** Shown as the result's `spec`. */
  spec: string;
  annotate(requirement: string): void;
  write(record: TestRecord): Promise<void>;
  /**
   * True for the session's sink, written when the session ends: its record carries every
   * exchange the log keeps whole that no test's record carried (those of the session's start,
   * and those made between two tests), and the run's evidence.
   */
  carriesStartup?: boolean;
}

/** The sink of a Playwright test. */
export function testSink(testInfo: TestInfo): RecordSink {
  return {
    // In a batch's slot, the title path of the row's own run (src/run/batch-row.ts).
    spec: slotTitlePath(testInfo.titlePath).titlePath.slice(1).join(' > '),
    annotate: (id) => testInfo.annotations.push({ type: 'requirement', description: id }),
    write: async (record) => {
      await testInfo.attach(RECORD_ATTACHMENT, { body: JSON.stringify(record), contentType: 'application/json' });
    },
  };
}

/** The sink of a session's own checks, run when it ends: a file the reporter gathers. */
export function sessionSink(sessionId: string): RecordSink {
  return {
    spec: 'session: calls the module made on its own',
    carriesStartup: true,
    annotate: () => undefined,
    write: async (record) => {
      fs.mkdirSync(sessionRecordsDir(), { recursive: true });
      fs.writeFileSync(path.join(sessionRecordsDir(), `${sessionId}.json`), JSON.stringify(record));
    },
  };
}

/** A check a test planned and did not run: a row, or a property's check with its application. */
export type Planned = { check: Pick<Check<never>, 'name' | 'checks'>; app: Application } | (Application & { check: Pick<Check<never>, 'name' | 'checks'> });

export class Conformance {
  readonly results: CheckResult[] = [];
  private exchanges: Exchange[] = [];
  private readonly unsubscribe: () => void;
  private sincePrune = 0;

  constructor(
    readonly session: RunSession,
    private readonly sink: RecordSink,
  ) {
    this.unsubscribe = session.log.subscribe((x) => {
      this.exchanges.push(x);
      if (++this.sincePrune >= 1000) this.prune();
    });
  }

  /** Keeps, of the test's exchanges, those the log keeps whole or a result points at (a flood stays bounded). */
  private prune(): void {
    this.sincePrune = 0;
    const referenced = new Set(this.results.flatMap((r) => r.evidence));
    this.exchanges = this.exchanges.filter((x) => referenced.has(x.id) || this.session.log.get(x.id) !== undefined);
  }

  /** An exchange by id: kept by the log, or still held by a simulator's call (a flow's calls the log summarised). */
  private exchange(id: string): Exchange | undefined {
    return (
      this.session.log.get(id) ??
      this.session.system.calls.find((c) => c.exchange.id === id)?.exchange ??
      this.session.system.unsimulated.find((x) => x.id === id) ??
      this.session.gateway.calls.find((c) => c.exchange.id === id)?.exchange ??
      this.session.gateway.unknown.find((x) => x.id === id)
    );
  }

  /** How checks are applied in this run: the profile setting, the exchanges, the spec. */
  context(): ApplyContext {
    return { profile: this.session.config.profile, exchange: (id) => this.exchange(id), spec: this.sink.spec };
  }

  /** Applies a row of an application table (its check, with the ids and severity of the row) to a subject. */
  async apply<S>(row: Row<S>, subject: S): Promise<CheckResult> {
    return this.record(await apply(row.check, subject, appOf(row), this.context()));
  }

  /** Keeps a result made by a shared judgement (see `checks/registration/judge.ts`). */
  record(result: CheckResult): CheckResult {
    this.results.push(result);
    for (const id of result.requirements) this.sink.annotate(id);
    return result;
  }

  /** Records checks that were not run: skipped (a needed trigger is not declared) or not applicable. */
  notRun(status: 'skipped' | 'notApplicable', why: string, planned: ReadonlyArray<Planned>, evidence: string[] = []): void {
    for (const p of planned) {
      const { check } = p;
      const app = 'app' in p ? p.app : appOf(p);
      for (const id of app.requirements) this.sink.annotate(id);
      const message = `Checked: ${check.checks}.\n${status === 'skipped' ? 'Skipped' : 'Not applicable'}: ${why}\nRequirements: ${app.requirements.join(', ') || '(suite rule)'} (${app.severity})`;
      this.results.push(recordedResult(check, app, { status, message, evidence, spec: this.sink.spec }));
    }
  }

  /** Records checks as skipped because the flow needs an undeclared trigger. */
  skipForTrigger(e: NeedsTrigger, planned: ReadonlyArray<Planned>): void {
    this.notRun('skipped', `${e.message} (declare it in the configuration's "triggers")`, planned);
  }

  /** Writes the record; returns the failures (MUST checks that did not hold). */
  async finish(): Promise<CheckResult[]> {
    this.unsubscribe();
    this.prune();
    const { log } = this.session;
    const referenced = new Set(this.results.flatMap((r) => r.evidence));
    const own = new Set(this.exchanges.map((x) => x.id));
    const extra = [...referenced].filter((id) => !own.has(id)).map((id) => this.exchange(id)).filter((x): x is Exchange => !!x);
    // A test's record carries its exchanges kept for good and those its results point at; the
    // last ones of a flood, which the log may still drop, are left to the session's record.
    const exchanges = [...extra, ...(this.sink.carriesStartup ? this.exchanges : this.exchanges.filter((x) => referenced.has(x.id) || log.settled(x.id)))];
    // The session's own record carries every kept exchange no test's record carried: those of
    // the session's start (calls before registering), those made between two tests, and the
    // last ones of each endpoint.
    if (this.sink.carriesStartup) {
      const have = new Set(exchanges.map((x) => x.id));
      exchanges.unshift(...log.uncarried().filter((x) => !have.has(x.id)));
    }
    // Counted as kept whole on their endpoints before the session's record takes the summary.
    log.carry(exchanges);
    const redactor = log.redactor;
    const reg = this.session.registration;
    const record: TestRecord = {
      // Written with every secret known now: the clientId learnt at registration included.
      results: this.results.map((r) => redactResult(r, redactor)),
      exchanges: exchanges.map((x) => log.forReport(x)),
      ...(this.sink.carriesStartup
        ? {
            evidence: {
              endpoints: log.summary(),
              // The clientId a token belongs to is a credential: written redacted.
              gateway: this.session.gateway.tokenRates().map((t) => (t.clientId ? { ...t, clientId: redactor.named('clientId', t.clientId) ?? '<redacted:clientId>' } : t)),
            },
          }
        : {}),
      // An attached session (src/run/attach.ts) fires no trigger: the host's record says which were.
      ...(this.sink.carriesStartup && !this.session.attached
        ? { triggers: { declared: Object.keys(this.session.config.triggers ?? {}), fired: [...new Set(this.session.triggers.fired.map((f) => f.name))] } }
        : {}),
      ...(reg
        ? {
            module: {
              code: reg.code,
              kinds: reg.kinds,
              mode: this.session.config.mode,
              ...(this.session.baseUrl() ? { baseUrl: this.session.baseUrl()! } : {}),
              // The launched module's output is the run's, to its end: results.json `run.moduleOutput`, from the session.
            },
          }
        : {}),
    };
    await this.sink.write(record);
    return this.results.filter((r) => r.status === 'failed');
  }
}

/** A result as a record writes it: its message and curl line redacted with every secret known now. */
function redactResult(result: CheckResult, redactor: Redactor): CheckResult {
  const lines = result.message.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('Reproduce with: ')) {
      lines[i] = redactor.text(line);
      continue;
    }
    const curl = redactCurl(line.slice('Reproduce with: '.length), redactor);
    lines[i] = `Reproduce with: ${curl}`;
    // The note names the variables to set, the clientId's among them once redacted.
    if (lines[i + 1]?.startsWith('Set ')) {
      i++;
      lines[i] = curlNote(curl) ?? lines[i]!;
    }
  }
  const message = lines.join('\n');
  const reproduce = result.reproduce !== undefined ? redactCurl(result.reproduce, redactor) : undefined;
  if (message === result.message && reproduce === result.reproduce) return result;
  return { ...result, message, ...(reproduce !== undefined ? { reproduce } : {}) };
}
