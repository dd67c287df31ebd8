import { test, expect } from '@playwright/test';
import type { ErrorObject } from 'ajv';
import { Contract, loadSchemas, formatErrors } from '../../src/contract/schemas.ts';
import { readSamples, type ExpectedError } from '../../src/contract/samples.ts';
import { schemaId } from '../../src/contract/paths.ts';

const schemas = loadSchemas();
const contract = new Contract(schemas);
/** The same schemas read by the document alone: every `x-profile` constraint dropped. */
const documentAlone = new Contract(schemas, { profile: false });

/** Walks every subschema object of a schema. */
function* subschemas(node: unknown, at = '#'): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) yield* subschemas(v, `${at}/${i}`);
  } else if (node && typeof node === 'object') {
    yield [at, node as Record<string, unknown>];
    for (const [k, v] of Object.entries(node)) yield* subschemas(v, `${at}/${k}`);
  }
}

function matches(err: ErrorObject, expected: ExpectedError): boolean {
  if (err.keyword !== expected.keyword || err.instancePath !== expected.instancePath) return false;
  const params = err.params as Record<string, unknown>;
  return Object.entries(expected.params ?? {}).every(([k, v]) => JSON.stringify(params[k]) === JSON.stringify(v));
}

test('the contract has schemas', () => {
  expect(schemas.length).toBeGreaterThan(60);
});

test('every schema compiles in the one strict Ajv2020 instance', () => {
  const failures: string[] = [];
  for (const view of [contract, documentAlone]) {
    for (const s of schemas) {
      try {
        view.validator(s.id);
      } catch (e) {
        failures.push(`${s.file} (${view.profile ? 'with the profile' : 'document alone'}): ${(e as Error).message}`);
      }
    }
  }
  expect(failures).toEqual([]);
});

for (const s of schemas) {
  test.describe(s.file, () => {
    test('declares 2020-12, an absolute $id that mirrors its path, a title and a $comment citing the contract', () => {
      expect(s.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(s.schema.$id).toBe(schemaId(s.file));
      expect(typeof s.schema.title).toBe('string');
      expect(String(s.schema.$comment ?? '')).toMatch(/integration-interface\.md|wire-profile\.md|module-conformance/);
    });

    // The suite's own run configuration is closed on purpose (its $comment; test/cli/config.spec.ts).
    test(s.file === 'suite/config.json' ? 'is closed: the one exception to open schemas' : 'keeps unknown properties open', () => {
      if (s.file === 'suite/config.json') {
        expect(String(s.schema.$comment)).toMatch(/Closed, unlike the contract schemas/);
        return;
      }
      const closed = [...subschemas(s.schema)]
        .filter(([, n]) => n.additionalProperties === false || n.unevaluatedProperties === false)
        .map(([at]) => at);
      expect(closed).toEqual([]);
    });

    test('has valid and invalid samples, each judged as stated', () => {
      const samples = readSamples(s.file);
      expect(samples, `test/contract/samples/${s.file} is missing`).toBeDefined();
      expect(samples!.schema).toBe(s.file);
      expect(samples!.tests.some((t) => t.valid)).toBe(true);
      expect(samples!.tests.some((t) => !t.valid)).toBe(true);
      for (const t of samples!.tests) {
        const expectations = [
          { view: contract, valid: t.valid, error: t.error, name: 'with the profile' },
          { view: documentAlone, valid: t.documentAlone?.valid ?? t.valid, error: t.documentAlone ? t.documentAlone.error : t.error, name: 'document alone' },
        ];
        for (const x of expectations) {
          const out = x.view.validate(s.id, t.data);
          expect(out.valid, `${t.description} (${x.name}): ${formatErrors(out.errors)}`).toBe(x.valid);
          if (!x.valid) {
            expect(x.error, `${t.description} (${x.name}): an invalid sample states its reason`).toBeDefined();
            expect(
              out.errors.some((e) => matches(e, x.error!)),
              `${t.description} (${x.name}): expected ${JSON.stringify(x.error)}, got ${formatErrors(out.errors)}`,
            ).toBe(true);
          }
        }
      }
    });
  });
}
