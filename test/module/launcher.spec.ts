/** The launched module's environment: a clean base plus the configuration's env; the runner's own variables never. */
import { test, expect } from '@playwright/test';
import { LaunchedModule, moduleEnv } from '../../src/module/launcher.ts';

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
  const keys = JSON.parse(m.output().join('')) as string[];
  expect(keys).toContain('GIVEN');
  expect(keys).toContain('PATH');
  expect(keys.filter((k) => /^(PLAYWRIGHT_|TEST_|FORCE_COLOR|CONFORMANCE_|NODE_OPTIONS)/.test(k))).toEqual([]);
});
