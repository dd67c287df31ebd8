/**
 * What a conformance spec works with: it applies checks (with their requirement ids and
 * severity) and the results and the exchanges of the test are attached to it, for the
 * conformance reporter to gather into `results.json`.
 */
import type { TestInfo } from '@playwright/test';
import { apply, type Application } from '../checks/apply.ts';
import type { Check } from '../checks/check.ts';
import type { CheckResult } from '../checks/result.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { RunSession } from './session.ts';
import { NeedsTrigger } from '../module/triggers.ts';

/** The attachment a conformance test leaves for the reporter. */
export interface TestRecord {
  results: CheckResult[];
  exchanges: Exchange[];
  module?: { code: string; kinds: string[]; baseUrl?: string; mode: string; launchOutput?: string[] };
}

export const RECORD_ATTACHMENT = 'conformance-record';

export class Conformance {
  readonly results: CheckResult[] = [];
  private readonly exchanges: Exchange[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    readonly session: RunSession,
    private readonly testInfo: TestInfo,
  ) {
    this.unsubscribe = session.log.subscribe((x) => this.exchanges.push(x));
  }

  /** Applies a check with the ids and severity of this use. */
  async apply<S>(check: Check<S>, subject: S, app: Application): Promise<CheckResult> {
    const result = await apply(check, subject, app, {
      profile: this.session.config.profile,
      exchange: (id) => this.session.log.get(id),
      spec: this.testInfo.titlePath.slice(1).join(' > '),
    });
    this.results.push(result);
    for (const id of app.requirements) this.testInfo.annotations.push({ type: 'requirement', description: id });
    return result;
  }

  /** Records checks that were not run: skipped (a needed trigger is not declared) or not applicable. */
  notRun(status: 'skipped' | 'notApplicable', why: string, checks: Array<{ check: Check<never>; app: Application }>): void {
    for (const { check, app } of checks) {
      this.results.push({
        check: check.name,
        title: check.checks,
        requirements: app.requirements,
        profile: app.requirements.length > 0 && app.requirements.every((r) => r.startsWith('WIRE-')),
        severity: app.severity,
        status,
        message: `Checked: ${check.checks}.\n${status === 'skipped' ? 'Skipped' : 'Not applicable'}: ${why}\nRequirements: ${app.requirements.join(', ')} (${app.severity})`,
        evidence: [],
        spec: this.testInfo.titlePath.slice(1).join(' > '),
      });
    }
  }

  /** Records checks as skipped because the flow needs an undeclared trigger. */
  skipForTrigger(e: NeedsTrigger, checks: Array<{ check: Check<never>; app: Application }>): void {
    this.notRun('skipped', `${e.message} (declare it in the configuration's "triggers")`, checks);
  }

  /** Attaches the record of the test; returns the failures (MUST checks that did not hold). */
  async finish(): Promise<CheckResult[]> {
    this.unsubscribe();
    const referenced = new Set(this.results.flatMap((r) => r.evidence));
    const own = new Set(this.exchanges.map((x) => x.id));
    const extra = [...referenced].filter((id) => !own.has(id)).map((id) => this.session.log.get(id)).filter((x): x is Exchange => !!x);
    const reg = this.session.registration;
    const record: TestRecord = {
      results: this.results,
      exchanges: [...extra, ...this.exchanges],
      ...(reg
        ? {
            module: {
              code: reg.code,
              kinds: reg.kinds,
              mode: this.session.config.mode,
              ...(this.session.baseUrl() ? { baseUrl: this.session.baseUrl()! } : {}),
              ...(this.session.launched ? { launchOutput: this.session.log.redactor.text(this.session.launched.output().join('\n')).split('\n').slice(-40) } : {}),
            },
          }
        : {}),
    };
    await this.testInfo.attach(RECORD_ATTACHMENT, { body: JSON.stringify(record), contentType: 'application/json' });
    return this.results.filter((r) => r.status === 'failed');
  }
}
