/**
 * The gate's baseline: the failures a vendor knows of and accepts for now, each requirement with
 * its reason. `conformance run --baseline FILE` fails only on what the baseline does not name,
 * and fails as well when a baselined requirement no longer fails (a stale entry: the module was
 * fixed, the baseline must shrink), as the OpenID Foundation's conformance suite does with its
 * expected failures. `conformance baseline` writes one from a run's results.
 *
 * File (JSON): `{ "baseline": 1, "expected": [ { "requirement": "DLV-...", "reason": "..." } ] }`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../module/config-error.ts';
import { catalogue } from '../contract/catalogue.ts';
import type { Results } from '../report/results.ts';
import { readOptions, type OptionSpec } from './options.ts';

export interface BaselineEntry {
  requirement: string;
  reason: string;
}

export interface Baseline {
  file: string;
  expected: BaselineEntry[];
}

/** Reads and checks a baseline file; a configuration error (exit 2) names what is wrong. */
export function readBaseline(file: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`--baseline ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(e as Error).message})`}`);
  }
  const where = `--baseline ${file}`;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ConfigError(`${where}: not a baseline (an object {"baseline": 1, "expected": [...]})`);
  const { baseline, expected } = data as { baseline?: unknown; expected?: unknown };
  if (baseline !== 1) throw new ConfigError(`${where}: "baseline" must be 1 (the format's version), not ${JSON.stringify(baseline)}`);
  if (!Array.isArray(expected)) throw new ConfigError(`${where}: "expected" must be a list of {requirement, reason}`);
  const seen = new Set<string>();
  const entries = expected.map((e: unknown, i) => {
    const at = `${where}: expected/${i}`;
    if (!e || typeof e !== 'object') throw new ConfigError(`${at}: not an object {requirement, reason}`);
    const { requirement, reason } = e as { requirement?: unknown; reason?: unknown };
    if (typeof requirement !== 'string' || !catalogue().has(requirement)) throw new ConfigError(`${at}: ${JSON.stringify(requirement)} is not a requirement id of the catalogue (conformance requirements lists them)`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new ConfigError(`${at}: ${requirement} needs a reason (why the failure is accepted for now)`);
    if (seen.has(requirement)) throw new ConfigError(`${at}: ${requirement} is named twice`);
    seen.add(requirement);
    return { requirement, reason };
  });
  return { file, expected: entries };
}

/** What a run's results are against a baseline. */
export interface GateOutcome {
  /** Failed results whose every requirement the baseline names: tolerated. */
  known: Array<{ check: string; requirements: string[] }>;
  /** Failed results with a requirement the baseline does not name (or none): they fail the gate. */
  unexpected: Array<{ check: string; requirements: string[] }>;
  /** Baselined requirements the run tested and found holding: the entry is stale, the gate fails. */
  stale: BaselineEntry[];
  /** Baselined requirements the run did not judge (not applicable, not selected, not reached): said, not held against the run. */
  notJudged: BaselineEntry[];
  /** 0: no unexpected failure and no stale entry; 1: either; (an aborted run keeps its 2). */
  exitCode: number;
}

/** Judges a run's results against a baseline (a run that could not start is not judged here). */
export function applyBaseline(results: Results, baseline: Baseline): GateOutcome {
  const named = new Set(baseline.expected.map((e) => e.requirement));
  const failed = results.results.filter((r) => r.status === 'failed');
  const known = failed.filter((r) => r.requirements.length > 0 && r.requirements.every((id) => named.has(id)));
  const unexpected = failed.filter((r) => !known.includes(r));
  const failing = new Set(failed.flatMap((r) => r.requirements));
  const judged = new Set(results.results.filter((r) => r.status === 'passed' || r.status === 'failed' || r.status === 'warning').flatMap((r) => r.requirements));
  const stale = baseline.expected.filter((e) => judged.has(e.requirement) && !failing.has(e.requirement));
  const notJudged = baseline.expected.filter((e) => !judged.has(e.requirement));
  const brief = (r: { check: string; requirements: string[] }): { check: string; requirements: string[] } => ({ check: r.check, requirements: r.requirements });
  return { known: known.map(brief), unexpected: unexpected.map(brief), stale, notJudged, exitCode: unexpected.length > 0 || stale.length > 0 ? 1 : 0 };
}

/** The lines the run prints after its verdict: the baseline's part, and the gate's verdict. */
export function gateLines(outcome: GateOutcome, baseline: Baseline): string {
  const reasons = new Map(baseline.expected.map((e) => [e.requirement, e.reason]));
  const lines: string[] = [`\nbaseline ${baseline.file}: ${baseline.expected.length} expected failure(s)`];
  for (const k of outcome.known) lines.push(`  KNOWN ${k.check} (${k.requirements.join(', ')}): ${k.requirements.map((id) => reasons.get(id)).join('; ')}`);
  for (const s of outcome.stale) lines.push(`  STALE ${s.requirement}: no longer fails; remove it from the baseline (its reason was: ${s.reason})`);
  for (const n of outcome.notJudged) lines.push(`  NOT JUDGED ${n.requirement}: this run did not test it (kept)`);
  for (const u of outcome.unexpected) lines.push(`  FAIL ${u.check} (${u.requirements.join(', ') || 'suite rule'}): not in the baseline`);
  const why = [
    ...(outcome.unexpected.length > 0 ? [`${outcome.unexpected.length} failure(s) not in the baseline`] : []),
    ...(outcome.stale.length > 0 ? [`${outcome.stale.length} stale baseline entr${outcome.stale.length === 1 ? 'y' : 'ies'}`] : []),
  ];
  lines.push(`\nconformance gate: ${outcome.exitCode === 0 ? `PASS with the baseline (${outcome.known.length} known failure(s))` : `FAIL (${why.join(', ')})`}`);
  return `${lines.join('\n')}\n`;
}

/** The gate's outcome, kept beside results.json (`gate.json`) for CI and the bundle. */
export function writeGate(out: string, outcome: GateOutcome, baseline: Baseline): void {
  fs.writeFileSync(path.join(out, 'gate.json'), `${JSON.stringify({ baseline: path.resolve(baseline.file), expected: baseline.expected, ...outcome, passed: outcome.exitCode === 0 }, null, 2)}\n`);
}

/** A baseline of a run's failures: each failed result's requirements, the first line of its failure as the reason unless one is given. */
export function baselineOf(results: Results, reason?: string): { baseline: 1; expected: BaselineEntry[] } {
  const expected = new Map<string, string>();
  for (const r of results.results.filter((x) => x.status === 'failed')) {
    const said = r.message.split('\n').find((l) => /^(Failed|Received|Expected)/.test(l)) ?? r.title;
    for (const id of r.requirements) if (!expected.has(id)) expected.set(id, reason ?? `${r.check}: ${said}`.slice(0, 300));
  }
  return { baseline: 1, expected: [...expected].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([requirement, why]) => ({ requirement, reason: why })) };
}

export const BASELINE_USAGE = `usage: conformance baseline [RESULTS] [--out FILE] [--reason TEXT] [--force]

Writes a baseline of a run's failures: every requirement a failed check names, with a reason
(the first line of its failure, or --reason). Give it to a later run with --baseline FILE: that
run fails only on failures the baseline does not name, and on baselined requirements that no
longer fail (stale entries). Edit the reasons: they are what a reader of the gate sees.

  RESULTS        a run's results.json, or its output folder (default: reports)
  --out FILE     where to write it (default: conformance.baseline.json); an existing file is kept
                 unless --force
  --reason TEXT  the one reason of every entry
`;

interface BaselineArgs {
  out: string;
  reason?: string;
  force?: boolean;
}

const OPTIONS: Array<OptionSpec<BaselineArgs>> = [
  { name: '--out', value: 'FILE', set: (o, v) => (o.out = v) },
  { name: '--reason', value: 'TEXT', set: (o, v) => (o.reason = v) },
  { name: '--force', set: (o) => (o.force = true) },
];

/** `conformance baseline`: exit 0 written, 2 when it cannot be (one line why). */
export function baselineCommand(args: string[]): number {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(BASELINE_USAGE);
    return 0;
  }
  try {
    let given: string | undefined;
    const parsed = readOptions<BaselineArgs>(args, OPTIONS, { out: 'conformance.baseline.json' }, 'baseline', (a) => {
      if (given !== undefined) throw new ConfigError(`unexpected argument ${JSON.stringify(a)}; see conformance baseline --help`);
      given = a;
    });
    given ??= 'reports';
    const file = fs.existsSync(given) && fs.statSync(given).isDirectory() ? path.join(given, 'results.json') : given;
    let results: Results;
    try {
      results = JSON.parse(fs.readFileSync(file, 'utf8')) as Results;
    } catch {
      throw new ConfigError(`no results at ${file} (give a run's results.json or its output folder)`);
    }
    if (results.run?.outcome === 'aborted') throw new ConfigError(`${file}: the run could not start; it has no failures to baseline`);
    if (fs.existsSync(parsed.out) && !parsed.force) throw new ConfigError(`${parsed.out} exists; give --force to replace it`);
    const baseline = baselineOf(results, parsed.reason);
    fs.writeFileSync(parsed.out, `${JSON.stringify(baseline, null, 2)}\n`);
    process.stdout.write(`conformance baseline: ${baseline.expected.length} expected failure(s) written to ${parsed.out}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`conformance baseline: ${(e as Error).message}\n`);
    return 2;
  }
}
