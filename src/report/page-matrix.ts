/**
 * The page's requirements: the matrix by kind and area (tested, passed, failed, warned, not
 * tested and why, out of scope), counted from the run's coverage, and the table of the whole
 * catalogue, each requirement with its checks, or why it was not tested.
 */
import type { Area } from '../contract/catalogue.ts';
import { ALL_ROWS } from '../checks/tables.ts';
import type { RequirementRow } from './results.ts';
import { AREA_KIND, type Coverage } from './coverage.ts';
import { areaOfId, badge, checkAnchor, escapeHtml, filterAttrs, type FilterStatus } from './page-text.ts';

/** Where a requirement stands in the run: judged, not tested for a reason of the coverage, or out of scope. */
export type Category = 'passed' | 'failed' | 'warning' | 'leftOut' | 'needsTrigger' | 'skipped' | 'notApplicable' | 'notCovered' | 'profileOff' | 'outOfScope';

const NOT_TESTED: ReadonlyArray<[Category, string]> = [
  ['leftOut', 'left out by the selection'],
  ['needsTrigger', 'need a trigger'],
  ['skipped', 'skipped'],
  ['notApplicable', 'not applicable'],
  ['notCovered', 'not yet covered by the suite'],
];

const FILTER_OF: Record<Category, FilterStatus> = {
  passed: 'passed', failed: 'failed', warning: 'warning',
  leftOut: 'notTested', needsTrigger: 'notTested', skipped: 'notTested', notApplicable: 'notTested', notCovered: 'notTested',
  profileOff: 'outOfScope', outOfScope: 'outOfScope',
};

const AREAS: ReadonlyArray<[Area, string]> = [
  ['REG', 'registration'], ['GEN', 'general'], ['TEL', 'telephony'], ['DLV', 'delivery'], ['PAY', 'payment'], ['TRN', 'transport'], ['BOT', 'bot'],
];

/** Each requirement's category, read from the coverage's id lists; an applicable requirement in none of them passed. */
export function categorize(requirements: readonly RequirementRow[], c: Coverage): Map<string, Category> {
  const listed = new Map<string, Category>();
  const put = (ids: readonly string[], cat: Category): void => ids.forEach((id) => listed.set(id, cat));
  put(c.failedIds, 'failed');
  put(c.warnedIds, 'warning');
  for (const [cat] of NOT_TESTED) put(c.groups[cat as keyof Coverage['groups']].ids, cat);
  put(c.profileOff.ids, 'profileOff');
  return new Map(requirements.map((q) => [q.id, listed.get(q.id) ?? ((q.applicable ?? q.status === 'passed') ? 'passed' : 'outOfScope')]));
}

interface Tally {
  applicable: number;
  tested: number;
  byCategory: Map<Category, number>;
}

function tally(ids: readonly string[], cats: Map<string, Category>): Tally {
  const byCategory = new Map<Category, number>();
  for (const id of ids) byCategory.set(cats.get(id)!, (byCategory.get(cats.get(id)!) ?? 0) + 1);
  const n = (k: Category): number => byCategory.get(k) ?? 0;
  const tested = n('passed') + n('failed') + n('warning');
  return { applicable: tested + NOT_TESTED.reduce((s, [k]) => s + n(k), 0), tested, byCategory };
}

/** A count of the matrix: a button that filters the requirements to its area and status, or a plain number. */
function cell(n: number, area: string, status: FilterStatus | '', col: string, cls = ''): string {
  if (n === 0 || status === '') return `<td class="n${n === 0 ? ' zero' : ''}${cls}" data-col="${col}">${n}</td>`;
  return `<td class="n${cls}" data-col="${col}"><button type="button" data-set-area="${escapeHtml(area)}" data-set-status="${status}">${n}</button></td>`;
}

function matrixRow(id: string, kind: string, label: string, area: string, t: Tally, triggers: readonly string[]): string {
  const n = (k: Category): number => t.byCategory.get(k) ?? 0;
  const notTested = t.applicable - t.tested;
  const why = NOT_TESTED.filter(([k]) => n(k) > 0).map(([k, text]) => `${n(k)} ${k === 'needsTrigger' && triggers.length > 0 ? `${text} (${triggers.join(', ')})` : text}`);
  const out = n('profileOff') + n('outOfScope');
  return `<tr id="${id}"><td>${escapeHtml(kind)}</td><th>${escapeHtml(label)}</th>${cell(t.applicable, area, '', 'applicable')}${cell(t.tested, area, '', 'tested')}${cell(n('passed'), area, 'passed', 'passed', ' ok')}${cell(n('failed'), area, 'failed', 'failed', ' bad')}${cell(n('warning'), area, 'warning', 'warned', ' warn')}${cell(notTested, area, 'notTested', 'notTested')}<td class="why">${escapeHtml(why.join(', '))}</td>${cell(out, area, 'outOfScope', 'outOfScope', ' dim')}</tr>`;
}

/** The matrix of the applicable requirements by kind and area, with a total; each count filters the requirements table. */
export function matrixSection(requirements: readonly RequirementRow[], c: Coverage, cats: Map<string, Category>): string {
  const triggers = c.groups.needsTrigger.triggers;
  const rows = AREAS.map(([area, name]) => {
    const ids = requirements.filter((q) => areaOfId(q.id) === area).map((q) => q.id);
    const kind = AREA_KIND[area];
    const declared = kind === null || c.kinds.includes(kind);
    return matrixRow(`matrix-${area}`, kind === null ? 'every module' : `${kind}${declared ? '' : ' (not declared)'}`, `${area} ${name}`, area, tally(ids, cats), triggers);
  });
  const total = matrixRow('matrix-total', '', 'all areas', '', tally(requirements.map((q) => q.id), cats), triggers);
  return `<section id="matrix"><h2>Requirements by kind and area</h2>
<table class="matrix"><thead><tr><th>kind</th><th>area</th><th>applicable</th><th>tested</th><th>passed</th><th>failed</th><th>warned</th><th>not tested</th><th>why not tested</th><th>out of scope</th></tr></thead>
<tbody>${rows.join('\n')}</tbody><tfoot>${total}</tfoot></table>
${coverageNotes(c)}</section>`;
}

/** What the matrix does not say: the selection of a narrowed run, triggers to declare or never used, the profile off, the catalogue beyond the run. */
function coverageNotes(c: Coverage): string {
  const notes: string[] = [];
  if (c.narrowed) notes.push(`left out by the selection: ${c.groups.leftOut.count} requirement(s) only the tests the selection did not take (${c.narrowed.total - c.narrowed.selected} of ${c.narrowed.total}) cover`);
  if (c.groups.needsTrigger.count > 0) notes.push(`need a trigger: declare ${c.groups.needsTrigger.triggers.join(', ')} in the configuration's "triggers"`);
  if (c.unusedTriggers.length > 0) notes.push(`declared triggers never used: ${c.unusedTriggers.join(', ')}: no check${c.narrowed ? ' of the selected tests' : ''} used them, so what they start was not tried`);
  if (!c.profile) notes.push(`profile off: ${c.profileOff.count} wire-profile (WIRE-) requirement(s) not applicable to a run on the document alone`);
  notes.push(`out of scope: ${c.catalogue.notTestable} of the catalogue's ${c.catalogue.total} requirements are not testable from outside a module, ${c.catalogue.otherKinds} belong to kinds the module does not declare`);
  return `<ul class="notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
}

/** The checks the application tables apply to each requirement id (`src/checks/tables.ts`), by id. */
const APPLIED = new Map<string, string[]>();
for (const r of ALL_ROWS) for (const id of r.requirements) APPLIED.set(id, [...new Set([...(APPLIED.get(id) ?? []), r.check.name])]);

const WHY: Partial<Record<Category, string>> = Object.fromEntries([...NOT_TESTED.map(([k, t]) => [k, t.replace(/^need /, 'needs ')]), ['profileOff', 'profile requirement: the run uses the document alone (--no-profile)']]);

/** A requirement no judged result of the run speaks of: why, and the checks the tables would apply to it. */
function whyUntested(q: RequirementRow, cat: Category | undefined): string {
  const planned = APPLIED.get(q.id) ?? [];
  const why = escapeHtml((cat && WHY[cat]) ?? q.reason ?? '');
  const checks = q.checks.length > 0 ? `checks: ${q.checks.map((c) => `<a href="#${checkAnchor(c)}"><code>${escapeHtml(c)}</code></a>`).join(', ')}` : planned.length > 0 ? `applied by ${planned.map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}` : '';
  return `${why}${why && checks ? '<br>' : ''}${checks ? `<small>${checks}</small>` : ''}`;
}

function requirementRow(q: RequirementRow, cat: Category | undefined): string {
  const status: FilterStatus = cat ? FILTER_OF[cat] : 'notTested';
  const judged = cat === 'passed' || cat === 'failed' || cat === 'warning';
  const checks = judged ? q.checks.map((c) => `<a href="#${checkAnchor(c)}"><code>${escapeHtml(c)}</code></a>`).join('<br>') : whyUntested(q, cat);
  return `<tr id="req-${escapeHtml(q.id)}" ${filterAttrs(status, [q.id], q.level)}><td>${badge(status)}</td><td><code>${escapeHtml(q.id)}</code> ${escapeHtml(q.level)}</td>
<td>${escapeHtml(q.quote)}<br><small>${escapeHtml(q.section)}</small></td><td>${checks}</td></tr>`;
}

/** The whole catalogue behind one fold, failures first; a run that could not start tested none of it. */
export function requirementsSection(requirements: readonly RequirementRow[], c: Coverage | undefined, cats: Map<string, Category> | undefined): string {
  if (!c || !cats) {
    return `<section id="requirements-none"><h2>Requirements</h2><p>No requirement was tested: the run did not reach the checks. The catalogue's ${requirements.length} requirements are listed in results.json.</p></section>`;
  }
  const rank: Record<FilterStatus, number> = { failed: 0, warning: 1, passed: 2, notTested: 3, outOfScope: 4 };
  const sorted = [...requirements].sort((a, b) => rank[FILTER_OF[cats.get(a.id)!]] - rank[FILTER_OF[cats.get(b.id)!]]);
  const out = requirements.length - c.applicable;
  return `<details id="requirements" class="filterable"><summary><h2>Requirements: ${c.applicable} applicable, ${c.tested} tested, ${c.notTested} not tested; ${out} out of this run's scope</h2></summary>
<table><thead><tr><th>status</th><th>id</th><th>statement</th><th>checks, or why not tested</th></tr></thead><tbody>
${sorted.map((q) => requirementRow(q, cats.get(q.id))).join('\n')}
</tbody></table></details>`;
}
