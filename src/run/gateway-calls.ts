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
import type { Application } from '../checks/apply.ts';
import type { GatewayCall, GatewayRoute } from '../simulators/gateway.ts';
import type { Api } from '../simulators/gateway-routing.ts';
import {
  API_PREFIX,
  ensureChannelSettingsAreLegal,
  ensureGatewayAcceptedCall,
  ensureGatewayCallAtKnownEndpoint,
  ensureGatewayCallCarriesToken,
  ensureGatewayTokenIsFromRegistration,
  type ChannelBody,
  type SettingsAspect,
} from '../checks/chat/gateway-calls.ts';
import type { Conformance } from './conformance.ts';

const MUST = 'MUST' as const;

/** The requirement ids of each use, per API. */
const IDS = {
  token: { transport: ['TRN-AUTH-TOKEN-HEADER'], bot: ['BOT-AUTH-TOKEN-HEADER'] },
  origin: { transport: ['TRN-AUTH-TOKEN-FROM-REGISTRATION'], bot: ['BOT-AUTH-TOKEN-FROM-REGISTRATION'] },
  base: { transport: ['TRN-API-BASE-PATH', 'WIRE-TRN-ENDPOINTURL-BASE'], bot: ['BOT-API-BASE-PATH', 'WIRE-BOT-ENDPOINTURL-BASE'] },
  // The Bot API's endpoints are the official bot clients' (the document: "not shown"; the profile names two).
  paths: { transport: ['WIRE-TRN-API-PATHS'], bot: [] },
  json: { transport: ['WIRE-TRN-API-JSON'], bot: [] },
  other: { transport: [], bot: [] },
} satisfies Record<string, Record<Api, string[]>>;

const SETTINGS: Array<{ aspect: SettingsAspect; requirements: string[] }> = [
  { aspect: 'new_customer', requirements: ['TRN-POLICY-NEW-CUSTOMER-VALUES'] },
  { aspect: 'after_reply_timeout', requirements: ['TRN-POLICY-AFTER-REPLY-VALUES'] },
  { aspect: 'template.creation', requirements: ['TRN-TEMPLATE-CREATION-BOOLEAN'] },
  { aspect: 'features', requirements: ['WIRE-TRN-CHANNEL-FEATURE-VALUES'] },
  { aspect: 'body', requirements: ['WIRE-TRN-CHANNEL-ACTIVATION-BODY'] },
];

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

/** The checks of an API's calls with their ids and severity (exported for the catalogue's level test). */
export function planned(api: Api): Planned {
  const p: Planned = [
    { check: ensureGatewayCallCarriesToken as Check<never>, app: { requirements: IDS.token[api], severity: MUST } },
    { check: ensureGatewayTokenIsFromRegistration as Check<never>, app: { requirements: IDS.origin[api], severity: MUST } },
    { check: ensureGatewayCallAtKnownEndpoint as Check<never>, app: { requirements: IDS.base[api], severity: MUST } },
  ];
  if (api === 'transport') p.push(...SETTINGS.map((s) => ({ check: ensureChannelSettingsAreLegal as Check<never>, app: { requirements: s.requirements, severity: MUST } })));
  return p;
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
    await conformance.apply(ensureGatewayCallCarriesToken, { api, calls }, { requirements: IDS.token[api], severity: MUST });
    await conformance.apply(ensureGatewayTokenIsFromRegistration, { api, calls }, { requirements: IDS.origin[api], severity: MUST });
    await conformance.apply(ensureGatewayCallAtKnownEndpoint, { api, calls, unknown: mine, aspect: 'base' }, { requirements: IDS.base[api], severity: MUST });
    // The Bot API's endpoints rest on the official clients alone: judged with the profile only.
    const paths = { api, calls, unknown: mine, aspect: 'paths' as const };
    if (api === 'bot' && !profile) conformance.notRun('skipped', 'profile checks are off (the document does not show the Bot API\'s endpoints)', [{ check: ensureGatewayCallAtKnownEndpoint as Check<never>, app: { requirements: [], severity: MUST } }]);
    else await conformance.apply(ensureGatewayCallAtKnownEndpoint, paths, { requirements: IDS.paths[api], severity: MUST });
    const owned = calls.filter((c) => !ELSEWHERE.has(c.route));
    await conformance.apply(ensureGatewayAcceptedCall, { api, calls: owned, aspect: 'json' }, { requirements: IDS.json[api], severity: MUST });
    await conformance.apply(ensureGatewayAcceptedCall, { api, calls: owned, aspect: 'other' }, { requirements: IDS.other[api], severity: MUST });
    if (api !== 'transport') continue;
    const bodies = channelBodies(calls, profile);
    const activated = calls.some((c) => c.route === 'transport.channel.activate');
    const none = activated
      ? `no channel activation or update body the gateway could read as a JSON object (under ${API_PREFIX.transport})`
      : `the transport activated no channel: no POST ${API_PREFIX.transport}/channels reached the gateway (the document asks no activation; nothing to judge)`;
    for (const s of SETTINGS) await conformance.apply(ensureChannelSettingsAreLegal, { aspect: s.aspect, bodies, none }, { requirements: s.requirements, severity: MUST });
  }
}
