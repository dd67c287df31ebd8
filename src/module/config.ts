/**
 * The run configuration: read from a JSON file (schema `schemas/suite/config.json`), merged
 * with command-line flags, validated. A bad configuration is a run that cannot start (exit 2).
 * The schema is closed (a misspelled key is an error, not ignored); each problem is told with
 * its path in the file and the nearest known name (`configProblems`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import { contract } from '../contract/schemas.ts';
import { PACKAGE_ROOT } from '../contract/paths.ts';

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
  generation?: { seed?: number; runs?: number; timeLimitMs?: number };
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
  /** `--area`: the areas run, the registration area always among them (specs/areas.ts). */
  areas?: string[];
  /** Conformance tests selected, of `total`. */
  selected: number;
  total: number;
  /** Titles of the tests left out. */
  leftOutTests: string[];
  /** Requirement ids only the tests left out cover. */
  leftOut: string[];
}

/** A configuration that validated, with paths made absolute and defaults filled in. */
export interface ResolvedConfig extends RunConfig {
  /** Set by `conformance run --grep` or `--area`: the run is narrowed. */
  selection?: Selection;
  /** The file it came from (absent for a configuration built from flags alone). */
  file?: string;
  apiKey: string;
  profile: boolean;
  flowTimeoutMs: number;
  generation: { seed: number; runs: number; timeLimitMs: number };
}

/**
 * The parameters of each trigger (README's trigger table): placeholders of its url, headers and
 * body besides the run's own. In the order of TRIGGERS (src/module/triggers.ts).
 */
export const TRIGGER_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  'delivery.tracking': ['count', 'deliveryIds'],
  'telephony.callsUpload': ['count', 'externalIds'],
  'telephony.callEvent': ['phone', 'type', 'codes', 'externalPhone'],
  'telephony.managerLookup': ['phone'],
  'payment.notify': ['paymentId', 'event'],
  'transport.templateVerdict': ['channelId', 'code', 'verdict', 'reason'],
  'transport.inboundMessage': ['channelId', 'text', 'count'],
  'transport.templateReport': ['channelId', 'code', 'template'],
  'registration.repeat': [],
};

/** The embedded default: the bundled reference module. */
export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, 'examples', 'reference-module', 'conformance.config.json');

export class ConfigError extends Error {}

export interface ConfigFlags {
  moduleUrl?: string;
  registration?: string;
  bind?: string;
  systemPublicUrl?: string;
  gatewayPublicUrl?: string;
  profile?: boolean;
  seed?: number;
  runs?: number;
}

/** Generated cases per property, and a property's time budget, when the configuration says nothing. */
export const DEFAULT_RUNS = 100;
export const DEFAULT_PROPERTY_TIME_LIMIT_MS = 40_000;

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
      raw = JSON.parse(text) as RunConfig;
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

/**
 * Fills `{name}` placeholders in a string. `{env:NAME}` reads the suite's environment.
 * An unknown placeholder is an error: a half-filled URL would send the module nonsense.
 */
export function fill(template: string, vars: Record<string, string | undefined>): string {
  return template.replace(PLACEHOLDER, (whole, env: string | undefined, name: string) => {
    const value = env ? process.env[name] : vars[name];
    if (value === undefined) {
      if (env) return '';
      throw new ConfigError(`unknown placeholder ${whole} (known here: ${[...Object.keys(vars), 'env:NAME'].map((k) => `{${k}}`).join(', ')})`);
    }
    return value;
  });
}

/**
 * What a placeholder is, for `fill` and for the check at load time alike: `{name}` or
 * `{env:NAME}`, a name starting with a letter or `_`. Any other braces (`{"a":1}`, `{ x }`,
 * `{1}`) are text.
 */
const PLACEHOLDER = /\{(env:)?([A-Za-z_][\w.]*)\}/g;

/** Fills placeholders in every string of a JSON value. */
export function fillDeep(value: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}

/* ---------------------------------------------------------------------------------------------
 * A strict configuration: every problem in one line naming the key, its path in the file (a JSON
 * pointer, `/` for the top) and, for a misspelling, the nearest known name.
 * ------------------------------------------------------------------------------------------- */

const CONFIG_SCHEMA = 'suite/config.json';

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

/**
 * Edit distance (optimal string alignment: insertions, deletions, substitutions and swaps of
 * two neighbours each cost 1), case-insensitive.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The known name nearest to a misspelled one, when it is near enough to be what was meant: at
 * most a third of the known name's length apart (at least 1, at most 3 edits). Ties go to the
 * first of `known`.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    if (k === name) continue;
    const distance = editDistance(name, k);
    const limit = Math.min(3, Math.max(1, Math.floor(k.length / 3)));
    if (distance <= limit && distance < bestDistance) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The subschema of the config schema at a schema path (`#/properties/launch/...`). */
function schemaAt(schemaPath: string): Record<string, unknown> | undefined {
  const root = contract().schemas.find((s) => s.file === CONFIG_SCHEMA)?.schema as unknown;
  const segments = schemaPath.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map(unescapePointer);
  let node: unknown = root;
  for (const s of segments) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node && typeof node === 'object' ? (node as Record<string, unknown>) : undefined;
}

/** Where a JSON pointer is in the file: the index of each key (or item) along it, in file order. */
function positionIn(data: unknown, pointer: string): number[] {
  const out: number[] = [];
  let node = data;
  for (const s of pointer.split('/').slice(1).map(unescapePointer)) {
    if (!node || typeof node !== 'object') break;
    out.push(Array.isArray(node) ? Number(s) : Object.keys(node).indexOf(s));
    node = (node as Record<string, unknown>)[s];
  }
  return out;
}

/** The value at a JSON pointer of the data. */
function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const s of pointer.split('/').slice(1).map(unescapePointer)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s];
  }
  return node;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const quoted = (names: readonly unknown[]): string => names.map((n) => JSON.stringify(n)).join(', ');

interface Problem {
  /** Where it is reported: the object holding the key, or the value itself. */
  at: string;
  /** Where it is in the file: the unknown key, the value, or the object missing a key. */
  pointer: string;
  /** 0 missing key, 1 unknown key, 2 wrong type, 3 any other. */
  rank: number;
  text: string;
  /** An unknown key's suggestion, to drop the `required` error it explains. */
  meant?: string;
  missing?: string;
  /** An unknown name with no near known one: said once for all such names of its object. */
  unknown?: { noun: 'key' | 'trigger'; name: string; known: string[] };
}

function problemOf(e: ErrorObject, data: unknown): Problem | undefined {
  const at = e.instancePath || '/';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined; // said by the error inside (`then`'s required, the name's enum)
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((schemaAt(e.schemaPath.replace(/\/additionalProperties$/, ''))?.properties as Record<string, unknown> | undefined) ?? {});
      const meant = nearestName(key, known);
      const pointer = `${e.instancePath}/${escapePointer(key)}`;
      if (!meant) return { at, pointer, rank: 1, text: '', unknown: { noun: 'key', name: key, known } };
      return { at, pointer, rank: 1, text: `unknown key ${JSON.stringify(key)} at ${at}; did you mean ${JSON.stringify(meant)}?`, meant };
    }
    case 'required': {
      const key = String(params.missingProperty);
      return { at, pointer: e.instancePath, rank: 0, text: `missing required key ${JSON.stringify(key)} at ${at}`, missing: key };
    }
    case 'type': {
      const value = valueAt(data, e.instancePath);
      const expected = Array.isArray(params.type) ? params.type.join(' or ') : String(params.type).split(',').join(' or ');
      return { at, pointer: e.instancePath, rank: 2, text: `wrong type at ${at}: expected ${expected}, got ${jsonType(value)}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      if (e.schemaPath.endsWith('/propertyNames/enum')) {
        // A trigger name outside the vocabulary.
        const name = String((e as ErrorObject & { propertyName?: string }).propertyName);
        const meant = nearestName(name, allowed.map(String));
        const pointer = `${e.instancePath}/${escapePointer(name)}`;
        if (!meant) return { at, pointer, rank: 1, text: '', unknown: { noun: 'trigger', name, known: allowed.map(String) } };
        return { at, pointer, rank: 1, text: `unknown trigger ${JSON.stringify(name)} at ${at}; did you mean ${JSON.stringify(meant)}?` };
      }
      const value = valueAt(data, e.instancePath);
      const meant = typeof value === 'string' ? nearestName(value, allowed.filter((v): v is string => typeof v === 'string')) : undefined;
      return { at, pointer: e.instancePath, rank: 3, text: `invalid value ${shown(value)} at ${at}; ${meant ? `did you mean ${JSON.stringify(meant)}?` : `expected one of ${quoted(allowed)}`}` };
    }
    default:
      return { at, pointer: e.instancePath, rank: 3, text: `invalid value ${shown(valueAt(data, e.instancePath))} at ${at}: ${e.message ?? e.keyword}` };
  }
}

/**
 * What is wrong with a configuration, one message a problem, in the order of the file (a key
 * missing from an object before what is inside it; at one place a missing key, then an unknown
 * one, then a wrong type, then the rest).
 * A missing required key that a misspelled key was meant to be is not said twice; nor is a
 * second complaint about the same value. Empty when the configuration is valid.
 */
export function configProblems(data: unknown): string[] {
  const out = contract().validate(CONFIG_SCHEMA, data);
  const placeholders = placeholderProblems(data);
  if (out.valid && placeholders.length === 0) return [];
  const problems = (out.valid ? [] : out.errors).map((e) => problemOf(e, data)).filter((p): p is Problem => p !== undefined);
  const meant = new Set(problems.filter((p) => p.meant).map((p) => `${p.at}\u0000${p.meant}`));
  const seenValues = new Set<string>();
  const unknown = new Map<string, { problem: Problem; names: string[] }>();
  const kept = problems.filter((p) => {
    if (p.missing !== undefined && meant.has(`${p.at}\u0000${p.missing}`)) return false;
    if (p.unknown) {
      // Unknown names nothing known is near: one problem for all of them in their object.
      const group = `${p.at}\u0000${p.unknown.noun}`;
      const seen = unknown.get(group);
      if (seen) seen.names.push(p.unknown.name);
      else unknown.set(group, { problem: p, names: [p.unknown.name] });
      return !seen;
    }
    if (p.rank >= 2) {
      if (seenValues.has(p.at)) return false;
      seenValues.add(p.at);
    }
    return true;
  });
  for (const { problem: p, names } of unknown.values()) {
    const { noun, known } = p.unknown!;
    p.text = `unknown ${noun}${names.length > 1 ? 's' : ''} ${quoted(names)} at ${p.at}; known ${noun}s: ${known.join(', ') || '(none)'}`;
  }
  kept.push(...placeholders);
  const order = (p: Problem): number[] => positionIn(data, p.pointer);
  const before = (a: number[], b: number[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  return [...new Set(kept.sort((a, b) => before(order(a), order(b)) || a.rank - b.rank).map((p) => p.text))];
}


/* ---------------------------------------------------------------------------------------------
 * Placeholders, checked when the configuration is loaded: a typo (`{systemURL}`, `{apikey}`)
 * would otherwise launch a module with half its settings, or break every spec that fires a
 * trigger. Every string the run fills is checked, where it is filled and with what is known
 * there; braces that are no placeholder (PLACEHOLDER) are text.
 * ------------------------------------------------------------------------------------------- */

/** The run's own placeholders (src/run/session.ts fills them); `{env:NAME}` besides. */
const RUN_PLACEHOLDERS = ['systemUrl', 'gatewayUrl', 'apiKey', 'port', 'moduleUrl', 'code', 'clientId', 'caFile'] as const;

const KNOWN_PLACEHOLDERS =
  'known placeholders: {systemUrl}, {gatewayUrl}, {apiKey}, {port} (launch mode), {moduleUrl}, {code} and {clientId} (from the registration; not in launch), {caFile} (with tls), {env:NAME}';

/** Where a string is filled: at launch, launch.moduleUrl (`{port}` alone), readiness.url, or a trigger. */
type Place = { at: 'launch' } | { at: 'moduleUrl' } | { at: 'readiness' } | { at: 'trigger'; trigger: string };

/** Where a string at this path of the configuration has its placeholders filled, if it does. */
function placeOf(segments: readonly string[]): Place | undefined {
  const [section, key, sub] = segments;
  const n = segments.length;
  if (section === 'launch') {
    if ((key === 'command' && n === 2) || ((key === 'args' || key === 'env') && n === 3)) return { at: 'launch' };
    if (key === 'moduleUrl' && n === 2) return { at: 'moduleUrl' };
  }
  if (section === 'readiness' && key === 'url' && n === 2) return { at: 'readiness' };
  // Trigger names outside the vocabulary are said by the schema; their strings are not checked.
  if (section === 'triggers' && key !== undefined && key in TRIGGER_PARAMETERS) {
    if ((sub === 'url' && n === 3) || (sub === 'headers' && n === 4) || (sub === 'body' && n >= 3)) return { at: 'trigger', trigger: key };
  }
  return undefined;
}

/** One problem of one placeholder, or undefined when it is filled there. */
function placeholderProblem(whole: string, env: boolean, name: string, pointer: string, place: Place, data: Record<string, unknown>): string | undefined {
  const at = pointer || '/';
  if (place.at === 'moduleUrl') {
    if (!env && name === 'port') return undefined;
    const meant = env ? undefined : nearestName(name, ['port']);
    return `unknown placeholder ${whole} at ${at}; ${meant ? `did you mean {${meant}}? ` : ''}only {port} is filled in launch.moduleUrl`;
  }
  if (env) return undefined;
  const params = place.at === 'trigger' ? TRIGGER_PARAMETERS[place.trigger]! : [];
  if (params.includes(name)) return undefined;
  if ((RUN_PLACEHOLDERS as readonly string[]).includes(name)) {
    if (name === 'caFile' && data.tls !== true && (data.tls === undefined || typeof data.tls === 'boolean')) {
      return `placeholder {caFile} at ${at} needs "tls": true (it is the CA certificate of the HTTPS simulators)`;
    }
    if ((name === 'code' || name === 'clientId') && place.at === 'launch') {
      return `placeholder {${name}} at ${at} is not known when the module is launched: {code} and {clientId} come from its registration (use them in triggers and readiness.url)`;
    }
    if (name === 'port' && place.at !== 'launch' && data.mode === 'remote') {
      return `placeholder {port} at ${at} exists only in launch mode (the port given to the launched module); use {moduleUrl}`;
    }
    return undefined;
  }
  const meant = nearestName(name, [...RUN_PLACEHOLDERS, ...params]) ?? (/^[A-Z_][A-Z0-9_]*$/.test(name) ? `env:${name}` : undefined);
  const triggerParams =
    place.at !== 'trigger' ? '' : params.length > 0 ? `; parameters of ${place.trigger}: ${params.map((p) => `{${p}}`).join(', ')}` : `; ${place.trigger} has no parameters`;
  return `unknown placeholder ${whole} at ${at}; ${meant ? `did you mean {${meant}}? ` : ''}${KNOWN_PLACEHOLDERS}${triggerParams}`;
}

/** `{Env:HOME}`, `{evn:HOME}`: meant as `{env:NAME}`, which PLACEHOLDER would take for text. */
const NEAR_ENV = /\{([A-Za-z]+):([A-Za-z_][\w.]*)\}/g;

/** Every placeholder of the configuration that the run could not fill, in the order of the file. */
function placeholderProblems(data: unknown): Problem[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const root = data as Record<string, unknown>;
  const out: Problem[] = [];
  const walk = (node: unknown, segments: string[]): void => {
    if (typeof node === 'string') {
      const place = placeOf(segments);
      if (!place) return;
      const pointer = segments.map((s) => `/${escapePointer(s)}`).join('');
      const found: Array<{ index: number; text: string }> = [];
      for (const m of node.matchAll(PLACEHOLDER)) {
        const text = placeholderProblem(m[0], m[1] !== undefined, m[2]!, pointer, place, root);
        if (text) found.push({ index: m.index!, text });
      }
      for (const m of node.matchAll(NEAR_ENV)) {
        if (m[1] === 'env' || (m[1]!.toLowerCase() !== 'env' && !nearestName(m[1]!, ['env']))) continue;
        const suffix = place.at === 'moduleUrl' ? 'only {port} is filled in launch.moduleUrl' : KNOWN_PLACEHOLDERS;
        found.push({ index: m.index!, text: `unknown placeholder ${m[0]} at ${pointer || '/'}; did you mean {env:${m[2]}}? ${suffix}` });
      }
      for (const f of found.sort((a, b) => a.index - b.index)) out.push({ at: pointer || '/', pointer, rank: 3, text: f.text });
      return;
    }
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...segments, String(i)]));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...segments, k]);
  };
  walk(root, []);
  return out;
}
