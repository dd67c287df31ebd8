/**
 * The cross-field rules of the delivery settings (keys of the maps of defaults are data-field
 * codes; an autocomplete field's default is {label, value}) and the recordUrl rule of calls
 * uploads, against canned good and bad inputs, with their not-applicable cases; and, through
 * the registration judge, each map's requirement judged on its own map.
 */
import { test, expect } from '@playwright/test';
import { registrationSubject, judgeRegistration, REGISTRATION_OWNED } from '../../src/checks/registration/judge.ts';
import { ensureExtraDataKeysAreFieldCodes } from '../../src/checks/registration/delivery-extra-data.ts';
import { ensureAutocompleteDefaultsAreLabelValue } from '../../src/checks/registration/delivery-autocomplete-default.ts';
import { ensureUploadedCallsHaveRecordUrl } from '../../src/checks/system-api/record-url.ts';
import { ensureMessageMatchesSchema } from '../../src/checks/schema-rule.ts';
import type { CheckResult } from '../../src/checks/result.ts';
import { contract } from '../../src/contract/schemas.ts';

/** The delivery part of a module, to break. */
type D = { settings: { deliveryExtraData: Record<string, unknown>; shipmentExtraData?: Record<string, unknown> }; [member: string]: unknown };

const delivery = (): D => ({
  description: 'Acme',
  actions: { calculate: '/calculate' },
  deliveryDataFieldList: [
    { code: 'window', label: 'Window', type: 'choice', choices: [{ value: 'am', label: 'AM' }] },
    { code: 'point', label: 'Point', type: 'autocomplete', autocompleteUrl: 'https://acme.example/ac' },
  ],
  shipmentDataFieldList: [
    { code: 'vehicle', label: 'Vehicle', type: 'text' },
    { code: 'dock', label: 'Dock', type: 'autocomplete', autocompleteUrl: 'https://acme.example/dock' },
  ],
  settings: {
    deliveryExtraData: { window: 'am', point: { label: 'Central', value: 'C1' } },
    shipmentExtraData: { vehicle: 'van', dock: { label: 'Dock 3', value: 3 } },
  },
});

const module = (d: Record<string, unknown> | null = delivery()): Record<string, unknown> => ({
  code: 'acme', integrationCode: 'acme', active: true, name: 'Acme', clientId: 'c-1', baseUrl: 'https://acme.example', actions: { activity: '/activity' },
  integrations: d ? { delivery: d } : { telephony: { makeCallUrl: 'https://acme.example/call' } },
});

const subject = (m: Record<string, unknown>) => registrationSubject(m, { profile: true });

test.describe('ensureExtraDataKeysAreFieldCodes', () => {
  test('passes when every key of both maps is a code of its list', async () => {
    expect((await ensureExtraDataKeysAreFieldCodes.run(subject(module()))).outcome).toBe('pass');
  });

  test('fails on a key that no field of its list has, naming the key and the codes', async () => {
    const d = delivery();
    d.settings.deliveryExtraData.parcelSize = 'M';
    const v = await ensureExtraDataKeysAreFieldCodes.run(subject(module(d)));
    expect(v.outcome).toBe('fail');
    expect(v.received).toContain('/integrations/delivery/settings/deliveryExtraData');
    expect(v.expected).toContain('"parcelSize" is not a code of deliveryDataFieldList');
    expect(v.expected).toContain('"window", "point"');
  });

  test('a code of the other list is not a key of this map', async () => {
    const d = delivery();
    d.settings.shipmentExtraData!.window = 'am';
    const v = await ensureExtraDataKeysAreFieldCodes.run(subject(module(d)));
    expect(v.outcome).toBe('fail');
    expect(v.expected).toContain('"window" is not a code of shipmentDataFieldList');
  });

  test('a map without its list fails on every key', async () => {
    const d = delivery();
    delete d.shipmentDataFieldList;
    const v = await ensureExtraDataKeysAreFieldCodes.run(subject(module(d)));
    expect(v.outcome).toBe('fail');
    expect(v.expected).toContain('shipmentDataFieldList has no field');
  });

  test('its errors are its own: the generic schema check of the delivery configuration does not report them', async () => {
    const d = delivery();
    d.settings.deliveryExtraData.parcelSize = 'M';
    const s = subject(module(d));
    expect(contract().validate('registration/integration-module.edit.json', module(d)).valid).toBe(true);
    expect((await ensureMessageMatchesSchema.run({ ...s, region: /^\/integrations\/delivery(\/|$)/, kind: 'delivery', owned: REGISTRATION_OWNED })).outcome).toBe('pass');
  });

  test('is not applicable without a delivery integration', async () => {
    const v = await ensureExtraDataKeysAreFieldCodes.run(subject(module(null)));
    expect(v).toMatchObject({ outcome: 'notApplicable', detail: 'the module declares no delivery integration' });
  });
});

/** The results of one check in a judged registration, by requirement. */
async function judged(m: Record<string, unknown>, check: string): Promise<Array<Pick<CheckResult, 'requirements' | 'status'>>> {
  return (await judgeRegistration(m, { profile: true })).filter((r) => r.check === check).map((r) => ({ requirements: r.requirements, status: r.status }));
}

test.describe('ensureExtraDataKeysAreFieldCodes in the registration judge: each map on its own requirement', () => {
  test('both maps hold: both requirements pass', async () => {
    expect(await judged(module(), 'ensureExtraDataKeysAreFieldCodes')).toEqual([
      { requirements: ['DLV-SETTINGS-DELIVERYEXTRADATA-MAP'], status: 'passed' },
      { requirements: ['DLV-SETTINGS-SHIPMENTEXTRADATA-MAP'], status: 'passed' },
    ]);
  });

  test('an unknown key in deliveryExtraData fails its requirement only', async () => {
    const d = delivery();
    d.settings.deliveryExtraData.parcelSize = 'M';
    expect(await judged(module(d), 'ensureExtraDataKeysAreFieldCodes')).toEqual([
      { requirements: ['DLV-SETTINGS-DELIVERYEXTRADATA-MAP'], status: 'failed' },
      { requirements: ['DLV-SETTINGS-SHIPMENTEXTRADATA-MAP'], status: 'passed' },
    ]);
  });

  test('a map the module does not send is not applicable; neither map, both not applicable', async () => {
    const d = delivery();
    delete d.settings.shipmentExtraData;
    expect(await judged(module(d), 'ensureExtraDataKeysAreFieldCodes')).toEqual([
      { requirements: ['DLV-SETTINGS-DELIVERYEXTRADATA-MAP'], status: 'passed' },
      { requirements: ['DLV-SETTINGS-SHIPMENTEXTRADATA-MAP'], status: 'notApplicable' },
    ]);
    const none: Record<string, unknown> = delivery();
    delete none.settings;
    expect((await judged(module(none), 'ensureExtraDataKeysAreFieldCodes')).map((r) => r.status)).toEqual(['notApplicable', 'notApplicable']);
  });
});

test.describe('ensureAutocompleteDefaultsAreLabelValue', () => {
  test('passes when every autocomplete default of both maps is {label, value}', async () => {
    const v = await ensureAutocompleteDefaultsAreLabelValue.run(subject(module()));
    expect(v).toMatchObject({ outcome: 'pass', detail: '2 autocomplete default(s), each {label, value}: deliveryExtraData.point, shipmentExtraData.dock' });
  });

  for (const [what, value] of [
    ['a bare string', 'C1'],
    ['an object without label', { value: 'C1' }],
    ['an object without value', { label: 'Central' }],
    ['an array', ['Central', 'C1']],
  ] as const) {
    test(`fails when an autocomplete default is ${what}`, async () => {
      const d = delivery();
      d.settings.deliveryExtraData.point = value;
      const v = await ensureAutocompleteDefaultsAreLabelValue.run(subject(module(d)));
      expect(v.outcome).toBe('fail');
      expect(v.received).toBe(`deliveryExtraData.point = ${JSON.stringify(value)}`);
    });
  }

  test('defaults of other field types may be anything; unknown keys are the other rule\'s', async () => {
    const d = delivery();
    d.settings.deliveryExtraData.window = { anything: [1, 2] };
    d.settings.shipmentExtraData!.vehicle = 42;
    d.settings.deliveryExtraData.dock = 'not judged here: dock is a shipment field';
    expect((await ensureAutocompleteDefaultsAreLabelValue.run(subject(module(d)))).outcome).toBe('pass');
  });

  test('is not applicable when no autocomplete field has a default, or without a delivery integration', async () => {
    const d = delivery();
    delete d.settings.deliveryExtraData.point;
    delete d.settings.shipmentExtraData!.dock;
    expect(await ensureAutocompleteDefaultsAreLabelValue.run(subject(module(d)))).toEqual({
      outcome: 'notApplicable',
      detail: 'no autocomplete data field has a default in deliveryExtraData or shipmentExtraData',
    });
    expect((await ensureAutocompleteDefaultsAreLabelValue.run(subject(module(null)))).outcome).toBe('notApplicable');
  });
});

test.describe('ensureUploadedCallsHaveRecordUrl', () => {
  const upload = (calls: unknown) => ({ schema: 'telephony/calls-upload.request.json', message: calls, errors: [], evidence: ['x1'] });
  const call = (i: number, recordUrl?: string | null) => ({ externalId: `c${i}`, phone: '+100', type: 'in', ...(recordUrl !== undefined ? { recordUrl } : {}) });

  test('passes when every call has recordUrl', async () => {
    const v = await ensureUploadedCallsHaveRecordUrl.run(upload([call(1, 'https://pbx.example/r/1.wav'), call(2, 'https://pbx.example/r/2.wav')]));
    expect(v).toMatchObject({ outcome: 'pass', detail: '2 calls, each with recordUrl', evidence: ['x1'] });
  });

  test('fails when a call has none (null counts as absent), naming the calls', async () => {
    const v = await ensureUploadedCallsHaveRecordUrl.run(upload([call(1, 'https://pbx.example/r/1.wav'), call(2), call(3, null)]));
    expect(v.outcome).toBe('fail');
    expect(v.received).toBe('2 of 3 calls without recordUrl: calls[1] (externalId "c2"), calls[2] (externalId "c3")');
    expect(v.evidence).toEqual(['x1']);
  });

  test('is not applicable on an empty upload or a payload that is not a list of calls', async () => {
    expect((await ensureUploadedCallsHaveRecordUrl.run(upload([]))).outcome).toBe('notApplicable');
    expect((await ensureUploadedCallsHaveRecordUrl.run(upload({ calls: [] }))).outcome).toBe('notApplicable');
    expect((await ensureUploadedCallsHaveRecordUrl.run(upload(['not a call']))).outcome).toBe('notApplicable');
  });
});
