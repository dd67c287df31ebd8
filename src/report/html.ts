/**
 * conformance.html: one self-contained page (nothing loads from elsewhere, works offline) read
 * in a minute: the verdict in colour with what it rests on, the failures first (open, linked to
 * their check and evidence), the matrix of requirements by kind and area, then behind folds the
 * checks counted, the whole catalogue, the traffic and the module's output. Its one script (the
 * filters) runs by its hash under a content security policy that admits nothing else; every
 * text of the results, and so everything a module sent, is escaped.
 */
import { evidenceLines, moduleStopText, type Results } from './results.ts';
import { AREA_KIND, verdictText } from './coverage.ts';
import { shardsNote } from './merge.ts';
import type { ModuleOutput, StreamTail } from '../module/output-tail.ts';
import { EVERY, FILTER_STATUSES, escapeHtml } from './page-text.ts';
import { categorize, matrixSection, requirementsSection } from './page-matrix.ts';
import { casesSections, checksSection } from './page-cases.ts';
import { PAGE_CSP, PAGE_SCRIPT, PAGE_STYLE } from './page-script.ts';

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

/** The verdict's word and colour, and its line: the coverage's own words (what the console prints). */
function verdictOf(results: Results): { word: string; tone: 'pass' | 'fail' | 'aborted'; line: string } {
  const run = results.run;
  if (run.outcome === 'aborted') return { word: 'NOT RUN', tone: 'aborted', line: `RUN COULD NOT START: ${run.aborted ?? ''}` };
  const c = results.coverage;
  if (c) return { word: c.verdict, tone: c.verdict === 'FAIL' ? 'fail' : 'pass', line: verdictText(c) };
  return run.outcome === 'passed' ? { word: 'PASS', tone: 'pass', line: 'PASS (no MUST failure)' } : { word: 'FAIL', tone: 'fail', line: 'FAIL: MUST requirements failed' };
}

/** The suite that made the run: `run.suite` (with the contract's SHA-256) when recorded, else the top-level `suite`. */
function suiteOf(results: Results): { name: string; version: string; contractSha256?: string } {
  return (results.run as { suite?: { name: string; version: string; contractSha256?: string } }).suite ?? results.suite;
}

function header(results: Results): string {
  const v = verdictOf(results);
  const run = results.run;
  const suite = suiteOf(results);
  const fact = (term: string, value: string, id?: string): string => `<div${id ? ` id="${id}"` : ''}><dt>${escapeHtml(term)}</dt><dd>${value}</dd></div>`;
  const date = `${escapeHtml(run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}, ${(run.durationMs / 1000).toFixed(1)} s`;
  const seed = run.seed ?? run.generation?.seed;
  const facts = [
    fact('module', `<code>${escapeHtml(results.module?.code ?? '(none)')}</code>`, 'fact-module'),
    fact('kinds', escapeHtml((results.module?.kinds ?? []).join(', ') || '(none)'), 'fact-kinds'),
    fact('mode', escapeHtml(`${run.mode ?? '?'}, profile checks ${run.profile ? 'on' : 'off'}`)),
    fact('suite', escapeHtml(`${suite.name} ${suite.version}`), 'fact-suite'),
    fact('contract SHA-256', suite.contractSha256 ? `<code>${escapeHtml(suite.contractSha256)}</code>` : 'not recorded in these results', 'fact-contract'),
    fact('seed', seed === undefined ? 'none' : `<code>${seed}</code>`, 'fact-seed'),
    fact('date', date, 'fact-date'),
  ];
  const shards = shardsNote(run);
  const stop = moduleStopText(run.moduleStop);
  return `<header class="verdict ${v.tone}" id="verdict"><h1>Conformance report</h1>
<div><span class="word">${escapeHtml(v.word)}</span><span class="line" id="verdict-text">${escapeHtml(v.line)}</span></div>
<dl>${facts.join('')}</dl>
${seedLine(run)}${shards ? `<p id="shards">${escapeHtml(shards)}</p>\n` : ''}${stop ? `<p id="module-stop">Stopping the module: ${escapeHtml(stop)} This breaks no rule of the contract.</p>\n` : ''}</header>`;
}

/** The filters (shown by the script; a page without it shows everything). */
function filters(results: Results): string {
  const kinds = [EVERY, ...Object.values(AREA_KIND).filter((k): k is string => k !== null), 'suite'];
  const areas = [...Object.keys(AREA_KIND), 'suite'];
  const select = (name: string, label: string, options: ReadonlyArray<[string, string]>): string =>
    `<label>${label} <select name="${name}"><option value="">all</option>${options.map(([v, t]) => `<option value="${escapeHtml(v)}">${escapeHtml(t)}</option>`).join('')}</select></label>`;
  const declared = new Set(results.module?.kinds ?? []);
  return `<form id="filters" hidden>${select('status', 'status', FILTER_STATUSES)}${select('kind', 'kind', kinds.map((k) => [k, k === EVERY ? 'every module (REG, GEN)' : k === 'suite' ? 'suite rules' : `${k}${declared.has(k) ? '' : ' (not declared)'}`]))}${select('area', 'area', areas.map((a) => [a, a === 'suite' ? 'suite rules' : a]))}${select('level', 'level', ['MUST', 'SHOULD', 'INFO'].map((l) => [l, l]))}<button type="reset">clear</button><span id="filter-count"></span></form>`;
}

/** Links to the parts of the page. */
function nav(results: Results): string {
  const failed = results.summary.failed;
  const links: Array<[string, string, boolean]> = [
    ['failures', `failures (${failed})`, failed > 0],
    ['warnings', `warnings (${results.summary.warnings})`, results.summary.warnings > 0],
    ['matrix', 'matrix', !!results.coverage],
    ['checks', 'checks', results.results.length > 0],
    ['requirements', 'requirements', !!results.coverage],
    ['traffic', 'traffic', evidenceLines(results.evidence).length > 0],
    ['module-output', 'module output', !!results.run.moduleOutput],
  ];
  return `<nav>${links.filter(([, , on]) => on).map(([id, text]) => `<a href="#${id}">${escapeHtml(text)}</a>`).join('')}</nav>`;
}

/** The traffic of the run per endpoint, behind one fold. */
function trafficSection(results: Results): string {
  const lines = evidenceLines(results.evidence);
  if (lines.length === 0) return '';
  const total = results.evidence!.endpoints.reduce((n, e) => n + e.count, 0);
  return `<details id="traffic"><summary><h2>Traffic</h2> ${total} exchange(s) on ${results.evidence!.endpoints.length} endpoint(s); ${results.exchanges.length} kept whole in results.json</summary>
<p><small>Information beside the checks: every exchange counted per endpoint; the first, the last and the refused ones are kept whole in results.json; the failures above show their own.</small></p>
${lines.map((l) => `<p class="traffic">${escapeHtml(l)}</p>`).join('\n')}</details>\n`;
}

export function renderHtml(results: Results): string {
  const v = verdictOf(results);
  const cats = results.coverage ? categorize(results.requirements, results.coverage) : undefined;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(v.word)}: conformance of ${escapeHtml(results.module?.code ?? 'a module')}</title>
<style>${PAGE_STYLE}</style></head><body>
${header(results)}
<main>
${results.results.length > 0 || results.coverage ? `<div id="bar">${nav(results)}${filters(results)}</div>\n` : ''}${casesSections(results)}${results.coverage && cats ? matrixSection(results.requirements, results.coverage, cats) : ''}
${results.results.length > 0 ? checksSection(results) : ''}
${requirementsSection(results.requirements, results.coverage, cats)}
${trafficSection(results)}${moduleOutputSection(results.run.moduleOutput, results.run.outcome === 'aborted')}</main>
<script id="page-filters">${PAGE_SCRIPT}</script>
</body></html>
`;
}
