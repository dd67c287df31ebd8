/**
 * The areas of the conformance specs, for the specs: defined in src/run/areas.ts (the run's
 * `--area` reads them there), re-exported here beside specs/covers.ts.
 */
export { AREAS, inArea, type AreaName } from '../src/run/areas.ts';
