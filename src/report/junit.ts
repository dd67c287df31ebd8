/**
 * junit.xml from the conformance results, not from Playwright's tests (a failing check does
 * not fail its Playwright test): one `<testsuite>` per spec, one `<testcase>` per check result.
 * Failed: `<failure>` with the check's own message; skipped and not applicable: `<skipped>`;
 * a warning or an information passes, its message in `<system-out>`. Everything is escaped:
 * what the module sent is hostile.
 */
import type { Results } from './results.ts';
import type { CheckResult } from '../checks/result.ts';

/** Characters XML 1.0 does not allow (C0 controls but tab, LF, CR; U+FFFE, U+FFFF; lone surrogates) become U+FFFD. */
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content. */
export function xmlText(s: unknown): string {
  return String(s ?? '')
    .replace(INVALID, '\uFFFD')
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** An attribute value (between double quotes); line breaks and tabs kept as character references. */
export function xmlAttr(s: unknown): string {
  return xmlText(s).replace(/["'\n\r\t]/g, (c) => ({ '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c]!);
}

/** The name of a check result's test case: the check and its requirement ids. */
export function caseName(r: CheckResult): string {
  return `${r.check} [${r.requirements.join(', ') || 'suite rule'}]`;
}

/** What was received and expected, from a failed check's message; the whole message when it has neither. */
function failureSummary(message: string): string {
  const lines = message.split('\n').filter((l) => /^(Received|Expected): /.test(l));
  return lines.length > 0 ? lines.join('\n') : message;
}

/** The reason line of a skipped or not applicable result (`Skipped: ...`, `Not applicable: ...`). */
function skipSummary(message: string): string {
  return message.split('\n').find((l) => /^(Skipped|Not applicable): /.test(l)) ?? message;
}

function testcase(r: CheckResult, classname: string): string {
  const open = `    <testcase name="${xmlAttr(caseName(r))}" classname="${xmlAttr(classname)}"`;
  switch (r.status) {
    case 'failed':
      return `${open}>\n      <failure message="${xmlAttr(failureSummary(r.message))}" type="${xmlAttr(r.severity)}">${xmlText(r.message)}</failure>\n    </testcase>`;
    case 'skipped':
    case 'notApplicable':
      return `${open}>\n      <skipped message="${xmlAttr(skipSummary(r.message))}"/>\n    </testcase>`;
    case 'warning':
      return `${open}>\n      <system-out>${xmlText(`WARNING (${r.severity}): ${r.message}`)}</system-out>\n    </testcase>`;
    case 'info':
      return `${open}>\n      <system-out>${xmlText(`INFO: ${r.message}`)}</system-out>\n    </testcase>`;
    default:
      return `${open}/>`;
  }
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

const countsAttr = (c: Counts): string => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

/** junit.xml of a run. An aborted run is one suite `run` with one error: the run could not start. */
export function junitXml(results: Results): string {
  const suites = new Map<string, CheckResult[]>();
  for (const r of results.results) {
    const spec = r.spec ?? 'run';
    suites.set(spec, [...(suites.get(spec) ?? []), r]);
  }
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const blocks: string[] = [];
  for (const [spec, rs] of suites) {
    const c: Counts = {
      tests: rs.length,
      failures: rs.filter((r) => r.status === 'failed').length,
      errors: 0,
      skipped: rs.filter((r) => r.status === 'skipped' || r.status === 'notApplicable').length,
    };
    total.tests += c.tests;
    total.failures += c.failures;
    total.skipped += c.skipped;
    blocks.push(`  <testsuite name="${xmlAttr(spec)}" ${countsAttr(c)}>\n${rs.map((r) => testcase(r, spec)).join('\n')}\n  </testsuite>`);
  }
  if (results.run.outcome === 'aborted') {
    total.tests += 1;
    total.errors += 1;
    blocks.push(
      `  <testsuite name="run" ${countsAttr({ tests: 1, failures: 0, errors: 1, skipped: 0 })}>\n    <testcase name="the run could not start" classname="run">\n      <error message="${xmlAttr(results.run.aborted ?? 'aborted')}"/>\n    </testcase>\n  </testsuite>`,
    );
  }
  const name = `module-conformance${results.module ? `: ${results.module.code}` : ''}`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlAttr(name)}" ${countsAttr(total)} time="${(results.run.durationMs / 1000).toFixed(3)}" timestamp="${xmlAttr(results.run.startedAt)}">\n${blocks.join('\n')}${blocks.length > 0 ? '\n' : ''}</testsuites>\n`;
}
