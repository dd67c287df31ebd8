/**
 * The run configuration: read from a JSON file (schema `schemas/suite/config.json`), merged
 * with command-line flags, validated. A bad configuration is a run that cannot start (exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { contract, formatErrors } from '../contract/schemas.ts';
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
    moduleUrl?: string;
  };
  remote?: { moduleUrl: string; registration?: Record<string, unknown> | string; registrationTimeoutMs?: number };
  system?: SimulatorSpec;
  gateway?: SimulatorSpec;
  apiKey?: string;
  triggers?: Record<string, TriggerSpec>;
  callbacks?: { timeoutMs?: number; maxBodyBytes?: number };
  flowTimeoutMs?: number;
  /** When the module is ready for callbacks after its registration. */
  readiness?: { settleMs?: number; url?: string; stdout?: string; timeoutMs?: number };
  profile?: boolean;
  /**
   * Both simulators serve HTTPS (the bot WebSocket as wss) with a certificate made for the run;
   * its CA certificate is the file `{caFile}`. Default false (plain HTTP).
   */
  tls?: boolean;
}

/** A configuration that validated, with paths made absolute and defaults filled in. */
export interface ResolvedConfig extends RunConfig {
  /** The file it came from (absent for a configuration built from flags alone). */
  file?: string;
  apiKey: string;
  profile: boolean;
  flowTimeoutMs: number;
}

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
}

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

  const out = contract().validate('suite/config.json', raw);
  if (!out.valid) throw new ConfigError(`config ${source ?? '(flags)'} is invalid: ${formatErrors(out.errors)}`);

  const base = source ? path.dirname(path.resolve(source)) : process.cwd();
  const resolved: ResolvedConfig = {
    ...raw,
    ...(source ? { file: path.resolve(source) } : {}),
    apiKey: raw.apiKey ?? randomBytes(16).toString('hex'),
    profile: raw.profile ?? true,
    flowTimeoutMs: raw.flowTimeoutMs ?? 10_000,
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
  return template.replace(/\{(env:)?([A-Za-z_][\w.]*)\}/g, (whole, env: string | undefined, name: string) => {
    const value = env ? process.env[name] : vars[name];
    if (value === undefined) {
      if (env) return '';
      throw new ConfigError(`unknown placeholder ${whole} (known: ${Object.keys(vars).map((k) => `{${k}}`).join(', ')})`);
    }
    return value;
  });
}

/** Fills placeholders in every string of a JSON value. */
export function fillDeep(value: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}
