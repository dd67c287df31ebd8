/**
 * conformance.html: one self-contained page (no scripts from elsewhere, works offline) that
 * says, requirement by requirement, what holds. Everything the module sent is escaped.
 */
import { curlNote } from '../evidence/curl.ts';
import { evidenceLines, moduleStopText, propertyCasesText, replayCommand, summaryText, type Results, type RequirementRow } from './results.ts';
import { narrowingText, verdictText, type Coverage } from './coverage.ts';
import { shardsNote } from './merge.ts';
import type { CheckResult, PropertyStats } from '../checks/result.ts';
import { ALL_ROWS } from '../checks/tables.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { ModuleOutput, StreamTail } from '../module/output-tail.ts';

export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STATUS_LABEL: Record<string, string> = {
  passed: 'passed', failed: 'FAILED', warning: 'warning', skipped: 'skipped', notApplicable: 'not applicable', untested: 'untested', info: 'info',
};

const badge = (status: string): string => `<span class="badge ${escapeHtml(status)}">${escapeHtml(STATUS_LABEL[status] ?? status)}</span>`;

function exchangeBlock(x: Exchange): string {
  const req = x.request;
  const res = x.response;
  return `<details class="exchange" id="${escapeHtml(x.id)}"><summary><code>${escapeHtml(x.id)}</code> ${escapeHtml(x.direction)} ${escapeHtml(x.label)}: ${escapeHtml(req.method)} ${escapeHtml(req.url)} → ${escapeHtml(res ? `HTTP ${res.status}` : x.error ?? 'no reply')} (${x.durationMs} ms)</summary>
<pre>${escapeHtml(Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\n'))}\n\n${escapeHtml(req.body ?? '')}${req.truncated ? `\n… (${req.bytes} bytes)` : ''}</pre>
${res ? `<pre>HTTP ${res.status}\n${escapeHtml(Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`).join('\n'))}\n\n${escapeHtml(res.body ?? '')}${res.truncated ? `\n… (${res.bytes} bytes)` : ''}</pre>` : ''}
${x.curl ? `<p>Reproduce with:</p><pre>${escapeHtml(x.curl)}</pre>${curlNote(x.curl) ? `<p>${escapeHtml(curlNote(x.curl)!)}</p>` : ''}` : ''}</details>`;
}

/** The most of a counterexample's request the page shows (a request not shrunk can be long). */
const REQUEST_SHOWN = 20_000;

/** A property's cases, its seed and budget, and for a failure the shrunk counterexample, its exchange, its saved file and how to replay it. */
function propertyBlock(p: PropertyStats, run: Results['run']): string {
  const head = `<p class="property">Property <b>${escapeHtml(p.property)}</b>: ${escapeHtml(propertyCasesText(p))}.</p>`;
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

function resultRow(r: CheckResult, run: Results['run']): string {
  return `<tr class="${escapeHtml(r.status)}"><td>${badge(r.status)}</td><td><code>${escapeHtml(r.check)}</code><br>${escapeHtml(r.title)}</td>
<td>${r.requirements.map((id) => `<a href="#req-${escapeHtml(id)}" class="chip">${escapeHtml(id)}</a>`).join(' ') || '<em>suite rule</em>'}${r.profile ? ' <span class="chip profile">profile</span>' : ''}</td>
<td><pre>${escapeHtml(r.message)}</pre>${r.property ? propertyBlock(r.property, run) : ''}${r.evidence.map((id) => `<a href="#${escapeHtml(id)}">${escapeHtml(id)}</a>`).join(' ')}</td></tr>`;
}

/** The order of the checks table: failures first. */
const STATUS_RANK: Record<string, number> = { failed: 0, warning: 1, skipped: 2, passed: 3, notApplicable: 4, info: 5 };

/** The checks the application tables apply to each requirement id (`src/checks/tables.ts`), by id. */
const APPLIED = new Map<string, string[]>();
for (const r of ALL_ROWS) for (const id of r.requirements) APPLIED.set(id, [...new Set([...(APPLIED.get(id) ?? []), r.check.name])]);

/** A requirement no result of the run speaks of: why, and the checks the tables would apply to it (none: the suite does not test it yet). */
function whyUntested(q: RequirementRow): string {
  const planned = APPLIED.get(q.id) ?? [];
  const why = escapeHtml(q.reason ?? '');
  return planned.length === 0 ? why : `${why}${why ? '<br>' : ''}<small>applied by ${planned.map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}</small>`;
}

function requirementRow(q: RequirementRow): string {
  return `<tr id="req-${escapeHtml(q.id)}" class="${escapeHtml(q.status)}"><td>${badge(q.status)}</td><td><code>${escapeHtml(q.id)}</code> ${escapeHtml(q.level)}</td>
<td>${escapeHtml(q.quote)}<br><small>${escapeHtml(q.section)}</small></td><td>${q.checks.map((c) => `<code>${escapeHtml(c)}</code>`).join('<br>') || whyUntested(q)}</td></tr>`;
}

/** A collapsible list of requirement ids, each a link to its row. */
function idList(id: string, label: string, ids: readonly string[]): string {
  if (ids.length === 0) return '';
  return `<details id="coverage-${escapeHtml(id)}"><summary>${escapeHtml(label)}</summary><p>${ids.map((i) => `<a href="#req-${escapeHtml(i)}" class="chip">${escapeHtml(i)}</a>`).join(' ')}</p></details>`;
}

/** What the run tested of what applies to the module, and why the rest was not tested. */
function coverageSection(c: Coverage): string {
  const g = c.groups;
  const rows: Array<[string, number, string]> = [
    ['applicable requirements', c.applicable, `testable requirements of REG, GEN and the declared kinds (${c.kinds.join(', ') || 'none'})${c.profile ? '' : ', profile (WIRE-) requirements excepted'}`],
    ['tested', c.tested, `${c.passed} passed, ${c.failed} failed, ${c.warned} warned (SHOULD)`],
    ['not tested', c.notTested, ''],
    ['— need a trigger', g.needsTrigger.count, g.needsTrigger.triggers.length > 0 ? `declare ${g.needsTrigger.triggers.join(', ')} in the configuration's "triggers"` : ''],
    ['— skipped', g.skipped.count, 'a declared trigger failed, or the flow did not happen'],
    ['— not applicable', g.notApplicable.count, 'the module did not send the field or exercise the case'],
    ['— not yet covered by the suite', g.notCovered.count, 'no check of the suite tests it yet'],
  ];
  if (c.narrowed) rows.splice(3, 0, ['— left out by the selection', g.leftOut.count, `only tests that ${narrowingText(c.narrowed)} did not select (${c.narrowed.total - c.narrowed.selected} of ${c.narrowed.total}) cover it`]);
  if (c.unusedTriggers.length > 0) rows.push(['declared triggers never used', c.unusedTriggers.length, `${c.unusedTriggers.join(', ')}: no check${c.narrowed ? ' of the selected tests' : ''} used them, so what they start was not tried`]);
  if (!c.profile) rows.push(['profile off', c.profileOff.count, 'wire-profile (WIRE-) requirements: not applicable to a run on the document alone']);
  return `<section id="coverage"><h2>Coverage</h2>
<table class="coverage"><tbody>${rows.map(([label, n, note]) => `<tr><th>${escapeHtml(label)}</th><td class="n">${n}</td><td>${escapeHtml(note)}</td></tr>`).join('')}</tbody></table>
${[
  idList('failed', `failed (${c.failed})`, c.failedIds),
  idList('warned', `warned (${c.warned})`, c.warnedIds),
  idList('leftOut', `left out by the selection (${g.leftOut.count})`, g.leftOut.ids),
  idList('needsTrigger', `need a trigger (${g.needsTrigger.count}): ${g.needsTrigger.triggers.join(', ')}`, g.needsTrigger.ids),
  idList('skipped', `skipped (${g.skipped.count})`, g.skipped.ids),
  idList('notApplicable', `not applicable (${g.notApplicable.count})`, g.notApplicable.ids),
  idList('notCovered', `not yet covered by the suite (${g.notCovered.count})`, g.notCovered.ids),
  idList('profileOff', `profile off (${c.profileOff.count})`, c.profileOff.ids),
]
  .filter((d) => d !== '')
  .join('\n')}
<p><small>Out of this run's scope: ${c.catalogue.notTestable} of the catalogue's ${c.catalogue.total} requirements are not testable from outside a module, ${c.catalogue.otherKinds} belong to kinds the module does not declare.</small></p></section>`;
}

/** What the launched module printed (already bounded in results.json), escaped; open when the run could not start. */
function moduleOutputSection(output: ModuleOutput | undefined, aborted: boolean): string {
  if (!output) return '';
  const stream = (name: 'stdout' | 'stderr', t: StreamTail): string => {
    const count = t.droppedLines > 0 ? `the last ${t.lines.length} of ${t.totalLines} line(s)` : `${t.totalLines} line(s)`;
    const body = t.lines.length > 0 ? `<pre>${escapeHtml(t.lines.join('\n'))}</pre>` : '<p><em>nothing</em></p>';
    return `<details id="module-${name}"${aborted && t.lines.length > 0 ? ' open' : ''}><summary>${name}: ${escapeHtml(count)}</summary>${body}</details>`;
  };
  return `<section id="module-output"><h2>Module output</h2><p><small>What the launched module printed during the run, secrets redacted; more of it in module.stdout.log and module.stderr.log beside this report.</small></p>
${stream('stdout', output.stdout)}
${stream('stderr', output.stderr)}</section>
`;
}

/** The run's seed, and what it generates: every generated request of the run comes from it. */
function seedLine(run: Results['run']): string {
  const g = run.generation;
  const seed = run.seed ?? g?.seed;
  if (seed === undefined) return '';
  const more = g ? `, ${g.runs} case(s) per property, ${g.timeLimitMs} ms per property at most` : '';
  return `<p id="seed">Generated requests: seed <code>${seed}</code>${escapeHtml(more)}; <code>conformance run --seed ${seed}${g ? ` --runs ${g.runs}` : ''}</code> sends the same ones again.</p>\n`;
}

export function renderHtml(results: Results): string {
  const s = results.summary;
  // The same counts as the coverage: tested = applicable with a pass, failure or warning; the
  // rest of the applicable ones are not tested; the others are out of this run's scope.
  const judged = (q: RequirementRow): boolean => q.status === 'passed' || q.status === 'failed' || q.status === 'warning';
  const inScope = (q: RequirementRow): boolean => q.applicable ?? q.status !== 'untested';
  const tested = results.requirements.filter((q) => inScope(q) && judged(q));
  const untested = results.requirements.filter((q) => inScope(q) && !judged(q));
  const outOfScope = results.requirements.filter((q) => !inScope(q));
  const verdict =
    results.run.outcome === 'aborted'
      ? `RUN COULD NOT START: ${results.run.aborted ?? ''}`
      : results.coverage
        ? verdictText(results.coverage)
        : results.run.outcome === 'passed'
          ? 'PASS (no MUST failure)'
          : 'FAIL: MUST requirements failed';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report: ${escapeHtml(results.module?.code ?? 'module')}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#1d1d1f}table{border-collapse:collapse;width:100%;margin:1em 0}td,th{border-bottom:1px solid #ddd;padding:.4em;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;word-break:break-word;margin:.2em 0;font-size:12px}.badge{padding:.1em .5em;border-radius:.3em;font-weight:600;font-size:12px}
.passed .badge,.badge.passed{background:#d9f2df}.failed .badge,.badge.failed{background:#f9d0d0}.warning .badge,.badge.warning{background:#fbeec8}
.badge.skipped,.badge.notApplicable,.badge.untested{background:#eee}.chip{font-family:monospace;font-size:11px;background:#eef;padding:0 .3em;border-radius:.3em;text-decoration:none}
.chip.profile{background:#fde}.property{margin:.3em 0}.counterexample{margin:.3em 0 .6em;padding:.2em .5em;border-left:3px solid #f9d0d0}.verdict{font-size:18px;font-weight:700}.coverage{width:auto}.coverage th{font-weight:600}.coverage .n{text-align:right;font-variant-numeric:tabular-nums}
details summary{cursor:pointer}.exchange summary{cursor:pointer;font-size:12px}
</style></head><body>
<h1>Conformance report</h1>
<p class="verdict" id="verdict">${escapeHtml(verdict)}</p>
<p>Module <code>${escapeHtml(results.module?.code ?? '(none)')}</code> (${escapeHtml((results.module?.kinds ?? []).join(', '))}), ${escapeHtml(results.run.mode ?? '')} mode, profile checks ${results.run.profile ? 'on' : 'off'}; run of ${escapeHtml(results.run.startedAt)}, ${(results.run.durationMs / 1000).toFixed(1)} s; ${escapeHtml(results.suite.name)} ${escapeHtml(results.suite.version)}.</p>
${seedLine(results.run)}${shardsNote(results.run) ? `<p id="shards">${escapeHtml(shardsNote(results.run)!)}</p>\n` : ''}
${moduleStopText(results.run.moduleStop) ? `<p id="module-stop">Stopping the module: ${escapeHtml(moduleStopText(results.run.moduleStop)!)} This breaks no rule of the contract.</p>\n` : ''}${results.coverage ? coverageSection(results.coverage) : ''}
${results.evidence ? `<section id="traffic"><h2>Traffic</h2><p><small>Information beside the checks: every exchange counted per endpoint; the first, the last and the refused ones are kept whole below.</small></p>\n${evidenceLines(results.evidence).map((l) => `<p class="traffic">${escapeHtml(l)}</p>`).join('\n')}</section>\n` : ''}${moduleOutputSection(results.run.moduleOutput, results.run.outcome === 'aborted')}<p id="summary">${escapeHtml(summaryText(s))}</p>
<h2>Checks</h2>
<table><thead><tr><th>status</th><th>check</th><th>requirements</th><th>what was checked, received, expected</th></tr></thead><tbody>
${[...results.results].sort((a, b) => (STATUS_RANK[a.status] ?? 9) - (STATUS_RANK[b.status] ?? 9)).map((r) => resultRow(r, results.run)).join('\n')}
</tbody></table>
<h2 id="requirements-tested">Requirements tested (${tested.length})</h2>
<table><thead><tr><th>status</th><th>id</th><th>statement</th><th>checks</th></tr></thead><tbody>${tested.map(requirementRow).join('\n')}</tbody></table>
<h2 id="requirements-not-tested">Applicable requirements not tested (${untested.length})</h2>
<table><thead><tr><th>status</th><th>id</th><th>statement</th><th>checks, or why</th></tr></thead><tbody>${untested.map(requirementRow).join('\n')}</tbody></table>
<h2 id="requirements-out-of-scope">Out of this run's scope (${outOfScope.length})</h2>
<table><thead><tr><th>status</th><th>id</th><th>statement</th><th>why</th></tr></thead><tbody>${outOfScope.map(requirementRow).join('\n')}</tbody></table>
<h2>Exchanges (${results.exchanges.length})</h2>
${results.exchanges.map(exchangeBlock).join('\n')}
</body></html>
`;
}
