/**
 * The layout of a run's output folder. The folder itself holds what a vendor publishes:
 * results.json, conformance.html, junit.xml, failures/, the module's output (module.stdout.log,
 * module.stderr.log), gate.json. Its `internal/` folder holds the run's own files: the console's
 * full log, the launches, the session's start and records, the module's stop, how the run was
 * coordinated, Playwright's output. Kept free of heavy imports: the Playwright configuration and
 * the batch's rows read it.
 */
import path from 'node:path';

export const INTERNAL = 'internal';

/** The run's own files' folder in the output folder `dir`. */
export const internalOf = (dir: string): string => path.join(dir, INTERNAL);
