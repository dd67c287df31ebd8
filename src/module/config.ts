/**
 * The run configuration: read from a JSON file (schema `schemas/suite/config.json`), merged
 * with command-line flags, validated. A bad configuration is a run that cannot start (exit 2).
 * The schema is closed (a misspelled key is an error, not ignored); each problem is told with
 * its path in the file and the nearest known name (`configProblems`, config-problems.ts);
 * placeholders are filled and checked by placeholders.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PACKAGE_ROOT } from '../contract/paths.ts';
import { ConfigError } from './config-error.ts';
import { configProblems } from './config-problems.ts';
import { stripJsonComments } from './jsonc.ts';

export interface TriggerSpec {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

export interface SimulatorSpec {
  bind?: string;
  port?: number;
  publicUrl?: string;
}

export interface RunConfig {
  mode: 'launch' | 'remote';
  launch?: {
    command: string;
    args?: string[];
    cwd?: string;
    env?: Record<string, string>;
    inheritEnv?: boolean;
    registrationTimeoutMs?: number;
    /** Milliseconds between SIGTERM and SIGKILL when the run stops the module's process group (default 3000). */
    stopGraceMs?: number;
    moduleUrl?: string;
  };
  remote?: { moduleUrl: string; registration?: Record<string, unknown> | string; registrationTimeoutMs?: number };
  system?: SimulatorSpec;
  gateway?: SimulatorSpec;
  apiKey?: string;
  triggers?: Record<string, TriggerSpec>;
  callbacks?: { timeoutMs?: number; maxBodyBytes?: number };
  /** What a module may send to the simulators (sizes, times); see `ServerLimits` in src/simulators/http.ts. */
  limits?: { maxRequestBytes?: number; maxUploadBytes?: number; maxFrameBytes?: number; headersTimeoutMs?: number; requestTimeoutMs?: number; keepAliveTimeoutMs?: number };
  flowTimeoutMs?: number;
  /** The deadline of the whole run (default 15 minutes). */
  runTimeoutMs?: number;
  /** When the module is ready for callbacks after its registration. */
  readiness?: { settleMs?: number; url?: string; stdout?: string; timeoutMs?: number };
  profile?: boolean;
  /** Generated callback requests: the seed of every random choice, cases per property, a property's time budget. */
  generation?: { seed?: number; runs?: number; timeLimitMs?: number; lanes?: number };
  /** Areas at once (`conformance run --parallel`, src/run/attach.ts): 1 (default) or 2. */
  concurrency?: { areas?: number };
  /**
   * Both simulators serve HTTPS (the bot WebSocket as wss) with a certificate made for the run;
   * its CA certificate is the file `{caFile}`. Default false (plain HTTP).
   */
  tls?: boolean;
  /**
   * The method of the telephony URLs `makeCallUrl` and `changeUserStatusUrl` (wire profile
   * section 4: GET with query parameters, L; a setting, default GET). POST sends the same
   * parameters as a form body.
   */
  telephony?: { makeCallMethod?: 'GET' | 'POST'; changeUserStatusMethod?: 'GET' | 'POST' };
}

/** A narrowed run (`conformance run --grep`, `--area`, or both): what it selected and what it left out. */
export interface Selection {
  /** The `--grep` pattern, as typed. */
  grep?: string;
  /** `--area`: the areas run, the registration area always among them (src/run/areas.ts). */
  areas?: string[];
  /** `--kind`: the module kinds run (with the registration area's tests; src/cli/kinds.ts). */
  kinds?: string[];
  /** Conformance tests selected, of `total`. */
  selected: number;
  total: number;
  /** Titles of the tests left out. */
  leftOutTests: string[];
  /** Requirement ids only the tests left out cover. */
  leftOut: string[];
  /** `--shard I/N` (`2/3`): one shard of a run; the tests left out are the other shards' (and those the narrowing leaves out). */
  shard?: string;
}

/** `conformance run --shard I/N` (src/cli/shard.ts): which shard, and what must be alike in every shard of the run (`conformance merge` compares). */
export interface ShardInfo {
  current: number;
  total: number;
  /** SHA-256 of the configuration but what may differ between machines (API key, addresses, paths, deadline). */
  config: string;
  /** SHA-256 of the contract document the catalogue was made from. */
  contract: string;
}

/** A configuration that validated, with paths made absolute and defaults filled in. */
export interface ResolvedConfig extends RunConfig {
  /** Set by `conformance run --grep` or `--area`: the run is narrowed. */
  selection?: Selection;
  /** Set by `conformance run --shard I/N`. */
  shard?: ShardInfo;
  /** The file it came from (absent for a configuration built from flags alone). */
  file?: string;
  apiKey: string;
  profile: boolean;
  flowTimeoutMs: number;
  generation: { seed: number; runs: number; timeLimitMs: number; lanes: number };
}

/** The embedded default: the bundled reference module. */
export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json');

export interface ConfigFlags {
  moduleUrl?: string;
  registration?: string;
  bind?: string;
  systemPublicUrl?: string;
  gatewayPublicUrl?: string;
  profile?: boolean;
  seed?: number;
  runs?: number;
  lanes?: number;
}

/** Generated cases per property, and a property's time budget, when the configuration says nothing. */
export const DEFAULT_RUNS = 100;
export const DEFAULT_PROPERTY_TIME_LIMIT_MS = 40_000;
/** Cases of a property in flight at once, where its cases are independent (`generation.lanes`). */
export const DEFAULT_LANES = 4;

/** Reads, merges with flags, validates and resolves a configuration. Throws ConfigError. */
export function loadConfig(file: string | undefined, flags: ConfigFlags = {}): ResolvedConfig {
  let raw: RunConfig;
  const source = file ?? (flags.moduleUrl ? undefined : DEFAULT_CONFIG_FILE);
  if (source) {
    let text: string;
    try {
      text = fs.readFileSync(source, 'utf8');
    } catch (e) {
      throw new ConfigError(`cannot read config ${source}: ${(e as Error).message}`);
    }
    try {
      // JSON with `//` and `/* */` comments (jsonc.ts): what `conformance init` writes.
      raw = JSON.parse(stripJsonComments(text)) as RunConfig;
    } catch (e) {
      throw new ConfigError(`config ${source} is not JSON: ${(e as Error).message}`);
    }
  } else {
    raw = { mode: 'remote', remote: { moduleUrl: flags.moduleUrl! } };
  }
  if (flags.moduleUrl) raw = { ...raw, mode: 'remote', remote: { ...raw.remote, moduleUrl: flags.moduleUrl } };
  if (flags.registration) raw = { ...raw, remote: { ...(raw.remote ?? { moduleUrl: '' }), registration: path.resolve(flags.registration) } };
  if (flags.bind) raw = { ...raw, system: { ...raw.system, bind: flags.bind }, gateway: { ...raw.gateway, bind: flags.bind } };
  if (flags.systemPublicUrl) raw = { ...raw, system: { ...raw.system, publicUrl: flags.systemPublicUrl } };
  if (flags.gatewayPublicUrl) raw = { ...raw, gateway: { ...raw.gateway, publicUrl: flags.gatewayPublicUrl } };
  if (flags.profile === false) raw = { ...raw, profile: false };
  if (flags.seed !== undefined) raw = { ...raw, generation: { ...raw.generation, seed: flags.seed } };
  if (flags.runs !== undefined) raw = { ...raw, generation: { ...raw.generation, runs: flags.runs } };
  if (flags.lanes !== undefined) raw = { ...raw, generation: { ...raw.generation, lanes: flags.lanes } };

  const problems = configProblems(raw);
  if (problems.length > 0) throw new ConfigError(`config ${source ? displayPath(source) : '(command line)'}: ${summarize(problems)}`);

  const base = source ? path.dirname(path.resolve(source)) : process.cwd();
  const resolved: ResolvedConfig = {
    ...raw,
    ...(source ? { file: path.resolve(source) } : {}),
    apiKey: raw.apiKey ?? randomBytes(16).toString('hex'),
    profile: raw.profile ?? true,
    flowTimeoutMs: raw.flowTimeoutMs ?? 10_000,
    // The one place the run's randomness is seeded: drawn here when not given, then printed and recorded.
    generation: {
      seed: raw.generation?.seed ?? randomBytes(4).readUInt32BE(0),
      runs: raw.generation?.runs ?? DEFAULT_RUNS,
      timeLimitMs: raw.generation?.timeLimitMs ?? DEFAULT_PROPERTY_TIME_LIMIT_MS,
      lanes: raw.generation?.lanes ?? DEFAULT_LANES,
    },
  };
  if (resolved.launch) resolved.launch = { ...resolved.launch, cwd: path.resolve(base, resolved.launch.cwd ?? '.') };
  if (resolved.remote && typeof resolved.remote.registration === 'string') {
    const regFile = path.resolve(base, resolved.remote.registration);
    try {
      resolved.remote = { ...resolved.remote, registration: JSON.parse(fs.readFileSync(regFile, 'utf8')) as Record<string, unknown> };
    } catch (e) {
      throw new ConfigError(`cannot read registration ${regFile}: ${(e as Error).message}`);
    }
  }
  return resolved;
}

/** At most this many problems in the one-line message; the rest are counted. */
const SHOWN_PROBLEMS = 5;

/** The file as the vendor wrote it: relative to the working directory when inside it. */
function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), path.resolve(file));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(file);
}

function summarize(problems: string[]): string {
  const shown = problems.slice(0, SHOWN_PROBLEMS).join('; ');
  const rest = problems.length - SHOWN_PROBLEMS;
  return rest > 0 ? `${shown}; and ${rest} more problem${rest === 1 ? '' : 's'}` : shown;
}
