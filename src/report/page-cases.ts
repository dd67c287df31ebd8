/**
 * The page's check results: each failure (and SHOULD warning) as a card with what was checked,
 * received and expected, its property's counterexample, linked to its check and its evidence,
 * the first exchange of its evidence shown whole; the passing ones counted per check.
 */
import { curlNote } from '../evidence/curl.ts';
import type { CheckResult, PropertyStats } from '../checks/result.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { RecordedMessage } from '../evidence/recorded.ts';
import { propertyCasesText, replayCommand, summaryText, type Results } from './results.ts';
import { badge, checkAnchor, escapeHtml, filterAttrs, reqChip, resultFilterStatus } from './page-text.ts';

/** The most of a body the page shows (results.json keeps up to 64 KB of each). */
const BODY_SHOWN = 16_000;
/** The most of a counterexample's request the page shows (a request not shrunk can be long). */
const REQUEST_SHOWN = 20_000;
/** The exchanges of one result's evidence the page shows whole, and of all its results; results.json holds them all. */
const EXCHANGES_SHOWN = 5;
const EXCHANGES_ON_PAGE = 60;

function message(m: RecordedMessage, head: string): string {
  const body = m.body ?? '';
  const cut = body.length > BODY_SHOWN ? `\n… (${m.bytes} bytes; the first ${BODY_SHOWN} characters shown, more in results.json)` : m.truncated ? `\n… (${m.bytes} bytes)` : '';
  return `<pre>${escapeHtml(head)}\n${escapeHtml(Object.entries(m.headers).map(([k, v]) => `${k}: ${v}`).join('\n'))}\n\n${escapeHtml(body.slice(0, BODY_SHOWN))}${escapeHtml(cut)}</pre>`;
}

export function exchangeBlock(x: Exchange, open: boolean): string {
  const req = x.request;
  const res = x.response;
  const note = x.curl ? curlNote(x.curl) : undefined;
  return `<details class="exchange" id="${escapeHtml(x.id)}"${open ? ' open' : ''}><summary><code>${escapeHtml(x.id)}</code> ${escapeHtml(x.direction)} ${escapeHtml(x.label)}: ${escapeHtml(req.method)} ${escapeHtml(req.url)} → ${escapeHtml(res ? `HTTP ${res.status}` : x.error ?? 'no reply')} (${x.durationMs} ms)</summary>
<div class="sent"><b>sent</b>${message(req, `${req.method ?? ''} ${req.url ?? ''}`)}</div>
${res ? `<div class="received"><b>received</b>${message(res, `HTTP ${res.status}`)}</div>` : `<p><b>received</b> nothing: ${escapeHtml(x.error ?? 'no reply')}</p>`}
${x.curl ? `<p>Reproduce with:</p><pre>${escapeHtml(x.curl)}</pre>${note ? `<p>${escapeHtml(note)}</p>` : ''}` : ''}</details>`;
}

/** A property's cases as a check saw them: `Property <b>p</b>: 100 of 100 generated case(s): …; seed 11.` */
const propertyLine = (p: PropertyStats): string => `Property <b>${escapeHtml(p.property)}</b>: ${escapeHtml(propertyCasesText(p))}.`;

/** A property's cases, its seed and budget, and for a failure the shrunk counterexample, its exchange, its saved file and how to replay it. */
function propertyBlock(p: PropertyStats, run: Results['run']): string {
  const head = `<p class="property">${propertyLine(p)}</p>`;
  const c = p.counterexample;
  if (!c) return head;
  const json = JSON.stringify(c.request, null, 2) ?? String(c.request);
  const shown = json.length > REQUEST_SHOWN ? `${json.slice(0, REQUEST_SHOWN)}\n… (${json.length} characters)` : json;
  const shrunk = c.shrinks > 0 ? `shrunk in ${c.shrinks} step(s)` : 'not shrunk further';
  return `${head}
<details class="counterexample" open><summary>Counterexample, ${escapeHtml(shrunk)}: seed <code>${p.seed}</code>, path <code>${escapeHtml(c.path)}</code></summary>
<pre>${escapeHtml(shown)}</pre>
<p>${c.exchange ? `Sent in exchange <a href="#${escapeHtml(c.exchange)}">${escapeHtml(c.exchange)}</a>. ` : ''}${c.file ? `Saved as ${/^failures\/[^/]+\.json$/.test(c.file) ? `<a href="${escapeHtml(c.file)}"><code>${escapeHtml(c.file)}</code></a>` : `<code>${escapeHtml(c.file)}</code>`}; from this report's folder, replay it with:</p><pre class="replay">${escapeHtml(replayCommand(c.file, run))}</pre>` : 'Not saved (the failure file could not be written).</p>'}
</details>`;
}

/**
 * The exchanges of the cards, each shown once: a card shows whole the first exchange of its
 * evidence no card showed before (its counterexample's first); the rest of the evidence is
 * linked, and listed after the cards (`rest`).
 */
export class ExchangeShelf {
  private readonly byId: Map<string, Exchange>;
  private readonly shown = new Set<string>();
  readonly rest: Exchange[] = [];

  constructor(exchanges: readonly Exchange[]) {
    this.byId = new Map(exchanges.map((x) => [x.id, x]));
  }

  /** The evidence of one result: the first exchange not yet shown, open; the others of the first few queued for the list after the cards. */
  take(r: CheckResult): string {
    const ids = [...new Set([...(r.property?.counterexample?.exchange ? [r.property.counterexample.exchange] : []), ...r.evidence])];
    let inline = '';
    for (const id of ids.slice(0, EXCHANGES_SHOWN)) {
      const x = this.byId.get(id);
      if (!x || this.shown.has(id) || this.shown.size >= EXCHANGES_ON_PAGE) continue;
      this.shown.add(id);
      if (inline === '') inline = exchangeBlock(x, true);
      else this.rest.push(x);
    }
    const links = r.evidence.map((id) => (this.shown.has(id) ? `<a href="#${escapeHtml(id)}">${escapeHtml(id)}</a>` : `<code>${escapeHtml(id)}</code>`));
    const more = r.evidence.some((id) => !this.shown.has(id)) ? ' (those not linked are not shown on this page)' : '';
    return `${links.length > 0 ? `<p class="evidence">Evidence: ${links.join(' ')}${more}</p>` : ''}${inline}`;
  }
}

/** One failure or warning: opened when it failed, linked to its check and its evidence. */
export function caseCard(r: CheckResult, n: number, run: Results['run'], shelf: ExchangeShelf): string {
  const status = resultFilterStatus(r.status);
  const reqs = r.requirements.map(reqChip).join(' ') || '<em>suite rule</em>';
  return `<details class="case ${escapeHtml(r.status)}" id="${r.status === 'failed' ? 'failure' : 'warning'}-${n}" ${filterAttrs(status, r.requirements, r.severity)}${r.status === 'failed' ? ' open' : ''}>
<summary>${badge(r.status)} <b>${escapeHtml(r.title)}</b> <span class="sev">${escapeHtml(r.severity)}</span> ${reqs}${r.profile ? ' <span class="chip profile">profile</span>' : ''}</summary>
<p class="check">Check <a href="#${checkAnchor(r.check)}"><code>${escapeHtml(r.check)}</code></a>${r.spec ? ` in <i>${escapeHtml(r.spec)}</i>` : ''}</p>
<pre class="message">${escapeHtml(r.message)}</pre>${r.property ? propertyBlock(r.property, run) : ''}${shelf.take(r)}</details>`;
}

/** The failures, then the SHOULD warnings, each a card; then the rest of their evidence. */
export function casesSections(results: Results): string {
  const shelf = new ExchangeShelf(results.exchanges);
  const failed = results.results.filter((r) => r.status === 'failed');
  const warned = results.results.filter((r) => r.status === 'warning');
  const failures = failed.length > 0 ? `<section id="failures"><h2>Failures (${failed.length})</h2>\n${failed.map((r, i) => caseCard(r, i + 1, results.run, shelf)).join('\n')}</section>\n` : '';
  const warnings = warned.length > 0 ? `<section id="warnings"><h2>Warnings: SHOULD not met (${warned.length})</h2>\n${warned.map((r, i) => caseCard(r, i + 1, results.run, shelf)).join('\n')}</section>\n` : '';
  const rest = shelf.rest.length > 0 ? `<section id="evidence"><h2>More evidence of the failures (${shelf.rest.length})</h2>\n${shelf.rest.map((x) => exchangeBlock(x, false)).join('\n')}</section>\n` : '';
  return `${failures}${warnings}${rest}`;
}

/** The cases of a check's property results, at most a few (a property's budget that ended it shows here). */
function properties(rs: readonly CheckResult[]): string {
  const ps = rs.flatMap((r) => (r.property ? [r.property] : []));
  return ps.slice(0, 3).map((p) => `<br>${propertyLine(p)}`).join('') + (ps.length > 3 ? `<br>and ${ps.length - 3} more propert${ps.length === 4 ? 'y' : 'ies'}` : '');
}

const COLUMNS = ['passed', 'failed', 'warning', 'skipped', 'notApplicable', 'info'] as const;

/** The checks, one row each with its results counted (passing cases are summarised, never listed one by one). */
export function checksSection(results: Results): string {
  const byCheck = new Map<string, CheckResult[]>();
  for (const r of results.results) {
    const rs = byCheck.get(r.check);
    if (rs) rs.push(r);
    else byCheck.set(r.check, [r]);
  }
  const worst = (rs: CheckResult[]): CheckResult['status'] => (['failed', 'warning', 'passed', 'info', 'skipped', 'notApplicable'] as const).find((s) => rs.some((r) => r.status === s)) ?? 'skipped';
  const rows = [...byCheck].map(([check, rs]) => ({ check, rs, status: worst(rs) }));
  const rank: Record<string, number> = { failed: 0, warning: 1, skipped: 2, passed: 3, info: 4, notApplicable: 5 };
  rows.sort((a, b) => (rank[a.status] ?? 9) - (rank[b.status] ?? 9) || a.check.localeCompare(b.check));
  const body = rows.map(({ check, rs, status }) => {
    const ids = [...new Set(rs.flatMap((r) => r.requirements))];
    const level = [...new Set(rs.map((r) => r.severity))].join(' ');
    const count = (k: (typeof COLUMNS)[number]): string => {
      const n = rs.filter((r) => r.status === k).length;
      return `<td class="n${n === 0 ? ' zero' : ''}">${n}</td>`;
    };
    return `<tr id="${checkAnchor(check)}" ${filterAttrs(resultFilterStatus(status), ids, level)}><td>${badge(status)}</td><td><code>${escapeHtml(check)}</code><br><small>${escapeHtml(rs[0]!.title)}${properties(rs)}</small></td><td>${escapeHtml(level)}</td>${COLUMNS.map(count).join('')}<td>${ids.map(reqChip).join(' ') || '<em>suite rule</em>'}</td></tr>`;
  });
  return `<details id="checks" class="filterable"><summary><h2>Checks (${byCheck.size})</h2> <span id="summary">${results.results.length} results, ${escapeHtml(summaryText(results.summary))}</span></summary>
<table class="checks"><thead><tr><th>status</th><th>check</th><th>level</th><th>passed</th><th>failed</th><th>warned</th><th>skipped</th><th>n/a</th><th>info</th><th>requirements</th></tr></thead><tbody>
${body.join('\n')}
</tbody></table></details>`;
}
