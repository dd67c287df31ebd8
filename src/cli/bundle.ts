/**
 * `conformance bundle [DIR] [--out FILE]`: the certification bundle of a run, one file a vendor
 * hands over or a CI job keeps: a gzipped POSIX tar of the run's reports (results.json,
 * conformance.html, junit.xml), its configuration file with the secrets redacted (config.json,
 * src/module/config-redact.ts) and `bundle.json`: the suite's name and version and the contract's
 * SHA-256 the run was made with, the run's outcome and verdict, its date, and the SHA-256 of
 * every other file of the bundle (`manifest`). bundle.json's own SHA-256 is its member
 * `selfSha256`, computed over the file with that value written as 64 zeros.
 * `conformance verify` (verify.ts) checks all of it.
 *
 * The SHA-256 sums show a bundle changed after it was made, by accident or by a hand that did not
 * recompute them; they are no signature: whoever rewrites the files can rewrite the sums.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readOptions, type OptionSpec } from './options.ts';
import { writeTgz, type TarEntry } from './tar.ts';
import { suiteIdentity, type SuiteIdentity } from '../contract/suite.ts';
import { redactConfig } from '../module/config-redact.ts';
import type { Results } from '../report/results.ts';

export const BUNDLE_USAGE = `usage: conformance bundle [DIR] [--out FILE]

Packs the reports of a run (the output folder DIR of conformance run or merge; default: reports)
into one certification bundle, a gzipped tar: results.json, conformance.html, junit.xml, the run's
configuration file with its secrets redacted (config.json; placeholders such as {env:NAME} stay
placeholders), and bundle.json: the suite version and contract SHA-256 the run was made with, the
run's verdict and date, and the SHA-256 of every other file. Check it with conformance verify FILE.

  --out FILE               where the bundle goes (default: DIR/conformance-bundle.tgz)

Exit 0: the bundle was written (whatever the run's verdict: conformance verify gives it);
2: DIR holds no results.json, or the bundle could not be written.
`;

/** What `bundle.json` says (its members in this order). */
export interface BundleInfo {
  format: typeof BUNDLE_FORMAT;
  formatVersion: 1;
  /** The suite that made the run (results.json `run.suite`). */
  suite: SuiteIdentity;
  /** The suite that made the bundle. */
  bundledWith: SuiteIdentity;
  module: { code: string; kinds: string[] } | null;
  outcome: Results['run']['outcome'];
  /** CONFORMANT, PASS or FAIL (results.json `coverage.verdict`); ABORTED for a run that could not start. */
  verdict: string;
  /** When the run started, and when the bundle was made (ISO 8601). */
  startedAt: string;
  bundledAt: string;
  /** The run's configuration: the bundled file, the file it came from and where secrets were redacted; null when the run had none; `leftOut` when it could not be bundled. */
  config: { file?: string; source: string; redacted?: string[]; leftOut?: string } | null;
  /** SHA-256 of every other file of the bundle, by its name in the archive. */
  manifest: Record<string, string>;
  /** SHA-256 of bundle.json itself, with this value written as 64 zeros. */
  selfSha256: string;
}

export const BUNDLE_FORMAT = 'module-conformance-bundle';
export const BUNDLE_JSON = 'bundle.json';
/** The reports of a run a bundle holds, as the output folder names them. */
export const REPORT_FILES = ['results.json', 'conformance.html', 'junit.xml'] as const;
export const CONFIG_IN_BUNDLE = 'config.json';

const ZEROS = '0'.repeat(64);
const SELF = /"selfSha256": "([0-9a-f]{64})"/g;

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** The suite a results file says made its run; written before `run.suite` was recorded: its version, the contract unknown. */
export function runSuite(results: Results): SuiteIdentity {
  const s = results.run?.suite;
  return s ? { name: s.name, version: s.version, contractSha256: s.contractSha256 } : { name: results.suite?.name ?? 'unknown', version: results.suite?.version ?? 'unknown', contractSha256: 'unknown' };
}

/** The run's verdict word: the coverage's (CONFORMANT, PASS, FAIL), ABORTED for a run that could not start. */
export function runVerdict(results: Results): string {
  if (results.run.outcome === 'aborted') return 'ABORTED';
  return results.coverage?.verdict ?? (results.run.outcome === 'passed' ? 'PASS' : 'FAIL');
}

/** bundle.json's text: the info as JSON (two spaces), its `selfSha256` filled in. */
export function bundleJsonText(info: Omit<BundleInfo, 'selfSha256'>): string {
  const zeroed = `${JSON.stringify({ ...info, selfSha256: ZEROS }, null, 2)}\n`;
  return zeroed.replace(`"selfSha256": "${ZEROS}"`, `"selfSha256": "${sha256(zeroed)}"`);
}

/** True when bundle.json's text is as it was written: its `selfSha256` is the SHA-256 of the text with that value zeroed. */
export function selfShaHolds(text: string): boolean {
  const found = [...text.matchAll(SELF)];
  if (found.length !== 1) return false;
  return sha256(text.replace(found[0]![0], `"selfSha256": "${ZEROS}"`)) === found[0]![1];
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function shownPath(p: string): string {
  const rel = path.relative(process.cwd(), path.resolve(p));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(p);
}

/** The run's configuration file, redacted, or why it is not bundled. */
function bundledConfig(results: Results, notes: string[]): { entry?: TarEntry; info: BundleInfo['config']; redactor?: ReturnType<typeof redactConfig>['redactor'] } {
  const file = results.run.config;
  if (!file) return { info: null };
  const source = path.basename(file);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const leftOut = `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    notes.push(`the configuration is not bundled: ${leftOut}`);
    return { info: { source, leftOut } };
  }
  try {
    const redacted = redactConfig(text);
    return { entry: { name: CONFIG_IN_BUNDLE, data: Buffer.from(redacted.text) }, info: { file: CONFIG_IN_BUNDLE, source, redacted: redacted.redacted }, redactor: redacted.redactor };
  } catch (e) {
    const leftOut = `${file} is not JSON any more, its secrets cannot be told (${(e as Error).message})`;
    notes.push(`the configuration is not bundled: ${leftOut}`);
    return { info: { source, leftOut } };
  }
}

interface BundleArgs {
  dir: string;
  out?: string;
}

const OPTIONS: Array<OptionSpec<BundleArgs>> = [{ name: '--out', value: 'FILE', set: (o, v) => (o.out = v) }];

export async function bundleCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(BUNDLE_USAGE);
    return 0;
  }
  let parsed: BundleArgs;
  try {
    const dirs: string[] = [];
    parsed = readOptions<BundleArgs>(args, OPTIONS, { dir: 'reports' }, 'bundle', (a) => dirs.push(a));
    if (dirs.length > 1) throw new Error(`one folder only (given: ${dirs.join(', ')}); see conformance bundle --help`);
    if (dirs[0] !== undefined) parsed.dir = dirs[0];
  } catch (e) {
    process.stderr.write(`conformance bundle: ${(e as Error).message}\n`);
    return 2;
  }
  const dir = path.resolve(parsed.dir);
  const resultsFile = path.join(dir, 'results.json');
  let resultsText: string;
  let results: Results;
  try {
    resultsText = fs.readFileSync(resultsFile, 'utf8');
  } catch {
    process.stderr.write(`conformance bundle: no results.json in ${shownPath(dir)}: give the output folder of a run (conformance run --out DIR)\n`);
    return 2;
  }
  try {
    results = JSON.parse(resultsText) as Results;
    if (!results.run || typeof results.run.outcome !== 'string' || typeof results.run.startedAt !== 'string') throw new Error('it has no run outcome');
  } catch (e) {
    process.stderr.write(`conformance bundle: ${shownPath(resultsFile)} is not the results of a run (${(e as Error).message})\n`);
    return 2;
  }

  const notes: string[] = [];
  const config = bundledConfig(results, notes);
  const entries: TarEntry[] = [];
  for (const name of REPORT_FILES) {
    let data: Buffer;
    try {
      data = fs.readFileSync(path.join(dir, name));
    } catch {
      notes.push(`${name} is not in ${shownPath(dir)}: not bundled`);
      continue;
    }
    // The run redacted its reports; a secret of the configuration found in one all the same is redacted here too.
    const text = data.toString('utf8');
    const clean = config.redactor ? config.redactor.text(text) : text;
    if (clean !== text) {
      notes.push(`${name} held a secret of the configuration: redacted in the bundle`);
      data = Buffer.from(clean);
    }
    entries.push({ name, data });
  }
  if (config.entry) entries.push(config.entry);

  const bundledAt = new Date();
  const info: Omit<BundleInfo, 'selfSha256'> = {
    format: BUNDLE_FORMAT,
    formatVersion: 1,
    suite: runSuite(results),
    bundledWith: suiteIdentity(),
    module: results.module ? { code: results.module.code, kinds: [...(results.module.kinds ?? [])] } : null,
    outcome: results.run.outcome,
    verdict: runVerdict(results),
    startedAt: results.run.startedAt,
    bundledAt: bundledAt.toISOString(),
    config: config.info,
    manifest: Object.fromEntries(entries.map((e) => [e.name, sha256(e.data)])),
  };
  const archive = writeTgz([{ name: BUNDLE_JSON, data: Buffer.from(bundleJsonText(info)) }, ...entries], bundledAt.getTime() / 1000);
  const out = path.resolve(parsed.out ?? path.join(dir, 'conformance-bundle.tgz'));
  try {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, archive);
    fs.renameSync(tmp, out);
  } catch (e) {
    process.stderr.write(`conformance bundle: cannot write ${shownPath(out)} (${(e as Error).message})\n`);
    return 2;
  }
  for (const n of notes) process.stderr.write(`conformance bundle: ${n}\n`);
  const kb = (archive.length / 1024).toFixed(1);
  process.stdout.write(
    `conformance bundle: ${shownPath(out)} (${entries.length + 1} files, ${kb} KB): ${info.suite.name} ${info.suite.version}, contract sha256 ${info.suite.contractSha256}; ${info.verdict}\n`,
  );
  return 0;
}
