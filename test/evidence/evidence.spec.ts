import { test, expect } from '@playwright/test';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { Redactor } from '../../src/evidence/redact.ts';
import { curlNote } from '../../src/evidence/curl.ts';
import { renderHtml } from '../../src/report/html.ts';
import { escapeHtml } from '../../src/report/page-text.ts';
import { buildResults } from '../../src/report/results.ts';
import type { CheckResult } from '../../src/checks/result.ts';

test('secrets never appear in recorded exchanges or curl lines, in any encoding', () => {
  const r = new Redactor();
  r.add('apiKey', 'k3y+secret/value');
  r.add('mgBotToken', 'tok-abcdef');
  const log = new EvidenceLog(r, 't');
  const x = log.record({
    direction: 'module->system', label: 'edit', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/api?apiKey=k3y%2Bsecret%2Fvalue', headers: { 'x-api-key': 'k3y+secret/value', 'x-bot-token': 'anything' }, body: 'apiKey=k3y%2Bsecret%2Fvalue&x=1' },
    response: { status: 200, headers: {}, body: '{"info":{"mgBot":{"token":"tok-abcdef"}}}' },
  });
  const all = JSON.stringify(x);
  expect(all).not.toContain('k3y');
  expect(all).not.toContain('tok-abcdef');
  expect(all).not.toContain('anything');
  // The line names each secret as a shell variable to set.
  expect(x.curl).toContain(`'http://127.0.0.1:1/api?apiKey='"$API_KEY"`);
  expect(x.curl).toContain(`-H 'x-bot-token: '"$MG_BOT_TOKEN"`);
  expect(x.id).toBe('t-x1');
});

test('invalid UTF-8 and huge bodies are recorded safely (replacement characters, capped)', () => {
  const log = new EvidenceLog();
  const x = log.record({
    direction: 'system->module', label: 'calculate', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: {} },
    response: { status: 200, headers: {}, body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(200_000, 0x61)]) },
  });
  expect(x.response!.body!.startsWith('\ufffd\ufffd')).toBe(true);
  expect(x.response!.truncated).toBe(true);
  expect(x.response!.bytes).toBe(200_002);
});

test('whatever a module sends is shown escaped in conformance.html', async () => {
  const log = new EvidenceLog();
  const x = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: {} },
    response: { status: 200, headers: { 'x-evil': '"><img src=x onerror=alert(1)>' }, body: '<script>alert(1)</script>' },
  });
  // The page shows whole the exchanges of the failures: this one is a failure's evidence.
  const failure: CheckResult = { check: 'ensureX', title: 'x', requirements: ['REG-REGISTER-VIA-EDIT'], profile: false, severity: 'MUST', status: 'failed', message: 'Checked: x\nReceived: <i>y</i>', evidence: [x.id] };
  const results = await buildResults({ records: [{ results: [failure], exchanges: [x], module: { code: '<b>m</b>', kinds: [], mode: 'launch' } }], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  const html = renderHtml(results);
  expect(html).toContain(`<details class="exchange" id="${x.id}" open>`);
  expect(html).not.toContain('<i>y</i>');
  expect(html).not.toContain('<script>alert(1)</script>');
  expect(html).not.toContain('<img src=x');
  expect(html).not.toContain('<b>m</b>');
  expect(html).toContain(escapeHtml('<script>alert(1)</script>'));
});

test('the requirement table covers the whole catalogue, untested entries with a reason', async () => {
  const results = await buildResults({ records: [], brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  expect(results.requirements.length).toBeGreaterThan(150);
  expect(results.requirements.filter((q) => q.status === 'untested' && !q.reason)).toEqual([]);
  // Nothing reached a module: the run fails.
  expect(results.run.outcome).toBe('failed');
  expect(results.results.map((r) => r.check)).toEqual(['ensureModuleWasReached']);
});

test('a form request reads as one --data-urlencode per field, with its JSON decoded', () => {
  const log = new EvidenceLog();
  const x = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/activity', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'clientId=c1&activity=%7B%22active%22%3Atrue%7D' },
  });
  expect(x.curl).toBe(`curl -sS -X POST 'http://127.0.0.1:1/activity' --data-urlencode 'clientId=c1' --data-urlencode 'activity={"active":true}'`);
});

test('a reproduction line runs after the run: the module address is $MODULE_URL, each secret a named variable, with a note', async () => {
  const redactor = new Redactor();
  redactor.add('clientId', 'client-abc123');
  const log = new EvidenceLog(redactor, 'r');
  log.curlBases.moduleUrl = 'http://127.0.0.1:43121';
  const form = new URLSearchParams({ clientId: 'client-abc123', activity: JSON.stringify({ active: true, freeze: false }) }).toString();
  const x = log.record({
    direction: 'system->module',
    label: 'activity',
    startedAt: new Date(),
    durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:43121/activity', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
  });
  expect(x.curl).toBe(`curl -sS -X POST "$MODULE_URL"'/activity' --data-urlencode 'clientId='"$CLIENT_ID" --data-urlencode 'activity={"active":true,"freeze":false}'`);
  expect(curlNote(x.curl!)).toBe("Set MODULE_URL (your module's base URL), CLIENT_ID (the clientId your module registered with) first, e.g. export MODULE_URL=...");
  // It runs: a shell fills the variables.
  const { execFileSync } = await import('node:child_process');
  const echoed = execFileSync('sh', ['-c', x.curl!.replace(/^curl /, 'printf "%s\\n" ')], { env: { MODULE_URL: 'http://127.0.0.1:9', CLIENT_ID: 'the-id' } }).toString();
  expect(echoed).toContain('http://127.0.0.1:9/activity');
  expect(echoed).toContain('clientId=the-id');
});
