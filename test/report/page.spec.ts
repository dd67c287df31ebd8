/**
 * conformance.html's structure, read as text from pages rendered of canned results (the page in
 * a browser: page-chromium.spec.ts): the policy admits exactly the page's script and style by
 * their hashes; the verdict is the coverage's line; the failures come first, each open, before
 * the matrix; the matrix counts what the coverage counts, its areas adding up to its total;
 * passing results are counted, never listed; a clean page is well under 1 MB.
 */
import crypto from 'node:crypto';
import { test, expect } from '@playwright/test';
import { renderHtml } from '../../src/report/html.ts';
import { verdictText } from '../../src/report/coverage.ts';
import { escapeHtml } from '../../src/report/page-text.ts';
import { failing, fixture } from './page-fixtures.ts';

const hash = (text: string): string => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The numbers of one row of the matrix, by column. */
function matrixRow(html: string, id: string): Record<string, number> {
  const row = new RegExp(`<tr id="${id}">.*?</tr>`).exec(html)?.[0] ?? '';
  return Object.fromEntries([...row.matchAll(/data-col="(\w+)">(?:<button[^>]*>)?(\d+)</g)].map((m) => [m[1]!, Number(m[2])]));
}

test('the policy admits the page\'s one script and its style by their SHA-256, and nothing loads', () => {
  const html = renderHtml(failing());
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
  const script = /<script id="page-filters">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  expect(csp).toBe(`default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}; base-uri 'none'; form-action 'none'`);
  expect(html.match(/<script/gi)).toEqual(['<script']);
  expect(html.match(/<style/gi)).toEqual(['<style']);
  expect(html).not.toMatch(/<[a-z][^>]*\s(src|style|on[a-z]+)\s*=/i);
  expect(html).not.toMatch(/href="(?!#|failures\/)/);
});

test('the failing page: the verdict in red is the coverage\'s line; every failure open before the matrix; the matrix counts as the coverage does', () => {
  const results = failing();
  const c = results.coverage!;
  const html = renderHtml(results);
  expect(html).toContain('<header class="verdict fail" id="verdict">');
  expect(html).toContain(`id="verdict-text">${escapeHtml(verdictText(c))}<`);
  expect(html).toContain(`<code>${(results.run as { suite?: { contractSha256: string } }).suite!.contractSha256}</code>`);
  const failed = results.results.filter((r) => r.status === 'failed');
  const cards = [...html.matchAll(/<details class="case failed" id="failure-(\d+)"[^>]*>/g)];
  expect(cards.map((m) => m[1])).toEqual(failed.map((_, i) => String(i + 1)));
  expect(cards.every((m) => m[0].endsWith(' open>'))).toBe(true);
  expect(html.indexOf('id="failures"')).toBeLessThan(html.indexOf('id="matrix"'));
  // Each card links to its check's row and its requirements' rows, which exist.
  for (const r of failed) {
    expect(html).toContain(`<a href="#check-${r.check}">`);
    for (const id of r.requirements) expect(html).toContain(`<tr id="req-${id}" data-status="failed"`);
  }
  // The markup the module sent is text.
  expect(html).toContain('Received: &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(3)&gt;');

  const total = matrixRow(html, 'matrix-total');
  expect(total).toEqual({ applicable: c.applicable, tested: c.tested, passed: c.passed, failed: c.failed, warned: c.warned, notTested: c.notTested, outOfScope: results.requirements.length - c.applicable });
  const areas = ['REG', 'GEN', 'TEL', 'DLV', 'PAY', 'TRN', 'BOT'].map((a) => matrixRow(html, `matrix-${a}`));
  for (const col of Object.keys(total)) expect(areas.reduce((n, a) => n + a[col]!, 0), col).toBe(total[col]);
  expect(matrixRow(html, 'matrix-DLV').failed).toBe(c.failedIds.filter((id) => id.startsWith('DLV-') || id.startsWith('WIRE-DLV-')).length);
});

test('the clean page: green, passing results counted per check and never listed, well under 1 MB, the contract hash said to be absent', () => {
  const results = fixture('clean-results.json');
  const html = renderHtml(results);
  expect(html).toContain('<header class="verdict pass" id="verdict">');
  expect(html).toContain(`id="verdict-text">${escapeHtml(verdictText(results.coverage!))}<`);
  expect(html).not.toContain('id="failures"');
  expect(html).not.toContain('class="exchange"');
  const checks = new Set(results.results.map((r) => r.check));
  expect(html.match(/<tr id="check-/g)).toHaveLength(checks.size);
  expect(html).toContain('<details id="checks" class="filterable">');
  expect(html).toContain('<details id="requirements" class="filterable">');
  expect(html).toContain('<details id="traffic">');
  expect(html).toMatch(/id="fact-contract"><dt>contract SHA-256<\/dt><dd>not recorded in these results</);
  expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024);
});

test('a run of many failures, each citing many exchanges: a card shows one whole, links at most five, the page at most 60', () => {
  const results = failing();
  const x = results.exchanges[0]!;
  results.exchanges = Array.from({ length: 400 }, (_, i) => ({ ...x, id: `s1-x${i}` }));
  const template = results.results.find((r) => r.status === 'failed')!;
  const many = Array.from({ length: 50 }, (_, i) => ({ ...template, property: undefined, evidence: Array.from({ length: 8 }, (_, k) => `s1-x${i * 8 + k}`) }));
  results.results = [...many, ...results.results.filter((r) => r.status !== 'failed')];
  const html = renderHtml(results);
  expect(html.match(/<details class="exchange"/g)).toHaveLength(60);
  expect(html.match(/<details class="exchange" id="[^"]+" open>/g)).toHaveLength(12);
  expect(html).toContain('<p class="evidence">Evidence: <a href="#s1-x0">s1-x0</a> <a href="#s1-x1">s1-x1</a> <a href="#s1-x2">s1-x2</a> <a href="#s1-x3">s1-x3</a> <a href="#s1-x4">s1-x4</a> <code>s1-x5</code> <code>s1-x6</code> <code>s1-x7</code> (those not linked are not shown on this page)</p>');
  expect(html).toContain('<p class="evidence">Evidence: <code>s1-x392</code>');
});
