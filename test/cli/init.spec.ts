/**
 * `conformance init`: asks nothing and writes a commented configuration for the given kinds, in
 * launch or remote mode, with every trigger of those kinds explained. The file is JSON with `//`
 * comments, which the loader reads as it is (src/module/jsonc.ts); what only the vendor knows is a
 * blank that the loader names until it is filled, and once filled the file loads. An existing
 * file is never overwritten.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { INIT_USAGE, KIND_TRIGGERS, initConfigText, parseInitArgs } from '../../src/cli/init.ts';
import { stripJsonComments } from '../../src/module/jsonc.ts';
import { loadConfig } from '../../src/module/config.ts';
import { configProblems } from '../../src/module/config-problems.ts';
import { blanksOf } from '../../src/module/config-blanks.ts';
import { ConfigError } from '../../src/module/config-error.ts';
import { TRIGGERS, type TriggerName } from '../../src/module/triggers.ts';
import { TRIGGER_PARAMETERS } from '../../src/module/placeholders.ts';
import { MODULE_KINDS, type ModuleKind } from '../../src/contract/kinds.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

test.describe.configure({ mode: 'parallel' });

const conformance = (cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-init-'));

/** The vendor's values in place of the blanks, by where each is: a hook's URL, the module's address, the command, its folder. */
function filled(text: string): string {
  const data = JSON.parse(stripJsonComments(text)) as unknown;
  let out = text;
  for (const b of blanksOf(data)) {
    const value = /\/url$/.test(b.pointer) ? '{moduleUrl}/hooks/x' : b.pointer === '/remote/moduleUrl' ? 'http://127.0.0.1:8080' : b.pointer === '/launch/command' ? 'node' : b.pointer === '/launch/cwd' ? '.' : 'server.js';
    out = out.replace(JSON.stringify(`<FILL IN: ${b.what}>`), JSON.stringify(value));
  }
  return out;
}

/** Every member written commented out (`// "key": value,`), uncommented. */
const uncommented = (text: string): string => text.replace(/^(\s*)\/\/ ("[\w.]+": .*,)$/gm, '$1$2');

test.describe('comments in the configuration file (JSONC)', () => {
  test('line and block comments are blanked out, strings (URLs, escaped quotes) kept, positions unchanged', () => {
    const text = '{\n  // the module\n  "url": "http://127.0.0.1:9/a//b", /* two\n lines */ "q": "say \\"//hi\\" /* no */"\n}\n';
    const stripped = stripJsonComments(text);
    expect(stripped.length).toBe(text.length);
    expect(stripped.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(stripped)).toEqual({ url: 'http://127.0.0.1:9/a//b', q: 'say "//hi" /* no */' });
    // A comment not closed is left to JSON.parse, which says where.
    expect(() => JSON.parse(stripJsonComments('{"a": 1 /* open'))).toThrow();
  });

  test('the loader reads a file with comments; a file that is not JSON still says so', () => {
    const dir = tmp();
    const file = path.join(dir, 'c.json');
    fs.writeFileSync(file, '// mine\n{ "mode": "remote", /* where */ "remote": { "moduleUrl": "http://127.0.0.1:9/x//y" } }\n');
    expect(loadConfig(file).remote?.moduleUrl).toBe('http://127.0.0.1:9/x//y');
    fs.writeFileSync(file, '{ "mode": "remote", }');
    expect(() => loadConfig(file)).toThrow(/is not JSON/);
  });
});

test.describe('the configuration init writes', () => {
  const cases: Array<{ kinds: ModuleKind[]; mode: 'launch' | 'remote' }> = [
    { kinds: [...MODULE_KINDS], mode: 'launch' },
    { kinds: [...MODULE_KINDS], mode: 'remote' },
    { kinds: ['delivery', 'payment'], mode: 'launch' },
    { kinds: ['mgBot'], mode: 'launch' },
    { kinds: ['mgBot'], mode: 'remote' },
  ];
  for (const { kinds, mode } of cases) {
    test(`${kinds.join(',')} ${mode}: unfilled, a configuration error naming each blank; filled, it loads with the triggers of those kinds`, () => {
      const dir = tmp();
      const file = path.join(dir, 'conformance.config.json');
      const text = initConfigText(kinds, mode);
      fs.writeFileSync(file, text);
      // Unfilled: every problem is a blank, each named with its path and what to give.
      const data = JSON.parse(stripJsonComments(text)) as Record<string, unknown>;
      const problems = configProblems(data);
      expect(problems.length).toBeGreaterThan(0);
      for (const p of problems) expect(p).toMatch(/^fill in \/[\w/.]+: \S/);
      expect(problems.some((p) => p.startsWith(mode === 'launch' ? 'fill in /launch/command: ' : 'fill in /remote/moduleUrl: '))).toBe(true);
      let error: unknown;
      try {
        loadConfig(file);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^config \S+conformance\.config\.json: fill in \//);
      // Filled: it loads, with the triggers of the kinds (and registration.connect in remote mode).
      fs.writeFileSync(file, filled(text));
      const config = loadConfig(file);
      expect(config.mode).toBe(mode);
      const expected = [...(mode === 'remote' ? ['registration.connect'] : []), ...kinds.flatMap((k) => KIND_TRIGGERS[k])];
      expect(Object.keys(config.triggers ?? {})).toEqual(expected);
      if (mode === 'launch') expect(config.launch).toMatchObject({ command: 'node', args: ['server.js'], cwd: dir });
      else expect(config.remote?.moduleUrl).toBe('http://127.0.0.1:8080');
      // What it gives commented out can be uncommented as it is (its commas included).
      fs.writeFileSync(path.join(dir, 'registration.json'), JSON.stringify({ code: 'm', integrations: {} }));
      fs.writeFileSync(file, uncommented(filled(text)));
      const all = loadConfig(file);
      expect(all.readiness?.url).toBe('{moduleUrl}/health');
      expect(all.tls).toBe(true);
      if (mode === 'remote') expect(all.remote?.registration).toEqual({ code: 'm', integrations: {} });
    });
  }

  test('each trigger of the kinds is explained: what it starts, every parameter, an example request and answer', () => {
    const text = initConfigText([...MODULE_KINDS], 'remote');
    for (const name of ['registration.connect', ...MODULE_KINDS.flatMap((k) => KIND_TRIGGERS[k])] as TriggerName[]) {
      const at = text.indexOf(`// ${name}: `);
      expect(at, name).toBeGreaterThan(0);
      const note = text.slice(at, text.indexOf(`"${name}": {`));
      for (const p of TRIGGER_PARAMETERS[name]!) expect(note, `${name} ${p}`).toContain(p);
      expect(note).toContain('Request (no "body" declared): {');
      expect(note).toMatch(/Example answer: HTTP 200 \{"success": true\}/);
    }
    // The triggers of each kind are the suite's: every trigger but registration.repeat (no test fires it) and registration.connect (remote mode) belongs to one kind.
    const ofKinds = MODULE_KINDS.flatMap((k) => KIND_TRIGGERS[k]);
    expect(new Set(ofKinds).size).toBe(ofKinds.length);
    expect([...ofKinds, 'registration.repeat', 'registration.connect'].sort()).toEqual(Object.keys(TRIGGERS).sort());
    expect(text).toContain('mgBot has no trigger');
    expect(initConfigText(['delivery'], 'launch')).not.toContain('mgBot');
    expect(initConfigText(['delivery'], 'launch')).not.toContain('telephony.');
  });

  test('its options: kinds by the contract\'s names, launch or remote', () => {
    expect(parseInitArgs([])).toEqual({ mode: 'launch', out: 'conformance.config.json' });
    expect(parseInitArgs(['--kinds', 'mgBot,delivery', '--mode=remote', '--out', 'x.json'])).toEqual({ kinds: ['delivery', 'mgBot'], mode: 'remote', out: 'x.json' });
    expect(() => parseInitArgs(['--kinds', 'mgbot'])).toThrow('unknown kind "mgbot" in --kinds mgbot; did you mean mgBot? known kinds: telephony, delivery, payment, mgTransport, mgBot');
    expect(() => parseInitArgs(['--kinds', 'chat'])).toThrow('unknown kind "chat" in --kinds chat; chat is an area of the kinds mgTransport, mgBot; known kinds:');
    expect(() => parseInitArgs(['--mode', 'remot'])).toThrow('--mode takes launch or remote, not "remot"');
    expect(() => parseInitArgs(['--kind', 'delivery'])).toThrow('unknown option --kind; did you mean --kinds?');
  });
});

test.describe('conformance init on the command line', () => {
  test('writes the file in the working directory, then refuses to overwrite it (exit 2, one line)', () => {
    const dir = tmp();
    const first = conformance(dir, 'init', '--kinds', 'delivery,payment');
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^conformance init: wrote conformance\.config\.json \(launch mode; delivery, payment\): fill in its \d+ "<FILL IN: \.\.\.>" values, then run: npx conformance run --config conformance\.config\.json\n$/);
    const text = fs.readFileSync(path.join(dir, 'conformance.config.json'), 'utf8');
    expect(text).toBe(initConfigText(['delivery', 'payment'], 'launch'));
    fs.appendFileSync(path.join(dir, 'conformance.config.json'), '// mine\n');
    const again = conformance(dir, 'init', '--kinds', 'delivery');
    expect(again.status).toBe(2);
    expect(again.stderr).toBe('conformance init: conformance.config.json exists; not overwritten (remove it, or give another --out FILE)\n');
    expect(fs.readFileSync(path.join(dir, 'conformance.config.json'), 'utf8')).toBe(`${text}// mine\n`);
    // Unfilled, the run stops before anything starts and names what to fill.
    const run = conformance(dir, 'run', '--config', 'conformance.config.json');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^conformance run: config conformance\.config\.json: fill in \/launch\/command: the program that starts your module, e\.g\. node.*; fill in \/triggers\/payment\.notify\/url: the URL of your module's hook for payment\.notify, e\.g\. \{moduleUrl\}\/test-hooks\/payment\.notify\n$/);
  });

  test('--out, remote mode; an unknown kind or option ends it with exit 2 and one line; help init', () => {
    const dir = tmp();
    const r = conformance(dir, 'init', '--mode', 'remote', '--kinds', 'mgTransport', '--out', 'staging.json');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'staging.json'), 'utf8')).toBe(initConfigText(['mgTransport'], 'remote', 'staging.json'));
    const bad = conformance(dir, 'init', '--kinds', 'delivry', '--out', 'other.json');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('conformance init: unknown kind "delivry" in --kinds delivry; did you mean delivery? known kinds: telephony, delivery, payment, mgTransport, mgBot\n');
    expect(fs.existsSync(path.join(dir, 'other.json'))).toBe(false);
    const help = conformance(dir, 'help', 'init');
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(INIT_USAGE);
    expect(conformance(dir, 'help').stdout).toContain('  init [--kinds K,...]');
  });
});
