/**
 * The rate-limit checks on canned records: per-second traffic of a token (the rate backs off:
 * three seconds in a row above 30 fail, one or two are the gateway's to refuse), and the
 * requests that carried customer messages or a bot's answers (none lost; a resend keeps its
 * external id; the 429s of a module whose own rate stayed above the limit judge nothing).
 */
import { test, expect } from '@playwright/test';
import { ensureEveryMessageArrives, ensureRateBacksOff, ensureRetryKeepsExternalId, secondsOver, type ItemSend } from '../../src/checks/chat/rate.ts';
import type { SecondOfTraffic } from '../../src/evidence/bounded.ts';
import { catalogue } from '../../src/contract/catalogue.ts';

const sec = (second: number, requests: number, tooMany = 0, forced = 0): SecondOfTraffic => ({ second, requests, tooMany, forced, upgrades: 0 });
const send = (key: string, status: number, n: number, content?: string): ItemSend => ({ key, status, exchange: `x${n}`, ...(content !== undefined ? { content } : {}) });

test.describe('ensureRateBacksOff', () => {
  test('within the limit, a few refused requests a second over it, or far above it for one or two seconds in a row: passes', async () => {
    const within = await ensureRateBacksOff.run({ who: 'the transport', seconds: [sec(100, 30), sec(101, 12, 4, 4), sec(102, 30)] });
    expect(within.outcome).toBe('pass');
    expect(within.detail).toMatch(/72 requests over 3 seconds, peak 30 in one second; never above 45; 4 answered 429 \(4 forced/);
    // A module that paces itself at the limit and resends its 429s after a pause: a few over 30, every second.
    const probing = await ensureRateBacksOff.run({ who: 'the transport', seconds: [sec(100, 33, 3), sec(101, 34, 4), sec(102, 33, 3), sec(103, 35, 5)] });
    expect(probing.outcome).toBe('pass');
    const twice = await ensureRateBacksOff.run({ who: 'the bot', seconds: [sec(100, 90, 60), sec(101, 50, 20), sec(102, 20), sec(103, 46, 16), sec(104, 46, 16)] });
    expect(twice.outcome).toBe('pass');
    expect(twice.detail).toMatch(/above 45 in 4 second\(s\), at most 2 in a row/);
  });

  test('three seconds in a row above 45 fail; seconds apart or with a gap between them do not make a row', async () => {
    const tight = await ensureRateBacksOff.run({ who: 'the transport', seconds: [sec(100, 30), sec(101, 900, 870, 300), sec(102, 1100, 1070), sec(103, 46, 16), sec(104, 10)], evidence: ['e1'] });
    expect(tight.outcome).toBe('fail');
    expect(tight.received).toMatch(/stayed above 30 requests a second \(over 45\) for 3 seconds in a row: .*900 \(870 answered 429, 300 of them forced\); .*1100 \(1070 answered 429\); .*46 \(16 answered 429\) \(peak 1100\/s/);
    expect(tight.evidence).toEqual(['e1']);
    // 101 and 103 are over, 102 has no request at all: no row of three.
    const gap = await ensureRateBacksOff.run({ who: 'the transport', seconds: [sec(101, 60), sec(103, 60), sec(104, 60)] });
    expect(gap.outcome).toBe('pass');
    expect(secondsOver([sec(1, 46), sec(2, 46), sec(4, 46), sec(5, 46), sec(6, 46), sec(7, 45)]).longest.map((s) => s.second)).toEqual([4, 5, 6]);
  });

  test('no request: not applicable', async () => {
    expect((await ensureRateBacksOff.run({ who: 'the bot', seconds: [] })).outcome).toBe('notApplicable');
  });
});

test.describe('ensureEveryMessageArrives', () => {
  const base = { noun: 'customer messages', keyName: 'message.external_id' };

  test('every message accepted, a 429 resent: passes; no 429 at all: not applicable', async () => {
    const sends = [send('a', 200, 1), send('b', 429, 2), send('b', 429, 3), send('b', 200, 4), send('c', 200, 5)];
    const v = await ensureEveryMessageArrives.run({ ...base, asked: 3, sends });
    expect(v.outcome).toBe('pass');
    expect(v.detail).toMatch(/all 3 customer messages arrived .*2 requests answered 429/);
    expect((await ensureEveryMessageArrives.run({ ...base, asked: 2, sends: [send('a', 200, 1), send('b', 200, 2)] })).outcome).toBe('notApplicable');
  });

  test('a 429\'d message never resent is lost: fails with its refusal as evidence', async () => {
    const sends = [send('a', 200, 1), send('b', 429, 2), send('c', 429, 3), send('d', 200, 4)];
    const v = await ensureEveryMessageArrives.run({ ...base, asked: 4, sends });
    expect(v.outcome).toBe('fail');
    expect(v.received).toMatch(/^2 of 4 customer messages arrived .*2 requests were answered 429, 2 of them never accepted \(b, c\)/);
    expect(v.evidence).toEqual(['x2', 'x3']);
  });

  test('a bot\'s answers by chat: each chat asked must get one', async () => {
    const bot = { noun: 'answers to commands', keyName: 'chat_id', asked: 3, askedKeys: ['1', '2', '3'] };
    const ok = await ensureEveryMessageArrives.run({ ...bot, sends: [send('1', 200, 1), send('2', 429, 2), send('3', 200, 3), send('2', 200, 4)] });
    expect(ok.outcome).toBe('pass');
    const lost = await ensureEveryMessageArrives.run({ ...bot, sends: [send('1', 200, 1), send('2', 429, 2), send('3', 200, 3)] });
    expect(lost.outcome).toBe('fail');
    expect(lost.received).toMatch(/^1 of 3 answers to commands never arrived \(chat_id 2\)/);
    expect(lost.evidence).toEqual(['x2']);
    // Answers sent into chats no command came from: ensureBotAnswersInItsChat's to judge.
    const elsewhere = await ensureEveryMessageArrives.run({ ...bot, sends: [send('7', 200, 1), send('8', 429, 2), send('8', 200, 3)] });
    expect(elsewhere.outcome).toBe('notApplicable');
    expect(elsewhere.detail).toMatch(/ensureBotAnswersInItsChat/);
  });

  test('the module\'s own rate above the limit: not applicable (one cause, one failing check)', async () => {
    const v = await ensureEveryMessageArrives.run({ ...base, asked: 2, sends: [send('a', 429, 1)], ownRate: 'its own rate stayed above 30 requests a second for 5 seconds in a row' });
    expect(v.outcome).toBe('notApplicable');
    expect(v.detail).toMatch(/ensureRateBacksOff/);
  });
});

test.describe('ensureRetryKeepsExternalId', () => {
  test('resent under the same external id: passes', async () => {
    const v = await ensureRetryKeepsExternalId.run({ asked: 2, sends: [send('a', 200, 1, 'A'), send('b', 429, 2, 'B'), send('b', 200, 3, 'B')] });
    expect(v.outcome).toBe('pass');
    expect(v.detail).toMatch(/^1 messages answered 429 were resent under the same message\.external_id/);
  });

  test('resent under a new external id: fails, the refused and the resent request paired by content', async () => {
    const sends = [send('a', 200, 1, 'A'), send('b', 429, 2, 'B'), send('c', 200, 3, 'C'), send('b-r1', 200, 4, 'B')];
    const v = await ensureRetryKeepsExternalId.run({ asked: 3, sends });
    expect(v.outcome).toBe('fail');
    expect(v.received).toMatch(/^4 distinct message\.external_id sent for 3 messages; 1 external ids answered 429 never came again, their messages resent under new ones \(b -> b-r1\)/);
    expect(v.evidence).toEqual(['x2', 'x4']);
  });

  test('not resent at all (lost) or never 429\'d: not applicable, lost messages are ensureEveryMessageArrives\'s', async () => {
    const lost = await ensureRetryKeepsExternalId.run({ asked: 3, sends: [send('a', 200, 1), send('b', 429, 2), send('c', 200, 3)] });
    expect(lost.outcome).toBe('notApplicable');
    expect(lost.detail).toMatch(/ensureEveryMessageArrives/);
    expect((await ensureRetryKeepsExternalId.run({ asked: 1, sends: [send('a', 200, 1)] })).outcome).toBe('notApplicable');
  });
});

test.describe('the resend after a 429 is a SHOULD (issue 31, item 7)', () => {
  test('Errors 6 states the gateway\'s 429, no sentence binds the module to resend: the catalogue level is SHOULD, and the failures say why', async () => {
    for (const id of ['TRN-RATE-LIMIT-BACKOFF', 'BOT-RATE-LIMIT-BACKOFF']) expect(catalogue().get(id).level, id).toBe('SHOULD');
    expect(catalogue().get('GEN-RATE-30-PER-SECOND').level).toBe('MUST');
    const lost = await ensureEveryMessageArrives.run({ noun: 'customer messages', keyName: 'message.external_id', asked: 2, sends: [send('a', 200, 1), send('b', 429, 2)] });
    expect(lost.outcome).toBe('fail');
    expect(lost.expected).toMatch(/a warning: Errors 6 states that the gateway answers 429 above 30 requests a second; no sentence binds the module to resend a refused request/);
    const bot = await ensureEveryMessageArrives.run({ noun: 'answers to commands', keyName: 'chat_id', asked: 1, askedKeys: ['1'], sends: [send('1', 429, 1)] });
    expect(bot.expected).toMatch(/no sentence binds the module to resend/);
    const renamed = await ensureRetryKeepsExternalId.run({ asked: 2, sends: [send('a', 200, 1, 'A'), send('b', 429, 2, 'B'), send('b2', 200, 3, 'B')] });
    expect(renamed.outcome).toBe('fail');
    expect(renamed.expected).toMatch(/a warning: Errors 6 states that the gateway answers 429 above 30 requests a second; no sentence binds the module to resend a refused request/);
  });
});
