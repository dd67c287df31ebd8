/**
 * The areas of the conformance specs: a run can be narrowed to some of them (`--area`,
 * src/cli/run.ts), the registration area always runs. A test names its area with a Playwright
 * tag (`@delivery`), made by `inArea`; the specs import them from here.
 *
 * A run can also be narrowed to module kinds (`--kind`, src/cli/kinds.ts): the telephony,
 * delivery and payment areas are the tests of those kinds (their tag is the kind's name); the
 * chat area holds two kinds, and each of its tests names its kind with a second tag
 * (`@mgTransport`, `@mgBot`).
 */
import type { ModuleKind } from '../contract/kinds.ts';

export const AREAS = ['registration', 'delivery', 'payment', 'telephony', 'chat'] as const;

export type AreaName = (typeof AREAS)[number];

/** The details of a test of this area (merge with `covers(...)`); a chat test names its kind too. */
export function inArea(area: AreaName, kind?: ModuleKind): { tag: string[] } {
  return { tag: [`@${area}`, ...(kind !== undefined && kind !== area ? [`@${kind}`] : [])] };
}
