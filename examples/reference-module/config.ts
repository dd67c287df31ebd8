/**
 * Environment of the reference module. Everything the module needs is read here once; a bad
 * value is a ConfigError (main.ts prints it to stderr and exits with status 2).
 */
import { randomBytes } from 'node:crypto';
import { parseFaults, type FaultSet } from './faults.ts';
import { parseVariations, type VariationSet } from './variations.ts';

export interface Config {
  /** Base URL of the system, without a trailing slash. */
  systemUrl: string;
  /** System API key, sent as form field (or query parameter) `apiKey` on every system call. */
  apiKey: string;
  /** Port to listen on (127.0.0.1). 0 picks a free port. */
  port: number;
  /** The module's own base URL as the system must call it; default http://127.0.0.1:PORT. */
  publicUrl: string | undefined;
  moduleCode: string;
  clientId: string;
  faults: FaultSet;
  /** Legitimate variations of how the module talks to the platform (env VARIATIONS). */
  variations: VariationSet;
  /** Delay before the bot reconnects its WebSocket after it closed. */
  botReconnectMs: number;
  /** Registration attempts while the system is unreachable or answers 5xx. */
  registerAttempts: number;
  /** Delay between registration attempts. */
  registerRetryMs: number;
  /** Timeout of each outgoing HTTP request. */
  requestTimeoutMs: number;
  /** Every answer the module gives (callbacks, webhooks, triggers, pages) waits this long: a slow module. */
  answerDelayMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const v = env[name]?.trim();
  if (!v) throw new ConfigError(`${name} is required`);
  return v;
}

function httpUrl(name: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL (got ${JSON.stringify(value)})`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer (got ${JSON.stringify(raw)})`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return n;
}

export function loadConfig(env: Env = process.env): Config {
  const systemUrl = httpUrl('SYSTEM_URL', required(env, 'SYSTEM_URL'));
  const apiKey = required(env, 'API_KEY');
  const port = integer(env, 'PORT', -1, 0, 65535);
  if (port < 0) throw new ConfigError('PORT is required');
  const publicRaw = env.PUBLIC_URL?.trim();
  const moduleCode = env.MODULE_CODE?.trim() || 'reference-module';
  if (!/^[A-Za-z0-9_.-]+$/.test(moduleCode)) throw new ConfigError('MODULE_CODE may hold only letters, digits, _, . and -');
  let faults: FaultSet;
  try {
    faults = parseFaults(env.FAULTS);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  let variations: VariationSet;
  try {
    variations = parseVariations(env.VARIATIONS);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  return {
    systemUrl,
    apiKey,
    port,
    publicUrl: publicRaw ? httpUrl('PUBLIC_URL', publicRaw) : undefined,
    moduleCode,
    clientId: env.CLIENT_ID?.trim() || randomBytes(16).toString('hex'),
    faults,
    variations,
    botReconnectMs: integer(env, 'BOT_RECONNECT_MS', 1000, 0, 600_000),
    registerAttempts: integer(env, 'REGISTER_ATTEMPTS', 10, 1, 1000),
    registerRetryMs: integer(env, 'REGISTER_RETRY_MS', 500, 0, 60_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000),
    answerDelayMs: integer(env, 'ANSWER_DELAY_MS', 0, 0, 600_000),
  };
}
