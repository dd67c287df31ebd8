/**
 * One session per run: the first session start of a run claims it; a second start in the same
 * run (Playwright restarted its worker after a spec broke) is refused with its reason, naming
 * the spec that broke; another run in the same folder starts anew.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { claimSessionStart, noteBrokenSpec, notRunResult, secondStartResult, SESSION_START_FILE } from '../../src/run/session-start.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';

const folder = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'session-start-'));

test('the first start of a run claims it; a second start of the same run is refused', () => {
  const dir = folder();
  expect(claimSessionStart({ run: 'runner 1', dir })).toBeUndefined();
  expect(fs.existsSync(path.join(dir, 'internal', SESSION_START_FILE))).toBe(true);
  const refused = claimSessionStart({ run: 'runner 1', dir });
  expect(refused).toMatch(/^a second session start in this run, refused: a conformance spec broke and Playwright started a new worker for the tests left; the module is not launched again \(the run's session started at \S+ in process \d+\)$/);
  // Refused again, however many times the worker is restarted.
  expect(claimSessionStart({ run: 'runner 1', dir })).toBe(refused);
});

test('the refusal names the spec that broke', () => {
  const dir = folder();
  claimSessionStart({ run: 'runner 1', dir });
  noteBrokenSpec('activity callback > the module acknowledges activity', { run: 'runner 1', dir });
  expect(claimSessionStart({ run: 'runner 1', dir })).toContain('the conformance spec "activity callback > the module acknowledges activity" broke and Playwright started a new worker');
});

test('another run in the same output folder starts anew (a record left by an earlier run is replaced)', () => {
  const dir = folder();
  expect(claimSessionStart({ run: 'runner 1', dir })).toBeUndefined();
  noteBrokenSpec('a spec', { run: 'runner 2', dir });
  expect(claimSessionStart({ run: 'runner 2', dir })).toBeUndefined();
  expect(claimSessionStart({ run: 'runner 2', dir })).toMatch(/a conformance spec broke/);
});

test('the refusal is a MUST failure of a suite rule; every test left is a skipped result with the reason', () => {
  const reason = 'a second session start in this run, refused: ...';
  const rule = secondStartResult(reason);
  expect(rule).toMatchObject({ check: 'ensureOneSessionPerRun', severity: 'MUST', status: 'failed', requirements: [], spec: 'run' });
  expect(rule.message).toMatch(/\nReceived: a second session start in this run, refused: \.\.\.; every conformance test left was skipped\nExpected: .+/);
  const skipped = notRunResult('registration > the registration call', reason);
  expect(skipped).toMatchObject({ check: 'ensureSpecRanToTheEnd', status: 'skipped', severity: 'INFO', spec: 'registration > the registration call' });
  expect(skipped.message).toContain(`Skipped: ${reason}`);
  // Both are results as results.json holds them.
  const ofResults = contract().validate('suite/results.json', { results: [rule, skipped] }).errors.filter((e) => e.instancePath.startsWith('/results'));
  expect(ofResults, formatErrors(ofResults)).toEqual([]);
});
