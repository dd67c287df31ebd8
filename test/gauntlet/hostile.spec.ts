/**
 * A module cannot break the run. Each hostile fault of the reference module (floods of the
 * system and of the gateway, a 64 MB body, connections that never finish, JSON nested 300,000
 * deep, huge WebSocket frames, a module and a child that ignore SIGTERM; and answers to the
 * calculate callback that never come, come after 20 s, drip, weigh 50 MB, fall short of their
 * Content-Length, are not UTF-8, redirect to themselves or carry markup, each in a run of a
 * calculate property with a per-request timeout of 1 s) runs through the suite narrowed to where
 * its hostile behaviour happens (its row's `narrow` in faults.ts: the registration area alone for
 * what the module does once registered or at its stop, the specs that meet the rest), and meets
 * it in full before the run ends (the module's log says it finished: the flood's 5 s, every
 * frame, both uploads). Each run ends within its deadline, writes its report, exits 0 or 1 with
 * the verdict the contract gives (the checks of its row fail, no others; the information checks
 * of its row name what it did), keeps the suite's memory under `MEMORY_BOUND` (sampled from /proc
 * while it runs, the module's own processes left out) and its report small, and leaves no process
 * of the run behind.
 */
import { test, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { failedChecks, runSuite, type SuiteRun } from './run-suite.ts';
import { HOSTILE_CASES, type HostileCase } from './faults.ts';
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

/**
 * The deadline of a row with a per-request timeout (the hostile answers of calculate): a clean
 * run of the calculate properties (about 7 s for both) with a wide margin, plus the most the
 * hostile answers can cost, each stalled request its per-request timeout: each of two properties
 * its time budget and a request in flight at the end of each of its two phases (cases, shrinking).
 */
function deadlineOf(c: HostileCase): number {
  const timeoutMs = c.settings?.callbacks?.timeoutMs;
  const budgetMs = c.settings?.generation?.timeLimitMs;
  if (timeoutMs === undefined || budgetMs === undefined) return DEADLINE_MS;
  return 60_000 + 2 * (budgetMs + 2 * timeoutMs);
}

/** The messages of the failed results of a check. */
const failures = (run: SuiteRun, check: string): string[] => (run.results?.results ?? []).filter((r) => r.check === check && r.status === 'failed').map((r) => r.message);

/** Each failed result of `check` reads `pattern` (and carries `requirement`, when given). */
function failsWith(run: SuiteRun, check: string, pattern: RegExp, requirement?: string): void {
  const failed = (run.results?.results ?? []).filter((r) => r.check === check && r.status === 'failed');
  expect(failed.length).toBeGreaterThan(0);
  for (const r of failed) {
    expect(r.message).toMatch(pattern);
    if (requirement) expect(r.requirements).toContain(requirement);
  }
}

/**
 * Markup of the module never live on the page: no tag of its own (the page's one script, its
 * filters, aside), no event handler. The refusal passed, so the page counts it and results.json
 * holds its exchange, the markup as text (a failure's evidence on the page: test/report/page-chromium.spec.ts).
 */
function inertOnPage(run: SuiteRun): void {
  const html = fs.readFileSync(path.join(run.out, 'conformance.html'), 'utf8');
  const results = JSON.stringify(run.results);
  expect(results).toContain('<script>alert(1)</script>');
  expect(results).toContain('<img src=x onerror=alert(3)>');
  expect(html.match(/<script/gi)).toEqual(['<script']);
  expect(html).toContain('<script id="page-filters">');
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
}

function infoChecks(results: Results | undefined): string[] {
  return [...new Set((results?.results ?? []).filter((r) => r.status === 'info').map((r) => r.check))].sort();
}

function infoMessage(results: Results | undefined, check: string): string {
  return (results?.results ?? []).find((r) => r.check === check && r.status === 'info')?.message ?? '';
}

/** What the module printed on stderr in the run (`module.stderr.log` beside the report, the end kept). */
const moduleLog = (run: SuiteRun): string => fs.readFileSync(path.join(run.out, 'module.stderr.log'), 'utf8');

const endpoint = (run: SuiteRun, name: string) => run.results?.evidence?.endpoints.find((e) => e.endpoint === name);

/** What each fault's report must show beyond its checks. */
const SHOWS: Record<string, (run: SuiteRun) => void> = {
  'flood-system': (run) => {
    const credentials = endpoint(run, 'module->system credentials');
    // A flood: far more calls than a run makes without it (a few), and more than the evidence keeps.
    expect(credentials?.count).toBeGreaterThan(500);
    expect(credentials!.kept).toBeLessThanOrEqual(240);
    // The flood ran its whole 5 s before the module stopped.
    expect(moduleLog(run)).toMatch(/flooded the system \{/);
  },
  'flood-gateway': (run) => {
    const transport = run.results!.evidence!.gateway.find((t) => t.token === '<redacted:transportToken>');
    expect(transport?.tooManyRequests).toBeGreaterThan(100);
    expect(transport!.afterTooMany).toMatch(/kept sending at \d+\/s after its 429s/);
    expect(infoMessage(run.results, 'checkGatewayRateLimitIsKept')).toMatch(/answered 429; kept sending/);
    failsWith(run, 'ensureRateBacksOff', /Received: the transport stayed above 30 requests a second \(over 45\) for \d+ seconds in a row/, 'GEN-RATE-30-PER-SECOND');
    expect(moduleLog(run)).toMatch(/flooded the gateway \{/);
  },
  'body-64mb': (run) => {
    expect(endpoint(run, 'module->system calls.upload (body too large)')?.statuses).toEqual({ 413: 2 });
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/calls\.upload: 2 requests with a body over the suite's limit, answered 413 unread \(64\.0 MB/);
  },
  'slow-connections': (run) => {
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/system: (100|\d\d) connections on which a request never completed/);
    expect(moduleLog(run)).toMatch(/opened 100 connections that never finish their request/);
  },
  'deep-json': (run) => {
    const failure = run.results!.results.find((r) => r.check === 'ensureSystemCallPayloadDecodes' && r.status === 'failed');
    expect(failure?.message).toMatch(/nested too deep/);
    expect(moduleLog(run)).toMatch(/sent a tracking push nested 300,000 deep/);
    expect(moduleLog(run)).toMatch(/sent a gateway message nested 300,000 deep/);
  },
  'ws-huge-frames': (run) => {
    expect(endpoint(run, 'gateway->module bot websocket refused frame')?.count).toBeGreaterThanOrEqual(1);
    expect(infoMessage(run.results, 'checkModuleRequestsAreReadWhole')).toMatch(/over the frame limit, the connection closed with 1009/);
    // One on each of the bot's first 3 connections (HUGE_FRAME_CONNECTIONS).
    expect(moduleLog(run).match(/bot sent a huge frame/g)).toHaveLength(3);
  },
  'module-ignores-sigterm': (run) => expect(run.results!.run.moduleStop).toMatchObject({ killed: true }),
  'child-ignores-sigterm': (run) => {
    expect(moduleLog(run)).toMatch(/started a helper process that ignores SIGTERM/);
    expect(run.results!.run.moduleStop).toMatchObject({ childrenKilled: true });
  },
  'calculate-never-answers': (run) => failsWith(run, 'ensureCallbackIsAnswered', /no reply \(no complete reply within 1000 ms \(the per-request timeout, setting callbacks\.timeoutMs\)\)/),
  'calculate-answers-after-20s': (run) => failsWith(run, 'ensureCallbackIsAnswered', /no reply \(no complete reply within 1000 ms \(the per-request timeout, setting callbacks\.timeoutMs\)\)/),
  'calculate-drips': (run) =>
    failsWith(run, 'ensureCallbackIsAnswered', /HTTP 200, not a complete reply \(no complete reply within 1000 ms \(the per-request timeout, setting callbacks\.timeoutMs\): HTTP 200 and [1-9]\d* byte\(s\) of its body received of the \d+ its Content-Length declares\)/),
  'calculate-50mb': (run) => failsWith(run, 'ensureCallbackIsAnswered', /HTTP 200, not a complete reply \(reply body larger than 20971520 bytes \(the cap, setting callbacks\.maxBodyBytes\): reading stopped after \d+ bytes\)/),
  'calculate-short-content-length': (run) => {
    failsWith(run, 'ensureCallbackIsAnswered', /HTTP 200, not a complete reply \(reply body shorter than its Content-Length: \d+ of \d+ bytes, then the connection closed/);
    for (const m of failures(run, 'ensureCallbackIsAnswered')) {
      const [, got, declared] = /(\d+) of (\d+) bytes/.exec(m)!;
      expect(Number(declared) - Number(got)).toBe(100);
    }
  },
  'calculate-invalid-utf8': (run) => {
    failsWith(run, 'ensureErrorBodyIsJson', /\(not JSON: not valid UTF-8 \(a JSON text is UTF-8, RFC 8259\): byte 0x(FC|F6|DF) at offset \d+/, 'WIRE-GEN-ERROR-NON-JSON-FAILURE');
    failsWith(run, 'ensureErrorBodyMatchesErrorShape', /not valid UTF-8/, 'WIRE-GEN-ERROR-REPLY-SHAPE');
  },
  'calculate-redirect-loop': (run) => {
    const redirect = /HTTP 302 redirecting to "\/delivery\/calculate" \(the suite follows no redirect\)/;
    failsWith(run, 'ensureErrorStatusIsAccepted', redirect, 'WIRE-GEN-ERROR-STATUS-200-OR-4XX');
    failsWith(run, 'ensureErrorBodyIsJson', redirect, 'WIRE-GEN-ERROR-NON-JSON-FAILURE');
  },
  'calculate-script-in-error': (run) => {
    // A legitimate refusal whose text is markup breaks no rule; the page shows it as text.
    expect(run.results!.summary.failed).toBe(0);
    inertOnPage(run);
  },
};

test('every hostile fault has a row, and every row what its report shows', () => {
  expect(HOSTILE_CASES.map((c) => c.fault).sort()).toEqual(Object.keys(SHOWS).sort());
});

for (const c of HOSTILE_CASES) {
  test(`${c.fault}: the run ends in time with its report and its verdict, memory bounded, no process left`, async () => {
    const deadlineMs = deadlineOf(c);
    const { file, pidFile } = referenceConfig({ stopGraceMs: GRACE_MS, runTimeoutMs: deadlineMs, more: c.settings, compiled: true });
    const run = await runSuite(['--config', file, ...c.narrow], { FAULTS: c.fault, PID_FILE: pidFile }, { measure: true });
    const pids = readPids(pidFile);
    try {
      test.info().annotations.push({ type: 'measured', description: `${c.fault}: ${(run.durationMs / 1000).toFixed(1)} s, peak ${Math.round((run.peakRssBytes ?? 0) / 1024 / 1024)} MB` });
      expect(run.results, run.stderr).toBeDefined();
      const valid = contract().validate('suite/results.json', run.results);
      expect(valid.valid, formatErrors(valid.errors)).toBe(true);
      expect(run.results!.run.deadline).toBeUndefined();
      expect(run.durationMs).toBeLessThan(deadlineMs);
      expect(failedChecks(run.results)).toEqual([...c.failing].sort());
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
