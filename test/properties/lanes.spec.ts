/**
 * Lanes (issue 33, item 2): the cases of an independent property in flight at once. On a module
 * played in memory whose answers come back out of order (a later case often ends first), every
 * number of lanes gives the results of one case after the other: the same cases sent, the same
 * tallies, the same first failing case, shrunk to the same request by the same path. A property
 * not marked independent keeps one case at a time whatever the setting; a refusal is credited
 * only by an acceptance of a case before it, as one case after the other would have shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { Exchange } from '../../src/evidence/exchange.ts';
import { ENV_OUT } from '../../src/run/environment.ts';
import { calculateInMemory, inMemoryConformance } from './in-memory.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { AcceptedCalls, fillAcceptance } from '../../src/checks/callbacks/acceptance.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import type { CheckResult } from '../../src/checks/result.ts';

process.env[ENV_OUT] = fs.mkdtempSync(path.join(os.tmpdir(), 'lanes-'));

const conformance = inMemoryConformance;

/** The calculate module in memory, each answer delayed by a wait that falls with the case's number (later cases end first). */
const spec = (log: { sent: string[]; inFlight: number; most: number }, independent: boolean): PropertySpec =>
  calculateInMemory({
    independent,
    answer: async (caseId) => {
      log.sent.push(caseId);
      log.inFlight += 1;
      log.most = Math.max(log.most, log.inFlight);
      const n = Number(/#(\d+)/.exec(caseId)?.[1] ?? 0);
      if (!caseId.includes('.s')) await new Promise((r) => setTimeout(r, 8 - (n % 4) * 2));
      log.inFlight -= 1;
    },
  });

/** What a result says, its evidence's exchange ids aside (those are the cases' ids here, the same in any order). */
const said = (rs: CheckResult[]) => rs.map((r) => ({ check: r.check, status: r.status, message: r.message, property: { ...r.property, counterexample: r.property?.counterexample && { ...r.property.counterexample, file: undefined } } }));

test('any number of lanes gives the results of one case after the other: the same cases, tallies, first failing case and shrunk request', async () => {
  const one = { sent: [] as string[], inFlight: 0, most: 0 };
  const sequential = await runProperty(conformance(), spec(one, true), { seed: 42, runs: 60, timeLimitMs: 30_000, lanes: 1 });
  expect(one.most).toBe(1);
  expect(sequential.map((r) => r.status)).toEqual(['passed', 'passed', 'failed']);
  for (const lanes of [2, 4, 8]) {
    const log = { sent: [] as string[], inFlight: 0, most: 0 };
    const results = await runProperty(conformance(), spec(log, true), { seed: 42, runs: 60, timeLimitMs: 30_000, lanes });
    // The cases were in flight together, as many as the lanes.
    expect(log.most).toBe(lanes);
    expect([...log.sent].sort()).toEqual([...one.sent].sort());
    expect(said(results)).toEqual(said(sequential));
  }
});

test('a property whose cases are not independent runs one case at a time whatever the lanes', async () => {
  const log = { sent: [] as string[], inFlight: 0, most: 0 };
  await runProperty(conformance(), spec(log, false), { seed: 42, runs: 20, timeLimitMs: 30_000, lanes: 8 });
  expect(log.most).toBe(1);
});

test('a refusal is credited by an acceptance of a case before it, never by one of a case after it that ended first', () => {
  const record = new AcceptedCalls();
  const reply = (id: string, caseId: string): Reply => ({ exchange: { id, case: caseId, request: { method: 'POST', url: 'http://127.0.0.1:9/x', headers: {}, bytes: 0 } } as Exchange, status: 200, headers: {}, body: Buffer.from('{"success":true}'), json: { success: true } });
  // Case 5's authorised call ends before case 2's and case 3's probes are judged.
  record.note('delivery.get', reply('x5', 'probe#5.authorised'));
  const refused = (): CaseOutcome => ({ case: { callback: 'delivery.get', payload: {}, intent: { kind: 'refused', clientId: 'unknown' } }, reply: { exchange: { id: 'p' } as Exchange, status: 403, headers: {}, body: Buffer.alloc(0) }, module: {}, profile: true });
  expect(fillAcceptance(refused(), record, { property: 'probe', index: 2 }).accepted).toBeUndefined();
  expect(fillAcceptance(refused(), record, { property: 'probe', index: 5 }).accepted).toBe('x5');
  record.note('delivery.get', reply('x1', 'probe#1'));
  expect(fillAcceptance(refused(), record, { property: 'probe', index: 2 }).accepted).toBe('x1');
  // Seen from another property (later in the run), or without a place: the run's first acceptance.
  expect(fillAcceptance(refused(), record, { property: 'other', index: 0 }).accepted).toBe('x5');
  expect(fillAcceptance(refused(), record).accepted).toBe('x5');
});
