/**
 * The information checks of the module's traffic: what the simulators refused unread or read
 * with a caveat, and the gateway rate per token. Never a failure; each names what it saw.
 */
import { test, expect } from '@playwright/test';
import type { EndpointEvidence, Exchange } from '../../src/evidence/exchange.ts';
import type { TokenRate } from '../../src/evidence/bounded.ts';
import { checkGatewayRateLimitIsKept, checkModuleRequestsAreReadWhole, type TrafficSubject } from '../../src/checks/run/traffic.ts';

const x = (id: string, label: string, bytes: number): Exchange => ({ id, direction: 'module->system', label, startedAt: '', durationMs: 1, request: { headers: {}, bytes } });
const endpoint = (name: string, count: number): EndpointEvidence => ({ endpoint: name, count, kept: count, dropped: 0, bytes: 0, firstAt: '', lastAt: '', statuses: {}, peakPerSecond: 1 });
const quiet: TrafficSubject = { endpoints: [endpoint('module->system tracking', 3)], exchanges: [], anomalies: [], stalled: [{ server: 'system', stalled: 0, malformed: 0 }] };

test('a module whose requests were all read whole passes', async () => {
  expect((await checkModuleRequestsAreReadWhole.run(quiet)).outcome).toBe('pass');
});

test('bodies refused unread, unfinished connections, unparsable requests and read caveats are each named', async () => {
  const verdict = await checkModuleRequestsAreReadWhole.run({
    endpoints: [endpoint('module->system calls.upload (body too large)', 2), endpoint('module->system tracking (incomplete request)', 1), endpoint('gateway->module bot websocket refused frame', 1)],
    exchanges: [x('a', 'calls.upload (body too large)', 64 * 1024 * 1024), x('b', 'calls.upload (body too large)', 5 * 1024 * 1024), x('c', 'tracking (incomplete request)', 7)],
    anomalies: [
      { exchange: 'd', endpoint: 'module->system tracking', anomaly: 'parameter "apiKey" given more than once' },
      { exchange: 'e', endpoint: 'module->system tracking', anomaly: 'parameter "apiKey" given more than once' },
    ],
    stalled: [{ server: 'system', stalled: 100, malformed: 1 }],
  });
  expect(verdict.outcome).toBe('fail');
  expect(verdict.received).toContain("module->system calls.upload: 2 requests with a body over the suite's limit, answered 413 unread (64.0 MB, 5.0 MB)");
  expect(verdict.received).toContain('module->system tracking: 1 request the connection closed on before it was complete (7 bytes)');
  expect(verdict.received).toContain('gateway->module bot websocket: 1 WebSocket message over the frame limit');
  expect(verdict.received).toContain('system: 100 connections on which a request never completed');
  expect(verdict.received).toContain('system: 1 request that could not be parsed as HTTP');
  expect(verdict.received).toContain('module->system tracking: parameter "apiKey" given more than once (2 requests)');
  expect(verdict.evidence).toEqual(['a', 'b', 'c', 'd']);
});

const rate = (over: Partial<TokenRate>): TokenRate => ({ token: '<redacted:transportToken>', requests: 10, peakPerSecond: 10, tooManyRequests: 0, requestsAfterTooMany: 0, peakPerSecondAfterTooMany: 0, afterTooMany: 'never over the limit', ...over });

test('the gateway rate: within the limit passes; 429s are named with the peak rate and what followed', async () => {
  expect((await checkGatewayRateLimitIsKept.run({ tokens: [rate({})], tooMany: [] })).outcome).toBe('pass');
  const verdict = await checkGatewayRateLimitIsKept.run({
    tokens: [rate({}), rate({ token: '<redacted:botToken>', requests: 900, peakPerSecond: 300, tooManyRequests: 700, afterTooMany: 'kept sending at 300/s after its 429s (limit 30/s)' })],
    tooMany: [{ ...x('t', 'bot.messages', 0), direction: 'module->gateway', response: { status: 429, headers: {}, bytes: 0 } }],
  });
  expect(verdict.outcome).toBe('fail');
  expect(verdict.received).toBe('token <redacted:botToken>: 900 requests, peak 300/s, 700 answered 429; kept sending at 300/s after its 429s (limit 30/s)');
  expect(verdict.evidence).toEqual(['t']);
});
