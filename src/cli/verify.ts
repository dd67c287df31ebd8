/**
 * `conformance verify FILE`: checks a certification bundle (`conformance bundle`, bundle.ts) and
 * prints its verdict. Each file of the archive against its SHA-256 in bundle.json's manifest (a
 * file changed, missing or added is a problem, one line each), bundle.json against its own
 * SHA-256 (`selfSha256`), and what bundle.json says (suite, contract, outcome, verdict, date,
 * module) against the bundled results.json. Then the bundle's verdict line.
 *
 * Exit: an intact bundle exits as its run did (`conformance run`): 0 no MUST failure, 1 a MUST
 * failure, 2 a run that could not start; a bundle changed, unreadable or not a bundle exits 2.
 */
import fs from 'node:fs';
import { readTgz, TarError, type TarEntry } from './tar.ts';
import { BUNDLE_FORMAT, BUNDLE_JSON, runSuite, runVerdict, selfShaHolds, sha256, shownPath, type BundleInfo } from './bundle.ts';
import { suiteIdentity } from '../contract/suite.ts';
import { verdictText } from '../report/coverage.ts';
import type { Results } from '../report/results.ts';

export const VERIFY_USAGE = `usage: conformance verify FILE

Checks a certification bundle (conformance bundle): every file against the SHA-256 its manifest
(bundle.json) gives, bundle.json against its own, and bundle.json's verdict against the bundled
results.json. Prints one line per problem (a file changed, missing or added), then the bundle's
suite version, contract SHA-256 and verdict.

Exit 0: intact, and its run had no MUST failure; 1: intact, and a MUST check of its run failed;
2: the bundle was changed, cannot be read or is not a bundle (or its run could not start).
`;

/** The problems of the archive's files against the manifest: one line each. */
function fileProblems(entries: readonly TarEntry[], manifest: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const byName = new Map<string, TarEntry>();
  for (const e of entries) {
    if (byName.has(e.name)) problems.push(`${e.name}: twice in the archive`);
    else byName.set(e.name, e);
  }
  for (const [name, expected] of Object.entries(manifest)) {
    const e = byName.get(name);
    if (!e) problems.push(`${name}: missing (the manifest lists it)`);
    else if (sha256(e.data) !== expected) problems.push(`${name}: changed (SHA-256 ${sha256(e.data)}, the manifest says ${String(expected)})`);
  }
  for (const name of byName.keys()) if (name !== BUNDLE_JSON && !(name in manifest)) problems.push(`${name}: added (not in the manifest)`);
  return problems;
}

/** What bundle.json says against what the bundled results.json says. */
function agreementProblems(info: BundleInfo, results: Results): string[] {
  const suite = runSuite(results);
  const pairs: Array<[string, unknown, unknown]> = [
    ['suite', `${info.suite?.name} ${info.suite?.version}`, `${suite.name} ${suite.version}`],
    ['contract SHA-256', info.suite?.contractSha256, suite.contractSha256],
    ['outcome', info.outcome, results.run.outcome],
    ['verdict', info.verdict, runVerdict(results)],
    ['run date', info.startedAt, results.run.startedAt],
    ['module', info.module?.code ?? null, results.module?.code ?? null],
  ];
  return pairs.filter(([, a, b]) => a !== b).map(([what, a, b]) => `${BUNDLE_JSON}: its ${what} is ${String(a)}, results.json's is ${String(b)}`);
}

/** The verdict line of an intact bundle's run. */
function verdictLine(results: Results): string {
  if (results.run.outcome === 'aborted') return `ABORTED (the run could not start: ${results.run.aborted ?? 'no reason recorded'})`;
  return results.coverage ? verdictText(results.coverage) : results.run.outcome === 'passed' ? 'PASS (no MUST failure)' : 'FAIL';
}

type Read = { entries: TarEntry[]; info: BundleInfo; infoText: string } | { fatal: string };

/** The archive and its bundle.json; a one-line reason when it is no bundle. */
function readBundle(file: string): Read {
  let gz: Buffer;
  try {
    gz = fs.readFileSync(file);
  } catch (e) {
    return { fatal: `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  let entries: TarEntry[];
  try {
    entries = readTgz(gz);
  } catch (e) {
    if (e instanceof TarError) return { fatal: `${file}: ${e.message}` };
    throw e;
  }
  const meta = entries.filter((e) => e.name === BUNDLE_JSON);
  if (meta.length !== 1) return { fatal: `${file}: not a bundle (${meta.length === 0 ? `no ${BUNDLE_JSON}` : `${BUNDLE_JSON} twice`})` };
  const infoText = meta[0]!.data.toString('utf8');
  let info: BundleInfo;
  try {
    info = JSON.parse(infoText) as BundleInfo;
  } catch {
    return { fatal: `${BUNDLE_JSON}: changed (not JSON any more)` };
  }
  if (!info || info.format !== BUNDLE_FORMAT || !info.manifest || typeof info.manifest !== 'object') return { fatal: `${file}: not a bundle (${BUNDLE_JSON} is not a ${BUNDLE_FORMAT})` };
  return { entries, info, infoText };
}

export async function verifyCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(VERIFY_USAGE);
    return 0;
  }
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    process.stderr.write(`conformance verify: ${args.length === 0 ? 'no bundle given' : `one bundle file only (given: ${args.join(' ')})`}; see conformance verify --help\n`);
    return 2;
  }
  const file = shownPath(args[0]!);
  const read = readBundle(args[0]!);
  if ('fatal' in read) {
    process.stdout.write(`${read.fatal}\nconformance verify: ${file}: NOT A VALID BUNDLE\n`);
    return 2;
  }
  const { entries, info, infoText } = read;
  const problems = [...(selfShaHolds(infoText) ? [] : [`${BUNDLE_JSON}: changed (its SHA-256 is not the one it records)`]), ...fileProblems(entries, info.manifest)];
  let results: Results | undefined;
  const bundled = entries.find((e) => e.name === 'results.json');
  if (bundled) {
    try {
      results = JSON.parse(bundled.data.toString('utf8')) as Results;
      if (!results.run || typeof results.run.outcome !== 'string') throw new Error('no run outcome');
    } catch (e) {
      results = undefined;
      problems.push(`results.json: not the results of a run (${(e as Error).message})`);
    }
  } else if (!('results.json' in info.manifest)) problems.push('results.json: missing (the bundle holds no results)');
  if (results) problems.push(...agreementProblems(info, results));

  for (const p of problems) process.stdout.write(`${p}\n`);
  const suite = info.suite ?? { name: 'unknown', version: 'unknown', contractSha256: 'unknown' };
  const identity = `${suite.name} ${suite.version}, contract sha256 ${suite.contractSha256}`;
  const when = `run of ${info.startedAt}${info.module ? `, module ${info.module.code}` : ''}`;
  if (problems.length > 0 || !results) {
    process.stdout.write(`conformance verify: ${file}: TAMPERED (${problems.length} problem${problems.length === 1 ? '' : 's'}); it says ${identity}; ${when}: ${info.verdict}\n`);
    return 2;
  }
  const current = suiteIdentity().contractSha256;
  if (suite.contractSha256 !== current) process.stdout.write(`note: the run was made against contract sha256 ${suite.contractSha256}; this suite's is ${current}\n`);
  process.stdout.write(`conformance verify: ${file}: intact (${entries.length} files); ${identity}; ${when}: ${verdictLine(results)}\n`);
  return results.run.outcome === 'passed' ? 0 : results.run.outcome === 'failed' ? 1 : 2;
}
