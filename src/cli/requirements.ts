/** `conformance requirements [--json]`: prints the requirements catalogue. */
import { catalogue, areaOf, type Requirement } from '../contract/catalogue.ts';
import { nearestName } from '../module/config-error.ts';

export const REQUIREMENTS_USAGE = `usage: conformance requirements [--json]

Prints the requirements catalogue: a table (id, level, actor, testability, section; a long
testability wraps on words onto the lines below), then the count of each area.

  --json                   the catalogue as a JSON array instead
`;

/** The widest a column may be; a longer text wraps on words (only the last column is never wrapped). */
const MAX_WIDTH = 60;

/** A text in lines of at most `width` characters, broken between words (a word longer than the width alone is broken inside). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter((w) => w !== '')) {
    while (word.length > width) {
      if (line) lines.push(line), (line = '');
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else lines.push(line), (line = word);
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

function table(entries: readonly Requirement[]): string {
  const rows = entries.map((r) => [
    r.id,
    r.level,
    r.actor,
    r.testable ? 'testable' : `not testable: ${r.reason ?? ''}`.trim(),
    r.section,
  ]);
  const header = ['id', 'level', 'actor', 'testability', 'section'];
  const last = header.length - 1;
  const widths = header.map((h, i) => Math.min(MAX_WIDTH, Math.max(h.length, ...rows.map((row) => row[i]!.length))));
  const line = (cells: string[]): string => cells.map((c, i) => (i === last ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  /** A row on as many lines as its longest cell needs, every cell but the last wrapped on words. */
  const lines = (cells: string[]): string[] => {
    const wrapped = cells.map((c, i) => (i === last ? [c] : wrapWords(c, widths[i]!)));
    const height = Math.max(...wrapped.map((w) => w.length));
    return Array.from({ length: height }, (_, k) => line(wrapped.map((w) => w[k] ?? '')));
  };
  const byArea = new Map<string, number>();
  for (const r of entries) byArea.set(areaOf(r.id), (byArea.get(areaOf(r.id)) ?? 0) + 1);
  const testable = entries.filter((r) => r.testable).length;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.flatMap(lines),
    '',
    `${entries.length} requirements, ${testable} testable, ${entries.length - testable} not testable; ` +
      [...byArea].map(([a, n]) => `${a} ${n}`).join(', '),
    '',
  ].join('\n');
}

export function requirementsCommand(args: string[]): number {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(REQUIREMENTS_USAGE);
    return 0;
  }
  const unknown = args.filter((a) => a !== '--json');
  if (unknown.length > 0) {
    const meant = nearestName(unknown[0]!, ['--json', '--help']);
    process.stderr.write(`conformance requirements: unknown ${unknown[0]!.startsWith('-') ? 'option' : 'argument'} ${unknown[0]}${meant ? `; did you mean ${meant}?` : '; see conformance requirements --help'}\n`);
    return 2;
  }
  const entries = catalogue().entries;
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(entries, null, 2)}\n` : table(entries));
  return 0;
}
