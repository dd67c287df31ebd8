/**
 * The page's own style and its one small script (the filters, the counts of the matrix that
 * filter, a link that opens the folds around its target), and the content security policy
 * that admits only them, by their SHA-256: nothing else runs or loads, whatever a module sent.
 */
import crypto from 'node:crypto';

export const PAGE_STYLE = `
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1360px;margin:0 auto;padding:0 20px 40px}
h1{font-size:15px;font-weight:600;margin:0;opacity:.85}
h2{font-size:17px;margin:18px 0 8px}
summary h2{display:inline;margin:0}
table{border-collapse:collapse;width:100%;margin:6px 0;background:#fff}
td,th{border-bottom:1px solid #e3e3e3;padding:4px 6px;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;font-size:12px;background:#f4f4f6;padding:6px 8px;border-radius:4px}
code{font-size:12px}
.verdict{padding:14px 20px;color:#fff}
.verdict.pass{background:#1b7f3b}.verdict.fail{background:#c62828}.verdict.aborted{background:#8a6d1a}
.verdict .word{font-size:30px;font-weight:800;letter-spacing:.02em;margin-right:12px;vertical-align:middle}
.verdict .line{font-size:15px;font-weight:500;vertical-align:middle}
.verdict dl{display:flex;flex-wrap:wrap;gap:4px 22px;margin:10px 0 0;font-size:13px}
.verdict dt{opacity:.8}.verdict dd{margin:0 0 0 5px;font-weight:600}.verdict dl div{display:flex}
.verdict code{font-size:12px;word-break:break-all}
.verdict p{margin:6px 0 0;font-size:13px}
.badge{padding:1px 7px;border-radius:4px;font-weight:600;font-size:12px;white-space:nowrap}
.badge.passed{background:#d9f2df}.badge.failed{background:#f9d0d0;color:#8b0000}.badge.warning{background:#fbeec8}
.badge.skipped,.badge.notApplicable,.badge.untested,.badge.notTested,.badge.outOfScope,.badge.info{background:#eee}
.chip{font-family:ui-monospace,monospace;font-size:11px;background:#eef;padding:0 4px;border-radius:4px;text-decoration:none}
.chip.profile{background:#fde}.sev{font-size:11px;font-weight:700;color:#555}
.matrix{width:auto}.matrix td.n,.checks td.n{text-align:right;font-variant-numeric:tabular-nums}
.matrix .zero,.checks .zero{color:#bbb}.matrix .why{font-size:12px;color:#444;max-width:420px}
.matrix button{font:inherit;border:0;background:none;cursor:pointer;padding:0 4px;text-decoration:underline dotted}
.matrix .bad button{color:#c62828;font-weight:700}.matrix .warn button{color:#8a6d1a;font-weight:700}.matrix .ok button{color:#1b7f3b}.matrix .dim button{color:#777}
.matrix tfoot th,.matrix tfoot td{border-top:2px solid #999;font-weight:700}
.notes{margin:4px 0;padding-left:20px;font-size:12px;color:#444}
#bar{position:sticky;top:0;z-index:1;background:#fafafa;padding:6px 0;border-bottom:1px solid #ddd;font-size:13px;display:flex;flex-wrap:wrap;gap:4px 18px;align-items:center}
#bar nav a{margin-right:10px}#filters label{margin-right:10px}#filters select{font:inherit}#filter-count{margin-left:8px;color:#555}
.case{background:#fff;border:1px solid #e3e3e3;border-left:5px solid #c62828;border-radius:4px;margin:8px 0;padding:6px 10px}
.case.warning{border-left-color:#d9a400}
.case>summary{cursor:pointer;font-size:14px}.case .check{margin:4px 0;font-size:13px}
.message{background:#fff5f5}.case.warning .message{background:#fffbea}
.property{margin:4px 0}.counterexample{margin:4px 0 8px;padding:2px 8px;border-left:3px solid #f9d0d0}
.case pre,.exchange pre{max-height:20em;overflow:auto}
.exchange{margin:4px 0;font-size:12px}.exchange>summary{cursor:pointer}
.sent,.received{margin:2px 0}.received pre{background:#eef6ff}
details>summary{cursor:pointer}
section,details.filterable,#traffic,#module-output{margin-top:14px}
.traffic{margin:2px 0;font-size:12px;font-family:ui-monospace,monospace}
[hidden]{display:none!important}
[id]{scroll-margin-top:48px}
`;

/** The filters: status, kind, area and level, over every item that carries them (`data-status`...). */
export const PAGE_SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  if (!form) return;
  form.hidden = false;
  var names = ['status', 'kind', 'area', 'level'];
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-status]'));
  var count = document.getElementById('filter-count');
  function apply() {
    var want = {}, active = false, shown = 0;
    names.forEach(function (n) { want[n] = form.elements[n].value; if (want[n]) active = true; });
    items.forEach(function (el) {
      var ok = names.every(function (n) { return !want[n] || (el.getAttribute('data-' + n) || '').split(' ').indexOf(want[n]) >= 0; });
      el.hidden = !ok;
      if (ok) shown += 1;
    });
    if (active) Array.prototype.forEach.call(document.querySelectorAll('details.filterable'), function (d) { d.open = true; });
    count.textContent = active ? shown + ' of ' + items.length + ' items shown' : '';
  }
  form.addEventListener('change', apply);
  form.addEventListener('reset', function () { setTimeout(apply, 0); });
  Array.prototype.forEach.call(document.querySelectorAll('button[data-set-status]'), function (b) {
    b.addEventListener('click', function () {
      names.forEach(function (n) { form.elements[n].value = ''; });
      form.elements.status.value = b.getAttribute('data-set-status');
      form.elements.area.value = b.getAttribute('data-set-area');
      apply();
      document.getElementById('requirements').scrollIntoView();
    });
  });
  function reveal() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    for (var e = target; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;
    if (target) { target.hidden = false; target.scrollIntoView(); }
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
`;

const sha256 = (text: string): string => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy of the page: nothing loads; only this style and this script, by their hashes. */
export const PAGE_CSP = `default-src 'none'; style-src ${sha256(PAGE_STYLE)}; script-src ${sha256(PAGE_SCRIPT)}; base-uri 'none'; form-action 'none'`;
