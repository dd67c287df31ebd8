/**
 * Judges every call the module made to the gateway simulator, once, when the session ends (the
 * channel activation of a transport comes right after its registration, before any test runs):
 * the token header and its origin on every call, the API base and endpoints (the requests the
 * gateway answered 404 or 405 included), the refusals of the calls this judgement owns, and the
 * channel activation and update bodies. A refused call is a failure with its exchange as
 * evidence. See `checks/chat/gateway-calls.ts` for what each check owns.
 */
import { contract, withoutNulls } from '../contract/schemas.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { Check } from '../checks/check.ts';
import { appOf, type Application, type Row } from '../checks/apply.ts';
import type { GatewayCall, GatewayRoute } from '../simulators/gateway-endpoints.ts';
import type { Api } from '../simulators/gateway-records.ts';
import { API_PREFIX, type ChannelBody } from '../checks/chat/gateway-calls.ts';
import { CHANNEL_SETTINGS, GATEWAY } from '../checks/chat/applications.ts';
import type { Conformance } from './conformance.ts';

/** Routes whose refusals other chat checks judge (templates; the bot's commands and messages). */
const ELSEWHERE: ReadonlySet<GatewayRoute> = new Set<GatewayRoute>([
  'transport.template.create',
  'transport.template.update',
  'transport.template.delete',
  'bot.commands.list',
  'bot.command.set',
  'bot.command.delete',
  'bot.message.send',
]);

/** Requests to no endpoint that other chat checks judge: template paths, the bot's commands, the bot WebSocket. */
const ELSEWHERE_PATHS = [/^(\/api\/transport\/v1)?\/channels\/[^/]+\/templates(\/|$)/, /^(\/api\/bot\/v1)?\/my\/commands(\/|$)/, /^\/api\/bot\/v1\/ws\/?$/];

const pathOf = (x: Exchange): string => new URL(x.request.url ?? '/', 'http://gateway.invalid').pathname;
const header = (x: Exchange, name: string): boolean => Object.keys(x.request.headers).some((k) => k.toLowerCase() === name);

/** The API a request to no endpoint meant: by its path's prefix, else by its token header, else the module's one API (or its transport). */
export function apiOfUnknown(x: Exchange, apis: readonly Api[]): Api | undefined {
  const path = pathOf(x);
  if (path.startsWith('/api/transport/')) return 'transport';
  if (path.startsWith('/api/bot/')) return 'bot';
  if (header(x, 'x-transport-token')) return 'transport';
  if (header(x, 'x-bot-token')) return 'bot';
  return apis.includes('transport') ? 'transport' : apis[0];
}

/** The requests to no endpoint that this judgement owns. */
export function ownUnknown(unknown: readonly Exchange[]): Exchange[] {
  return unknown.filter((x) => !ELSEWHERE_PATHS.some((p) => p.test(pathOf(x))));
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The channel activation and update bodies the gateway could decode as objects, with their schema errors in the run's view. */
export function channelBodies(calls: readonly GatewayCall[], profile: boolean): ChannelBody[] {
  const schemas = contract({ profile });
  return calls
    .filter((c) => (c.route === 'transport.channel.activate' || c.route === 'transport.channel.update') && c.decodeError === undefined && isObject(c.payload))
    .map((c) => {
      const payload = withoutNulls(c.payload) as Record<string, unknown>;
      return { call: c, payload, errors: schemas.validate('chat/channel.json', payload).errors };
    });
}

type Planned = Array<{ check: Check<never>; app: Application }>;
const plan = (rows: ReadonlyArray<Row<never>>): Planned => rows.map((r) => ({ check: r.check, app: appOf(r) }));

/** The rows an API's judgement applies in every run, as checks with their ids and severity (what is recorded when nothing can be judged). */
function planned(api: Api): Planned {
  const r = GATEWAY[api];
  return plan([r.token, r.origin, r.base, ...(api === 'transport' ? CHANNEL_SETTINGS : [])]);
}

/** Judges every gateway call of the session (called once, when it ends). */
export async function judgeGatewayCalls(conformance: Conformance): Promise<void> {
  const { session } = conformance;
  const { gateway } = session;
  const profile = session.config.profile;
  const kinds = session.registration?.kinds ?? [];
  const apis: Api[] = [];
  if (kinds.includes('mgTransport') || gateway.calls.some((c) => c.api === 'transport')) apis.push('transport');
  if (kinds.includes('mgBot') || gateway.calls.some((c) => c.api === 'bot')) apis.push('bot');
  const unknown = ownUnknown(gateway.unknown);
  if (apis.length === 0 && unknown.length === 0) {
    conformance.notRun('notApplicable', 'the module registered no chat transport (mgTransport) and no chat bot (mgBot), and called no gateway endpoint', [...planned('transport'), ...planned('bot')]);
    return;
  }
  if (apis.length === 0) apis.push('transport');
  for (const api of apis) {
    const calls = gateway.calls.filter((c) => c.api === api);
    const mine = unknown.filter((x) => apiOfUnknown(x, apis) === api);
    const rows = GATEWAY[api];
    await conformance.apply(rows.token, { api, calls });
    await conformance.apply(rows.origin, { api, calls });
    await conformance.apply(rows.base, { api, calls, unknown: mine, aspect: 'base' });
    // The Bot API's endpoints rest on the official clients alone: judged with the profile only.
    const paths = { api, calls, unknown: mine, aspect: 'paths' as const };
    if (api === 'bot' && !profile) conformance.notRun('skipped', 'profile checks are off (the document does not show the Bot API\'s endpoints)', plan([rows.paths]));
    else await conformance.apply(rows.paths, paths);
    const owned = calls.filter((c) => !ELSEWHERE.has(c.route));
    await conformance.apply(rows.json, { api, calls: owned, aspect: 'json' });
    await conformance.apply(rows.other, { api, calls: owned, aspect: 'other' });
    if (api !== 'transport') continue;
    const bodies = channelBodies(calls, profile);
    const activated = calls.some((c) => c.route === 'transport.channel.activate');
    const none = activated
      ? `no channel activation or update body the gateway could read as a JSON object (under ${API_PREFIX.transport})`
      : `the transport activated no channel: no POST ${API_PREFIX.transport}/channels reached the gateway (the document asks no activation; nothing to judge)`;
    for (const s of CHANNEL_SETTINGS) await conformance.apply(s, { aspect: s.aspect, bodies, none });
  }
}
