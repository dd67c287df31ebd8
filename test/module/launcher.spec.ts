/**
 * The launched module's environment: a clean base plus the configuration's env; the runner's own
 * variables never. Its output: bounded, the end kept; and what it said when it died.
 */
import { test, expect } from '@playwright/test';
import { LaunchedModule, moduleEnv } from '../../src/module/launcher.ts';
import { OutputTail, lastWords } from '../../src/module/output-tail.ts';

const SUITE_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/vendor',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TMPDIR: '/tmp',
  PLAYWRIGHT_TEST: '1',
  TEST_WORKER_INDEX: '0',
  TEST_PARALLEL_INDEX: '0',
  FORCE_COLOR: '1',
  CONFORMANCE_OUT: '/tmp/out',
  NODE_OPTIONS: '--import tsx',
  CI_SECRET_OF_THE_SUITE: 'do-not-pass',
  MY_TOOL_HOME: '/opt/tool',
};

test('by default the module gets the path, home, locale and temporary folder, plus its env', () => {
  const env = moduleEnv({ env: { API_KEY: '{apiKey}', FAULTS: 'x' } }, { apiKey: 'k-123' }, SUITE_ENV);
  expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/vendor', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TMPDIR: '/tmp', API_KEY: 'k-123', FAULTS: 'x' });
});

test('inheritEnv: true passes the suite environment except the runner internals', () => {
  const env = moduleEnv({ inheritEnv: true, env: { A: '1' } }, {}, SUITE_ENV);
  expect(env.CI_SECRET_OF_THE_SUITE).toBe('do-not-pass');
  expect(env.MY_TOOL_HOME).toBe('/opt/tool');
  expect(env.A).toBe('1');
  for (const k of ['PLAYWRIGHT_TEST', 'TEST_WORKER_INDEX', 'TEST_PARALLEL_INDEX', 'FORCE_COLOR', 'CONFORMANCE_OUT', 'NODE_OPTIONS']) expect(env).not.toHaveProperty(k);
});

test('a launched process sees exactly that environment (this test runs inside Playwright, whose variables it must not see)', async () => {
  expect(process.env.TEST_WORKER_INDEX).toBeDefined();
  const m = new LaunchedModule({ command: process.execPath, args: ['-e', 'console.log(JSON.stringify(Object.keys(process.env).sort()))'], env: { GIVEN: '{x}' } }, { x: 'y' });
  await m.whenExited();
  await m.drained();
  const keys = JSON.parse(m.output().join('')) as string[];
  expect(keys).toContain('GIVEN');
  expect(keys).toContain('PATH');
  expect(keys.filter((k) => /^(PLAYWRIGHT_|TEST_|FORCE_COLOR|CONFORMANCE_|NODE_OPTIONS)/.test(k))).toEqual([]);
});

// The module's output: bounded, the end kept, how much was dropped said.

test('the output tail keeps the last lines within its bounds and counts what it dropped', () => {
  const tail = new OutputTail({ maxLines: 3, maxChars: 1_000 });
  for (let i = 1; i <= 10; i++) tail.write(Buffer.from(`line ${i}\n`));
  expect(tail.lines()).toEqual(['line 8', 'line 9', 'line 10']);
  // `line 1\n` .. `line 7\n`: seven lines of 7 bytes.
  expect(tail.dropped()).toEqual({ lines: 7, bytes: 49 });
  const byChars = new OutputTail({ maxLines: 100, maxChars: 20 });
  for (let i = 0; i < 10; i++) byChars.write(`${String(i).repeat(9)}\n`);
  expect(byChars.lines()).toEqual(['888888888', '999999999']);
  expect(byChars.dropped().lines).toBe(8);
});

test('the output tail joins lines split across chunks and characters split across bytes, and caps an endless line', () => {
  const tail = new OutputTail({ maxLines: 10, maxChars: 10_000, maxLineChars: 100 });
  const euro = Buffer.from('price: 5 €\n');
  tail.write(Buffer.from('Error: Cannot find'));
  tail.write(Buffer.from(" module 'x'\nprice"));
  tail.write(euro.subarray(5, euro.length - 3));
  tail.write(euro.subarray(euro.length - 3));
  tail.write('x'.repeat(10_000));
  tail.write('x'.repeat(10_000));
  tail.write('\nlast words');
  const lines = tail.lines();
  expect(lines.slice(0, 2)).toEqual(["Error: Cannot find module 'x'", 'price: 5 €']);
  expect(lines[2]).toBe(`${'x'.repeat(100)}… (19900 more characters)`);
  // A line not ended yet is kept too.
  expect(lines[3]).toBe('last words');
  expect(tail.dropped()).toEqual({ lines: 0, bytes: 19_900 });
});

test('the output tail stays bounded under a flood', () => {
  const tail = new OutputTail({ maxLines: 1_000, maxChars: 50_000 });
  const chunk = Buffer.from('flood flood flood flood flood flood\n'.repeat(10_000));
  for (let i = 0; i < 100; i++) tail.write(chunk);
  expect(tail.lines()).toHaveLength(1_000);
  expect(tail.dropped()).toEqual({ lines: 999_000, bytes: 999_000 * 36 });
  const snap = tail.snapshot({ maxLines: 10, maxChars: 1_000 }, (l) => l.toUpperCase());
  expect(snap.lines).toEqual(Array(10).fill('FLOOD FLOOD FLOOD FLOOD FLOOD FLOOD'));
  expect(snap.droppedLines).toBe(999_990);
  expect(snap.totalLines).toBe(1_000_000);
});

test('a launched module: stdout and stderr are kept apart, and in order together', async () => {
  const m = new LaunchedModule({ command: process.execPath, args: ['-e', "console.log('one'); console.error('two'); setTimeout(() => console.log('three'), 50)"] }, {});
  await m.whenExited();
  await m.drained();
  expect(m.stdout().lines()).toEqual(['one', 'three']);
  expect(m.stderr().lines()).toEqual(['two']);
  expect(m.output()).toEqual(['one', 'two', 'three']);
});

test("what a module said when it died: its error line, not Node's trailer or the stack", () => {
  const crash = [
    'node:internal/modules/cjs/loader:1228',
    '  throw err;',
    '  ^',
    '',
    "Error: Cannot find module 'nope-missing-module'",
    'Require stack:',
    '- /work/[eval]',
    '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
    '    at node:internal/main/eval_string:51:3 {',
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: [ '/work/[eval]' ]",
    '}',
    '',
    'Node.js v20.20.2',
  ];
  expect(lastWords(crash)).toBe("Error: Cannot find module 'nope-missing-module'");
  expect(lastWords(['Traceback (most recent call last):', '  File "m.py", line 1, in <module>', "ModuleNotFoundError: No module named 'flask'"])).toBe("ModuleNotFoundError: No module named 'flask'");
  expect(lastWords(['[m] fatal: Error [ERR_MODULE_NOT_FOUND]: Cannot find package \'x\' imported from /m.js', '', 'Node.js v22.1.0'])).toBe("[m] fatal: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from /m.js");
  // No error line: the last meaningful lines, on one line.
  expect(lastWords(['starting', 'waiting for the database', '', 'Node.js v20.1.0'])).toBe('starting | waiting for the database');
  expect(lastWords(['', 'Node.js v20.1.0'])).toBeUndefined();
  // One line, bounded, control characters gone.
  const hostile = lastWords([`Error: \u001b[31mred\u001b[0m\r\nfake line ${'y'.repeat(1_000)}`])!;
  expect(hostile).toMatch(/^Error: red fake line y+…$/);
  expect(hostile.length).toBeLessThanOrEqual(300);
});
