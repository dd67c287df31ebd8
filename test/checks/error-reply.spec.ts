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
  // Hostile answers (issue 22, item 6): a redirect to itself, a body that is not UTF-8, a reply that broke off.
  '302 redirect': { ...text(302, 'Found. Redirecting to /delivery/calculate'), headers: { 'content-type': 'text/plain', location: '/delivery/calculate' } },
  '200 not UTF-8': { ...text(200, '{"success":true,"result":"Gr\ufffd\ufffde"}'), jsonError: 'not valid UTF-8 (a JSON text is UTF-8, RFC 8259): byte 0xF6 at offset 28 does not belong to a UTF-8 sequence' },
  'broken off': {
    exchange: { id: 'x1', response: { status: 200, headers: {}, bytes: 20 } } as unknown as Exchange,
    headers: { 'content-type': 'application/json' },
    body: Buffer.alloc(0),
    error: 'reply body shorter than its Content-Length: 20 of 120 bytes, then the connection closed',
  },
};

type Row = Record<keyof typeof CANNED, Outcome>;
const P = 'pass', F = 'fail', N = 'notApplicable';

/** Expected outcome of each rule on each canned answer (read with the wire profile). */
const EXPECTED: Record<string, Row> = {
  ensureErrorStatusIsAccepted: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': F, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': P, '403 empty': P, '201 error body': F, '302 error body': F, '200 success': N, 'no answer': N,
    '302 redirect': F, '200 not UTF-8': P, 'broken off': N,
  },
  ensureErrorStatusIsNot5xx: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': F, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': P, '403 empty': P, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
    '302 redirect': P, '200 not UTF-8': P, 'broken off': N,
  },
  ensureErrorBodyIsJson: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': F, '403 without errorMsg': P, '403 errorMsg null': P,
    '403 errorMsg not text': P, '403 JSON array': P, '403 text': F, '403 empty': F, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
    '302 redirect': F, '200 not UTF-8': F, 'broken off': N,
  },
  ensureErrorBodyCarriesErrorMsg: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': N, '403 without errorMsg': F, '403 errorMsg null': F,
    '403 errorMsg not text': P, '403 JSON array': F, '403 text': N, '403 empty': N, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
    '302 redirect': N, '200 not UTF-8': N, 'broken off': N,
  },
  ensureErrorBodyMatchesErrorShape: {
    '200 error body': P, '403 error body': P, '404 error body': P, '500 error body': P, '503 text': F, '403 without errorMsg': F, '403 errorMsg null': F,
    '403 errorMsg not text': F, '403 JSON array': F, '403 text': F, '403 empty': F, '201 error body': P, '302 error body': P, '200 success': N, 'no answer': N,
    '302 redirect': F, '200 not UTF-8': F, 'broken off': N,
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

test('a redirect is judged as the answer it is, never followed: its status is no accepted error status, its text body not JSON, and the failure names where it points', async () => {
  const reply = CANNED['302 redirect']!;
  const v = await ensureErrorStatusIsAccepted.run({ reply, profile: true });
  expect(v.outcome).toBe('fail');
  expect(v.received).toBe('HTTP 302 redirecting to "/delivery/calculate" (the suite follows no redirect) (text/plain) "Found. Redirecting to /delivery/calculate"');
  expect(v.expected).toBe('HTTP 200 or 4xx (wire profile section 1)');
});

test('a body that is not UTF-8 is not JSON: both body rules say why', async () => {
  const reply = CANNED['200 not UTF-8']!;
  for (const v of [await ensureErrorBodyIsJson.run(reply), await ensureErrorBodyMatchesErrorShape.run({ reply, profile: true })]) {
    expect(v.outcome).toBe('fail');
    expect(v.received).toMatch(/\(not JSON: not valid UTF-8 \(a JSON text is UTF-8, RFC 8259\): byte 0xF6 at offset 28/);
  }
});

test('a reply that broke off is no answer: the answered rule fails it, naming its status and what broke, and no error rule judges it', async () => {
  const { ensureCallbackIsAnswered } = await import('../../src/checks/callbacks/answered.ts');
  const reply = CANNED['broken off']!;
  const v = await ensureCallbackIsAnswered.run(reply);
  expect(v.outcome).toBe('fail');
  expect(v.received).toBe('HTTP 200, not a complete reply (reply body shorter than its Content-Length: 20 of 120 bytes, then the connection closed)');
  expect((await ensureCallbackIsAnswered.run(CANNED['no answer']!)).received).toBe('no reply (no complete reply within 10000 ms)');
});
