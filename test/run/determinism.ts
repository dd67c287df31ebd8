/**
 * What two runs of the same seed must share, read from their results.json: the suite's requests
 * (the first request of every generated case, with what the module made up itself masked) and
 * every result (status and severity by spec, check and ids, with the property's tallies and its
 * counterexample's path), the requirements' statuses, the summary and the coverage.
 */
import type { Results } from '../../src/report/results.ts';

type Json = Record<string, unknown>;

const tryJson = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
};

/** Every long leaf value (and a URL's path) of a body the module wrote: what the module made up (ids, codes, record addresses). */
function leaves(v: unknown, out: Set<string>): void {
  if (typeof v === 'string') {
    if (v.length < 8) return;
    out.add(v);
    if (/^https?:/.test(v)) out.add(new URL(v).pathname);
  } else if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) >= 1000) out.add(String(v));
  } else if (v !== null && typeof v === 'object') for (const x of Object.values(v as Json)) leaves(x, out);
}

/** What the module wrote in a run (long leaf values of its answers and its own calls), longest first. */
export function moduleValues(results: Results): string[] {
  const found = new Set<string>();
  for (const e of results.exchanges) {
    const body = e.direction.startsWith('module->') ? e.request.body : e.response?.body;
    if (typeof body !== 'string') continue;
    const json = tryJson(body);
    if (json !== undefined) leaves(json, found);
    else for (const [, v] of new URLSearchParams(body)) leaves(tryJson(v) ?? v, found);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * The first request of every generated case the suite sent (`<property>#<n>`, a sequence's
 * `#<n>.0`), by case id: method, path, query and body, where what the module answered earlier
 * (a deliveryId, a record's address: `made`, taken from both runs compared, since a module may
 * echo a value the suite generated in one run and not yet in the other) and the clock (a
 * webhook's `timestamp`) are masked.
 */
export function generatedRequests(results: Results, made: string[]): Map<string, string> {
  const requests = new Map<string, string>();
  for (const e of results.exchanges) {
    if (!e.case || !/#\d+(\.[01])?$/.test(e.case) || !/^(system|gateway)->module$/.test(e.direction)) continue;
    const url = new URL((e.request.url ?? '').replace(/^ws/, 'http'));
    let text = `${e.request.method ?? ''} ${url.pathname}${url.search} ${typeof e.request.body === 'string' ? e.request.body : ''}`;
    for (const v of made) {
      text = text.split(v).join('<module>');
      const encoded = encodeURIComponent(v);
      if (encoded !== v) text = text.split(encoded).join('<module>');
    }
    requests.set(e.case, text.replace(/\b1[789]\d{8}\b/g, '<time>'));
  }
  return requests;
}

/**
 * Every result by spec, check and ids: status and severity; a property's cases, its failing
 * cases, whether any case exercised it, and its counterexample's path. How many of the cases
 * exercised a check is left out: where a check judges the module's own calls after a step (a
 * payment report), a call that comes after the step's wait on a loaded machine leaves that case
 * not exercised (seen: 8 against 9 of 10 under a full self-test's load), with the same verdict.
 */
export function resultsSaid(results: Results): Record<string, string[]> {
  const said: Record<string, string[]> = {};
  for (const r of results.results) {
    const p = r.property;
    const tally = p ? ` ${p.cases} cases, ${p.failed} failing, ${p.passed > 0 ? 'exercised' : 'not exercised'}${p.counterexample ? `, path ${p.counterexample.path}` : ''}` : '';
    (said[`${r.spec} :: ${r.check} :: ${r.requirements.join(',')}`] ??= []).push(`${r.status} ${r.severity}${tally}`);
  }
  for (const k of Object.keys(said)) said[k]!.sort();
  return said;
}

/** The requirements' statuses, the summary and the coverage. */
export function verdictSaid(results: Results): unknown {
  return { outcome: results.run.outcome, summary: results.summary, coverage: results.coverage, requirements: Object.fromEntries(results.requirements.map((r) => [r.id, r.status])) };
}
