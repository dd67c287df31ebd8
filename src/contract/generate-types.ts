/**
 * Generates TypeScript types of the contract's messages from the schemas, so that harness code
 * is typed from the same source as validation. `npm run generate:types` writes
 * `src/contract/types.generated.ts`; a self-test fails when the file is out of date.
 */
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { SCHEMAS_DIR } from './paths.ts';
import { loadSchemas } from './schemas.ts';

export const TYPES_FILE = path.join(SCHEMAS_DIR, '..', 'src', 'contract', 'types.generated.ts');

const BANNER = `/* eslint-disable */
/**
 * Generated from schemas/ by \`npm run generate:types\`; do not edit by hand.
 * A self-test (test/contract/types.spec.ts) fails when this file is out of date.
 */
`;

/** The whole generated file: one declaration group per schema, in path order. */
export async function generateTypes(): Promise<string> {
  const parts: string[] = [BANNER];
  for (const s of loadSchemas()) {
    if (s.file.startsWith('suite/')) continue; // the suite's own formats have hand-written types
    const { $id: _id, ...schema } = s.schema; // refs resolve from files, never from the web
    const ts = await compile(schema as Parameters<typeof compile>[0], String(s.schema.title), {
      cwd: path.dirname(path.join(SCHEMAS_DIR, s.file)),
      bannerComment: '',
      declareExternallyReferenced: false,
      additionalProperties: true,
      unknownAny: true,
      strictIndexSignatures: false,
      format: true,
      style: { singleQuote: true, printWidth: 110 },
      $refOptions: { resolve: { http: false } },
    });
    parts.push(`// ${s.file}\n${ts.trim()}\n`);
  }
  return parts.join('\n');
}
