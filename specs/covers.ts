/**
 * What a conformance test can credit, declared with the test (a Playwright annotation of type
 * `covers`, one per requirement id): a run narrowed by `--grep` lists the tests it leaves out
 * and so knows which requirements the selection left out (`conformance run` reads them from
 * Playwright's listing). The ids a test credits at run time are annotated as `requirement`.
 */
export const COVERS = 'covers';

/** The details of a test that can credit these requirement ids (the checks it plans, with their applications). */
export function covers(ids: Iterable<string>): { annotation: Array<{ type: string; description: string }> } {
  return { annotation: [...new Set(ids)].map((description) => ({ type: COVERS, description })) };
}

/** The requirement ids of planned checks. */
export const idsOf = (planned: ReadonlyArray<{ app: { requirements: readonly string[] } }>): string[] => planned.flatMap((p) => p.app.requirements);
