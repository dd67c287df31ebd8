/**
 * `conformance replay FILE`: its command line, what it accepts as a saved failure, and how it
 * finds the check by name as the property applied it (a check of one reply read off the case's
 * outcome). A bad file or configuration ends it at once with exit 2 and one line, before any
 * module is launched. (Replaying against a module: test/gauntlet/replay.spec.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect } from '@playwright/test';
import { checkOf, parseReplayArgs, readSavedFailure, replayLine, REPLAY_USAGE } from '../../src/cli/replay.ts';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';
import { PROPERTY_CHECKS, findPropertyCheck } from '../../src/properties/registry.ts';
import { CALCULATE_VALID, CALCULATE_WRONG } from '../../src/checks/delivery/applications.ts';
import { registeredChecks } from '../../src/checks/check.ts';
import { CALLBACKS } from '../../src/callbacks/table.ts';
import type { SavedFailure } from '../../src/checks/case.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';

test.describe.configure({ mode: 'parallel' });

const conformance = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'conformance.js'), ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

const failure = (over: Partial<SavedFailure> = {}): SavedFailure => ({
  check: 'ensureTariffCostIsNumberOrAbsent',
  requirements: ['DLV-CALCULATE-TARIFF-FIELDS'],
  severity: 'MUST',
  property: CALCULATE_VALID,
  seed: 11,
  path: '0:0:1',
  case: { callback: 'delivery.calculate', payload: { packages: [{ weight: 10001 }] }, intent: { kind: 'valid' } },
  request: { method: 'POST', url: 'http://127.0.0.1:1/delivery/calculate', body: 'clientId=x' },
  reply: { status: 200, body: '{}' },
  verdict: { outcome: 'fail', received: 'r', expected: 'e' },
  ...over,
});

function write(content: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-'));
  const file = path.join(dir, 'failure.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
};

test.describe('arguments', () => {
  test('one file, the options of a run that say how to reach the module, and --out', () => {
    expect(parseReplayArgs(['f.json'])).toEqual({ file: 'f.json', out: path.join('reports', 'replay'), flags: {} });
    expect(parseReplayArgs(['--config', 'c.json', 'f.json', '--out=o'])).toEqual({ file: 'f.json', config: 'c.json', out: 'o', flags: {} });
    expect(parseReplayArgs(['f.json', '--module-url', 'http://m', '--registration', 'r.json', '--no-profile']).flags).toEqual({ moduleUrl: 'http://m', registration: 'r.json', profile: false });
  });

  test('what is wrong is said in one line', () => {
    expect(message(() => parseReplayArgs([]))).toMatch(/^which failure\? conformance replay FILE/);
    expect(message(() => parseReplayArgs(['a.json', 'b.json']))).toBe('one failure at a time, not 2 ("a.json", "b.json")');
    expect(message(() => parseReplayArgs(['f.json', '--conifg', 'x']))).toBe('unknown option --conifg; did you mean --config?');
    expect(message(() => parseReplayArgs(['f.json', '--seed', '1']))).toMatch(/^unknown option --seed; /);
    expect(message(() => parseReplayArgs(['f.json', '--config']))).toBe('missing value for --config (--config FILE)');
    expect(message(() => parseReplayArgs(['f.json', '--config', 'c', '--module-url', 'http://m']))).toBe('--config or --module-url, not both');
  });
});

test.describe('a saved failure', () => {
  test('a file the property runner writes is read as it is', () => {
    const f = failure();
    expect(readSavedFailure(write(f))).toEqual(f);
  });

  test('not a file, not JSON, not a failure: the reason names the file and what is missing', () => {
    expect(message(() => readSavedFailure('/nonexistent/f.json'))).toMatch(/^cannot read \/nonexistent\/f\.json: /);
    const notJson = write('{');
    expect(message(() => readSavedFailure(notJson))).toMatch(new RegExp(`^${notJson} is not JSON: `));
    const bad = write({ ...failure(), check: 3, severity: 'MAY', case: { callback: 'delivery.teleport', payload: {}, intent: { kind: 'wrong' } } });
    expect(message(() => readSavedFailure(bad))).toBe(
      `${bad} is not a saved failure: check: a check name; severity: MUST or SHOULD; case.callback: a callback of the suite (${Object.keys(CALLBACKS).join(', ')}) or bot.websocket-frame; case.intent: {"kind": "valid"}, {"kind": "wrong", "field", "why"}, {"kind": "open", "why"}, {"kind": "sequence"} or a clientId probe {"kind": "refused", ...}`,
    );
  });

  test('an open case (issue 31: a past shipment date is no wrong input) is read back, with the wrong input\'s value and source', () => {
    const open = { ...failure(), case: { callback: 'delivery.calculate', payload: {}, intent: { kind: 'open', why: 'a shipment date in the past' } } };
    expect(readSavedFailure(write(open))).toEqual(open);
    const wrong = { ...failure(), case: { callback: 'payment.approve', payload: {}, intent: { kind: 'wrong', field: 'paymentId', why: 'unknown', value: 'unknown-1', source: 'document' } } };
    expect(readSavedFailure(write(wrong))).toEqual(wrong);
  });
});

test.describe('the check, as its property applies it', () => {
  const exchange = { id: 'r-x1' } as Exchange;
  const reply = (status: number, json: unknown): Reply => ({ exchange, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json)), json });

  test('every check of every property is found by name, and is the registered rule', () => {
    for (const [property, checks] of Object.entries(PROPERTY_CHECKS)) {
      for (const profile of [true, false]) {
        for (const c of checks(profile)) {
          const found = findPropertyCheck(property, c.check.name);
          expect(found?.check.name, `${property}: ${c.check.name}`).toBe(c.check.name);
          expect(registeredChecks().has(c.check.name), c.check.name).toBe(true);
        }
      }
    }
  });

  test("an error-answer rule judges a case's outcome as the property did (the reply and the run's reading)", async () => {
    const wrapped = checkOf(failure({ check: 'ensureErrorStatusIsAccepted', property: CALCULATE_WRONG, requirements: ['WIRE-GEN-ERROR-STATUS-200-OR-4XX'] }));
    const outcome = (status: number, profile: boolean) => ({ case: failure().case, reply: reply(status, { success: false, errorMsg: 'weight' }), module: {}, profile });
    expect((await wrapped.check.run(outcome(400, true))).outcome).toBe('pass');
    // By the document alone an error answer is HTTP 200 only.
    expect((await wrapped.check.run(outcome(400, false))).outcome).toBe('fail');
    const onReply = checkOf(failure({ check: 'ensureErrorStatusIsNot5xx' }));
    expect((await onReply.check.run(outcome(502, true))).outcome).toBe('fail');
  });

  test('a property renamed since: the check is still found; a check no property applies: the reason', () => {
    expect(checkOf(failure({ property: 'delivery.calculate: old name' })).check.name).toBe('ensureTariffCostIsNumberOrAbsent');
    expect(message(() => checkOf(failure({ check: 'ensureNothingAtAll' })))).toBe('no property of the suite applies a check named ensureNothingAtAll: a replayed case cannot be judged');
  });

  test('the verdict in one line', () => {
    expect(replayLine('ensureX', ['DLV-A'], { outcome: 'fail', received: 'tariff "standard" has cost "16.45"\n<next>', expected: 'a number' })).toBe(
      'replay: ensureX [DLV-A] FAIL  Received: tariff "standard" has cost "16.45" <next>; Expected: a number',
    );
    expect(replayLine('ensureX', ['DLV-A'], { outcome: 'pass', detail: '3 tariff(s)' })).toBe('replay: ensureX [DLV-A] PASS  Held: 3 tariff(s)');
    expect(replayLine('ensureX', [], { outcome: 'notApplicable' })).toBe('replay: ensureX [suite rule] N/A');
  });
});

test.describe('the command', () => {
  test('conformance help replay, conformance replay --help: its usage, exit 0; the list of commands names it', () => {
    for (const args of [['help', 'replay'], ['replay', '--help']]) {
      const r = conformance(...args);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(REPLAY_USAGE);
    }
    expect(conformance('help').stdout).toMatch(/\n {2}replay FILE {2,}send a saved failure/);
    expect(conformance('replya').stderr.split('\n')[0]).toBe("conformance: unknown command 'replya'; did you mean replay?");
  });

  test('a bad file, an unknown check or a bad configuration: exit 2, one line, no module launched', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-out-'));
    const cases: Array<[string[], RegExp]> = [
      [[], /^conformance replay: which failure\?/],
      [[write('not json')], /^conformance replay: .* is not JSON: /],
      [[write(failure({ check: 'ensureNothingAtAll' }))], /^conformance replay: no property of the suite applies a check named ensureNothingAtAll: /],
      [[write(failure()), '--config', '/nonexistent/c.json'], /^conformance replay: cannot read config \/nonexistent\/c\.json: /],
    ];
    for (const [args, reason] of cases) {
      const r = conformance('replay', ...args, '--out', out);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(reason);
    }
    expect(fs.existsSync(path.join(out, 'internal', 'launches.log'))).toBe(false);
  });
});
