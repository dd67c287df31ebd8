/**
 * Each registration rule against canned registrations: a conformant one passes every rule, and
 * each broken one fails exactly its rule (and never the generic schema check, which leaves
 * owned errors to the named rules).
 */
import { test, expect } from '@playwright/test';
import { contract } from '../../src/contract/schemas.ts';
import { REGISTRATION_REGIONS } from '../../src/checks/registration/index.ts';
import { REGISTRATION_RULES } from '../../src/checks/registration/applications.ts';
import { ensureMessageMatchesSchema } from '../../src/checks/schema-rule.ts';
import { judgeRegistration, REGISTRATION_OWNED } from '../../src/checks/registration/judge.ts';
import { crossFieldErrors } from '../../src/checks/registration/cross-field.ts';

const good = {
  code: 'acme', integrationCode: 'acme', active: true, name: 'Acme', logo: 'https://acme.example/logo.svg', clientId: 'c-123456',
  baseUrl: 'https://acme.example/api', accountUrl: 'https://acme.example/account', actions: { activity: '/activity' },
  integrations: {
    telephony: { makeCallUrl: 'https://acme.example/call', changeUserStatusUrl: 'https://acme.example/status', allowEdit: false, additionalCodes: [{ userId: 1, code: '101' }] },
    delivery: {
      description: 'Acme', actions: { calculate: '/calculate', save: '/save', get: '/get', delete: '/delete', shipmentPointList: '/points' },
      payerType: ['sender', 'receiver'], requiredFields: ['phone'], selfShipmentAvailable: true, platePrintLimit: 5,
      deliveryDataFieldList: [
        { code: 'size', label: 'Size', type: 'choice', choices: [{ value: 's', label: 'S' }] },
        { code: 'station', label: 'Station', type: 'autocomplete', autocompleteUrl: 'https://acme.example/ac' },
      ],
      settings: { deliveryExtraData: { size: 's', station: { label: 'Central', value: 'C1' } } },
    },
    payment: { actions: { create: '/create' }, currencies: ['EUR'], invoiceTypes: ['link'], shops: [{ code: 'main', name: 'Main', active: true }, { code: 'outlet', name: 'Outlet', active: false }] },
    mgTransport: { webhookUrl: 'https://acme.example/webhook' },
    mgBot: {},
    someFutureKind: { anything: true },
  },
  someFutureField: 1,
};

type Mutation = (m: any) => void;
const broken: Array<[string, Mutation]> = [
  ['ensureClientIdPresent', (m) => delete m.clientId],
  ['ensureActivityActionDeclared', (m) => delete m.actions.activity],
  ['ensureUrlsAreWellFormed', (m) => (m.integrations.telephony.makeCallUrl = 'acme.example/call')],
  ['ensureDeliveryActionPathsAreUnique', (m) => (m.integrations.delivery.actions.get = '/save/')],
  ['ensureRequiredFieldsAreAllowed', (m) => m.integrations.delivery.requiredFields.push('middleName')],
  ['ensurePayerTypesAreAllowed', (m) => m.integrations.delivery.payerType.push('thirdParty')],
  ['ensureShipmentPointListWithSelfShipment', (m) => delete m.integrations.delivery.actions.shipmentPointList],
  ['ensureSaveComesWithCalculateAndDelete', (m) => delete m.integrations.delivery.actions.delete],
  ['ensureDataFieldTypesAreKnown', (m) => (m.integrations.delivery.deliveryDataFieldList[0].type = 'select')],
  ['ensureChoiceFieldsHaveChoices', (m) => delete m.integrations.delivery.deliveryDataFieldList[0].choices],
  ['ensureAutocompleteFieldsHaveUrl', (m) => delete m.integrations.delivery.deliveryDataFieldList[1].autocompleteUrl],
  ['ensureExtraDataKeysAreFieldCodes', (m) => (m.integrations.delivery.settings.deliveryExtraData.colour = 'red')],
  ['ensureAutocompleteDefaultsAreLabelValue', (m) => (m.integrations.delivery.settings.deliveryExtraData.station = 'C1')],
  ['ensurePaymentDeclaresCreate', (m) => (m.integrations.payment.actions = { refund: '/refund' })],
  ['ensureCurrenciesAreIso4217', (m) => m.integrations.payment.currencies.push('EURO')],
  ['ensureCurrenciesAreListedIso4217', (m) => m.integrations.payment.currencies.push('ABC')],
  ['ensureInvoiceTypesAreLink', (m) => (m.integrations.payment.invoiceTypes = ['qr'])],
  ['ensureShopsHaveCodeNameActive', (m) => delete m.integrations.payment.shops[1].active],
  ['ensureBotRegistersEmptyObject', (m) => (m.integrations.mgBot = { isActive: true })],
];

async function judge(module: unknown): Promise<Map<string, string>> {
  const errors = [...contract().validate('registration/integration-module.edit.json', module).errors, ...crossFieldErrors(module)];
  const kinds = Object.keys((module as { integrations: object }).integrations);
  const out = new Map<string, string>();
  for (const r of REGISTRATION_RULES) out.set(r.check.name, (await r.check.run({ schema: 'registration/integration-module.edit.json', message: module, errors, evidence: [], kinds })).outcome);
  for (const g of REGISTRATION_REGIONS) {
    const v = await ensureMessageMatchesSchema.run({ schema: 'registration/integration-module.edit.json', message: module, errors, evidence: [], kinds, region: g.region, ...(g.kind ? { kind: g.kind } : {}), owned: REGISTRATION_OWNED });
    if (v.outcome === 'fail') out.set(`ensureMessageMatchesSchema(${g.name})`, 'fail');
  }
  return out;
}

test('a conformant registration of all five kinds, with unknown fields and kinds, passes every rule', async () => {
  const verdicts = await judge(good);
  expect([...verdicts].filter(([, o]) => o !== 'pass')).toEqual([]);
});

test('withdrawn ISO 4217 codes that official modules list are accepted by both currency rules', async () => {
  const m = structuredClone(good) as any;
  m.integrations.payment.currencies.push('ANG', 'BGN', 'HRK', 'MRO', 'SLL', 'STD');
  expect([...(await judge(m))].filter(([, o]) => o !== 'pass')).toEqual([]);
});

for (const [rule, mutate] of broken) {
  test(`${rule} catches its fault and no other rule fires`, async () => {
    const m = structuredClone(good);
    mutate(m);
    const failing = [...(await judge(m))].filter(([, o]) => o === 'fail').map(([n]) => n);
    expect(failing).toEqual([rule]);
  });
}

test('kind rules are not applicable when the module does not declare the kind', async () => {
  const m = structuredClone(good) as any;
  m.integrations = { telephony: m.integrations.telephony };
  const verdicts = await judge(m);
  expect(verdicts.get('ensurePayerTypesAreAllowed')).toBe('notApplicable');
  expect(verdicts.get('ensureBotRegistersEmptyObject')).toBe('notApplicable');
  expect(verdicts.get('ensureClientIdPresent')).toBe('pass');
});

test('a type error outside the named rules falls to the generic schema check of its region', async () => {
  const m = structuredClone(good) as any;
  m.integrations.telephony.allowEdit = 'no';
  const failing = [...(await judge(m))].filter(([, o]) => o === 'fail').map(([n]) => n);
  expect(failing).toEqual(['ensureMessageMatchesSchema(telephony configuration)']);
});

test.describe('requirements without a fault variant of their own (test/gauntlet/requirements.spec.ts) are shown caught here', () => {
  const caughtIds = async (mutate: Mutation): Promise<string[]> => {
    const m = structuredClone(good) as any;
    mutate(m);
    const results = await judgeRegistration(m, { profile: true });
    return [...new Set(results.filter((r) => r.status === 'failed').flatMap((r) => r.requirements))];
  };
  test('REG-BASEURL-URL: a baseUrl without scheme', async () => {
    expect(await caughtIds((m) => (m.baseUrl = 'acme.example/api'))).toContain('REG-BASEURL-URL');
  });
  test('REG-INTEGRATIONS-ONE-OR-MORE: integrations that are not an object', async () => {
    expect(await caughtIds((m) => (m.integrations = ['telephony']))).toContain('REG-INTEGRATIONS-ONE-OR-MORE');
  });
  test('DLV-SETTINGS-OBJECT: delivery settings that are not an object', async () => {
    expect(await caughtIds((m) => (m.integrations.delivery.settings = 'auto'))).toContain('DLV-SETTINGS-OBJECT');
  });
  test('DLV-DELIVERYDATAFIELDLIST-ARRAY: a data field list that is not an array', async () => {
    expect(await caughtIds((m) => (m.integrations.delivery.deliveryDataFieldList = { size: { code: 'size' } }))).toContain('DLV-DELIVERYDATAFIELDLIST-ARRAY');
  });
});
