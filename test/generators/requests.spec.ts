/** Every callback of the table with a payload schema has an arbitrary whose values that schema accepts, in both views. */
import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { contract, formatErrors } from '../../src/contract/schemas.ts';
import { GENERATED_CALLBACKS, payloadSchema, requestArbitrary } from '../../src/generators/requests.ts';
import { schemaArbitrary } from '../../src/generators/from-schema.ts';

test('most callbacks of the table have a payload schema to generate from', () => {
  expect(GENERATED_CALLBACKS.length).toBeGreaterThan(12);
  expect(GENERATED_CALLBACKS).toEqual(expect.arrayContaining(['delivery.calculate', 'delivery.save', 'payment.create', 'transport.message_sent', 'transport.template_create']));
});

for (const profile of [true, false]) {
  for (const name of GENERATED_CALLBACKS) {
    test(`${name}: generated payloads are valid by ${payloadSchema(name)} (${profile ? 'with the profile' : 'the document alone'})`, () => {
      const values = fc.sample(requestArbitrary(name, { profile })!, { seed: 17, numRuns: 60 });
      for (const v of values) {
        const out = contract({ profile }).validate(payloadSchema(name)!, v);
        expect(out.valid, `${JSON.stringify(v).slice(0, 300)}: ${formatErrors(out.errors)}`).toBe(true);
      }
    });
  }
}

test('the document alone leaves out members that rest on the profile alone; overrides and paths apply', () => {
  for (const v of fc.sample(schemaArbitrary('delivery/package.json', { profile: false }), { seed: 1, numRuns: 50 }) as Array<Record<string, unknown>>) expect(Object.keys(v).filter((k) => k !== 'items')).toEqual([]);
  const withOverride = fc.sample(schemaArbitrary('delivery/package.json', { overrides: { '/weight': fc.constant(7) }, absent: ['/items'] }), { seed: 1, numRuns: 20 }) as Array<Record<string, unknown>>;
  for (const v of withOverride) {
    expect(v.weight).toBe(7);
    expect(v).not.toHaveProperty('items');
  }
});

test('values the suite invents come from the seed: the same for one seed and purpose, others for another', async () => {
  const { inventedHex } = await import('../../src/generators/invented.ts');
  expect(inventedHex(5, 'probe')).toBe(inventedHex(5, 'probe'));
  expect(inventedHex(5, 'probe')).toMatch(/^[0-9a-f]{12}$/);
  expect(inventedHex(5, 'probe')).not.toBe(inventedHex(6, 'probe'));
  expect(inventedHex(5, 'probe')).not.toBe(inventedHex(5, 'another probe'));
});
