/**
 * Generates TypeScript types of the contract's messages from the schemas, so that harness code
 * is typed from the same source as validation. `npm run generate:types` writes
 * `src/contract/types.generated.ts`; a self-test fails when the file is out of date.
 *
 * All schemas are compiled in one pass, through a root that references each file, so that a
 * type shared by several messages (a `$defs` entry, an entity) is declared once.
 */
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { PACKAGE_ROOT, SCHEMAS_DIR } from './paths.ts';
import { loadSchemas } from './schemas.ts';

export const TYPES_FILE = path.join(PACKAGE_ROOT, 'src', 'contract', 'types.generated.ts');

const BANNER = `/* eslint-disable */
/**
 * Generated from schemas/ by \`npm run generate:types\`; do not edit by hand.
 * A self-test (test/contract/types.spec.ts) fails when this file is out of date.
 */`;

/** The schemas that describe messages (the suite's own formats have hand-written types). */
export function messageSchemas(): ReturnType<typeof loadSchemas> {
  return loadSchemas().filter((s) => !s.file.startsWith('suite/'));
}

/** The whole generated file. */
export async function generateTypes(): Promise<string> {
  const schemas = messageSchemas();
  const root = {
    title: 'ContractMessages',
    description: 'Every message schema of the contract, by its path below schemas/.',
    type: 'object',
    properties: Object.fromEntries(schemas.map((s) => [s.file, { $ref: `./${s.file}` }])),
  } as JSONSchema;
  const ts = await compile(root, 'ContractMessages', {
    cwd: SCHEMAS_DIR,
    bannerComment: BANNER,
    declareExternallyReferenced: true,
    additionalProperties: true,
    unknownAny: true,
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
    // References resolve from files; an absolute `$id` is never fetched.
    $refOptions: { resolve: { http: false }, dereference: { circular: 'ignore' } } as never,
  });
  return ts;
}
