/**
 * Every constraint knows its source: read by the document alone (`--no-profile`), each
 * constraint that rests on the wire profile alone is dropped on its own, even inside a schema
 * that also holds document rules, while the document's rules stay; and where the profile
 * relaxes the document, the document's reading applies without it.
 */
import { test, expect } from '@playwright/test';
import { contract } from '../../src/contract/schemas.ts';
import { ensureErrorBodyMatchesErrorShape, ensureErrorStatusIsAccepted } from '../../src/checks/callbacks/error-reply.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';

const withProfile = contract({ profile: true });
const documentAlone = contract({ profile: false });

interface Case {
  constraint: string;
  schema: string;
  /** Breaks only the profile-only constraint: invalid with the profile, valid by the document alone. */
  profileOnly: unknown;
  /** Breaks a document constraint of the same schema: invalid in both readings. */
  document: unknown;
}

const registration = (delivery: Record<string, unknown>) => ({ code: 'acme', clientId: 'c-1', baseUrl: 'https://acme.example', integrations: { delivery } });

const CASES: Case[] = [
  {
    constraint: 'call event `type` closed to in, out, hangup (profile section 4); codes are strings (document)',
    schema: 'telephony/call-event.json',
    profileOnly: { phone: '+15550100', type: 'ringing', codes: ['101'] },
    document: { phone: '+15550100', type: 'in', codes: [101] },
  },
  {
    constraint: '`statusList` element shape (profile sections 2, 9); `platePrintLimit` is an integer (document)',
    schema: 'registration/integration-module.edit.json',
    profileOnly: registration({ statusList: [{ code: 'x', name: 5, isError: 'no' }] }),
    document: registration({ platePrintLimit: 'many' }),
  },
  {
    constraint: '`plateList` element shape (profile section 2); `plateList` is an array (document)',
    schema: 'registration/integration-module.edit.json',
    profileOnly: registration({ plateList: [{ code: 5, label: ['x'] }] }),
    document: registration({ plateList: 'all' }),
  },
  {
    constraint: 'tracking `updatedAt` in ISO 8601 (profile section 2); at most 100 orders (document)',
    schema: 'delivery/tracking.request.json',
    profileOnly: [{ deliveryId: 'd1', history: [{ code: 'x', updatedAt: '23.11.2026 10:00' }] }],
    document: Array.from({ length: 101 }, (_, i) => ({ deliveryId: `d${i}` })),
  },
  {
    constraint: 'calculate reply holds `result` (profile section 1); `extraDataAvailable` holds data-field codes (document)',
    schema: 'delivery/calculate.reply.json',
    profileOnly: { success: true },
    document: { success: true, result: [], extraDataAvailable: [5] },
  },
  {
    constraint: 'tariff `type` courier or selfDelivery (profile section 2); `extraDataAvailable` is an array (document)',
    schema: 'delivery/calculate.reply.json',
    profileOnly: { success: true, result: [{ code: 't', name: 'T', type: 'drone' }] },
    document: { success: true, result: [], extraDataAvailable: 'all' },
  },
];

for (const c of CASES) {
  test(`${c.constraint}: dropped alone by the document-alone reading`, () => {
    const p = withProfile.validate(c.schema, c.profileOnly);
    expect(p.valid, 'breaks the profile-only constraint').toBe(false);
    expect(documentAlone.validate(c.schema, c.profileOnly).errors, 'valid by the document alone').toEqual([]);
    expect(withProfile.validate(c.schema, c.document).valid, 'a document rule, with the profile').toBe(false);
    expect(documentAlone.validate(c.schema, c.document).valid, 'the same document rule, by the document alone').toBe(false);
  });
}

test('where the profile relaxes a schema (withdrawn ISO 4217 codes), the document reading applies without it', () => {
  for (const code of ['HRK', 'MRO', 'SLL', 'STD', 'ANG', 'BGN']) {
    expect(withProfile.validate('registration/currency-iso4217-listed.json', code).valid).toBe(true);
    expect(documentAlone.validate('registration/currency-iso4217-listed.json', code).valid).toBe(false);
  }
  expect(documentAlone.validate('registration/currency-iso4217-listed.json', 'EUR').valid).toBe(true);
});

test('where the profile relaxes a check (errors with 4xx), the document reading applies without it', async () => {
  const reply = (status: number, body: unknown): Reply => ({
    exchange: { id: 'x1' } as Exchange,
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
    json: body,
  });
  const error = { success: false, errorMsg: 'weight must be above zero' };
  const verdict = async (r: Reply, profile: boolean) => (await ensureErrorStatusIsAccepted.run({ reply: r, profile })).outcome;
  const shape = async (r: Reply, profile: boolean) => (await ensureErrorBodyMatchesErrorShape.run({ reply: r, profile })).outcome;
  expect(await verdict(reply(200, error), true)).toBe('pass');
  expect(await verdict(reply(200, error), false)).toBe('pass');
  expect(await verdict(reply(400, error), true)).toBe('pass');
  expect(await verdict(reply(404, error), true)).toBe('pass');
  expect(await verdict(reply(400, error), false)).toBe('fail');
  expect(await verdict(reply(500, error), true)).toBe('fail');
  expect(await shape(reply(200, { success: false }), true)).toBe('fail');
  const text: Reply = { exchange: { id: 'x2' } as Exchange, status: 403, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Forbidden') };
  expect(await shape(text, true)).toBe('fail');
});
