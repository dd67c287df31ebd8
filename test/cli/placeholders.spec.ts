/**
 * A placeholder typo is a configuration error: every string of the configuration whose
 * placeholders the run fills (launch command, args and env; launch.moduleUrl; readiness.url;
 * each trigger's url, headers and body) is checked when the configuration is loaded. An unknown
 * `{name}` ends the run before anything starts (exit 2), naming where it is, the nearest known
 * placeholder and the complete list; braces that are no placeholder (a JSON body) stay free.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loadConfig } from '../../src/module/config.ts';
import { ConfigError } from '../../src/module/config-error.ts';
import { configProblems } from '../../src/module/config-problems.ts';
import { TRIGGER_PARAMETERS, fill } from '../../src/module/placeholders.ts';
import { TRIGGERS } from '../../src/module/triggers.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { runSuite } from '../gauntlet/run-suite.ts';

const KNOWN = 'known placeholders: {systemUrl}, {gatewayUrl}, {apiKey}, {port} (launch mode), {moduleUrl}, {code} and {clientId} (from the registration; not in launch), {caFile} (with tls), {suiteDir}, {env:NAME}, {env:NAME:-default}';
const launch = { command: 'node', args: ['main.js'] };
const withEnv = (env: Record<string, string>, extra: Record<string, unknown> = {}) => ({ mode: 'launch', launch: { ...launch, env }, ...extra });

test.describe('an unknown placeholder is named with its place, the nearest known one and the complete list', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['a wrong case in launch.env', withEnv({ SYSTEM_URL: '{systemURL}' }), [`unknown placeholder {systemURL} at /launch/env/SYSTEM_URL; did you mean {systemUrl}? ${KNOWN}`]],
    ['a wrong case in a trigger header', { mode: 'launch', launch, triggers: { 'payment.notify': { url: '{moduleUrl}/t', headers: { 'X-Key': '{apikey}' } } } }, [
      `unknown placeholder {apikey} at /triggers/payment.notify/headers/X-Key; did you mean {apiKey}? ${KNOWN}; parameters of payment.notify: {paymentId}, {event}`,
    ]],
    ['a misspelling in the command', { mode: 'launch', launch: { command: '{env:PATH}', args: ['{modulUrl}/x'] } }, [`unknown placeholder {modulUrl} at /launch/args/0; did you mean {moduleUrl}? ${KNOWN}`]],
    ['nothing near', withEnv({ A: 'x-{frobnicate}-y' }), [`unknown placeholder {frobnicate} at /launch/env/A; ${KNOWN}`]],
    ['a trigger parameter misspelled, deep in a body', { mode: 'launch', launch, triggers: { 'delivery.tracking': { url: '{moduleUrl}/t', body: { orders: [{ n: '{cont}' }] } } } }, [
      `unknown placeholder {cont} at /triggers/delivery.tracking/body/orders/0/n; did you mean {count}? ${KNOWN}; parameters of delivery.tracking: {count}, {deliveryIds}`,
    ]],
    ['the parameter of another trigger', { mode: 'launch', launch, triggers: { 'registration.repeat': { url: '{moduleUrl}/t?n={count}' } } }, [
      `unknown placeholder {count} at /triggers/registration.repeat/url; ${KNOWN}; registration.repeat has no parameters`,
    ]],
    ['a string body', { mode: 'launch', launch, triggers: { 'payment.notify': { url: '{moduleUrl}/t', body: '{"id": "{paymentID}"}' } } }, [
      `unknown placeholder {paymentID} at /triggers/payment.notify/body; did you mean {paymentId}? ${KNOWN}; parameters of payment.notify: {paymentId}, {event}`,
    ]],
    ['the readiness URL', { mode: 'launch', launch, readiness: { url: '{moduleUrl}/ready?c={clientID}' } }, [`unknown placeholder {clientID} at /readiness/url; did you mean {clientId}? ${KNOWN}`]],
    ['launch.moduleUrl fills {port} alone', { mode: 'launch', launch: { ...launch, moduleUrl: 'http://{env:HOST}:{prot}' } }, [
      'unknown placeholder {env:HOST} at /launch/moduleUrl; only {port} is filled in launch.moduleUrl',
      'unknown placeholder {prot} at /launch/moduleUrl; did you mean {port}? only {port} is filled in launch.moduleUrl',
    ]],
    // Shell syntax is filled as the suite fills it: `${HOME}` holds the placeholder {HOME}.
    ['a shell variable', { mode: 'launch', launch: { command: 'sh', args: ['-c', 'exec node m.js --home ${HOME}'] } }, [`unknown placeholder {HOME} at /launch/args/1; did you mean {env:HOME}? ${KNOWN}`]],
    ['env in the wrong case', withEnv({ A: '{Env:HOME}' }), [`unknown placeholder {Env:HOME} at /launch/env/A; did you mean {env:HOME}? ${KNOWN}`]],
    ['a variable name with a slash', withEnv({ 'A/B': '{gatewayURL}' }), [`unknown placeholder {gatewayURL} at /launch/env/A~1B; did you mean {gatewayUrl}? ${KNOWN}`]],
    ['several, in the order of the file', withEnv({ A: '{systemURL}', B: '{apikey}' }), [
      `unknown placeholder {systemURL} at /launch/env/A; did you mean {systemUrl}? ${KNOWN}`,
      `unknown placeholder {apikey} at /launch/env/B; did you mean {apiKey}? ${KNOWN}`,
    ]],
  ];
  for (const [name, config, expected] of cases) {
    test(name, () => {
      expect(configProblems(config)).toEqual(expected);
    });
  }
});

test.describe('a known placeholder where it has no value', () => {
  test('{caFile} needs tls', () => {
    expect(configProblems(withEnv({ NODE_EXTRA_CA_CERTS: '{caFile}' }))).toEqual([
      'placeholder {caFile} at /launch/env/NODE_EXTRA_CA_CERTS needs "tls": true (it is the CA certificate of the HTTPS simulators)',
    ]);
    expect(configProblems(withEnv({ NODE_EXTRA_CA_CERTS: '{caFile}' }, { tls: false }))).toHaveLength(1);
    expect(configProblems(withEnv({ NODE_EXTRA_CA_CERTS: '{caFile}' }, { tls: true }))).toEqual([]);
  });

  test('{code} and {clientId} are not known when the module is launched', () => {
    expect(configProblems({ mode: 'launch', launch: { command: 'node', args: ['m.js', '--code={code}'] } })).toEqual([
      'placeholder {code} at /launch/args/1 is not known when the module is launched: {code} and {clientId} come from its registration (use them in triggers and readiness.url)',
    ]);
    expect(configProblems({ mode: 'launch', launch, readiness: { url: '{moduleUrl}/ready/{code}/{clientId}' }, triggers: { 'payment.notify': { url: '{moduleUrl}/{code}?c={clientId}' } } })).toEqual([]);
  });

  test('{port} exists only in launch mode', () => {
    expect(configProblems({ mode: 'remote', remote: { moduleUrl: 'https://x.example.com' }, triggers: { 'payment.notify': { url: 'http://127.0.0.1:{port}/t' } } })).toEqual([
      'placeholder {port} at /triggers/payment.notify/url exists only in launch mode (the port given to the launched module); use {moduleUrl}',
    ]);
    expect(configProblems({ mode: 'launch', launch: { ...launch, env: { PORT: '{port}' }, moduleUrl: 'http://127.0.0.1:{port}' }, triggers: { 'payment.notify': { url: 'http://127.0.0.1:{port}/t' } } })).toEqual([]);
  });
});

test.describe('{env:NAME}: a variable that is not set is an error, unless a default is given', () => {
  const UNSET = 'CONFORMANCE_TEST_UNSET_VARIABLE';
  const EMPTY = 'CONFORMANCE_TEST_EMPTY_VARIABLE';
  const SET = 'CONFORMANCE_TEST_SET_VARIABLE';
  test.beforeEach(() => {
    delete process.env[UNSET];
    process.env[EMPTY] = '';
    process.env[SET] = 'from-the-environment';
  });
  test.afterEach(() => {
    delete process.env[EMPTY];
    delete process.env[SET];
  });

  test('unset, without a default: a configuration error naming the pointer and the variable', () => {
    expect(configProblems(withEnv({ A: 'x', TOKEN: `Bearer {env:${UNSET}}` }))).toEqual([
      `placeholder {env:${UNSET}} at /launch/env/TOKEN: the environment variable ${UNSET} is not set; set it, or give a default: {env:${UNSET}:-default} (empty: {env:${UNSET}:-})`,
    ]);
    expect(configProblems({ mode: 'launch', launch, triggers: { 'payment.notify': { url: '{moduleUrl}/t', headers: { 'X-Key': `{env:${UNSET}}` } } } })).toEqual([
      `placeholder {env:${UNSET}} at /triggers/payment.notify/headers/X-Key: the environment variable ${UNSET} is not set; set it, or give a default: {env:${UNSET}:-default} (empty: {env:${UNSET}:-})`,
    ]);
    expect(() => fill(`{env:${UNSET}}`, {})).toThrow(ConfigError);
    expect(() => fill(`{env:${UNSET}}`, {})).toThrow(`the environment variable ${UNSET} is not set`);
  });

  test('set but empty, without a default: its empty value', () => {
    expect(configProblems(withEnv({ A: `{env:${EMPTY}}` }))).toEqual([]);
    expect(fill(`[{env:${EMPTY}}]`, {})).toBe('[]');
  });

  test('the default is used when the variable is unset or empty; a set value wins', () => {
    for (const template of [`{env:${UNSET}:-fallback}`, `{env:${EMPTY}:-fallback}`, `{env:${SET}:-fallback}`, `{env:${UNSET}:-}`]) {
      expect(configProblems(withEnv({ A: template })), template).toEqual([]);
    }
    expect(fill(`{env:${UNSET}:-fallback}`, {})).toBe('fallback');
    expect(fill(`{env:${EMPTY}:-fallback}`, {})).toBe('fallback');
    expect(fill(`{env:${SET}:-fallback}`, {})).toBe('from-the-environment');
    expect(fill(`a{env:${UNSET}:-}b`, {})).toBe('ab');
    // The default is the text up to the closing brace: spaces, colons, slashes, a URL.
    expect(fill(`{env:${UNSET}:-http://127.0.0.1:8080/a b}`, {})).toBe('http://127.0.0.1:8080/a b');
  });

  test('loadConfig: the run cannot start, one line naming the file, the pointer and the variable', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'placeholder-')), 'conformance.config.json');
    fs.writeFileSync(file, JSON.stringify(withEnv({ FAULTS: `{env:${UNSET}}` })));
    expect(() => loadConfig(file)).toThrow(`config ${file}: placeholder {env:${UNSET}} at /launch/env/FAULTS: the environment variable ${UNSET} is not set`);
    fs.writeFileSync(file, JSON.stringify(withEnv({ FAULTS: `{env:${UNSET}:-}` })));
    expect(loadConfig(file).launch!.env).toEqual({ FAULTS: `{env:${UNSET}:-}` });
  });
});

test.describe('{suiteDir}: the folder of the suite', () => {
  test('is known everywhere the run fills but launch.moduleUrl, and filled by fill', () => {
    expect(configProblems({ mode: 'launch', launch: { command: 'node', args: ['{suiteDir}/examples/reference-module/start.js'] }, triggers: { 'payment.notify': { url: '{moduleUrl}/t', body: { d: '{suiteDir}' } } } })).toEqual([]);
    expect(fill('{suiteDir}/x', {})).toBe(`${PACKAGE_ROOT}/x`);
    expect(configProblems({ mode: 'launch', launch: { ...launch, moduleUrl: 'http://127.0.0.1:{port}/{suiteDir}' } })).toEqual(['unknown placeholder {suiteDir} at /launch/moduleUrl; only {port} is filled in launch.moduleUrl']);
  });
});

test.describe('braces that are no placeholder stay free', () => {
  test('JSON bodies, regular expressions, the registration, names the vendor chooses', () => {
    const config = {
      mode: 'launch',
      launch: { command: 'sh', args: ['-c', 'echo {"a":1} { } {1} {} {a-b} {a b}'], env: { JSON: '{"a":{"b":[1]}}', '{NAME}': 'x' } },
      readiness: { stdout: 'ready\\s\\d{1,3}{port}' },
      triggers: {
        'delivery.tracking': { url: '{moduleUrl}/t', headers: { '{X}': '{"k": "{count}"}' }, body: { '{key}': '{"nested": {"a": 1}}', list: ['{ deliveryIds }', '{count}', 5, null, true] } },
        'payment.notify': { url: '{moduleUrl}/p', body: '{"paymentId": "{paymentId}", "event": "{event}", "x": {"y": 2}}' },
      },
    };
    expect(configProblems(config)).toEqual([]);
    expect(configProblems({ mode: 'remote', remote: { moduleUrl: 'https://x.example.com', registration: { code: '{whatever}', baseUrl: '{x}' } } })).toEqual([]);
  });

  test('a placeholder is what `fill` fills: the same strings are filled, the others left as they are', () => {
    expect(fill('{"a":1} {1} { x } {systemUrl}', { systemUrl: 'S' })).toBe('{"a":1} {1} { x } S');
  });
});

test.describe('one source for the names', () => {
  test("each trigger's parameters are those TRIGGERS and the README name", () => {
    expect(Object.keys(TRIGGER_PARAMETERS)).toEqual(Object.keys(TRIGGERS));
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
    for (const [name, params] of Object.entries(TRIGGER_PARAMETERS)) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${name}\` |`))!;
      const cell = row.split('|').at(-2)!.replace(/\([^)]*\)/g, '');
      expect([...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]), name).toEqual(params);
      for (const p of params) expect(TRIGGERS[name as keyof typeof TRIGGERS], name).toContain(p);
    }
  });

  test("the README's paragraph on placeholders names every one", () => {
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const paragraph = readme.slice(readme.indexOf('Placeholders in strings:'), readme.indexOf('### HTTPS simulators'));
    for (const name of ['systemUrl', 'gatewayUrl', 'apiKey', 'port', 'moduleUrl', 'code', 'clientId', 'caFile', 'suiteDir', 'env:NAME', 'env:NAME:-default']) expect(paragraph).toContain(`{${name}}`);
  });
});

test.describe('when the configuration is loaded', () => {
  const write = (config: unknown): string => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'placeholder-')), 'conformance.config.json');
    fs.writeFileSync(file, JSON.stringify(config));
    return file;
  };

  test('loadConfig throws a ConfigError naming the file', () => {
    const file = write(withEnv({ SYSTEM_URL: '{systemURL}' }));
    let error: unknown;
    try {
      loadConfig(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`config ${file}: unknown placeholder {systemURL} at /launch/env/SYSTEM_URL; did you mean {systemUrl}? ${KNOWN}`);
  });

  test('conformance run: exit 2, one line, nothing launched', async () => {
    const reference = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as { launch: Record<string, unknown> & { env: Record<string, string> } };
    const config = write({ ...reference, launch: { ...reference.launch, cwd: PACKAGE_ROOT, env: { ...reference.launch.env, API_KEY: '{apikey}' } } });
    const run = await runSuite(['--config', config]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`conformance run: config ${config}: unknown placeholder {apikey} at /launch/env/API_KEY; did you mean {apiKey}? ${KNOWN}\n`);
    expect(run.stdout).toBe('');
    expect(fs.existsSync(path.join(run.out, 'results.json'))).toBe(false);
  });
});
