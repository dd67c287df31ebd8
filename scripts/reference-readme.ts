/**
 * The reference module's README lists every fault variant and every legitimate variation: this
 * script writes those two tables from the module's own tables (examples/reference-module/faults.ts,
 * variations.ts) between their markers in examples/reference-module/README.md, and leaves the
 * hand-written text around them alone. Each fault is grouped by the area of the suite whose checks
 * catch it and shown with those checks, as its row of the fault gauntlet gives them
 * (test/gauntlet/faults.ts: FAULT_CASES, HOSTILE_CASES). test/reference-module/readme.spec.ts
 * fails when the README differs from what this writes (a new fault without its line).
 *
 *   npm run docs:reference              rewrite the README's two tables
 *   npm run docs:reference -- --check   exit 1 when they are not what this writes
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FAULTS } from '../examples/reference-module/faults.ts';
import { VARIATIONS } from '../examples/reference-module/variations.ts';
import { FAULT_CASES, HOSTILE_CASES } from '../test/gauntlet/faults.ts';

export const README = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'examples', 'reference-module', 'README.md');

/** The generated sections of the README, each between `<!-- NAME:begin -->` and `<!-- NAME:end -->`. */
export type SectionName = 'faults' | 'variations';

export const SECTION_NAMES: readonly SectionName[] = ['faults', 'variations'];

/** The fault groups, in the order the README shows them: the area a fault's row runs, then the rest. */
const GROUPS: ReadonlyArray<{ key: string; title: string }> = [
  { key: 'registration', title: 'Caught by the registration area (the registration call and what it declares, the refusals of the first callbacks)' },
  { key: 'delivery', title: 'Caught by the delivery area' },
  { key: 'delivery,telephony', title: 'Caught by the delivery and telephony areas (the module\'s own system calls of both)' },
  { key: 'payment', title: 'Caught by the payment area' },
  { key: 'telephony', title: 'Caught by the telephony area' },
  { key: 'chat', title: 'Caught by the chat area (transport, webhooks, templates, rate limit, bot)' },
  { key: 'hostile', title: 'Hostile and process faults (a module that floods, stalls or will not stop: the run must end and report all the same)' },
  { key: 'own', title: 'Proven by a test of their own' },
];

interface FaultLine {
  name: string;
  breaks: string;
  /** The checks the suite reports for it: failed, warning (SHOULD) or information. */
  reports: string;
}

/** What the gauntlet row of a fault says the suite reports, and the group it belongs to. */
function rowOf(name: string): { group: string; reports: string } {
  const row = FAULT_CASES.find((c) => c.fault === name);
  if (row) {
    const areas = Array.isArray(row.area) ? row.area : [row.area];
    return { group: areas.join(','), reports: checkList(row.failing, row.warnings ?? [], 'warning') };
  }
  const hostile = HOSTILE_CASES.find((c) => c.fault === name);
  if (hostile) return { group: 'hostile', reports: checkList(hostile.failing, hostile.info, 'information') };
  return { group: 'own', reports: '' };
}

function checkList(failing: readonly string[], others: readonly string[], otherStatus: string): string {
  const items = [...failing.map((c) => `\`${c}\``), ...others.map((c) => `\`${c}\` (${otherStatus})`)];
  return items.length === 0 ? 'no failure' : items.join(', ');
}

/** A table cell: one line, no column break. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The faults section: one table per group, the faults of each in alphabetical order. */
export function faultsSection(): string {
  const groups = new Map<string, FaultLine[]>();
  for (const [name, breaks] of Object.entries(FAULTS as Record<string, string>)) {
    const { group, reports } = rowOf(name);
    const key = GROUPS.some((g) => g.key === group) ? group : 'own';
    groups.set(key, [...(groups.get(key) ?? []), { name, breaks, reports }]);
  }
  const total = Object.keys(FAULTS).length;
  const parts = [`${total} faults, grouped by the area of the suite whose checks catch each (its row in \`test/gauntlet/faults.ts\`).`];
  for (const { key, title } of GROUPS) {
    const lines = (groups.get(key) ?? []).sort(byName);
    if (lines.length === 0) continue;
    parts.push(
      [
        `### ${title} (${lines.length})`,
        '',
        '| fault | what it breaks | the suite reports |',
        '|---|---|---|',
        ...lines.map((l) => `| \`${l.name}\` | ${cell(l.breaks)} | ${l.reports ? cell(l.reports) : 'a test of its own'} |`),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** The variations section: one table, in alphabetical order. */
export function variationsSection(): string {
  const lines = Object.entries(VARIATIONS as Record<string, string>)
    .map(([name, what]) => ({ name, what }))
    .sort(byName);
  return [
    `${lines.length} variations.`,
    '',
    '| variation | what changes |',
    '|---|---|',
    ...lines.map((l) => `| \`${l.name}\` | ${cell(l.what)} |`),
  ].join('\n');
}

export function generatedSection(name: SectionName): string {
  return name === 'faults' ? faultsSection() : variationsSection();
}

const begin = (name: SectionName): string => `<!-- ${name}:begin -->`;
const end = (name: SectionName): string => `<!-- ${name}:end -->`;

/** The text between a section's markers (without the blank lines next to them); throws when the markers are missing or out of order. */
export function sectionOf(readme: string, name: SectionName): string {
  const { from, to } = markers(readme, name);
  return readme.slice(from, to).replace(/^\n+|\n+$/g, '');
}

/** The README with each section's text replaced by what the tables give; everything outside the markers kept as it is. */
export function renderReadme(readme: string): string {
  let out = readme;
  for (const name of SECTION_NAMES) {
    const { from, to } = markers(out, name);
    out = `${out.slice(0, from)}\n\n${generatedSection(name)}\n\n${out.slice(to)}`;
  }
  return out;
}

function markers(readme: string, name: SectionName): { from: number; to: number } {
  const b = readme.indexOf(begin(name));
  const e = readme.indexOf(end(name));
  if (b === -1 || e === -1 || e < b || readme.indexOf(begin(name), b + 1) !== -1) {
    throw new Error(`the README needs exactly one ${begin(name)} followed by ${end(name)}`);
  }
  return { from: b + begin(name).length, to: e };
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`usage: npm run docs:reference [-- --check] (unknown: ${unknown.join(' ')})`);
    return 2;
  }
  const current = fs.readFileSync(README, 'utf8');
  const wanted = renderReadme(current);
  const rel = path.relative(process.cwd(), README);
  if (check) {
    const stale = SECTION_NAMES.filter((n) => sectionOf(current, n) !== sectionOf(wanted, n));
    if (stale.length === 0) return 0;
    console.error(`${rel}: the ${stale.join(' and ')} section${stale.length > 1 ? 's are' : ' is'} not what the module's tables give; run npm run docs:reference`);
    return 1;
  }
  if (wanted !== current) fs.writeFileSync(README, wanted);
  console.log(`${rel}: ${Object.keys(FAULTS).length} faults, ${Object.keys(VARIATIONS).length} variations${wanted === current ? ' (unchanged)' : ''}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
