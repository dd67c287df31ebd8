/**
 * The console of a conformance run: one line per check result, each status with its own mark,
 * in colour on a terminal and in words (no colour) with NO_COLOR or without a terminal; a spec
 * that broke in one line, its full error in run.log.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import ConsoleReporter, { consoleStyle, mark, oneLine, progressLine, readProgress, resultLine, timeLeft, type ConsoleStyle } from '../../src/report/console-reporter.ts';
import { RECORD_ATTACHMENT, type TestRecord } from '../../src/run/conformance.ts';
import { PROGRESS_PREFIX, type CheckResult, type PropertyProgress, type PropertyStats, type Status } from '../../src/checks/result.ts';
import type { Check } from '../../src/checks/check.ts';
import { message } from '../../src/checks/apply.ts';
import { curlLine, curlNote } from '../../src/evidence/curl.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import { DEFAULT_CONFIG_FILE } from '../../src/module/config.ts';

const STATUSES: Status[] = ['passed', 'failed', 'warning', 'skipped', 'notApplicable', 'info'];
const ESC = '\u001b';

function result(status: Status, message = 'Checked: x.\nRequirements: REG-CLIENTID-PRESENT (MUST)'): CheckResult {
  return { check: 'ensureClientIdPresent', title: 'x', requirements: ['REG-CLIENTID-PRESENT'], profile: false, severity: 'MUST', status, message, evidence: [] };
}

test('NO_COLOR (set, non-empty) or a stdout that is not a terminal: words; else colour', () => {
  expect(consoleStyle({}, true)).toBe('color');
  expect(consoleStyle({ NO_COLOR: '1' }, true)).toBe('words');
  expect(consoleStyle({}, false)).toBe('words');
  expect(consoleStyle({ NO_COLOR: '' }, true)).toBe('color');
});

test('each status has its own mark: a coloured sign, or a word without colour', () => {
  expect(STATUSES.map((s) => mark(s, 'words').trim())).toEqual(['PASS', 'FAIL', 'WARN', 'SKIP', 'N/A', 'INFO']);
  expect(STATUSES.map((s) => mark(s, 'color').replace(/\u001b\[\d+m/g, ''))).toEqual(['✓', '✗', '!', '–', '·', 'i']);
  expect(mark('passed', 'color')).toBe(`${ESC}[32m✓${ESC}[39m`);
  expect(mark('failed', 'color')).toBe(`${ESC}[31m✗${ESC}[39m`);
  for (const s of STATUSES) expect(mark(s, 'words')).not.toContain(ESC);
  expect(new Set(STATUSES.map((s) => mark(s, 'color'))).size).toBe(6);
});

test('one line per result: mark, check, ids; what was received and expected, or why it was skipped', () => {
  const failed = result('failed', 'Checked: x.\nReceived: HTTP 500\nExpected: HTTP 200\nRequirements: REG-CLIENTID-PRESENT (MUST)\nReproduce with: curl x');
  expect(resultLine(failed, 'words')).toBe('  FAIL ensureClientIdPresent [REG-CLIENTID-PRESENT]  Received: HTTP 500; Expected: HTTP 200');
  expect(resultLine(result('passed'), 'words')).toBe('  PASS ensureClientIdPresent [REG-CLIENTID-PRESENT]');
  expect(resultLine(result('skipped', 'Checked: x.\nSkipped: needs trigger delivery.tracking\nRequirements: R'), 'words')).toBe(
    '  SKIP ensureClientIdPresent [REG-CLIENTID-PRESENT]  Skipped: needs trigger delivery.tracking',
  );
  expect(resultLine({ ...result('notApplicable'), requirements: [] }, 'words')).toBe('  N/A  ensureClientIdPresent [suite rule]');
  expect(resultLine(failed, 'color')).toMatch(/^ {2}\u001b\[31m✗\u001b\[39m ensureClientIdPresent/);
});

test('what the module sent cannot move the cursor, colour the terminal or break the line', () => {
  const hostile = result('failed', `Checked: x.\nReceived: ${ESC}[2J${ESC}[31mred\r\nnext\u202eline\u0007 ${'y'.repeat(500)}\nExpected: z`);
  const line = resultLine(hostile, 'words');
  expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  expect(line).toContain('Received: red; next line');
  expect(line.length).toBeLessThan(260);
  expect(oneLine('a'.repeat(10), 5)).toBe('aaaa…');
});

// Playwright's objects, as far as the reporter reads them.
const testCase = (title: string): TestCase => ({ title, titlePath: () => ['', 'conformance', 'registration.spec.ts', 'registration', title] }) as unknown as TestCase;
const testResult = (status: TestResult['status'], record?: TestRecord, error?: Error): TestResult =>
  ({
    status,
    attachments: record ? [{ name: RECORD_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(record)) }] : [],
    ...(error ? { error: { message: error.message, stack: error.stack } } : {}),
  }) as unknown as TestResult;

function reporter(style: ConsoleStyle, aborted?: string): { r: ConsoleReporter; out: string[]; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
  const out: string[] = [];
  const r = new ConsoleReporter({ style, write: (t) => out.push(t), logFile: path.join(dir, 'run.log'), sessionRecords: path.join(dir, 'session-records'), aborted: () => aborted });
  r.onBegin({} as FullConfig, { allTests: () => [1, 2] } as unknown as Suite);
  return { r, out, dir };
}

test('the reporter prints each test and its results; words without any escape code', () => {
  const { r, out, dir } = reporter('words');
  r.onTestEnd(testCase('the registration call'), testResult('passed', { results: STATUSES.map((s) => result(s)), exchanges: [] }));
  r.onTestEnd(testCase('nothing checked'), testResult('passed', { results: [], exchanges: [] }));
  fs.mkdirSync(path.join(dir, 'session-records'));
  fs.writeFileSync(path.join(dir, 'session-records', 's1.json'), JSON.stringify({ results: [{ ...result('info'), spec: 'session: calls the module made on its own' }], exchanges: [] }));
  r.onEnd({ status: 'passed' } as FullResult);
  const text = out.join('');
  expect(text).not.toContain(ESC);
  expect(text.split('\n')).toEqual([
    'Running 2 conformance tests',
    'registration › the registration call',
    '  PASS ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '  FAIL ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '  WARN ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '  SKIP ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '  N/A  ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '  INFO ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    'registration › nothing checked',
    '  (no checks recorded)',
    'session: calls the module made on its own',
    '  INFO ensureClientIdPresent [REG-CLIENTID-PRESENT]',
    '',
  ]);
  // No tally of its own: `conformance run` prints results.json's, the run-level rules counted with the others.
  expect(text).not.toMatch(/passed, \d+ failed/);
  expect(r.printsToStdio()).toBe(true);
});

test('in colour, the marks are coloured signs', () => {
  const { r, out } = reporter('color');
  r.onTestEnd(testCase('the registration call'), testResult('passed', { results: [result('passed'), result('failed')], exchanges: [] }));
  expect(out.join('')).toContain(`  ${ESC}[32m✓${ESC}[39m ensureClientIdPresent`);
  expect(out.join('')).toContain(`  ${ESC}[31m✗${ESC}[39m ensureClientIdPresent`);
});

test('a spec that broke: its error in one line on the console, the full stack in run.log', () => {
  const { r, out, dir } = reporter('words');
  const error = new Error('Cannot read properties of undefined (reading "x")\n  more detail');
  r.onTestEnd(testCase('the registration call'), testResult('failed', undefined, error));
  r.onEnd({ status: 'failed' } as FullResult);
  const lines = out.join('').split('\n');
  expect(lines[1]).toBe('registration › the registration call');
  expect(lines[2]).toBe(`  FAIL the spec broke: Cannot read properties of undefined (reading "x") (full error in ${path.join(dir, 'run.log')})`);
  expect(out.join('')).not.toContain('more detail');
  expect(out.join('')).not.toContain(' at ');
  const log = fs.readFileSync(path.join(dir, 'run.log'), 'utf8');
  expect(log).toContain('more detail');
  expect(log).toContain(error.stack!.split('\n').at(-1)!.trim());
});

test('a run that could not start is said once, not once per test', () => {
  const { r, out } = reporter('words', 'module never registered within 1500 ms');
  for (const t of ['a', 'b', 'c']) r.onTestEnd(testCase(t), testResult('failed', undefined, new Error('module never registered within 1500 ms')));
  expect(out.join('').split('\n').filter((l) => l.includes('could not start'))).toEqual(['FAIL the run could not start: module never registered within 1500 ms']);
});

test('progress by area: the first test of each area names it, its place in the run and the time left at the pace so far', () => {
  expect(timeLeft(0, 0, 5)).toBe('');
  expect(timeLeft(20_000, 2, 6)).toBe(', about 40 s left');
  expect(timeLeft(90_000, 1, 2)).toBe(', about 1 min 30 s left');
  expect(timeLeft(5_000, 2, 2)).toBe('');
  const { r, out } = reporter('words');
  const begun = out.length;
  const tagged = (title: string, area: string): TestCase => ({ ...testCase(title), tags: [`@${area}`] }) as unknown as TestCase;
  r.onTestEnd(tagged('a', 'registration'), testResult('passed', { results: [], exchanges: [] }));
  // A second test of the same area says nothing new; the next area is announced with the count.
  r.onTestEnd(tagged('b', 'delivery'), testResult('passed', { results: [], exchanges: [] }));
  const said = out.slice(begun).join('').split('\n').filter((l) => l.startsWith('> '));
  expect(said[0]).toBe('> registration, test 1 of 2');
  expect(said[1]).toMatch(/^> delivery, test 2 of 2, about \d+ s left$/);
  expect(said).toHaveLength(2);
});

test('a run that could not start prints no line per skipped test (conformance run says why, once)', () => {
  const { r, out } = reporter('words', 'module never registered: it exited (code 3) before registering');
  const begun = out.length;
  for (const t of ['a', 'b', 'c']) r.onTestEnd(testCase(t), testResult('skipped'));
  expect(out.slice(begun).join('')).toBe('');
  // A test skipped in a run that started is still named.
  const started = reporter('words');
  started.r.onTestEnd(testCase('d'), testResult('skipped'));
  expect(started.out.join('')).toContain('SKIP skipped by the spec');
});

test.describe('a failure line ends with what was received and expected; the reproduction note is said once', () => {
  const check = { name: 'ensureActivityAcknowledged', checks: 'the module acknowledges activity' } as unknown as Check<never>;
  const app = { requirements: ['WIRE-REG-ACTIVITY-REPLY-SUCCESS'], severity: 'MUST' as const };
  const curl = curlLine(
    { request: { method: 'POST', url: 'http://127.0.0.1:40983/activity', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'clientId=<redacted:clientId>&activity=%7B%22active%22%3Atrue%7D' } } as unknown as Pick<Exchange, 'request'>,
    { moduleUrl: 'http://127.0.0.1:40983' },
  );
  const refused = (received: string, expected = 'HTTP 200 with JSON {"success": true}'): CheckResult => ({
    ...result('failed'),
    check: check.name,
    requirements: app.requirements,
    message: message(check, { outcome: 'fail', received, expected }, app, curl),
  });
  const note = curlNote(curl)!;

  test('the line holds no note, and ends with what was expected', () => {
    const r = refused('HTTP 403 (application/json; charset=utf-8) {"success":false,"errorMsg":"clientId is not recognised"}');
    expect(r.message).toContain(note);
    expect(resultLine(r, 'words')).toBe(
      '  FAIL ensureActivityAcknowledged [WIRE-REG-ACTIVITY-REPLY-SUCCESS]  Received: HTTP 403 (application/json; charset=utf-8) {"success":false,"errorMsg":"clientId is not recognised"}; Expected: HTTP 200 with JSON {"success": true}',
    );
  });

  test('a long received value is cut, what was expected is whole', () => {
    const received = '/integrations/delivery/deliveryDataFieldList/4/autocompleteUrl = "localhost:40983/delivery/autocomplete/pickup-points"';
    const expected = '/integrations/delivery/deliveryDataFieldList/4/autocompleteUrl: must match format "uri"';
    expect(resultLine(refused(received, expected), 'words')).toBe(`  FAIL ensureActivityAcknowledged [WIRE-REG-ACTIVITY-REPLY-SUCCESS]  Received: ${received}; Expected: ${expected}`);
    const line = resultLine(refused(`${'x'.repeat(1000)}`, expected), 'words');
    expect(line.endsWith(`…; Expected: ${expected}`)).toBe(true);
    expect(line.length).toBeLessThan(400);
  });

  test('the reporter says the note once, not on every line', () => {
    const { r, out, dir } = reporter('words');
    r.onTestEnd(testCase('a'), testResult('passed', { results: [refused('HTTP 403'), refused('HTTP 500')], exchanges: [] }));
    r.onTestEnd(testCase('b'), testResult('passed', { results: [refused('HTTP 404')], exchanges: [] }));
    const lines = out.join('').split('\n');
    expect(lines.filter((l) => l.includes('MODULE_URL'))).toEqual([`  note: the curl line of each failure is in ${path.join(dir, 'conformance.html')}; s${note.slice(1)}`]);
    expect(lines.filter((l) => l.startsWith('  FAIL')).every((l) => l.endsWith('Expected: HTTP 200 with JSON {"success": true}'))).toBe(true);
    expect(lines.indexOf(lines.find((l) => l.startsWith('  note:'))!)).toBe(4);
  });
});

test.describe('generated requests: the seed, progress while a property runs, and a property result on one line', () => {
  const generation = { seed: 11, runs: 100, timeLimitMs: 40_000, lanes: 4 };
  const withConfig = (style: ConsoleStyle, config?: { file?: string; generation: typeof generation }): { r: ConsoleReporter; out: string[]; dir: string } => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
    const out: string[] = [];
    const r = new ConsoleReporter({ style, write: (t) => out.push(t), logFile: path.join(dir, 'run.log'), sessionRecords: path.join(dir, 'session-records'), aborted: () => undefined, config: () => config });
    r.onBegin({} as FullConfig, { allTests: () => [1] } as unknown as Suite);
    return { r, out, dir };
  };
  const progress = (done: number, failing = 0, property = 'delivery.calculate: valid requests'): string => `${PROGRESS_PREFIX}${JSON.stringify({ property, done, total: 100, failing } satisfies PropertyProgress)}\n`;
  const stats = (over: Partial<PropertyStats> = {}): PropertyStats => ({ property: 'delivery.calculate: valid requests', seed: 11, runs: 100, cases: 100, passed: 100, failed: 0, notApplicable: 0, timeLimitMs: 40_000, budgetEnded: false, ...over });

  test("the run's seed is said once, at the start; none without the run's configuration", () => {
    const { out } = withConfig('words', { generation });
    expect(out.join('').split('\n').slice(0, 2)).toEqual(['Running 1 conformance test', 'seed 11 (generated requests: 100 per property; conformance run --seed 11 sends the same ones again)']);
    expect(withConfig('words').out.join('')).toBe('Running 1 conformance test\n');
  });

  test('without a terminal: a progress line at each quarter and the last, never in run.log; other output still logged', () => {
    const { r, out, dir } = withConfig('words', { generation });
    const t = testCase('calculate');
    for (let done = 1; done <= 100; done++) r.onStdOut(progress(done, done >= 60 ? 1 : 0), t);
    r.onStdOut(`hello from the spec\n${progress(100, 0, 'delivery.calculate: wrong input')}`, t);
    const lines = out.join('').split('\n').filter((l) => l.startsWith('  …'));
    expect(lines).toEqual([
      '  … delivery.calculate: valid requests: 25/100 cases, 0 failing',
      '  … delivery.calculate: valid requests: 50/100 cases, 0 failing',
      '  … delivery.calculate: valid requests: 75/100 cases, 1 failing',
      '  … delivery.calculate: valid requests: 100/100 cases, 1 failing',
      '  … delivery.calculate: wrong input: 100/100 cases, 0 failing',
    ]);
    const log = fs.readFileSync(path.join(dir, 'run.log'), 'utf8');
    expect(log).not.toContain(PROGRESS_PREFIX);
    expect(log).toContain('hello from the spec');
  });

  test('on a terminal: one line rewritten in place, cleared before the next line', () => {
    const { r, out } = withConfig('color', { generation });
    const t = testCase('calculate');
    r.onStdOut(progress(1), t);
    r.onStdOut(progress(40), t);
    r.onTestEnd(t, testResult('passed', { results: [result('passed')], exchanges: [] }));
    const text = out.join('');
    expect(text).toContain(`\r${ESC}[2K  … delivery.calculate: valid requests: 1/100 cases, 0 failing\r${ESC}[2K  … delivery.calculate: valid requests: 40/100 cases, 0 failing\r${ESC}[2Kregistration › calculate\n`);
    // No progress line ends a line of its own.
    expect(text).not.toMatch(/failing\n/);
  });

  test('a line that only looks like progress is output; a hostile property name cannot break the line', () => {
    expect(readProgress(`${PROGRESS_PREFIX}{not json`)).toBeUndefined();
    expect(readProgress(`${PROGRESS_PREFIX}{"property":"p"}`)).toBeUndefined();
    expect(readProgress('plain output')).toBeUndefined();
    expect(progressLine({ property: `p${ESC}[2J\nq`, done: 1, total: 2, failing: 0 })).toBe('  … p q: 1/2 cases, 0 failing');
  });

  test('a property result: its cases; a failure the cases that broke it, the seed, the replay command, then what was received', () => {
    const held = { ...result('passed'), property: stats() };
    expect(resultLine(held, 'words')).toBe('  PASS ensureClientIdPresent [REG-CLIENTID-PRESENT] (100 cases)');
    expect(resultLine({ ...held, property: stats({ cases: 37, budgetEnded: true }) }, 'words')).toBe('  PASS ensureClientIdPresent [REG-CLIENTID-PRESENT] (37 of 100 cases)');
    const file = 'failures/ensureClientIdPresent.delivery.calculate-valid-requests.json';
    const failed: CheckResult = {
      ...result('failed', `Checked: x.\nReceived: 81 of 100 generated case(s) broke it; the first, shrunk in 34 step(s) (seed 11, path ${'0:1:'.repeat(40)}1): tariff "standard" has cost "16.45"\nExpected: a number\nRequirements: REG-CLIENTID-PRESENT (MUST)`),
      property: stats({ passed: 19, failed: 81, counterexample: { path: '0:1', request: {}, shrinks: 34, file } }),
    };
    // The saved file under the output folder (relative to the working folder when that is shorter).
    expect(resultLine(failed, 'words', { outDir: '/o' })).toBe(
      `  FAIL ensureClientIdPresent [REG-CLIENTID-PRESENT] (81 of 100 cases failed, seed 11; conformance replay /o/${file})  Received: tariff "standard" has cost "16.45"; Expected: a number`,
    );
    expect(resultLine(failed, 'words', { outDir: process.cwd() })).toContain(`; conformance replay ${file})`);
    expect(resultLine(failed, 'words', { outDir: '/o', config: '/c/my.json' })).toContain(`; conformance replay /o/${file} --config /c/my.json)`);
    expect(resultLine(failed, 'words')).not.toContain('\n');
    // Relative to the folder `conformance run` was typed in (CONFORMANCE_CWD), not to the suite's own
    // folder Playwright runs in (an installed suite is in node_modules): pasted there, it works.
    const saved = process.env.CONFORMANCE_CWD;
    process.env.CONFORMANCE_CWD = '/vendor/project';
    try {
      expect(resultLine(failed, 'words', { outDir: '/vendor/project/reports', config: '/vendor/project/remote.config.json' })).toContain(`; conformance replay reports/${file} --config remote.config.json)`);
    } finally {
      if (saved === undefined) delete process.env.CONFORMANCE_CWD;
      else process.env.CONFORMANCE_CWD = saved;
    }
  });

  test('the reporter names the configuration in the replay command only when it is not the default one', () => {
    const failed: CheckResult = { ...result('failed'), property: stats({ failed: 1, counterexample: { path: '0', request: {}, shrinks: 0, file: 'failures/f.json' } }) };
    const other = withConfig('words', { file: '/elsewhere/conformance.config.json', generation });
    other.r.onTestEnd(testCase('calculate'), testResult('passed', { results: [failed], exchanges: [] }));
    expect(other.out.join('')).toContain(`failures/f.json --config /elsewhere/conformance.config.json)`);
    const plain = withConfig('words', { file: DEFAULT_CONFIG_FILE, generation });
    plain.r.onTestEnd(testCase('calculate'), testResult('passed', { results: [failed], exchanges: [] }));
    expect(plain.out.join('')).toMatch(/failures\/f\.json\)/);
  });
});
