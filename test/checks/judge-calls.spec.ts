/**
 * Calls of the module to the system that are alike in everything the judgement reads (a retry
 * loop gone wild) are judged once, and the results say how many more were alike; calls that
 * differ in anything judged are judged apart.
 */
import { test, expect } from '@playwright/test';
import { EvidenceLog, type Exchange } from '../../src/evidence/exchange.ts';
import { Conformance, type RecordSink } from '../../src/run/conformance.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { InboundCall } from '../../src/simulators/system-endpoints.ts';
import { judgeSystemCalls } from '../../src/run/system-calls.ts';

const STATUS = [{ deliveryId: 'D-1', history: [{ code: 'delivered', updatedAt: '2024-05-20T10:15:00+03:00' }] }];

function call(id: string, payload: unknown, path = '/api/v5/delivery/generic/desk/tracking'): InboundCall {
  const exchange: Exchange = {
    id,
    direction: 'module->system',
    label: 'tracking',
    startedAt: '',
    durationMs: 1,
    request: { method: 'POST', url: `http://127.0.0.1:9${path}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, bytes: 10 },
    response: { status: 200, headers: {}, bytes: 16 },
  };
  return { endpoint: 'tracking', exchange, params: { subcode: path.split('/')[5]! }, apiKeyVia: ['form'], payload, schemaErrors: [], accepted: true, version: 'v5', apiKeyValid: true };
}

/** A session with just what judging reads: the calls (for their exchanges), the module's code, the profile. */
function conformance(calls: InboundCall[]): Conformance {
  const session = { log: new EvidenceLog(), judged: new Set<string>(), registration: { code: 'desk' }, config: { profile: true }, system: { calls, unsimulated: [] }, gateway: { calls: [] } } as unknown as RunSession;
  const sink: RecordSink = { spec: 'test', annotate: () => undefined, write: async () => undefined };
  return new Conformance(session, sink);
}

test('a thousand identical tracking pushes are judged once; the results name the others, and all are marked judged', async () => {
  const calls = Array.from({ length: 1000 }, (_, i) => call(`x${i}`, STATUS));
  const c = conformance(calls);
  await judgeSystemCalls(c, calls);
  const checks = c.results.map((r) => r.check);
  expect(new Set(checks).size).toBe(checks.length);
  expect(checks).toContain('ensureSystemCallPayloadDecodes');
  expect(c.results.every((r) => r.status === 'passed')).toBe(true);
  for (const r of c.results) {
    expect(r.message).toContain('The same for 999 more calls alike in everything judged (not judged again).');
    expect(r.evidence).toEqual(expect.arrayContaining(['x0', 'x1', 'x2']));
  }
  expect(c.session.judged.size).toBe(1000);
});

test('calls that differ in what is judged (the subcode) are judged apart; payloads its rules judge alike (schema rules only: the same schema outcome) are one group', async () => {
  const calls = [call('a', STATUS), call('b', [{ ...STATUS[0], deliveryId: 'D-2' }]), call('c', STATUS, '/api/v5/delivery/generic/other/tracking'), call('d', STATUS)];
  const c = conformance(calls);
  await judgeSystemCalls(c, calls);
  const decodes = c.results.filter((r) => r.check === 'ensureSystemCallPayloadDecodes');
  expect(decodes.map((r) => r.evidence[0])).toEqual(['a', 'c']);
  expect(decodes[0]!.message).toContain('The same for 2 more calls alike');
  expect(c.results.filter((r) => r.status === 'failed').map((r) => r.check)).toEqual(['ensureTrackingSubcodeIsModuleCode']);
});
