/**
 * The reference module's code compiled once per test process: main.ts and its imports, its
 * packages included, bundled into one ES module by the esbuild that tsx itself transforms them
 * with (resolved from tsx). It runs the same code as `node --import tsx` (the bundled
 * configuration's `start.js`), without tsx's loader in every process (about 0.25 CPU-s a launch
 * instead of 0.45, with its packages from node_modules; loading undici and ws bundled takes 0.11
 * CPU-s instead of 0.22). Written under .tmp/ (ignored by git), removed when the test process exits.
 * The reference module's own tests (test/reference-module/harness.ts) and the gauntlet's batched
 * rows (fault-rows.ts, variation-rows.ts, determinism-rows.ts) launch it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

let compiledEntry: string | undefined;

/** The compiled module's entry file (built on first use in this process). */
export function compiledReferenceModule(): string {
  if (compiledEntry) return compiledEntry;
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'))('esbuild') as typeof import('esbuild');
  fs.mkdirSync(path.join(PACKAGE_ROOT, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(PACKAGE_ROOT, '.tmp', `reference-module-${process.pid}-`));
  const outfile = path.join(dir, 'main.mjs');
  // Its packages (undici, ws) bundled in too: one file to read and compile at each launch instead
  // of about a hundred resolved in node_modules (about 0.11 CPU-s less a launch). Their own
  // require() calls (Node's modules, ws's optional native helpers) go to Node's require.
  esbuild.buildSync({
    entryPoints: [path.join(PACKAGE_ROOT, 'examples/reference-module/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
    banner: { js: "import { createRequire as __moduleRequire } from 'node:module'; const require = __moduleRequire(import.meta.url);" },
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  compiledEntry = outfile;
  return outfile;
}

/**
 * The bundled configuration of the reference module (examples/reference-module/conformance.config.json)
 * with its module launched from the package root (`compiled`: the compiled module), `extra`
 * merged over it at the top level, written to a fresh file: its path.
 */
export function referenceConfigFile(extra: Record<string, unknown> = {}, options: { compiled?: boolean } = {}): string {
  const reference = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json'), 'utf8')) as Record<string, any>;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reference-config-')), 'conformance.config.json');
  const launch = { ...reference.launch, cwd: PACKAGE_ROOT, ...(options.compiled ? { args: [compiledReferenceModule()] } : {}) };
  fs.writeFileSync(file, JSON.stringify({ ...reference, launch, ...extra }));
  return file;
}

/** The configuration of the compiled reference module, with `callbacks` and `flowTimeoutMs` when given (a row's settings). */
export function compiledReferenceConfig(settings: { callbacks?: Record<string, unknown>; flowTimeoutMs?: number } = {}): string {
  return referenceConfigFile({ callbacks: { ...settings.callbacks }, ...(settings.flowTimeoutMs ? { flowTimeoutMs: settings.flowTimeoutMs } : {}) }, { compiled: true });
}
