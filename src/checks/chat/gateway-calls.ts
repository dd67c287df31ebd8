/**
 * The module's calls to the chat gateway, judged on what the gateway simulator recorded and
 * answered (`GatewayCall`, and the requests to no endpoint it kept): the token header on every
 * call and that it is the token the registration reply gave (document, Authentication), the API
 * base `{endpointUrl}/api/transport/v1` / `/api/bot/v1` and the endpoints of the APIs (document,
 * Chat transport and chat bot; wire profile sections 5 and 6), bodies the gateway can read and
 * calls it accepted, and the channel activation and update bodies (document, Chat transport
 * module: the sending policies and `template.creation`; wire profile 6: the feature values).
 *
 * Each check judges the calls of one API at once (a flood of alike calls makes one result) and
 * credits its ids only when some call exercised them. The boundaries with the other chat checks
 * (one cause, one failing check): every 401 is `ensureGatewayCallCarriesToken`'s or
 * `ensureGatewayTokenIsFromRegistration`'s; every 429 is the rate limit's; a channel body the
 * gateway refused with 400 is `ensureChannelSettingsAreLegal`'s; template calls and the bot's
 * `/my/commands` and `POST /messages` are judged by the template and bot checks (the caller
 * leaves them out of `ensureGatewayAcceptedCall`'s calls and of the requests to no endpoint).
 */
import type { ErrorObject } from 'ajv';
import type { Exchange } from '../../evidence/exchange.ts';
import { GATEWAY_ROUTES, type GatewayCall } from '../../simulators/gateway-endpoints.ts';
import { BOT_PREFIX, TRANSPORT_PREFIX } from '../../simulators/gateway-routing.ts';
import { type Api } from '../../simulators/gateway-records.ts';
import { at } from '../schema-rule.ts';
import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';

const API_NAME: Record<Api, string> = { transport: 'Transport API', bot: 'Bot API' };
const HEADER: Record<Api, string> = { transport: 'X-Transport-Token', bot: 'X-Bot-Token' };
export const API_PREFIX: Record<Api, string> = { transport: TRANSPORT_PREFIX, bot: BOT_PREFIX };
const INFO: Record<Api, string> = { transport: 'info.mgTransport.token', bot: 'info.mgBot.token' };

/** At most this many calls are named in a message, and given as evidence. */
const SHOWN = 10;

const pathOf = (x: Exchange): string => new URL(x.request.url ?? '/', 'http://gateway.invalid').pathname;

/** The gateway's error messages in a refusal (`{errors: [...]}`), as one text. */
export function refusalText(x: Exchange): string | undefined {
  try {
    const body = JSON.parse(x.response?.body ?? '') as { errors?: unknown };
    if (Array.isArray(body.errors)) return body.errors.map(String).join('; ');
  } catch {
    // not JSON: the body as it is
  }
  return x.response?.body || undefined;
}

/** "PUT /api/transport/v1/channels/3 -> 400 "channel ..."" for one exchange. */
function line(x: Exchange): string {
  const status = x.response?.status;
  const why = status !== undefined && status >= 400 ? refusalText(x) : undefined;
  return `${x.request.method ?? '?'} ${pathOf(x)} -> ${status ?? 'no answer'}${why ? ` ${show(why, 160)}` : ''}`;
}

/** The calls named one per line shape, with how many were alike; at most `SHOWN`. */
function listed(xs: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(line(x), (counts.get(line(x)) ?? 0) + 1);
  const shown = [...counts].slice(0, SHOWN).map(([l, n]) => `${l}${n > 1 ? ` (${n} times)` : ''}`);
  return `${shown.join('; ')}${counts.size > SHOWN ? `; and ${counts.size - SHOWN} more` : ''}`;
}

const ids = (xs: readonly Exchange[]): string[] => [...new Set(xs.map((x) => x.id))].slice(0, SHOWN);
const exchanges = (calls: readonly GatewayCall[]): Exchange[] => calls.map((c) => c.exchange);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The calls of one API to its endpoints (every route, any status). */
export interface ApiCalls {
  api: Api;
  calls: readonly GatewayCall[];
}

export const ensureGatewayCallCarriesToken = defineCheck<ApiCalls>({
  name: 'ensureGatewayCallCarriesToken',
  checks: 'every call of the module to the gateway carries its token header (X-Transport-Token, X-Bot-Token)',
  run({ api, calls }) {
    if (calls.length === 0) return notApplicable(`the module made no ${API_NAME[api]} call`);
    const missing = calls.filter((c) => c.token === undefined || c.token === '');
    if (missing.length > 0) {
      return fail(
        `${missing.length} of ${plural(calls.length, `${API_NAME[api]} call`)} without ${HEADER[api]} (the gateway answered 401): ${listed(exchanges(missing))}`,
        `${HEADER[api]} with the token of the registration reply on every ${API_NAME[api]} call`,
        ids(exchanges(missing)),
      );
    }
    return pass(`all ${plural(calls.length, `${API_NAME[api]} call`)} carried ${HEADER[api]}`, ids(exchanges(calls.slice(0, 2))));
  },
});

export const ensureGatewayTokenIsFromRegistration = defineCheck<ApiCalls>({
  name: 'ensureGatewayTokenIsFromRegistration',
  checks: 'the token a call to the gateway carries is the one the registration reply gave',
  run({ api, calls }) {
    const given = calls.filter((c) => c.token !== undefined && c.token !== '');
    if (given.length === 0) return notApplicable(`no ${API_NAME[api]} call carried ${HEADER[api]}`);
    // The gateway knows only the tokens the system handed out in this run: an unknown one is answered 401.
    const unknown = given.filter((c) => c.tokenKind === undefined && c.status === 401);
    if (unknown.length > 0) {
      return fail(
        `${unknown.length} of ${plural(given.length, `${API_NAME[api]} call`)} with a ${HEADER[api]} the system never handed out (the gateway answered 401): ${listed(exchanges(unknown))}`,
        `the token the registration reply gave in ${INFO[api]}`,
        ids(exchanges(unknown)),
      );
    }
    return pass(`all ${plural(given.length, `${API_NAME[api]} call`)} carried the token of ${INFO[api]}`, ids(exchanges(given.slice(0, 2))));
  },
});

/** The calls of one API: those that reached an endpoint, and the requests to no endpoint (404, 405) that are this API's. */
export interface EndpointCalls extends ApiCalls {
  unknown: readonly Exchange[];
  /** `base`: under `{endpointUrl}` + the API's prefix; `paths`: an endpoint of the API (method and path). */
  aspect: 'base' | 'paths';
}

/** True when a request's path is under the API's prefix. */
export const underPrefix = (x: Exchange, api: Api): boolean => pathOf(x).startsWith(`${API_PREFIX[api]}/`);

export const ensureGatewayCallAtKnownEndpoint = defineCheck<EndpointCalls>({
  name: 'ensureGatewayCallAtKnownEndpoint',
  checks: 'the module calls the gateway APIs at {endpointUrl}/api/transport/v1 and /api/bot/v1, only at their endpoints',
  run({ api, calls, unknown, aspect }) {
    if (aspect === 'base') {
      const outside = unknown.filter((x) => !underPrefix(x, api));
      if (outside.length > 0) {
        return fail(
          `${plural(outside.length, 'call')} of the ${API_NAME[api]} outside ${API_PREFIX[api]} (the gateway has no such endpoint): ${listed(outside)}`,
          `the ${API_NAME[api]} at {endpointUrl}${API_PREFIX[api]}/ (endpointUrl from the registration reply)`,
          ids(outside),
        );
      }
      const reached = calls.filter((c) => !c.unprefixed);
      if (reached.length === 0) {
        return notApplicable(`no ${API_NAME[api]} call under ${API_PREFIX[api]}${calls.length > 0 ? ' (only template calls written without the prefix, as the document writes them)' : ''}`);
      }
      return pass(`all ${plural(reached.length, 'call')} under {endpointUrl}${API_PREFIX[api]} reached endpoints of the ${API_NAME[api]}`, ids(exchanges(reached.slice(0, 2))));
    }
    const inside = unknown.filter((x) => underPrefix(x, api));
    if (inside.length > 0) {
      return fail(
        `${plural(inside.length, 'call')} to no endpoint of the ${API_NAME[api]} (the gateway answered 404 for an unknown path, 405 for a method the path does not have): ${listed(inside)}`,
        `the endpoints of the ${API_NAME[api]} (${endpointList(api)})`,
        ids(inside),
      );
    }
    if (calls.length === 0) return notApplicable(`the module made no ${API_NAME[api]} call`);
    return pass(`all ${plural(calls.length, `${API_NAME[api]} call`)} reached endpoints of the API`, ids(exchanges(calls.slice(0, 2))));
  },
});

/** "GET /channels, POST /channels, ..." of an API (the gateway simulator's table). */
function endpointList(api: Api): string {
  return Object.values(GATEWAY_ROUTES)
    .filter((r) => r.api === api)
    .map((r) => `${r.method} ${r.path}`)
    .join(', ');
}

/** The calls of one API whose refusals this check judges, and which refusals. */
export interface RefusalCalls extends ApiCalls {
  /** `json`: bodies the gateway could not read as a JSON object (400); `other`: every other refusal. */
  aspect: 'json' | 'other';
}

const bodyKind = (c: GatewayCall) => GATEWAY_ROUTES[c.route].body;
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A JSON body the gateway could not read as an object. */
export const unreadable = (c: GatewayCall): boolean => bodyKind(c) === 'json' && (c.decodeError !== undefined || !isObject(c.payload));

/** A channel activation or update the gateway refused for its content: `ensureChannelSettingsAreLegal`'s. */
export const channelBodyRefused = (c: GatewayCall): boolean =>
  (c.route === 'transport.channel.activate' || c.route === 'transport.channel.update') && c.status === 400 && isObject(c.payload);

/** A refusal of the module's call judged here: 4xx but the token's 401 and the rate limit's 429. */
const refused = (c: GatewayCall): boolean => c.status >= 400 && c.status < 500 && c.status !== 401 && c.status !== 429;

export const ensureGatewayAcceptedCall = defineCheck<RefusalCalls>({
  name: 'ensureGatewayAcceptedCall',
  checks: 'the gateway accepts the calls of the module (a JSON object body it can read, a call it can carry out)',
  run({ api, calls, aspect }) {
    if (aspect === 'json') {
      const bodies = calls.filter((c) => bodyKind(c) === 'json');
      if (bodies.length === 0) return notApplicable(`no ${API_NAME[api]} call with a JSON body`);
      const bad = bodies.filter(unreadable);
      if (bad.length > 0) {
        return fail(
          `${bad.length} of ${plural(bodies.length, `${API_NAME[api]} call`)} with a body the gateway could not read as a JSON object (answered 400): ${listed(exchanges(bad))}`,
          `a JSON object body (the ${API_NAME[api]} speaks JSON)`,
          ids(exchanges(bad)),
        );
      }
      return pass(`all ${plural(bodies.length, 'JSON body')} were JSON objects`, ids(exchanges(bodies.slice(0, 2))));
    }
    if (calls.length === 0) return notApplicable(`the module made no ${API_NAME[api]} call judged here`);
    const bad = calls.filter((c) => refused(c) && !unreadable(c) && !channelBodyRefused(c));
    if (bad.length > 0) {
      return fail(
        `the gateway refused ${bad.length} of ${plural(calls.length, `${API_NAME[api]} call`)}: ${listed(exchanges(bad))}`,
        'calls the gateway can carry out (a channel the transport activated, a message, chat or file that exists)',
        ids(exchanges(bad)),
      );
    }
    return pass(`the gateway refused none of ${plural(calls.length, `${API_NAME[api]} call`)} (401 and 429 are judged by the token and rate checks)`, ids(exchanges(calls.slice(0, 2))));
  },
});

// ---- channel activation and update bodies ---------------------------------------------------

/** One channel body (`POST /channels`, `PUT /channels/{id}`) with its schema errors in the run's view. */
export interface ChannelBody {
  call: GatewayCall;
  /** The body, JSON null read as absent. */
  payload: Record<string, unknown>;
  /** Errors of `chat/channel.json` (with the run's view of the contract). */
  errors: readonly ErrorObject[];
}

/** What of the channel bodies a use of the check judges (each with its own requirement ids). */
export type SettingsAspect = 'new_customer' | 'after_reply_timeout' | 'template.creation' | 'features' | 'body';

export interface ChannelBodies {
  aspect: SettingsAspect;
  bodies: readonly ChannelBody[];
  /** Why there is nothing to judge, when `bodies` is empty. */
  none?: string;
}

const SCOPES: Record<'new_customer' | 'after_reply_timeout' | 'template.creation', string> = {
  new_customer: '/settings/sending_policy/new_customer',
  after_reply_timeout: '/settings/sending_policy/after_reply_timeout',
  'template.creation': '/settings/template/creation',
};

/**
 * The settings members that are features (wire profile 6: `status.delivered`, `status.read`,
 * `text.creating/editing/quoting/deleting`, `file.*`, `image.*`, `product.*`, `order.*`; audio
 * alike in the official clients). Members of those objects that are not features
 * (`max_chars_count`, `max_items_count`...) are not judged here.
 */
const FEATURE = /^\/settings\/(status\/(delivered|read)|(text|product|order|file|image|audio)\/(creating|editing|quoting|deleting))$/;

/**
 * The feature values: the wire profile's four, and `any`, a constant the official transport
 * client (`retailcrm/mg-transport-api-client-go` `v1/types.go`, ChannelFeatureAny) offers. An
 * empty text is taken as not given: older versions of that client send the members they do not
 * set as "" (no omitempty).
 */
export const FEATURE_VALUES = ['none', 'receive', 'send', 'both', 'any'] as const;

/** The feature members of a body, by pointer. */
function features(payload: Record<string, unknown>): Array<{ pointer: string; value: unknown }> {
  const settings = payload.settings;
  if (!isObject(settings)) return [];
  const out: Array<{ pointer: string; value: unknown }> = [];
  for (const [group, members] of Object.entries(settings)) {
    if (!isObject(members)) continue;
    for (const [name, value] of Object.entries(members)) {
      const pointer = `/settings/${group}/${name}`;
      if (FEATURE.test(pointer) && value !== undefined && value !== null) out.push({ pointer, value });
    }
  }
  return out;
}

/** The members the gateway named in its 400 refusal of a channel body ("channel settings.x must be ..."), as pointers. */
export function refusedMembers(call: GatewayCall): Array<{ pointer: string; message: string }> {
  if (!channelBodyRefused(call)) return [];
  const text = refusalText(call.exchange) ?? '';
  const out: Array<{ pointer: string; message: string }> = [];
  for (const message of text.split('; ')) {
    const m = /^channel (\S+) must be/.exec(message);
    out.push({ pointer: m ? `/${m[1]!.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}` : '', message });
  }
  return out;
}

const owned = (pointer: string): boolean => Object.values(SCOPES).includes(pointer) || FEATURE.test(pointer);

/** What is wrong with one body for an aspect (one text per member), and whether the body has the aspect's member at all. */
function judgeBody(b: ChannelBody, aspect: SettingsAspect): { wrong: string[]; exercised: boolean } {
  if (aspect === 'features') {
    const present = features(b.payload);
    const wrong = present
      .filter((f) => f.value !== '' && !(FEATURE_VALUES as readonly unknown[]).includes(f.value))
      .map((f) => `${f.pointer} = ${show(f.value, 60)}`);
    return { wrong, exercised: present.length > 0 };
  }
  if (aspect === 'body') {
    const schema = b.errors.filter((e) => !owned(e.instancePath)).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.instancePath ? ` (${show(at(b.payload, e.instancePath), 60)})` : ''}`);
    const refusedHere = refusedMembers(b.call).filter((r) => !owned(r.pointer) && !b.errors.some((e) => e.instancePath === r.pointer)).map((r) => `the gateway refused it: ${r.message}`);
    return { wrong: [...schema, ...refusedHere], exercised: true };
  }
  const pointer = SCOPES[aspect];
  const wrong = b.errors
    .filter((e) => e.instancePath === pointer)
    .map((e) => `${pointer} = ${show(at(b.payload, pointer), 60)} (${e.message ?? e.keyword})`);
  return { wrong: [...new Set(wrong)], exercised: at(b.payload, pointer) !== undefined };
}

const EXPECTED: Record<SettingsAspect, string> = {
  new_customer: 'sending_policy.new_customer one of "no", "text", "template"',
  after_reply_timeout: 'sending_policy.after_reply_timeout one of "no", "template"',
  'template.creation': 'settings.template.creation a boolean',
  features: `feature values one of ${FEATURE_VALUES.map((v) => `"${v}"`).join(', ')} (status.delivered/read, text/product/order/file/image/audio creating/editing/quoting/deleting)`,
  body: 'a channel body {type, name, external_id, settings{...}} with members of the types the gateway reads (strings, objects, booleans, integers)',
};

const MEMBER: Record<SettingsAspect, string> = {
  new_customer: 'sending_policy.new_customer',
  after_reply_timeout: 'sending_policy.after_reply_timeout',
  'template.creation': 'settings.template.creation',
  features: 'a feature member',
  body: 'a body',
};

export const ensureChannelSettingsAreLegal = defineCheck<ChannelBodies>({
  name: 'ensureChannelSettingsAreLegal',
  checks: 'the channel activation and update bodies hold legal settings (sending policies, template.creation, feature values) and members of the right types',
  run({ aspect, bodies, none }) {
    if (bodies.length === 0) return notApplicable(none ?? 'the transport sent no channel activation or update');
    const judged = bodies.map((b) => ({ b, ...judgeBody(b, aspect) }));
    const bad = judged.filter((j) => j.wrong.length > 0);
    if (bad.length > 0) {
      const shown = bad.slice(0, SHOWN).map((j) => `${j.b.call.exchange.request.method} ${pathOf(j.b.call.exchange)} (answered ${j.b.call.status}): ${j.wrong.join(', ')}`);
      return fail(`${bad.length} of ${plural(bodies.length, 'channel body')}: ${shown.join('; ')}`, EXPECTED[aspect], ids(bad.map((j) => j.b.call.exchange)));
    }
    const exercised = judged.filter((j) => j.exercised);
    if (exercised.length === 0) return notApplicable(`no channel body gave ${MEMBER[aspect]}`);
    return pass(`${plural(exercised.length, 'channel body')} with ${MEMBER[aspect]}, all legal`, ids(exercised.slice(0, 2).map((j) => j.b.call.exchange)));
  },
});
