/**
 * The registration rules and the regions of the generic schema check, as the judge
 * (`judge.ts`) applies them: the rows of the area's table (`applications.ts`, where their ids
 * and severity are), each region with where it lies (`scopes.ts`).
 */
import type { Row } from '../apply.ts';
import type { RegionSubject } from '../schema-rule.ts';
import { REGIONS, type RegionName } from './scopes.ts';
import { REGISTRATION_REGIONS as REGION_ROWS } from './applications.ts';

/** A region of the registration judged by the generic schema check, with its row. */
export interface RegistrationRegion {
  name: RegionName;
  region: RegExp;
  kind?: string;
  requirements: string[];
  row: Row<RegionSubject>;
}

/** The regions, in the order of the report. */
export const REGISTRATION_REGIONS: RegistrationRegion[] = (Object.entries(REGION_ROWS) as Array<[RegionName, Row<RegionSubject>]>).map(([name, row]) => ({
  name,
  ...REGIONS[name],
  requirements: row.requirements,
  row,
}));
