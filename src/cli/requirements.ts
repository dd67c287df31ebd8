/** `conformance requirements [--json]`: prints the requirements catalogue. */
import { catalogue, areaOf, type Requirement } from '../contract/catalogue.ts';

function table(entries: readonly Requirement[]): string {
  const rows = entries.map((r) => [
    r.id,
    r.level,
    r.actor,
    r.testable ? 'testable' : `not testable: ${r.reason ?? ''}`,
    r.section,
  ]);
  const header = ['id', 'level', 'actor', 'testability', 'section'];
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((row) => row[i]!.length))));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.slice(0, widths[i]).padEnd(widths[i]!))).join('  ');
  const byArea = new Map<string, number>();
  for (const r of entries) byArea.set(areaOf(r.id), (byArea.get(areaOf(r.id)) ?? 0) + 1);
  const testable = entries.filter((r) => r.testable).length;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${entries.length} requirements, ${testable} testable, ${entries.length - testable} not testable; ` +
      [...byArea].map(([a, n]) => `${a} ${n}`).join(', '),
    '',
  ].join('\n');
}

export function requirementsCommand(args: string[]): number {
  const unknown = args.filter((a) => a !== '--json');
  if (unknown.length > 0) {
    process.stderr.write(`conformance requirements: unknown option ${unknown[0]}\n`);
    return 2;
  }
  const entries = catalogue().entries;
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(entries, null, 2)}\n` : table(entries));
  return 0;
}
