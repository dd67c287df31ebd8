/**
 * The records a run writes (one per test, one for the session) carry every exchange the log
 * keeps whole exactly once, agree with the per-endpoint `kept` counts, and never carry a secret,
 * even one learnt after an exchange was recorded (the clientId, known at registration).
 */
import { test, expect } from '@playwright/test';
import { EvidenceLog, KEEP_FIRST, KEEP_LAST, type Exchange } from '../../src/evidence/exchange.ts';
import { Redactor } from '../../src/evidence/redact.ts';
import { Conformance, type RecordSink, type TestRecord } from '../../src/run/conformance.ts';
import type { RunSession } from '../../src/run/session.ts';
import { buildResults } from '../../src/report/results.ts';

const CID = '3f2b7c1e-8d4a-4b6f-9e21-5a7c0d9b4e13';
const HOST = 'stripe-module.example.com';

/** The parts of a session a Conformance reads, with the run's log. */
function fakeSession(log: EvidenceLog, startup: () => Exchange[]): RunSession {
  return {
    log,
    system: { calls: [], unsimulated: [], unsimulatedCount: () => 0, connectionTrouble: () => ({ stalled: 0, malformed: 0 }) },
    gateway: {
      calls: [],
      connectionTrouble: () => ({ stalled: 0, malformed: 0 }),
      tokenRates: () => [{ token: '<redacted:mgTransportToken>', clientId: CID, requests: 1, peakPerSecond: 1, tooManyRequests: 0, requestsAfterTooMany: 0, peakPerSecondAfterTooMany: 0, afterTooMany: 'never over the limit' }],
    },
    get startup() {
      return startup();
    },
    judged: new Set<string>(),
    triggers: { fired: [] },
    config: { profile: true, mode: 'launch' },
    baseUrl: () => undefined,
  } as unknown as RunSession;
}

function sink(records: TestRecord[], spec: string, session = false): RecordSink {
  return { spec, annotate: () => undefined, write: async (r) => void records.push(JSON.parse(JSON.stringify(r)) as TestRecord), ...(session ? { carriesStartup: true } : {}) };
}

function record(log: EvidenceLog, direction: Exchange['direction'], label: string, body = '', status = 200): Exchange {
  return log.record({
    direction, label, startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: `http://127.0.0.1:4000/${label}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
    response: { status, headers: {} },
  });
}

test('every exchange the log keeps whole is in results.json exactly once, agreeing with the kept counts; the clientId learnt at registration is redacted everywhere', async () => {
  const redactor = new Redactor();
  redactor.add('apiKey', 'Ak9+zQ/x7LmN2pRt');
  const log = new EvidenceLog(redactor, 's1');
  let startup: Exchange[] = [];
  const session = fakeSession(log, () => startup);
  const records: TestRecord[] = [];

  // The registration, recorded before the clientId is known (the log has no such secret yet).
  const module = { code: 'stripe', clientId: CID, baseUrl: `https://${HOST}`, accountUrl: `https://${HOST}/settings/${CID}` };
  const edit = record(log, 'module->system', 'edit', new URLSearchParams({ integrationModule: JSON.stringify(module) }).toString());
  startup = [edit];
  // Then the session takes the registration: from now on the clientId is a secret.
  redactor.add('clientId', CID);

  // Made after the session started, before any test ran: a channel activation.
  record(log, 'module->gateway', 'transport.channel.activate');

  // Test A: a callback, and a flood on one endpoint (kept: the first and the last ones).
  const a = new Conformance(session, sink(records, 'test A'));
  const cb = record(log, 'system->module', 'activity', `clientId=${CID}&activity=%7B%7D`);
  for (let i = 0; i < KEEP_FIRST + KEEP_LAST + 10; i++) record(log, 'module->system', 'tracking');
  a.record({ check: 'c', title: 't', requirements: [], profile: false, severity: 'MUST', status: 'failed', message: `Received: ${JSON.stringify(module)}`, evidence: [edit.id, cb.id] });
  await a.finish();

  // Between two tests: one of three command registrations, and more of the flood (the log drops
  // from its ring exchanges test A already carried).
  record(log, 'module->gateway', 'bot.command.set');
  for (let i = 0; i < 30; i++) record(log, 'module->system', 'tracking');

  // Test B.
  const b = new Conformance(session, sink(records, 'test B'));
  record(log, 'module->gateway', 'bot.command.set');
  await b.finish();
  record(log, 'module->gateway', 'bot.command.set');

  // The session's own record, written when it ends.
  const own = new Conformance(session, sink(records, 'session', true));
  await own.finish();

  const results = await buildResults({ records, brokenSpecs: [], startedAt: new Date(), durationMs: 1, profile: true });
  const ids = results.exchanges.map((x) => x.id);
  expect(new Set(ids).size, 'each exchange once').toBe(ids.length);
  // Every exchange the log keeps whole is in results.json.
  for (const x of log.all()) expect(ids, `${x.direction} ${x.label} ${x.id}`).toContain(x.id);
  // Per endpoint, `kept` is the number of its exchanges in results.json; count = kept + dropped.
  const per = new Map<string, number>();
  for (const x of results.exchanges) per.set(`${x.direction} ${x.label}`, (per.get(`${x.direction} ${x.label}`) ?? 0) + 1);
  for (const e of results.evidence!.endpoints) {
    expect(e.kept, e.endpoint).toBe(per.get(e.endpoint) ?? 0);
    expect(e.count, e.endpoint).toBe(e.kept + e.dropped);
  }
  expect(results.evidence!.endpoints.find((e) => e.endpoint === 'module->gateway bot.command.set')!.kept).toBe(3);
  // A flood stays bounded in the report: its first and its last exchanges, not the last of each test.
  expect(results.evidence!.endpoints.find((e) => e.endpoint === 'module->system tracking')).toMatchObject({ count: KEEP_FIRST + KEEP_LAST + 40, kept: KEEP_FIRST + KEEP_LAST });
  expect(results.evidence!.endpoints.find((e) => e.endpoint === 'module->gateway transport.channel.activate')!.kept).toBe(1);
  // The clientId appears nowhere: not in the registration recorded before it was known, its
  // accountUrl, a result's message, the evidence of the gateway tokens.
  const all = JSON.stringify(results);
  expect(all).not.toContain(CID);
  const reg = results.exchanges.find((x) => x.id === edit.id)!;
  expect(JSON.parse(new URLSearchParams(reg.request.body!).get('integrationModule')!).accountUrl).toBe(`https://${HOST}/settings/<redacted:clientId>`);
  expect(reg.curl).toContain(`"$CLIENT_ID"`);
  expect(results.evidence!.gateway[0]!.clientId).toBe('<redacted:clientId>');
});
