/**
 * junit.xml from the conformance results, not from Playwright's tests (a failing check does
 * not fail its Playwright test): one `<testsuite>` per spec, one `<testcase>` per check result.
 * Failed: `<failure>` with the check's own message; skipped and not applicable: `<skipped>`;
 * a warning or an information passes, its message in `<system-out>`. Everything is escaped:
 * what the module sent is hostile.
 */
import { propertyCasesText, replayCommand, type Results } from './results.ts';
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

/** The most of a counterexample's request a test case carries. */
const REQUEST_SHOWN = 4_000;

/**
 * What a property result adds: its cases and seed, and for a failure the shrunk counterexample
 * (path, shrink steps, exchange, the request) and the line that replays it. Empty for another result.
 */
function propertyText(r: CheckResult, run: Results['run']): string {
  const p = r.property;
  if (!p) return '';
  const lines = [`Property ${p.property}: ${propertyCasesText(p)}.`];
  const c = p.counterexample;
  if (c) {
    const json = JSON.stringify(c.request) ?? String(c.request);
    lines.push(
      `Counterexample (seed ${p.seed}, path ${c.path}, ${c.shrinks > 0 ? `shrunk in ${c.shrinks} step(s)` : 'not shrunk further'}${c.exchange ? `, exchange ${c.exchange}` : ''}): ${json.length > REQUEST_SHOWN ? `${json.slice(0, REQUEST_SHOWN)}… (${json.length} characters)` : json}`,
    );
    if (c.file) lines.push(`Replay with: ${replayCommand(c.file, run)}`);
  }
  return lines.join('\n');
}

function testcase(r: CheckResult, classname: string, run: Results['run']): string {
  const open = `    <testcase name="${xmlAttr(caseName(r))}" classname="${xmlAttr(classname)}"`;
  const property = propertyText(r, run);
  const withProperty = (text: string): string => (property ? `${text}\n${property}` : text);
  const out = property ? `\n      <system-out>${xmlText(property)}</system-out>` : '';
  switch (r.status) {
    case 'failed': {
      // The message says what broke it and on how many cases, with the seed; the body adds the counterexample.
      const summary = r.property ? `${failureSummary(r.message)}\n(${propertyCasesText(r.property)})` : failureSummary(r.message);
      return `${open}>\n      <failure message="${xmlAttr(summary)}" type="${xmlAttr(r.severity)}">${xmlText(withProperty(r.message))}</failure>\n    </testcase>`;
    }
    case 'skipped':
    case 'notApplicable':
      return `${open}>\n      <skipped message="${xmlAttr(skipSummary(r.message))}"/>${out}\n    </testcase>`;
    case 'warning':
      return `${open}>\n      <system-out>${xmlText(withProperty(`WARNING (${r.severity}): ${r.message}`))}</system-out>\n    </testcase>`;
    case 'info':
      return `${open}>\n      <system-out>${xmlText(withProperty(`INFO: ${r.message}`))}</system-out>\n    </testcase>`;
    default:
      return property ? `${open}>${out}\n    </testcase>` : `${open}/>`;
  }
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/**
 * The suite and the contract a run was made with (results.json `run.suite`, what `conformance
 * --version` prints), as the `<properties>` JUnit gives each `<testsuite>` (their first child).
 */
function propertiesXml(results: Results): string {
  const suite = results.run.suite ?? { ...results.suite, contractSha256: 'unknown' };
  const properties: Array<[string, string]> = [
    ['suite.name', suite.name],
    ['suite.version', suite.version],
    ['contract.sha256', suite.contractSha256],
  ];
  return `    <properties>\n${properties.map(([name, value]) => `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`).join('\n')}\n    </properties>\n`;
}

const countsAttr = (c: Counts): string => `tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

/** junit.xml of a run. An aborted run is one suite `run` with one error: the run could not start. */
export function junitXml(results: Results): string {
  // One push per result: a spec with thousands of results costs no more per result than one with a few.
  const suites = new Map<string, CheckResult[]>();
  for (const r of results.results) {
    const spec = r.spec ?? 'run';
    const rs = suites.get(spec);
    if (rs) rs.push(r);
    else suites.set(spec, [r]);
  }
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const blocks: string[] = [];
  const properties = propertiesXml(results);
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
    blocks.push(`  <testsuite name="${xmlAttr(spec)}" ${countsAttr(c)}>\n${properties}${rs.map((r) => testcase(r, spec, results.run)).join('\n')}\n  </testsuite>`);
  }
  if (results.run.outcome === 'aborted') {
    total.tests += 1;
    total.errors += 1;
    blocks.push(
      `  <testsuite name="run" ${countsAttr({ tests: 1, failures: 0, errors: 1, skipped: 0 })}>\n${properties}    <testcase name="the run could not start" classname="run">\n      <error message="${xmlAttr(results.run.aborted ?? 'aborted')}"/>\n    </testcase>\n  </testsuite>`,
    );
  }
  const name = `module-conformance${results.module ? `: ${results.module.code}` : ''}`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlAttr(name)}" ${countsAttr(total)} time="${(results.run.durationMs / 1000).toFixed(3)}" timestamp="${xmlAttr(results.run.startedAt)}">\n${blocks.join('\n')}${blocks.length > 0 ? '\n' : ''}</testsuites>\n`;
}
