/**
 * The telephony arbitraries: calls from the extensions the registration knows (externalPhone
 * only when external numbers are configured, and then one of them), calls that cannot start
 * (an unknown code, a phone that is no number), the four statuses, and record probes; every
 * request valid by its query schema; the same seed, the same requests.
 */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { noExtensions, telephonyContextOf } from '../../src/generators/telephony/context.ts';
import { USER_STATUSES, refusedRecord, statusChange, validMakeCall, wrongMakeCall } from '../../src/generators/telephony/requests.ts';

const module = (telephony: Record<string, unknown>) => ({ clientId: 'c-1', integrations: { telephony } });
const WITH_PHONES = telephonyContextOf(
  module({
    makeCallUrl: 'https://m.example/call',
    additionalCodes: [{ userId: 1, code: '101' }, { userId: '2', code: 102 }, { userId: 3 }, { code: '104' }, 'x', { userId: 1, code: '101' }],
    externalPhones: [{ siteCode: 'main', externalPhone: '+4930123456' }, { siteCode: 'outlet', externalPhone: '+4940654321' }, { siteCode: 'x' }],
  }),
);
const WITHOUT_PHONES = telephonyContextOf(module({ additionalCodes: [{ userId: 7, code: '700' }], externalPhones: null }));

/** The query the sender makes of a payload, `clientId` first, as the module reads it. */
const query = (payload: unknown): Record<string, string> => ({ clientId: 'c-1', ...(payload as Record<string, string>) });

test('the context reads the extensions and external numbers of the registration, as text', () => {
  expect(WITH_PHONES.extensions).toEqual([{ userId: '1', code: '101' }, { userId: '2', code: '102' }]);
  expect(WITH_PHONES.externalPhones).toEqual(['+4930123456', '+4940654321']);
  expect(WITHOUT_PHONES.externalPhones).toEqual([]);
  expect(noExtensions(WITH_PHONES)).toBeUndefined();
  expect(noExtensions(telephonyContextOf(module({ makeCallUrl: 'https://m.example/call' })))).toContain('maps no user to an extension code');
  expect(telephonyContextOf({}).extensions).toEqual([]);
});

test('calls that can start: a known extension with its user, a phone number, externalPhone only when configured', () => {
  const seen = new Set<string>();
  for (const c of fc.sample(validMakeCall(WITH_PHONES), { seed: 1, numRuns: 300 })) {
    const p = c.payload as Record<string, string>;
    expect(c.intent).toEqual({ kind: 'valid' });
    expect(WITH_PHONES.extensions).toContainEqual({ userId: p.userId, code: p.code });
    // E.164 digits (8 to 15, a country code first), written with `+` or without, or typed with spaces, dashes, parentheses.
    expect(p.phone).toMatch(/^\+?[1-9][\d ()-]*\d$/);
    expect(p.phone!.replace(/\D/g, '')).toMatch(/^[1-9]\d{7,14}$/);
    if (p.externalPhone !== undefined) expect(WITH_PHONES.externalPhones).toContain(p.externalPhone);
    seen.add(p.externalPhone ?? '(none)');
    const out = contract().validate('telephony/make-call.query.json', query(p));
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  // Both numbers, and calls not tied to a shop.
  expect([...seen].sort()).toEqual(['(none)', '+4930123456', '+4940654321']);
  for (const c of fc.sample(validMakeCall(WITHOUT_PHONES), { seed: 2, numRuns: 100 })) expect(c.payload).not.toHaveProperty('externalPhone');
});

test('calls that cannot start: a phone that is no number at all (wrong, its sentence cited); an unlisted extension code or a phone of letters, open', () => {
  const kinds = new Set<string>();
  for (const c of fc.sample(wrongMakeCall(WITH_PHONES), { seed: 3, numRuns: 300 })) {
    const p = c.payload as Record<string, string>;
    expect(['wrong', 'open']).toContain(c.intent.kind);
    if (c.intent.kind === 'wrong') {
      kinds.add('no number');
      expect(c.intent.field).toBe('phone');
      expect(c.intent.source).toMatch(/^document, .*"HTTP 200 means success/);
      expect(WITH_PHONES.extensions).toContainEqual({ userId: p.userId, code: p.code });
      expect(p.phone!.trim()).toBe('');
    } else if (c.intent.kind === 'open' && !WITH_PHONES.extensions.map((e) => e.code).includes(p.code!)) {
      kinds.add('unlisted code');
      expect(p.code).toMatch(/^\d{6,9}$/);
      expect(p.phone!.replace(/\D/g, '').length).toBeGreaterThanOrEqual(8);
    } else {
      kinds.add('letters');
      expect(WITH_PHONES.extensions).toContainEqual({ userId: p.userId, code: p.code });
      expect(p.phone).toMatch(/^[A-Za-z]+$/);
    }
    const out = contract().validate('telephony/make-call.query.json', query(p));
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  expect([...kinds].sort()).toEqual(['letters', 'no number', 'unlisted code']);
  // An unknown code is unknown even when the known ones look like it.
  const crowded = telephonyContextOf(module({ additionalCodes: Array.from({ length: 50 }, (_, i) => ({ userId: i, code: String(100000 + i) })) }));
  for (const c of fc.sample(wrongMakeCall(crowded), { seed: 4, numRuns: 200 })) {
    if (c.intent.kind === 'open' && /^\d+$/.test((c.payload as Record<string, string>).code!) && !/^[A-Za-z]+$/.test((c.payload as Record<string, string>).phone!)) expect(crowded.extensions.map((e) => e.code)).not.toContain((c.payload as Record<string, string>).code);
  }
});

test('status changes: all four statuses, for users with an extension code', () => {
  const statuses = new Set<string>();
  for (const c of fc.sample(statusChange(WITH_PHONES), { seed: 5, numRuns: 100 })) {
    const p = c.payload as Record<string, string>;
    statuses.add(p.status!);
    expect(WITH_PHONES.extensions).toContainEqual({ userId: p.userId, code: p.code });
    const out = contract().validate('telephony/change-user-status.query.json', query(p));
    expect(out.valid, formatErrors(out.errors)).toBe(true);
  }
  expect([...statuses].sort()).toEqual([...USER_STATUSES].sort());
});

test('record probes: a given recording, without a clientId or with one the module never gave', () => {
  const urls = ['http://m.example/r/1.wav', 'http://m.example/r/2.wav'];
  const kinds = new Set<string>();
  for (const c of fc.sample(refusedRecord(urls, 'c-1'), { seed: 6, numRuns: 200 })) {
    expect(urls).toContain(c.url);
    expect(c.payload).toEqual({});
    expect(c.intent.kind).toBe('refused');
    if (c.intent.kind !== 'refused') continue;
    kinds.add(c.intent.clientId);
    if (c.intent.clientId === 'missing') expect(c.presented).toBeUndefined();
    else expect(c.presented).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(c.presented).not.toBe('c-1');
  }
  expect([...kinds].sort()).toEqual(['missing', 'unknown']);
});

test('the same seed draws the same requests', () => {
  for (const arb of [validMakeCall(WITH_PHONES), wrongMakeCall(WITH_PHONES), statusChange(WITH_PHONES), refusedRecord(['http://m.example/r/1.wav'], 'c-1')]) {
    expect(fc.sample(arb, { seed: 11, numRuns: 20 })).toEqual(fc.sample(arb, { seed: 11, numRuns: 20 }));
  }
});
