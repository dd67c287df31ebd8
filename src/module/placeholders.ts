/**
 * Placeholders: `{name}`, `{env:NAME}` and `{env:NAME:-default}` in the strings of the configuration, filled by the run
 * (`fill`), and checked when the configuration is loaded (`placeholderProblems`), where each
 * string is filled and with what is known there. The parameters of each trigger are placeholders
 * of its own (`TRIGGER_PARAMETERS`).
 */
import { PACKAGE_ROOT } from '../contract/paths.ts';
import { ConfigError, nearestName } from './config-error.ts';

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
  'registration.connect': ['systemUrl', 'apiKey'],
};

/**
 * Fills `{name}` placeholders in a string. `{env:NAME}` reads the suite's environment: a
 * variable that is not set is an error, unless a default is given, `{env:NAME:-default}`, used
 * (as the shell's `${NAME:-default}`) when the variable is unset or empty. `{suiteDir}` is the
 * folder of the suite itself. An unknown placeholder is an error: a half-filled URL would send
 * the module nonsense.
 */
export function fill(template: string, vars: Record<string, string | undefined>): string {
  return template.replace(PLACEHOLDER, (whole, envName: string | undefined, fallback: string | undefined, name: string | undefined) => {
    if (envName !== undefined) {
      const value = process.env[envName];
      if (fallback !== undefined && (value === undefined || value === '')) return fallback;
      if (value === undefined) throw new ConfigError(unsetText(whole, envName, undefined));
      return value;
    }
    const value = name === 'suiteDir' && vars.suiteDir === undefined ? PACKAGE_ROOT : vars[name!];
    if (value === undefined) throw new ConfigError(`unknown placeholder ${whole} (known here: ${[...Object.keys(vars), 'suiteDir', 'env:NAME'].map((k) => `{${k}}`).join(', ')})`);
    return value;
  });
}

/**
 * What a placeholder is, for `fill` and for the check at load time alike: `{name}`, `{env:NAME}`
 * or `{env:NAME:-default}` (the default: any text up to the closing brace, maybe none), a name
 * starting with a letter or `_`. Any other braces (`{"a":1}`, `{ x }`, `{1}`) are text.
 * Groups: 1 the variable of `{env:...}`, 2 its default, 3 the name of `{name}`.
 */
const PLACEHOLDER = /\{(?:env:([A-Za-z_][\w.]*)(?::-([^{}]*))?|([A-Za-z_][\w.]*))\}/g;

/** An `{env:NAME}` whose variable is not set, `at` a JSON pointer of the configuration. */
function unsetText(whole: string, name: string, at: string | undefined): string {
  return `placeholder ${whole}${at ? ` at ${at}` : ''}: the environment variable ${name} is not set; set it, or give a default: {env:${name}:-default} (empty: {env:${name}:-})`;
}

/** Fills placeholders in every string of a JSON value. */
export function fillDeep(value: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}

/* ---------------------------------------------------------------------------------------------
 * Placeholders, checked when the configuration is loaded: a typo (`{systemURL}`, `{apikey}`)
 * would otherwise launch a module with half its settings, or break every spec that fires a
 * trigger. Every string the run fills is checked, where it is filled and with what is known
 * there; braces that are no placeholder (PLACEHOLDER) are text.
 * ------------------------------------------------------------------------------------------- */

/** A JSON pointer's segment, escaped (`~` and `/`). */
export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** One placeholder problem, placed in the file as `configProblems` orders its problems. */
export interface PlaceholderProblem {
  at: string;
  pointer: string;
  rank: number;
  text: string;
}

/** The run's own placeholders (src/run/session.ts fills them; `fill` itself, `{suiteDir}`); `{env:NAME}` besides. */
const RUN_PLACEHOLDERS = ['systemUrl', 'gatewayUrl', 'apiKey', 'port', 'moduleUrl', 'code', 'clientId', 'caFile', 'suiteDir'] as const;

const KNOWN_PLACEHOLDERS =
  'known placeholders: {systemUrl}, {gatewayUrl}, {apiKey}, {port} (launch mode), {moduleUrl}, {code} and {clientId} (from the registration; not in launch), {caFile} (with tls), {suiteDir}, {env:NAME}, {env:NAME:-default}';

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

/**
 * One problem of one placeholder, or undefined when it is filled there. `env`: an `{env:NAME}`,
 * with `hasDefault` when it gives one; its variable is looked up in the suite's environment now.
 */
function placeholderProblem(whole: string, env: boolean, name: string, pointer: string, place: Place, data: Record<string, unknown>, hasDefault = false): string | undefined {
  const at = pointer || '/';
  if (place.at === 'moduleUrl') {
    if (!env && name === 'port') return undefined;
    const meant = env ? undefined : nearestName(name, ['port']);
    return `unknown placeholder ${whole} at ${at}; ${meant ? `did you mean {${meant}}? ` : ''}only {port} is filled in launch.moduleUrl`;
  }
  if (env) return hasDefault || process.env[name] !== undefined ? undefined : unsetText(whole, name, at);
  const params = place.at === 'trigger' ? TRIGGER_PARAMETERS[place.trigger]! : [];
  if (params.includes(name)) return undefined;
  if ((RUN_PLACEHOLDERS as readonly string[]).includes(name)) {
    if (name === 'caFile' && data.tls !== true && (data.tls === undefined || typeof data.tls === 'boolean')) {
      return `placeholder {caFile} at ${at} needs "tls": true (it is the CA certificate of the HTTPS simulators)`;
    }
    if ((name === 'code' || name === 'clientId') && place.at === 'trigger' && place.trigger === 'registration.connect') {
      return `placeholder {${name}} at ${at} is not known when registration.connect is fired: it asks for the registration {${name}} comes from`;
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
export function placeholderProblems(data: unknown): PlaceholderProblem[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const root = data as Record<string, unknown>;
  const out: PlaceholderProblem[] = [];
  const walk = (node: unknown, segments: string[]): void => {
    if (typeof node === 'string') {
      const place = placeOf(segments);
      if (!place) return;
      const pointer = segments.map((s) => `/${escapePointer(s)}`).join('');
      const found: Array<{ index: number; text: string }> = [];
      for (const m of node.matchAll(PLACEHOLDER)) {
        const text = placeholderProblem(m[0], m[1] !== undefined, (m[1] ?? m[3])!, pointer, place, root, m[2] !== undefined);
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
