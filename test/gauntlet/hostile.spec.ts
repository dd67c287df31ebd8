/**
 * A module cannot break the run. Each hostile fault of the reference module (floods of the
 * system and of the gateway, a 64 MB body, connections that never finish, JSON nested 300,000
 * deep, huge WebSocket frames, a module and a child that ignore SIGTERM) runs through the whole
 * suite. Each run ends within its deadline, writes its report, exits 0 or 1 with the verdict the
 * contract gives (the checks of its row fail, no others; the information checks of its row name
 * what it did), keeps the suite's memory under `MEMORY_BOUND` (sampled from /proc while it
 * runs, the module's own processes left out) and its report small, and leaves no process of
 * the run behind.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { failedChecks, runSuite, type SuiteRun } from './run-suite.ts';
import { HOSTILE_CASES } from './faults.ts';
import { cleanUp, groupMembers, readPids, referenceConfig, survivors } from './process-tree.ts';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import type { Results } from '../../src/report/results.ts';

test.describe.configure({ mode: 'parallel', timeout: 240_000 });
test.skip(process.platform !== 'linux', 'process groups and /proc: Linux');

/** The run's deadline (`runTimeoutMs`): far above a run of the reference module (about 10 s), far below the default. */
const DEADLINE_MS = 120_000;
/** Most memory the suite's processes may hold together (`conformance run`, Playwright's runner and its worker): about 0.5 GB on the clean module. */
const MEMORY_BOUND = 1024 * 1024 * 1024;
/** Largest `results.json` and `conformance.html` of a hostile run: about 0.4 MB each on the clean module. */
const REPORT_BOUND = 8 * 1024 * 1024;
const GRACE_MS = 1_500;

function infoChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'info').map((r) => r.check))].sort();
}

function infoMessage(results: Results | undefined, check: string): string {
  return (results?.results ?? []).find((r) => r.check === check && r.status === 'info')?.message ?? '';
}

const endpoint = (run: SuiteRun, name: string) => run.results?.evidence?.endpoints.find((e) => e.endpoint === name);

/** What each fault's report must show beyond its checks. */
const SHOWS: Record<string, (run: SuiteRun) => void> = {
  'flood-system': (run) => {
    const credentials = endpoint(run, 'module->system credentials');
    expect(credentials?.count).toBeGreaterThan(2_000);
    expect(credentials!.kept).toBeLessThanOrEqual(240);
  },
  'flood-gateway': (run) => {
    const transport = run.results!.evidence!.gateway.find((t) => t.token === '<redacted:transportToken>');
    expect(transport?.tooManyRequests).toBeGreaterThan(100);
    expect(transport!.afterTooMany).toMatch(/kept sending at \d+\/s after its 429s/);
    expect(infoMessage(run.results, 'checkGatewayRateLimitIsKept')).toMatch(/answered 429; kept sending/);
  },
  'body-64mb': (run) => {
    expect(endpoint(run, 'module->system calls.upload (body too large)')?.statuses).toEqual({ 413: 2 });
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/calls\.upload: 2 requests with a body over the suite's limit, answered 413 unread \(64\.0 MB/);
  },
  'slow-connections': (run) => {
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/system: (100|\d\d) connections on which a request never completed/);
  },
  'deep-json': (run) => {
    const failure = run.results!.results.find((r) => r.check === 'ensureSystemCallPayloadDecodes' && r.status === 'failed');
    expect(failure?.message).toMatch(/nested too deep/);
  },
  'ws-huge-frames': (run) => {
    expect(endpoint(run, 'gateway->module bot websocket refused frame')?.count).toBeGreaterThanOrEqual(1);
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/over the frame limit, the connection closed with 1009/);
  },
  'module-ignores-sigterm': (run) => expect(run.results!.run.moduleStop).toMatchObject({ killed: true }),
  'child-ignores-sigterm': (run) => expect(run.results!.run.moduleStop).toMatchObject({ childrenKilled: true }),
};

test('every hostile fault has a row, and every row what its report shows', () => {
  expect(HOSTILE_CASES.map((c) => c.fault).sort()).toEqual(Object.keys(SHOWS).sort());
});

for (const c of HOSTILE_CASES) {
  test(`${c.fault}: the run ends in time with its report and its verdict, memory bounded, no process left`, async () => {
    const { file, pidFile } = referenceConfig({ stopGraceMs: GRACE_MS, runTimeoutMs: DEADLINE_MS });
    const run = await runSuite(['--config', file], { FAULTS: c.fault, PID_FILE: pidFile }, { measure: true });
    const pids = readPids(pidFile);
    try {
      test.info().annotations.push({ type: 'measured', description: `${c.fault}: ${(run.durationMs / 1000).toFixed(1)} s, peak ${Math.round((run.peakRssBytes ?? 0) / 1024 / 1024)} MB` });
      expect(run.results, run.stderr).toBeDefined();
      const valid = contract().validate('suite/results.json', run.results);
      expect(valid.valid, formatErrors(valid.errors)).toBe(true);
      expect(run.results!.run.deadline).toBeUndefined();
      expect(run.durationMs).toBeLessThan(DEADLINE_MS);
      expect(failedChecks(run.results)).toEqual(c.failing);
      expect(run.exitCode).toBe(c.failing.length > 0 ? 1 : 0);
      expect(infoChecks(run.results)).toEqual(expect.arrayContaining(c.info));
      SHOWS[c.fault]!(run);
      expect(run.peakRssBytes).toBeGreaterThan(0);
      expect(run.peakRssBytes!).toBeLessThan(MEMORY_BOUND);
      for (const report of ['results.json', 'conformance.html']) expect(fs.statSync(path.join(run.out, report)).size).toBeLessThan(REPORT_BOUND);
      // No process of the run is left: not the module, not what it started, nothing of its group.
      expect(pids?.module).toBeGreaterThan(0);
      expect(await survivors([pids!.module, ...pids!.children])).toEqual([]);
      expect(groupMembers(pids!.module)).toEqual([]);
    } finally {
      if (pids) cleanUp([pids.module, ...pids.children, ...groupMembers(pids.module)]);
    }
  });
}
