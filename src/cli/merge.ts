/**
 * `conformance merge DIR... [--out DIR]`: joins the output folders of the shards of one run
 * (`conformance run --shard I/N`) into the reports of the whole run: `results.json`,
 * `conformance.html`, `junit.xml` (src/report/merge.ts, computed by the reporter's own code), the
 * shards' saved failures. Prints the
 * verdict as `conformance run` does and exits as it does: 0 no MUST failure, 1 a MUST failure,
 * 2 the shards cannot be joined (not shards, one missing or twice, run differently) or one of
 * them could not start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readOptions, type OptionSpec } from './options.ts';
import { ConfigError } from '../module/config-error.ts';
import { finishRun } from './run.ts';
import { childEnv } from './child-env.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';
import { mergeProblems, mergeShards, type ShardRun } from '../report/merge.ts';
import type { Results } from '../report/results.ts';
import { renderHtml } from '../report/html.ts';
import { junitXml } from '../report/junit.ts';

export const MERGE_USAGE = `usage: conformance merge DIR... [--out DIR]

Joins the output folders of the shards of one run (conformance run --shard I/N --out DIR, one
folder per shard, all of them) into the reports of the whole run: results.json, conformance.html,
junit.xml and the saved failures, with the
verdict and coverage of the run unsharded. The shards must be of one run: the same seed,
configuration, selection and suite; each shard once.

  --out DIR                where the joined reports go (default: reports); not a shard's folder

Exit 0: no MUST check failed; 1: one did; 2: the folders cannot be joined, or a shard could not start.
`;

interface MergeArgs {
  dirs: string[];
  out: string;
}

const OPTIONS: Array<OptionSpec<MergeArgs>> = [{ name: '--out', value: 'DIR', set: (o, v) => (o.out = v) }];

export function parseMergeArgs(args: string[]): MergeArgs {
  const dirs: string[] = [];
  const parsed = readOptions<MergeArgs>(args, OPTIONS, { dirs, out: 'reports' }, 'merge', (a) => dirs.push(a));
  if (parsed.dirs.length === 0) throw new ConfigError('no shard folder given; see conformance merge --help');
  return parsed;
}

/** The shard's results, read from its folder; a one-line reason when there are none. */
function readShard(dir: string): ShardRun | string {
  const file = path.join(dir, 'results.json');
  try {
    return { dir, results: JSON.parse(fs.readFileSync(file, 'utf8')) as Results };
  } catch (e) {
    return `${dir}: no results.json to read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
}

/** Copies each shard's saved failures (`failures/*.json`: results.json names them relative to the output folder). */
function copyFailures(shards: readonly ShardRun[], out: string): void {
  for (const s of shards) {
    const from = path.join(s.dir, 'failures');
    if (!fs.existsSync(from)) continue;
    fs.mkdirSync(path.join(out, 'failures'), { recursive: true });
    for (const f of fs.readdirSync(from)) if (!fs.existsSync(path.join(out, 'failures', f))) fs.copyFileSync(path.join(from, f), path.join(out, 'failures', f));
  }
}

export async function mergeCommand(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(MERGE_USAGE);
    return 0;
  }
  let parsed: MergeArgs;
  try {
    parsed = parseMergeArgs(args);
  } catch (e) {
    process.stderr.write(`conformance merge: ${(e as Error).message}\n`);
    return 2;
  }
  const out = path.resolve(parsed.out);
  const read = parsed.dirs.map((d) => readShard(path.resolve(d)));
  const unread = read.filter((r): r is string => typeof r === 'string');
  const shards = read.filter((r): r is ShardRun => typeof r !== 'string');
  const problems = [...unread, ...(unread.length === 0 ? mergeProblems(shards) : [])];
  if (shards.some((s) => path.resolve(s.dir) === out)) problems.push(`--out ${parsed.out} is a shard's folder: the joined reports would overwrite its results`);
  if (problems.length > 0) {
    process.stderr.write(`conformance merge: cannot join these shards: ${problems.join('; ')}\n`);
    return 2;
  }
  const results = await mergeShards(shards);
  fs.mkdirSync(out, { recursive: true });
  for (const f of ['results.json', 'conformance.html', 'junit.xml', 'failures']) fs.rmSync(path.join(out, f), { recursive: true, force: true });
  fs.writeFileSync(path.join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(out, 'conformance.html'), renderHtml(results));
  fs.writeFileSync(path.join(out, 'junit.xml'), junitXml(results));
  copyFailures(shards, out);
  const shardList = results.run.merged!.shards.map((s) => `${s.shard} ${path.relative(process.cwd(), s.dir) || '.'}`).join(', ');
  process.stdout.write(`conformance merge: ${shards.length} shard${shards.length === 1 ? '' : 's'} (${shardList})\n`);
  // As `conformance run` ends (its own code): the deadline, the module's stop, the run-level rules, the tally, the verdict; the exit code.
  return finishRun(out, 0, { stdout: process.stdout, stderr: { write: (text: string) => process.stderr.write(text.replace(/^conformance run:/, 'conformance merge:')) } });
}
