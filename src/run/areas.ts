/**
 * The areas of the conformance specs: a run can be narrowed to some of them (`--area`,
 * src/cli/run.ts), the registration area always runs. A test names its area with a Playwright
 * tag (`@delivery`), made by `inArea`; the specs import them from here.
 */
export const AREAS = ['registration', 'delivery', 'payment', 'telephony', 'chat'] as const;

export type AreaName = (typeof AREAS)[number];

/** The details of a test of this area (merge with `covers(...)`). */
export function inArea(area: AreaName): { tag: string[] } {
  return { tag: [`@${area}`] };
}
