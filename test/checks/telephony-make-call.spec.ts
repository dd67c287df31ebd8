/**
 * The makeCallUrl and changeUserStatusUrl rules on canned replies: a call the module can start is
 * answered 200 exactly; one it cannot start is answered anything but 200; no answer is the
 * answered rule's, never theirs. And the telephony properties apply them with their ids.
 */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseIntent, CaseOutcome } from '../../src/checks/case.ts';
import { ensureStartedCallAnswers200, ensureUnstartableCallIsNot200 } from '../../src/checks/telephony/make-call.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { CHANGE_USER_STATUS, MAKE_CALL_VALID, MAKE_CALL_WRONG } from '../../src/checks/telephony/applications.ts';

const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => (await check.run(o)) as { outcome: string; received?: string; expected?: string };

const VALID: CaseIntent = { kind: 'valid' };
const UNKNOWN_CODE: CaseIntent = { kind: 'wrong', field: 'code', why: 'extension code "4711000" is not in the registration\'s additionalCodes' };
const NO_PHONE: CaseIntent = { kind: 'wrong', field: 'phone', why: 'the phone "abc" holds no digit' };

/** A makeCall answered `status` with `body` (undefined status: no answer). */
function answered(intent: CaseIntent, status: number | undefined, body = ''): CaseOutcome {
  const reply: Reply =
    status === undefined
      ? { exchange: { id: 'x1' } as Exchange, headers: {}, body: Buffer.alloc(0), error: 'no complete reply within 10000 ms' }
      : { exchange: { id: 'x1' } as Exchange, status, headers: { 'content-type': 'text/plain' }, body: Buffer.from(body) };
  return { case: { callback: 'telephony.makeCall', payload: { code: '101', phone: '+4915112345678', userId: '1' }, intent }, reply, module: {}, profile: true };
}

test('a call the module can start is answered HTTP 200, exactly; the body is ignored', async () => {
  expect((await run(ensureStartedCallAnswers200, answered(VALID, 200))).outcome).toBe('pass');
  expect((await run(ensureStartedCallAnswers200, answered(VALID, 200, '{"success":false}'))).outcome).toBe('pass');
  for (const status of [201, 202, 204, 302, 400, 403, 500]) {
    const v = await run(ensureStartedCallAnswers200, answered(VALID, status));
    expect(v.outcome, String(status)).toBe('fail');
    expect(v.received).toContain(`HTTP ${status}`);
    expect(v.received).toContain('code "101"');
    expect(v.expected).toContain('HTTP 200');
  }
  // No answer is the answered rule's; a call that cannot start is the other rule's.
  expect((await run(ensureStartedCallAnswers200, answered(VALID, undefined))).outcome).toBe('notApplicable');
  expect((await run(ensureStartedCallAnswers200, answered(UNKNOWN_CODE, 400))).outcome).toBe('notApplicable');
});

test('a call the module cannot start is answered anything but 200', async () => {
  for (const intent of [UNKNOWN_CODE, NO_PHONE]) {
    for (const status of [201, 204, 400, 401, 404, 422, 500]) expect((await run(ensureUnstartableCallIsNot200, answered(intent, status))).outcome, String(status)).toBe('pass');
    const v = await run(ensureUnstartableCallIsNot200, answered(intent, 200, '{"success":true}'));
    expect(v.outcome).toBe('fail');
    expect(v.received).toContain(intent.kind === 'wrong' ? intent.why : '');
    expect(v.expected).toContain('any status but 200');
    expect((await run(ensureUnstartableCallIsNot200, answered(intent, undefined))).outcome).toBe('notApplicable');
  }
  expect((await run(ensureUnstartableCallIsNot200, answered(VALID, 200))).outcome).toBe('notApplicable');
});

test('the telephony properties apply their rules with their requirement ids', () => {
  const of = (name: string) => propertyChecks(name, true).map((c) => [c.check.name, c.app.requirements.join(',')]);
  expect(of(MAKE_CALL_VALID)).toEqual([
    ['ensureStartedCallAnswers200', 'TEL-MAKECALL-200-SUCCESS'],
    ['ensureCallbackIsAnswered', 'TEL-MAKECALLURL-URL'],
  ]);
  expect(of(MAKE_CALL_WRONG)).toEqual([
    ['ensureUnstartableCallIsNot200', 'TEL-MAKECALL-200-SUCCESS'],
    ['ensureCallbackIsAnswered', 'TEL-MAKECALLURL-URL'],
  ]);
  // The status change's answer is ignored, but it must come: a hang, a reset or nothing listening fails.
  expect(of(CHANGE_USER_STATUS)).toEqual([['ensureCallbackIsAnswered', 'TEL-CHANGEUSERSTATUSURL-URL']]);
});

test('a status change left unanswered fails the answered rule: a timeout, a reset, nothing listening', async () => {
  const [answeredRule] = propertyChecks(CHANGE_USER_STATUS, true);
  const outcome = (reply: Partial<Reply>): CaseOutcome => ({
    case: { callback: 'telephony.changeUserStatus', payload: { userId: '1', code: '101', status: 'dinner' }, intent: VALID },
    reply: { exchange: { id: 'x1' } as Exchange, headers: {}, body: Buffer.alloc(0), ...reply },
    module: {},
    profile: true,
  });
  for (const error of ['no complete reply within 10000 ms', 'socket hang up', 'connect ECONNREFUSED 127.0.0.1:9']) expect((await run(answeredRule!.check, outcome({ error }))).outcome, error).toBe('fail');
  // Any status with any body is an answer: the system ignores both.
  for (const status of [200, 204, 404, 500]) expect((await run(answeredRule!.check, outcome({ status, body: Buffer.from('whatever') }))).outcome, String(status)).toBe('pass');
});
