/**
 * Where the project's own files live, resolved from this file so that the suite works from
 * any working directory (a vendor's CI runs `npx conformance` from their own repository).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Root of the module-conformance package. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** JSON Schemas of the contract's messages. */
export const SCHEMAS_DIR = path.join(PACKAGE_ROOT, 'schemas');
/** OpenAPI documents of the three APIs. */
export const OPENAPI_DIR = path.join(PACKAGE_ROOT, 'openapi');
/** The requirements catalogue. */
export const CATALOGUE_FILE = path.join(PACKAGE_ROOT, 'specs', 'requirements', 'catalogue.json');

/**
 * Base of every schema `$id`. Ids mirror the repository layout (`schemas/delivery/x.json` has
 * the id `${ID_BASE}schemas/delivery/x.json`), so a relative `$ref` written in a schema or an
 * OpenAPI document resolves to the same schema whether it is read from files or by `$id`.
 */
export const ID_BASE = 'https://module-conformance.dev/';

/** The `$id` of a schema file given its path relative to `schemas/`. */
export function schemaId(relativePath: string): string {
  return `${ID_BASE}schemas/${relativePath.split(path.sep).join('/')}`;
}
