/**
 * PAY-SHOPS-SHAPE: every payment shop is `{code, name, active}` (a non-empty code, a name,
 * active true or false), judged by ensureShopsHaveCodeNameActive alone (the payment region's
 * generic schema check leaves the shops' errors to it), with a message that names the shop by
 * its index and the member; as tolerant as the platform: null reads as absent, repeated codes
 * and unknown members are not refused.
 */
import { test, expect } from '@playwright/test';
import { judgeRegistration } from '../../src/checks/registration/judge.ts';
import type { CheckResult } from '../../src/checks/result.ts';

const registration = (shops: unknown): Record<string, unknown> => ({
  code: 'pay',
  clientId: 'client-1',
  baseUrl: 'https://pay.example.com',
  actions: { activity: '/activity' },
  integrations: { payment: { actions: { create: '/create' }, currencies: ['EUR'], invoiceTypes: ['link'], ...(shops === undefined ? {} : { shops }) } },
});

const MAIN = { code: 'main', name: 'Main shop', active: true };

async function judged(shops: unknown, profile = true): Promise<{ failed: CheckResult[]; shape: CheckResult[] }> {
  const results = await judgeRegistration(registration(shops), { profile });
  return {
    failed: results.filter((r) => r.status === 'failed' || r.status === 'warning'),
    shape: results.filter((r) => r.requirements.includes('PAY-SHOPS-SHAPE')),
  };
}

for (const profile of [true, false]) {
  const view = profile ? 'with the profile' : 'the document alone';

  test(`well-formed shops pass, and only ensureShopsHaveCodeNameActive carries PAY-SHOPS-SHAPE (${view})`, async () => {
    const { failed, shape } = await judged([MAIN, { code: 'outlet', name: 'Outlet', active: false }], profile);
    expect(failed).toEqual([]);
    expect(shape.map((r) => [r.check, r.status])).toEqual([['ensureShopsHaveCodeNameActive', 'passed']]);
  });

  test(`a shop without active fails ensureShopsHaveCodeNameActive alone, naming the shop and the member (${view})`, async () => {
    const { failed } = await judged([MAIN, { code: 'outlet', name: 'Outlet' }], profile);
    expect(failed.map((r) => r.check)).toEqual(['ensureShopsHaveCodeNameActive']);
    expect(failed[0]!.requirements).toEqual(['PAY-SHOPS-SHAPE']);
    expect(failed[0]!.message).toContain('shop 1 (code "outlet") has no active');
    expect(failed[0]!.message).toContain('active, true or false');
  });
}

test('each member is judged: missing, null (read as absent), of the wrong type, an empty code', async () => {
  const cases: Array<[unknown, string[]]> = [
    [[{ name: 'Main shop', active: true }], ['shop 0 has no code']],
    [[{ code: 'main', active: true }], ['shop 0 (code "main") has no name']],
    [[{ code: 'main', name: 'Main shop', active: null }], ['shop 0 (code "main") has no active']],
    [[{ code: '', name: 'Main shop', active: true }], ['shop 0: code = ""']],
    [[MAIN, { code: 5, name: 7, active: 'yes' }], ['shop 1: code = 5', 'shop 1: name = 7', 'shop 1: active = "yes"']],
    [[MAIN, 'outlet'], ['shop 1 = "outlet"']],
    [{ main: MAIN }, ['shops = {"main":']],
  ];
  for (const [shops, said] of cases) {
    const { failed } = await judged(shops);
    expect(failed.map((r) => r.check), JSON.stringify(shops)).toEqual(['ensureShopsHaveCodeNameActive']);
    for (const s of said) expect(failed[0]!.message, JSON.stringify(shops)).toContain(s);
  }
});

test('as tolerant as the platform: repeated codes, unknown members, null members that are not required', async () => {
  const { failed, shape } = await judged([MAIN, { ...MAIN, name: 'Main again', description: null, sort: 1 }]);
  expect(failed).toEqual([]);
  expect(shape.map((r) => r.status)).toEqual(['passed']);
});

test('without shops, or with an empty list, the rule tested nothing: not applicable', async () => {
  for (const shops of [undefined, null, []]) {
    const { failed, shape } = await judged(shops);
    expect(failed).toEqual([]);
    expect(shape.map((r) => [r.check, r.status]), JSON.stringify(shops)).toEqual([['ensureShopsHaveCodeNameActive', 'notApplicable']]);
  }
});
