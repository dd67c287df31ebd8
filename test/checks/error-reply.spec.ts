/**
 * The error-answer rules of wire profile section 1, each against canned answers: one rule, one
 * check. An answer fails only the rules it breaks; a rule the answer does not exercise (the
 * errorMsg rule on a body that is not JSON, any rule on a success or on no answer) is not
 * applicable, never passed nor failed.
 */
import { test, expect } from '@playwright/test';
import {
  ensureErrorBodyCarriesErrorMsg,
  ensureErrorBodyIsJson,
  ensureErrorBodyMatchesErrorShape,
  ensureErrorStatusIsAccepted,
  ensureErrorStatusIsNot5xx,
} from '../../src/checks/callbacks/error-reply.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { Outcome } from '../../src/checks/check.ts';

const ERROR = { success: false, errorMsg: 'clientId is unknown' };

function json(status: number, body: unknown): Reply {
  return { exchange: { id: 'x1' } as Exchange, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)), json: body };
}

function text(status: number, body: string): Reply {
  return { exchange: { id: 'x1' } as Exchange, status, headers: { 'content-type': 'text/plain' }, body: Buffer.from(body), jsonError: body ? 'Unexpected token' : 'empty body' };
}

const CANNED: Record<string, Reply> = {
  '200 error body': json(200, ERROR),
  '403 error body': json(403, ERROR),
  '404 error body': json(404, ERROR),
  '500 error body': json(500, ERROR),
  '503 text': text(503, 'Service Unavailable'),
  '403 without errorMsg': json(403, { success: false }),
  '403 errorMsg null': json(403, { success: false, errorMsg: null }),
  '403 errorMsg not text': json(403, { success: false, errorMsg: { code: 'unknown_client' } }),
  '403 JSON array': json(403, ['clientId is unknown']),
  '403 text': text(403, 'Forbidden'),
  '403 empty': text(403, ''),
  '201 error body': json(201, ERROR),
  '302 error body': json(302, ERROR),
  '200 success': json(200, { success: true }),
  'no answer': { exchange: { id: 'x1' } as Exchange, headers: {}, body: Buffer.alloc(0), error: 'no complete reply within 10000 ms' },
};

type Row = Record<keyof typeof CANNED, Outcome>;
const P = 'pass', F = 'fail', N = 'notApplicable';

/** Expected outcome of each rule on each canned answer (read with the wire profile). */
const EXPECTED: Record<string, Row> = {
  ensureErrorStatusIsAccepted: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': F, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': P, '403 empty': P, '201 error body': F, '302 error body': F, '200 success': N, 'no answer': N,
  },
  ensureErrorStatusIsNot5xx: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': F, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': P, '403 empty': P, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
  },
  ensureErrorBodyIsJson: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': F, '403 empty': F, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
  },
  ensureErrorBodyCarriesErrorMsg: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': N, '403 without errorMsg': F, '403 errorMsg null': F,
    '403 errorMsg not text': P, '403 JSON array': F, '403 text': N, '403 empty': N, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
  },
  ensureErrorBodyMatchesErrorShape: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': F, '403 without errorMsg': F, '403 errorMsg null': F,
    '403 errorMsg not text': F, '403 JSON array': F, '403 text': F, '403 empty': F, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
  },
};

const RUN: Record<string, (r: Reply, profile: boolean) => Promise<Outcome>> = {
  ensureErrorStatusIsAccepted: async (reply, profile) => (await ensureErrorStatusIsAccepted.run({ reply, profile })).outcome,
  ensureErrorStatusIsNot5xx: async (reply) => (await ensureErrorStatusIsNot5xx.run(reply)).outcome,
  ensureErrorBodyIsJson: async (reply) => (await ensureErrorBodyIsJson.run(reply)).outcome,
  ensureErrorBodyCarriesErrorMsg: async (reply) => (await ensureErrorBodyCarriesErrorMsg.run(reply)).outcome,
  ensureErrorBodyMatchesErrorShape: async (reply, profile) => (await ensureErrorBodyMatchesErrorShape.run({ reply, profile })).outcome,
};

for (const [check, row] of Object.entries(EXPECTED)) {
  test(`${check}: fails only the answers that break its rule`, async () => {
    const got: Record<string, Outcome> = {};
    for (const name of Object.keys(CANNED)) got[name] = await RUN[check]!(CANNED[name]!, true);
    expect(got).toEqual(row);
  });
}

test('a 403 JSON {success: false} without errorMsg fails the errorMsg and shape rules only, not the 5xx, JSON or status rules', async () => {
  const reply = CANNED['403 without errorMsg']!;
  const failing: string[] = [];
  for (const check of Object.keys(RUN)) if ((await RUN[check]!(reply, true)) === 'fail') failing.push(check);
  expect(failing.sort()).toEqual(['ensureErrorBodyCarriesErrorMsg', 'ensureErrorBodyMatchesErrorShape']);
});

test('a 404 with the error body holds every rule with the profile; by the document alone its status is not accepted (HTTP 200 only)', async () => {
  const reply = CANNED['404 error body']!;
  for (const check of Object.keys(RUN)) expect(await RUN[check]!(reply, true), check).toBe('pass');
  expect(await RUN.ensureErrorStatusIsAccepted!(reply, false)).toBe('fail');
  expect(await RUN.ensureErrorStatusIsAccepted!(CANNED['403 error body']!, false)).toBe('fail');
  expect(await RUN.ensureErrorStatusIsAccepted!(CANNED['200 error body']!, false)).toBe('pass');
});

test('a failure reads what was received and what was expected, and points at the exchange', async () => {
  const v = await ensureErrorBodyCarriesErrorMsg.run(CANNED['403 without errorMsg']!);
  expect(v.received).toBe('HTTP 403 (application/json) {"success":false}');
  expect(v.expected).toMatch(/errorMsg/);
  expect(v.evidence).toEqual(['x1']);
  const s = await ensureErrorStatusIsNot5xx.run(CANNED['500 error body']!);
  expect(s.received).toMatch(/^HTTP 500 /);
  expect(s.expected).toMatch(/not a 5xx/);
});
