/**
 * A telephony registration judged as the platform reads it (issue 24, item 5), with the wire
 * profile and with the document alone: the shapes of `additionalCodes` and `externalPhones`,
 * `allowEdit`, absolute URLs; each broken statement fails under its own id and no other, and what
 * real modules send (JSON null for an unset member, an empty list, a userId as text) passes.
 */
import { test, expect } from '@playwright/test';
import { judgeRegistration } from '../../src/checks/registration/judge.ts';

const registration = (telephony: Record<string, unknown>): Record<string, unknown> => ({
  code: 'pbx',
  integrationCode: 'pbx',
  active: true,
  name: 'PBX',
  clientId: 'client-123456',
  baseUrl: 'https://pbx.example',
  actions: { activity: '/activity' },
  integrations: {
    telephony: {
      makeCallUrl: 'https://pbx.example/call',
      changeUserStatusUrl: 'https://pbx.example/status',
      personalAccountUrl: 'https://pbx.example/account',
      allowEdit: false,
      inputEventSupported: true,
      additionalCodes: [{ userId: 1, code: '101' }, { userId: '2', code: '102' }],
      externalPhones: [{ siteCode: 'main-shop', externalPhone: '+34910000000' }],
      ...telephony,
    },
  },
});

/** The failed results' checks with their ids, in both views. */
async function failures(telephony: Record<string, unknown>, profile: boolean): Promise<Array<[string, string[]]>> {
  const results = await judgeRegistration(registration(telephony), { profile });
  return results.filter((r) => r.status === 'failed' || r.status === 'warning').map((r) => [r.check, r.requirements]);
}

for (const profile of [true, false]) {
  const view = profile ? 'with the profile' : 'with the document alone';

  test(`${view}: a conformant telephony registration passes, and the telephony ids are credited`, async () => {
    const results = await judgeRegistration(registration({}), { profile });
    expect(results.filter((r) => r.status === 'failed' || r.status === 'warning')).toEqual([]);
    const passed = new Set(results.filter((r) => r.status === 'passed').flatMap((r) => r.requirements));
    for (const id of ['TEL-ALLOWEDIT-BOOLEAN', 'TEL-ADDITIONALCODES-SHAPE', 'TEL-EXTERNALPHONES-SHAPE', 'TEL-MAKECALLURL-URL', 'TEL-CHANGEUSERSTATUSURL-URL', 'TEL-PERSONALACCOUNTURL-URL']) expect(passed, id).toContain(id);
  });

  test(`${view}: what real modules send passes (null for unset members, empty lists, a userId as text, entries completed in the settings interface)`, async () => {
    expect(await failures({ allowEdit: null, inputEventSupported: null, additionalCodes: null, externalPhones: null, personalAccountUrl: null }, profile)).toEqual([]);
    expect(await failures({ additionalCodes: [], externalPhones: [] }, profile)).toEqual([]);
    expect(await failures({ additionalCodes: [{ userId: '12', code: '151' }, { userId: 3, code: null }], externalPhones: [{ siteCode: 'main-shop' }] }, profile)).toEqual([]);
  });

  test(`${view}: each broken telephony statement fails under its own id, in one check`, async () => {
    const region = (id: string): Array<[string, string[]]> => [['ensureMessageMatchesSchema', [id]]];
    expect(await failures({ additionalCodes: { 1: '101' } }, profile)).toEqual(region('TEL-ADDITIONALCODES-SHAPE'));
    expect(await failures({ additionalCodes: [{ userId: 1, code: 101 }] }, profile)).toEqual(region('TEL-ADDITIONALCODES-SHAPE'));
    expect(await failures({ additionalCodes: ['101'] }, profile)).toEqual(region('TEL-ADDITIONALCODES-SHAPE'));
    expect(await failures({ externalPhones: ['+34910000000'] }, profile)).toEqual(region('TEL-EXTERNALPHONES-SHAPE'));
    expect(await failures({ externalPhones: { 'main-shop': '+34910000000' } }, profile)).toEqual(region('TEL-EXTERNALPHONES-SHAPE'));
    expect(await failures({ allowEdit: 'false' }, profile)).toEqual(region('TEL-ALLOWEDIT-BOOLEAN'));
    expect(await failures({ allowEdit: 0 }, profile)).toEqual(region('TEL-ALLOWEDIT-BOOLEAN'));
  });

  test(`${view}: telephony URLs must be absolute http(s) URLs, judged by the URL rule alone`, async () => {
    for (const makeCallUrl of ['/call', 'pbx.example/call', 'ftp://pbx.example/call']) {
      const failed = await failures({ makeCallUrl }, profile);
      expect(failed.map(([check]) => check), makeCallUrl).toEqual(['ensureUrlsAreWellFormed']);
    }
    expect((await failures({ changeUserStatusUrl: 'status' }, profile)).map(([check]) => check)).toEqual(['ensureUrlsAreWellFormed']);
  });
}
