/**
 * The reference module's README lists every fault and every variation: its tables between the
 * markers are exactly what scripts/reference-readme.ts writes from the module's tables, so a fault
 * or variation added without its README line (or a changed description or gauntlet row) fails
 * here until `npm run docs:reference` is run.
 */
import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { FAULT_NAMES } from '../../examples/reference-module/faults.ts';
import { VARIATION_NAMES } from '../../examples/reference-module/variations.ts';
import { README, SECTION_NAMES, generatedSection, renderReadme, sectionOf } from '../../scripts/reference-readme.ts';

const readme = fs.readFileSync(README, 'utf8');

for (const name of SECTION_NAMES) {
  test(`the README's ${name} section is what npm run docs:reference writes from the module's tables`, () => {
    expect(sectionOf(readme, name), 'run npm run docs:reference').toBe(generatedSection(name));
  });
}

test('the README has one row for each fault and each variation, and no other', () => {
  const rows = (section: string): string[] => [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
  expect(rows(sectionOf(readme, 'faults')).sort()).toEqual([...FAULT_NAMES].sort());
  expect(rows(sectionOf(readme, 'variations')).sort()).toEqual([...VARIATION_NAMES].sort());
});

test('the generator rewrites only what lies between the markers, and refuses a README without them', () => {
  const canned = ['# Title', 'before', '<!-- faults:begin -->', 'stale', '<!-- faults:end -->', 'between', '<!-- variations:begin -->', '<!-- variations:end -->', 'after', ''].join('\n');
  const out = renderReadme(canned);
  expect(out.startsWith('# Title\nbefore\n<!-- faults:begin -->\n\n')).toBe(true);
  expect(out).not.toContain('stale');
  expect(out).toContain('\n\n<!-- faults:end -->\nbetween\n<!-- variations:begin -->\n\n');
  expect(out.endsWith('\n\n<!-- variations:end -->\nafter\n')).toBe(true);
  expect(sectionOf(out, 'faults')).toBe(generatedSection('faults'));
  expect(renderReadme(out)).toBe(out);
  expect(() => renderReadme('# no markers\n')).toThrow(/<!-- faults:begin -->/);
  expect(() => renderReadme(canned.replace('<!-- variations:end -->', ''))).toThrow(/variations:end/);
});

test('every fault row has exactly its three cells (a bar in a text is escaped)', () => {
  const section = generatedSection('faults');
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    expect(line.replace(/\\\|/g, '').split('|').length, line).toBe(5);
  }
});
