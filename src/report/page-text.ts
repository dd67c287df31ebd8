/**
 * The page's small words: HTML escaping (everything a module sent, and every text of
 * results.json, passes through it), the status badges, and what the filters read of an item of
 * the page (`data-status`, `data-kind`, `data-area`, `data-level`).
 */
import { areaOf, catalogue, REQUIREMENT_ID } from '../contract/catalogue.ts';
import type { CheckResult } from '../checks/result.ts';
import { AREA_KIND } from './coverage.ts';

export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STATUS_LABEL: Record<string, string> = {
  passed: 'passed', failed: 'FAILED', warning: 'warning', skipped: 'skipped', notApplicable: 'not applicable', untested: 'untested', info: 'info',
  notTested: 'not tested', outOfScope: 'out of scope',
};

export const badge = (status: string): string => `<span class="badge ${escapeHtml(status)}">${escapeHtml(STATUS_LABEL[status] ?? status)}</span>`;

/**
 * The statuses the filter offers, one for every item of the page: a check result's or a
 * requirement's. `notTested`: applicable but not judged (skipped, not applicable, needs a
 * trigger, not covered); `outOfScope`: not applicable to this run.
 */
export type FilterStatus = 'failed' | 'warning' | 'passed' | 'notTested' | 'outOfScope';

export const FILTER_STATUSES: ReadonlyArray<[FilterStatus, string]> = [
  ['failed', 'failed'],
  ['warning', 'warned (SHOULD)'],
  ['passed', 'passed'],
  ['notTested', 'not tested'],
  ['outOfScope', 'out of scope'],
];

/** A check result's status as the filter sees it (an informational result counts as passed). */
export function resultFilterStatus(status: CheckResult['status']): FilterStatus {
  if (status === 'failed' || status === 'warning' || status === 'passed') return status;
  return status === 'info' ? 'passed' : 'notTested';
}

/** `every`: the requirements of every module (REG, GEN); the suite's own rules have no kind. */
export const EVERY = 'every';

/** The kinds a requirement binds: the catalogue's `kinds`, else its area's kind, else every module. */
export function kindsOf(id: string): string[] {
  if (!REQUIREMENT_ID.test(id)) return [];
  const entry = catalogue().has(id) ? catalogue().get(id) : undefined;
  return entry?.kinds ?? [AREA_KIND[areaOf(id)] ?? EVERY];
}

/** The area of a requirement id, or `suite` for what is not one. */
export const areaOfId = (id: string): string => (REQUIREMENT_ID.test(id) ? areaOf(id) : 'suite');

/** The filters' attributes of an item: its status, kinds, areas and level (several values separated by spaces). */
export function filterAttrs(status: FilterStatus, ids: readonly string[], level: string): string {
  const kinds = ids.length === 0 ? ['suite'] : [...new Set(ids.flatMap(kindsOf))];
  const areas = ids.length === 0 ? ['suite'] : [...new Set(ids.map(areaOfId))];
  return `data-status="${status}" data-kind="${escapeHtml(kinds.join(' '))}" data-area="${escapeHtml(areas.join(' '))}" data-level="${escapeHtml(level)}"`;
}

/** A requirement id as a link to its row of the requirements table. */
export const reqChip = (id: string): string => `<a href="#req-${escapeHtml(id)}" class="chip">${escapeHtml(id)}</a>`;

/** An anchor id for a check's row of the checks table. */
export const checkAnchor = (check: string): string => `check-${check.replace(/[^\w.-]/g, '_')}`;
