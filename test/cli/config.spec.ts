/**
 * A strict configuration: every object of `schemas/suite/config.json` is closed, trigger names
 * are the documented vocabulary, and each problem is one message naming the key, its path in
 * the file and the nearest known name. Every configuration the suite documents or writes stays
 * valid.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loadConfig, type RunConfig } from '../../src/module/config.ts';
import { ConfigError, editDistance, nearestName } from '../../src/module/config-error.ts';
import { configProblems } from '../../src/module/config-problems.ts';
import { TRIGGERS } from '../../src/module/triggers.ts';
import { PACKAGE_ROOT, SCHEMAS_DIR } from '../../src/contract/paths.ts';

const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS_DIR, 'suite', 'config.json'), 'utf8')) as Record<string, any>;
const launch = { command: 'node', args: ['main.js'] };

test.describe('the schema', () => {
  test("trigger names are exactly the keys of TRIGGERS (one source of truth)", () => {
    expect(schema.properties.triggers.propertyNames.enum).toEqual(Object.keys(TRIGGERS));
  });

  test("the README's trigger table lists the same names", () => {
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| trigger | what the module does |'));
    const names = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual(Object.keys(TRIGGERS));
  });

  test('every object is closed, but the maps whose names the vendor chooses', () => {
    const open: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.properties && n.additionalProperties !== false && n.unevaluatedProperties !== false) open.push(at);
      if (n.type === 'object' && !n.properties && n.additionalProperties === undefined && !n.propertyNames) open.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(schema, '#');
    // `if` subschemas test a value and `then` subschemas add to the closed top: neither describes keys.
    expect(open.filter((at) => !/\/(if|then)$/.test(at))).toEqual([]);
    expect(String(schema.$comment)).toMatch(/Closed, unlike the contract schemas/);
  });
});

/** Every key optional or not, all the way down. */
type DeepRequired<T> = T extends Array<infer U> ? Array<DeepRequired<U>> : T extends object ? { [K in keyof T]-?: DeepRequired<T[K]> } : T;

/** A configuration with every key the code reads (RunConfig, all of it): the schema must know each. */
const everyKey: DeepRequired<RunConfig> = {
  mode: 'launch',
  launch: { command: 'node', args: ['a.js'], cwd: '.', env: { A: '{env:A:-}' }, inheritEnv: false, registrationTimeoutMs: 15000, stopGraceMs: 3000, moduleUrl: 'http://127.0.0.1:{port}' },
  remote: { moduleUrl: 'https://staging.example.com', registration: 'registration.json', registrationTimeoutMs: 60000 },
  system: { bind: '0.0.0.0', port: 7100, publicUrl: 'https://sim.example.com' },
  gateway: { bind: '0.0.0.0', port: 0, publicUrl: 'http://gw.example.com' },
  apiKey: 'a-key-of-the-run',
  triggers: { 'delivery.tracking': { method: 'POST', url: '{moduleUrl}/t', headers: { 'X-Token': 'Bearer {env:T:-none}' }, body: { count: '{count}' }, timeoutMs: 5000 } },
  callbacks: { timeoutMs: 5000, maxBodyBytes: 1_000_000 },
  limits: { maxRequestBytes: 4_194_304, maxUploadBytes: 105_906_176, maxFrameBytes: 1_048_576, headersTimeoutMs: 10000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 5000 },
  flowTimeoutMs: 10000,
  runTimeoutMs: 900000,
  readiness: { settleMs: 1000, url: '{moduleUrl}/ready', stdout: 'ready', timeoutMs: 30000 },
  profile: true,
  generation: { seed: 42, runs: 100, timeLimitMs: 40000, lanes: 4 },
  concurrency: { areas: 2 },
  tls: true,
  telephony: { makeCallMethod: 'GET', changeUserStatusMethod: 'POST' },
};

test.describe('every configuration the suite documents or writes stays valid', () => {
  const readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const readmeConfigs = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((t) => t.includes('"mode"'));
  const reference = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, any>;
  const cases: Array<[string, unknown]> = [
    ...fs
      .readdirSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module'))
      .filter((f) => f.endsWith('.json') && f.includes('config'))
      .map((f): [string, unknown] => [`examples/reference-module/${f}`, JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', f), 'utf8'))]),
    ...readmeConfigs.map((t, i): [string, unknown] => [`README example ${i + 1}`, JSON.parse(t)]),
    ['every key the code reads', everyKey],
    // Written at run time by the gauntlet (faults, session, tls specs) and by the flags.
    ['a module that never registers', { mode: 'launch', launch: { command: process.execPath, args: ['-e', 'x'], registrationTimeoutMs: 1500 } }],
    ['a long flow timeout', { ...reference, launch: { ...reference.launch, cwd: PACKAGE_ROOT }, flowTimeoutMs: 600_000 }],
    ['a short per-request timeout (a fault row)', { ...reference, launch: { ...reference.launch, cwd: PACKAGE_ROOT }, callbacks: { timeoutMs: 1000 } }],
    ['the telephony URLs by POST', { ...reference, telephony: { makeCallMethod: 'POST', changeUserStatusMethod: 'POST' } }],
    ['a readiness URL', { ...reference, readiness: { url: '{moduleUrl}/ready' } }],
    ['a readiness output line', { ...reference, readiness: { stdout: 'ready for callbacks' } }],
    ['remote from flags', { mode: 'remote', remote: { moduleUrl: 'http://127.0.0.1:1234', registration: '/tmp/registration.json' } }],
    ['inherit no environment', { mode: 'launch', launch: { command: 'node', inheritEnv: false } }],
  ];
  expect(readmeConfigs.length).toBeGreaterThanOrEqual(2);
  for (const [name, config] of cases) {
    test(name, () => {
      // The variables a documented configuration reads without a default ({env:NAME}) are the vendor's to set.
      const unset = [...JSON.stringify(config).matchAll(/\{env:([A-Za-z_][\w.]*)\}/g)].map((m) => m[1]!).filter((n) => process.env[n] === undefined);
      for (const n of unset) process.env[n] = 'set by the vendor';
      try {
        expect(configProblems(config)).toEqual([]);
      } finally {
        for (const n of unset) delete process.env[n];
      }
    });
  }
});

test.describe('nearest names', () => {
  test('edit distance counts a swap of neighbours as one edit, and ignores case', () => {
    expect(editDistance('trigers', 'triggers')).toBe(1);
    expect(editDistance('--conifg', '--config')).toBe(1);
    expect(editDistance('apikey', 'apiKey')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
  });

  test('suggests a near name, never a far one', () => {
    const root = Object.keys(schema.properties as object);
    expect(nearestName('trigers', root)).toBe('triggers');
    expect(nearestName('lauch', root)).toBe('launch');
    expect(nearestName('apikey', root)).toBe('apiKey');
    expect(nearestName('flowTimeout', root)).toBe('flowTimeoutMs');
    expect(nearestName('Readyness', root)).toBe('readiness');
    expect(nearestName('delivery.trackin', Object.keys(TRIGGERS))).toBe('delivery.tracking');
    expect(nearestName('telephony.callEvents', Object.keys(TRIGGERS))).toBe('telephony.callEvent');
    expect(nearestName('name', root)).toBeUndefined();
    expect(nearestName('version', root)).toBeUndefined();
    expect(nearestName('x', root)).toBeUndefined();
  });
});

test.describe('each problem is one message naming the key, its path and the nearest known name', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['a misspelled top-level key', { mode: 'launch', launch, trigers: { 'delivery.tracking': { url: 'x' } } }, ['unknown key "trigers" at /; did you mean "triggers"?']],
    // The missing `launch` that mode launch requires is the misspelled key: said once.
    ['a misspelled section', { mode: 'launch', lauch: launch }, ['unknown key "lauch" at /; did you mean "launch"?']],
    ['a misspelled key in a section', { mode: 'launch', launch: { comand: 'node' } }, ['unknown key "comand" at /launch; did you mean "command"?']],
    ['a misspelled key in a simulator (a $ref)', { mode: 'launch', launch, system: { bnd: '0.0.0.0' } }, ['unknown key "bnd" at /system; did you mean "bind"?']],
    ['a misspelled readiness key', { mode: 'launch', launch, readiness: { setleMs: 500 } }, ['unknown key "setleMs" at /readiness; did you mean "settleMs"?']],
    ['a misspelled key in a trigger', { mode: 'launch', launch, triggers: { 'payment.notify': { url: 'x', mehtod: 'POST' } } }, ['unknown key "mehtod" at /triggers/payment.notify; did you mean "method"?']],
    ['a misspelled trigger', { mode: 'launch', launch, triggers: { 'delivery.trackin': { url: 'x' } } }, ['unknown trigger "delivery.trackin" at /triggers; did you mean "delivery.tracking"?']],
    ['an unknown trigger', { mode: 'launch', launch, triggers: { 'delivery.status': { url: 'x' } } }, [`unknown trigger "delivery.status" at /triggers; known triggers: ${Object.keys(TRIGGERS).join(', ')}`]],
    ['a misspelled remote key', { mode: 'remote', remote: { moduleUrl: 'https://x.example.com', registation: 'r.json' } }, ['unknown key "registation" at /remote; did you mean "registration"?']],
    ['keys nothing known is near, together', { mode: 'launch', launch, name: 'x', version: '1' }, ['unknown keys "name", "version" at /; known keys: mode, launch, remote, system, gateway, apiKey, triggers, callbacks, limits, flowTimeoutMs, runTimeoutMs, profile, concurrency, generation, tls, readiness, telephony']],
    ['a wrong type', { mode: 'launch', launch, tls: 'yes' }, ['wrong type at /tls: expected boolean, got string']],
    ['a wrong type in a section', { mode: 'launch', launch: { command: 'node', args: 'main.js' } }, ['wrong type at /launch/args: expected array, got string']],
    ['a wrong type in a map', { mode: 'launch', launch: { command: 'node', env: { PORT: 8080 } } }, ['wrong type at /launch/env/PORT: expected string, got integer']],
    // readiness.stdout is a regular expression, compiled as the run compiles it (new RegExp, no flags).
    ['a readiness pattern that is no regular expression', { mode: 'launch', launch, readiness: { stdout: 'listening (port' } }, [
      `invalid regular expression at /readiness/stdout: /listening (port/: Unterminated group (the module's output lines are matched with it, not searched for it as text; to match ( ) [ ] { } . * + ? | ^ $ as written, escape them: "\\\\(" in JSON)`,
    ]],
    ['a readiness pattern with escapes', { mode: 'launch', launch, readiness: { stdout: '^listening \\(port \\d+\\)\\.$' } }, []],
    ['a union type', { mode: 'remote', remote: { moduleUrl: 'https://x.example.com', registration: 5 } }, ['wrong type at /remote/registration: expected object or string, got integer']],
    ['a missing required key', { mode: 'launch' }, ['missing required key "launch" at /']],
    ['a missing mode', { launch }, ['missing required key "mode" at /']],
    ['a trigger without URL', { mode: 'launch', launch, triggers: { 'payment.notify': { method: 'POST' } } }, ['missing required key "url" at /triggers/payment.notify']],
    ['a misspelled value', { mode: 'lanch', launch }, ['invalid value "lanch" at /mode; did you mean "launch"?']],
    ['a value in the wrong case', { mode: 'launch', launch, triggers: { 'payment.notify': { url: 'x', method: 'post' } } }, ['invalid value "post" at /triggers/payment.notify/method; did you mean "POST"?']],
    ['an unknown value', { mode: 'docker' }, ['invalid value "docker" at /mode; expected one of "launch", "remote"']],
    ['a value out of range', { mode: 'launch', launch, flowTimeoutMs: 5 }, ['invalid value 5 at /flowTimeoutMs: must be >= 100']],
    // A URL with two complaints (pattern and format) is said once.
    ['a URL without scheme', { mode: 'remote', remote: { moduleUrl: 'staging.example.com' } }, ['invalid value "staging.example.com" at /remote/moduleUrl: must match pattern "^https?://"']],
    ['several problems, in the order of the file', { mode: 'launch', trigers: {}, launch: { command: 'node', args: 'x' }, tls: 'yes' }, [
      'unknown key "trigers" at /; did you mean "triggers"?',
      'wrong type at /launch/args: expected array, got string',
      'wrong type at /tls: expected boolean, got string',
    ]],
  ];
  for (const [name, config, expected] of cases) {
    test(name, () => {
      expect(configProblems(config)).toEqual(expected);
    });
  }

  const write = (config: unknown): string => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'config-')), 'conformance.config.json');
    fs.writeFileSync(file, JSON.stringify(config));
    return file;
  };
  const thrown = (fn: () => unknown): Error => {
    try {
      fn();
    } catch (e) {
      return e as Error;
    }
    throw new Error('did not throw');
  };

  test('loadConfig names the file: one line, exit-2 material', () => {
    const file = write({ mode: 'launch', launch, trigers: {} });
    const e = thrown(() => loadConfig(file));
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toBe(`config ${file}: unknown key "trigers" at /; did you mean "triggers"?`);
  });

  test('a file inside the working directory is named as written', () => {
    const dir = fs.mkdtempSync(path.join(process.cwd(), '.config-test-'));
    try {
      fs.writeFileSync(path.join(dir, 'conformance.config.json'), JSON.stringify({ mode: 'launch', launch, lauch: {} }));
      const rel = path.relative(process.cwd(), path.join(dir, 'conformance.config.json'));
      expect(thrown(() => loadConfig(rel)).message).toBe(`config ${rel}: unknown key "lauch" at /; did you mean "launch"?`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('many problems: the first five, then how many more, on one line', () => {
    const file = write({ launch, a1: 1, a2: 2, tls: 'x', profile: 'y', flowTimeoutMs: 'z', apiKey: 1, callbacks: 1 });
    const message = thrown(() => loadConfig(file)).message;
    expect(message).not.toContain('\n');
    expect(message).toBe(
      `config ${file}: missing required key "mode" at /; unknown keys "a1", "a2" at /; known keys: mode, launch, remote, system, gateway, apiKey, triggers, callbacks, limits, flowTimeoutMs, runTimeoutMs, profile, concurrency, generation, tls, readiness, telephony; ` +
        'wrong type at /tls: expected boolean, got string; wrong type at /profile: expected boolean, got string; wrong type at /flowTimeoutMs: expected integer, got string; and 2 more problems',
    );
  });

  test('a configuration from flags alone is named as such', () => {
    expect(thrown(() => loadConfig(undefined, { moduleUrl: 'staging.example.com' })).message).toBe(
      'config (command line): invalid value "staging.example.com" at /remote/moduleUrl: must match pattern "^https?://"',
    );
  });

  test('a valid configuration loads', () => {
    expect(loadConfig(write({ mode: 'launch', launch, triggers: { 'delivery.tracking': { url: '{moduleUrl}/t' } } })).triggers).toEqual({ 'delivery.tracking': { url: '{moduleUrl}/t' } });
  });
});
