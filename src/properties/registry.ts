/**
 * The properties of the suite and the checks each applies, read from the application tables
 * (`src/checks/<area>/applications.ts`: the rows marked `property`, `to` the property's name):
 * the specs run them from here, and `conformance replay` finds a saved failure's check here, so
 * that a replayed case is judged exactly as the run judged it.
 */
import type { PropertyCheck } from './run.ts';
import { appOf, rowsTo, type Row } from '../checks/apply.ts';
import { ALL_ROWS } from '../checks/tables.ts';
import type { CaseOutcome } from '../checks/case.ts';

const PROPERTY_ROWS = ALL_ROWS.filter((r) => r.property) as ReadonlyArray<Row<CaseOutcome>>;

const fromRows = (property: string) => (profile: boolean): PropertyCheck[] => rowsTo(PROPERTY_ROWS, property, profile).map((r) => ({ check: r.check, app: appOf(r) }));

/** Each property's checks, by the property's name; `profile`: the run's reading (some ids differ by it). */
export const PROPERTY_CHECKS: Readonly<Record<string, (profile: boolean) => PropertyCheck[]>> = Object.fromEntries([...new Set(PROPERTY_ROWS.map((r) => r.to))].map((name) => [name, fromRows(name)]));

/** The requirement ids a property can credit in either view of the run: what its test declares it covers. */
export const propertyCovers = (property: string): string[] => [true, false].flatMap((profile) => propertyChecks(property, profile).flatMap((c) => c.app.requirements));

/** The checks of a property; throws for a property no table knows (a defect of the suite). */
export function propertyChecks(property: string, profile: boolean): PropertyCheck[] {
  const checks = PROPERTY_CHECKS[property];
  if (!checks) throw new Error(`no property named ${JSON.stringify(property)} in the application tables (src/checks/<area>/applications.ts)`);
  return checks(profile);
}

/**
 * A property's check by name, as the property applies it to a case's outcome: in the named
 * property first, else in any property (a property renamed since the failure was saved);
 * undefined when no property applies a check of that name.
 */
export function findPropertyCheck(property: string, check: string): PropertyCheck | undefined {
  const names = [property, ...Object.keys(PROPERTY_CHECKS).filter((p) => p !== property)].filter((p) => p in PROPERTY_CHECKS);
  for (const p of names) {
    for (const profile of [true, false]) {
      const found = PROPERTY_CHECKS[p]!(profile).find((c) => c.check.name === check);
      if (found) return found;
    }
  }
  return undefined;
}
