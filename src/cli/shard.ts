/**
 * `conformance run --shard I/N`: one part of a run, on Playwright's own sharding. Every shard
 * runs with the same configuration and seed (a shard without a fixed seed is refused: each would
 * draw its own); each writes its own output folder, its `results.json` naming the shard and what
 * must be alike in all of them (`run.shard`), for `conformance merge`. A shard's verdict is that of a run narrowed to its tests: the requirements
 * only the other shards' tests cover are "left out by the selection".
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { ConfigError } from '../module/config-error.ts';
import { suiteIdentity } from '../contract/suite.ts';
import type { ResolvedConfig, Selection, ShardInfo } from '../module/config.ts';

export const SHARD_USAGE = `  --shard I/N              run the I-th of N parts of the run (Playwright's sharding), for
                           a CI matrix; needs a fixed seed (--seed or generation.seed); join
                           the shards' output folders with conformance merge`;

/**
 * What Playwright is given for a shard, for the run and for its listing alike: the shard, and
 * each test a group of its own (`--fully-parallel`; one worker still runs them one after the
 * other, in the order of an unsharded run), so that shards split by test, not by file (the
 * registration file alone holds 25 tests).
 */
export function shardArgs(shard: { current: number; total: number }): string[] {
  return [`--shard=${shard.current}/${shard.total}`, '--fully-parallel'];
}

/** `--shard I/N`: 1 ≤ I ≤ N. Anything else is a configuration error. */
export function shardOption(value: string): { current: number; total: number } {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(value.trim());
  const current = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || current < 1 || current > total) throw new ConfigError(`--shard takes I/N, a part I of N parts with 1 ≤ I ≤ N (--shard 2/3), not ${JSON.stringify(value)}`);
  return { current, total };
}

/**
 * What must be alike in every shard of one run, as one hash: the resolved configuration but what
 * may differ between the machines of a CI matrix (the API key drawn per run, the file's path,
 * the simulators' addresses, the run's deadline, the lanes: the same results for any number)
 * and the selection (each shard's own).
 */
export function configFingerprint(config: ResolvedConfig): string {
  const { apiKey: _key, file: _file, selection: _selection, shard: _shard, system: _system, gateway: _gateway, runTimeoutMs: _deadline, ...kept } = config;
  const launch = kept.launch ? { ...kept.launch, cwd: undefined } : undefined;
  const generation = { seed: kept.generation.seed, runs: kept.generation.runs, timeLimitMs: kept.generation.timeLimitMs };
  return createHash('sha256').update(stableJson({ ...kept, launch, generation })).digest('hex');
}

/** JSON with the keys of every object sorted: one text for equal values. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The shard's record for `run.shard`. Refused (configuration errors): a configuration without a
 * fixed seed (every shard would draw its own, and the merge would refuse them at the end), and
 * remote mode with neither the registration given (`remote.registration`) nor the trigger
 * `registration.connect`: a staging module registers with one system address, so all shards but
 * one would wait for it in vain. With the trigger, each shard is an account of its own of the
 * module (its system and gateway, its key, its registration and clientId), connected by the
 * session (src/run/session.ts); what differs between shards (key, addresses) is out of
 * `configFingerprint`, the trigger itself in it.
 */
export function shardInfo(config: ResolvedConfig, shard: { current: number; total: number }, seedGiven: boolean): ShardInfo {
  if (!seedGiven) throw new ConfigError(`--shard ${shard.current}/${shard.total} needs a fixed seed (--seed N, or generation.seed in the configuration): every shard must send the requests of the same run`);
  if (config.mode === 'remote' && typeof config.remote?.registration !== 'object' && !config.triggers?.['registration.connect']) {
    throw new ConfigError(
      `--shard in remote mode needs the module's registration given (remote.registration or --registration FILE), or the trigger registration.connect (each shard connects an account of its own): without them the module registers with one system address, so the other shards would wait for it in vain`,
    );
  }
  return { current: shard.current, total: shard.total, config: configFingerprint(config), contract: suiteIdentity().contractSha256 };
}

/** True when the seed is fixed: by `--seed`, or by `generation.seed` in the configuration file. */
export function seedGiven(flagSeed: number | undefined, config: ResolvedConfig): boolean {
  if (flagSeed !== undefined) return true;
  if (!config.file) return false;
  try {
    return (JSON.parse(fs.readFileSync(config.file, 'utf8')) as { generation?: { seed?: unknown } }).generation?.seed !== undefined;
  } catch {
    return false;
  }
}

/** A conformance test as the listing gives it: its title and the requirement ids it covers. */
interface Listed {
  title: string;
  covers: string[];
}

/**
 * The selection of a shard: the tests Playwright gives it (of those the run's `--grep`/`--area`
 * selects) against all the suite's tests, and the requirements only the others cover. `narrowing`
 * is the run's own (`--grep` as typed, `--area`), kept beside the shard. A message (a string)
 * when the listing failed or the shard has no test.
 */
export async function shardSelection(
  shard: { current: number; total: number },
  narrowing: Selection | undefined,
  grep: string | undefined,
  list: (extra: string[], grep: string | undefined) => Promise<Listed[] | undefined>,
  selectionOf: (narrowing: { grep?: string; areas?: string[]; kinds?: string[]; shard: string }, all: readonly Listed[], selected: readonly Listed[]) => Selection,
): Promise<Selection | string> {
  const name = `${shard.current}/${shard.total}`;
  const [inShard, all] = await Promise.all([list(shardArgs(shard), grep), list([], undefined)]);
  if (!inShard || !all) return `the tests of shard ${name} could not be listed`;
  if (inShard.length === 0) return `shard ${name} has no test: the run${narrowing ? '\'s selection' : ''} has ${narrowing?.selected ?? all.length} conformance test(s), fewer than its ${shard.total} shards`;
  return selectionOf({ ...(narrowing?.grep !== undefined ? { grep: narrowing.grep } : {}), ...(narrowing?.areas ? { areas: narrowing.areas } : {}), ...(narrowing?.kinds ? { kinds: narrowing.kinds } : {}), shard: name }, all, inShard);
}
