/**
 * Where the project's own files live, resolved from this file so that the suite works from
 * any working directory (a vendor's CI runs `npx conformance` from their own repository).
 *
 * Two layouts: the repository runs the TypeScript sources (this file is
 * `src/contract/paths.ts`); the installed package runs the JavaScript built at pack time
 * (`dist/src/contract/paths.js`, `tsconfig.build.json`). The data (schemas, OpenAPI documents,
 * catalogue, the reference module's configurations) stays at the package root in both.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Root of the code tree: the repository itself, or `dist/` in the built package. */
export const CODE_ROOT = path.resolve(HERE, '..', '..');
/** Extension of the code being run: `.ts` (repository) or `.js` (built package). */
export const CODE_EXT = path.extname(fileURLToPath(import.meta.url));

/** The nearest folder above `from` whose package.json is the module-conformance package. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'module-conformance') return dir;
    } catch {
      // no package.json here, or not JSON: keep going up
    }
    if (path.dirname(dir) === dir) throw new Error(`module-conformance: no package.json of module-conformance above ${from}`);
  }
}

/** Root of the module-conformance package (the repository, or node_modules/module-conformance). */
export const PACKAGE_ROOT = packageRoot(HERE);
/** JSON Schemas of the contract's messages. */
export const SCHEMAS_DIR = path.join(PACKAGE_ROOT, 'schemas');
/** OpenAPI documents of the three APIs. */
export const OPENAPI_DIR = path.join(PACKAGE_ROOT, 'openapi');
/** The requirements catalogue. */
export const CATALOGUE_FILE = path.join(PACKAGE_ROOT, 'specs', 'requirements', 'catalogue.json');
/** The contract document the catalogue was made from: its name and SHA-256 (`conformance --version`). */
export const CONTRACT_FILE = path.join(PACKAGE_ROOT, 'specs', 'requirements', 'contract.json');
/** The Playwright configuration of `conformance run`, in the layout being run. */
export const PLAYWRIGHT_CONFIG = path.join(CODE_ROOT, `playwright.config${CODE_EXT}`);

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
