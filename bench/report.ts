/**
 * The table of `npm run bench` and `docs/benchmarks.md`: the machine, the figures of the run,
 * the "before" figures (measured in the same run with `--before DIR`, else kept from the last
 * document: they are stored in it as JSON, in a comment).
 */
import fs from 'node:fs';
import os from 'node:os';

/** One figure: `key` names it across runs (the "before" column is matched by key). */
export interface Row {
  key: string;
  item: string;
  measure: string;
  now: string;
  target?: string;
  /** Whether `now` meets the target (undefined: no target, or not measured). */
  met?: boolean;
}

export interface Before {
  commit: string;
  date: string;
  machine: string;
  figures: Record<string, string>;
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GB memory, Node ${process.version}, ${os.type()} ${os.release()}`;
}

export const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' / ');

const MARK = '<!-- bench-before ';

/** The "before" figures the document keeps, if any. */
export function readBefore(doc: string): Before | undefined {
  if (!fs.existsSync(doc)) return undefined;
  const text = fs.readFileSync(doc, 'utf8');
  const at = text.indexOf(MARK);
  if (at < 0) return undefined;
  const end = text.indexOf(' -->', at);
  try {
    return JSON.parse(text.slice(at + MARK.length, end)) as Before;
  } catch {
    return undefined;
  }
}

const cell = (s: string | undefined): string => (s ?? '').replace(/\|/g, '\\|');

export function table(rows: Row[], before: Before | undefined, nowLabel: string): string {
  const head = `| | measure | before${before ? ` (${before.commit})` : ''} | now (${nowLabel}) | target | met |\n|---|---|---|---|---|---|\n`;
  return (
    head +
    rows
      .map((r) => `| ${cell(r.item)} | ${cell(r.measure)} | ${cell(before?.figures[r.key] ?? (before ? 'not measured' : ''))} | ${cell(r.now)} | ${cell(r.target)} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`)
      .join('\n') +
    '\n'
  );
}

export interface DocInput {
  date: string;
  commit: string;
  machine: string;
  load: { start: string; end: string };
  durationS: number;
  command: string;
  rows: Row[];
  before: Before | undefined;
  skipped: string[];
  /** Where the time of the runs went (their slowest tests). */
  details: string[];
  /** The document's hand-written notes (kept from the last document). */
  notes: string;
}

const NOTES_START = '<!-- notes: kept by npm run bench -->';
const NOTES_END = '<!-- /notes -->';

/** The hand-written notes of the document (what bounds each figure...), kept across runs. */
export function readNotes(doc: string): string {
  const text = fs.existsSync(doc) ? fs.readFileSync(doc, 'utf8') : '';
  const at = text.indexOf(NOTES_START);
  const end = text.indexOf(NOTES_END);
  return at >= 0 && end > at ? text.slice(at + NOTES_START.length, end).trim() : '';
}

/** What each figure is: the head of the document. */
export const HEAD = `# Benchmarks

Written by \`npm run bench\` (\`bench/run.ts\`; options in its header: \`--quick\`, \`--only\`,
\`--before DIR\`, \`--lanes\`, \`--slow-deadline\`); the last run's figures, the raw ones in
\`reports/bench.json\`. What each figure is:

- **(a)** \`npm start\`: the full certification of the reference module (\`node bin/conformance.js run\`,
  every area, 100 cases a property, a fixed seed): wall time from spawn to exit, and the CPU time
  (user + system) of every process of the run, the module's included (GNU time). Peak memory is
  the resident memory of the suite's processes summed (the CLI, the Playwright runner, its worker,
  the module's watchdog), sampled every 250 ms; the module's is given apart, and the peak of each.
- **(b)** generated cases a second through the engine (\`bench/engine.ts\`: the property runner
  generates, sends, records the evidence and judges every check; at 1 lane, then at each
  \`--lanes\`) against a bare undici loop sending the same requests (captured from the engine's
  first pass) to a fresh module, one after the other over one kept-alive connection, for
  \`calculate\` and for the delivery sequences (a case is one sequence of up to 11 calls); "same
  answers" counts the bare loop's statuses equal to the engine's. The ratio is the engine's rate
  over the bare loop's. The bare loop is also run with a new connection per request, as the
  engine's callback client sends them.
- **(c)** from the spawn of \`conformance run\` to the first callback reaching the module (the first
  \`system->module\` or \`gateway->module\` call in results.json's evidence, which counts every call,
  kept or not), with the steps on the way (the CLI's own start time in results.json, the module's
  "listening" log line, its registration call, the first line on stdout).
- **(d)** 10,000 generated \`calculate\` cases: \`conformance run --grep "calculate: generated valid
  requests" --runs 10000\` with a property time budget of an hour; the suite's memory at a quarter,
  half, three quarters and nine tenths of the run; flat: the peak at the most cases measured at
  most 25% over the peak at a tenth of them.
- **(e)** the same at 1k, 10k and 100k cases, the full run at 1,000 cases a property (time budget of
  an hour), and both with \`--lanes\` 1, 2, 4, 8 where the checkout has the option (the default
  lanes are those of (a) and (d)); the full run with areas at once (\`--parallel 2\`) where it has
  that one.
- **(f)** the full run of the reference module slowed to answer every request in 800 ms
  (\`ANSWER_DELAY_MS=800\`, examples/reference-module/README.md; an older suite gets this
  checkout's module), as it is, with each \`--lanes\`, with \`--parallel 2\`, and with both at their
  most, with a run deadline (\`--slow-deadline\`, default 300 s: "> 300 s" is a run it
  cut, with the number of tests it stopped or never started).

Timing figures depend on the machine and on what else runs on it: the load average is given at the
start and the end of the run.
`;

export function writeDoc(file: string, d: DocInput): void {
  const text = `${HEAD}
## Last run

- date: ${d.date}; commit: ${d.commit}; the bench took ${Math.round(d.durationS)} s (\`${d.command}\`)
- machine: ${d.machine}
- load average (1 / 5 / 15 min): ${d.load.start} at the start, ${d.load.end} at the end
${d.before ? `- before: ${d.before.commit}, measured ${d.before.date} (${d.before.machine})\n` : ''}
${table(d.rows, d.before, d.commit)}
${d.skipped.length > 0 ? `Not measured in this run: ${d.skipped.join('; ')}.\n` : ''}
${d.details.length > 0 ? `Slowest tests (from the end of the test before to its own, as the console prints them; with \`--parallel\` the tests of two workers interleave):\n\n${d.details.join('\n')}\n` : ''}
## Notes

${NOTES_START}
${d.notes || '(What bounds each figure, measured: written by hand; npm run bench keeps this section.)'}
${NOTES_END}

${d.before ? `${MARK}${JSON.stringify(d.before)} -->\n` : ''}`;
  fs.mkdirSync(new URL('.', `file://${file}`).pathname, { recursive: true });
  fs.writeFileSync(file, text);
}
