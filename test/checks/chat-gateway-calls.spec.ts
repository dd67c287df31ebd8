/**
 * The judgement of the module's gateway calls on canned `GatewayCall`s: the token header and its
 * origin, the API base and endpoints (requests to no endpoint included), refusals, and the
 * channel bodies; one cause fails one check, and an id is credited only when a call exercised it.
 * The whole session-end judgement (`judgeGatewayCalls`) on a canned session at the end.
 */
import { test, expect } from '@playwright/test';
import { EvidenceLog, type Exchange } from '../../src/evidence/exchange.ts';
import { Conformance, type RecordSink } from '../../src/run/conformance.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GatewayCall, GatewayRoute } from '../../src/simulators/gateway-endpoints.ts';
import { GATEWAY_ROUTES } from '../../src/simulators/gateway-endpoints.ts';
import {
  ensureChannelSettingsAreLegal,
  ensureGatewayAcceptedCall,
  ensureGatewayCallAtKnownEndpoint,
  ensureGatewayCallCarriesToken,
  ensureGatewayTokenIsFromRegistration,
  type SettingsAspect,
} from '../../src/checks/chat/gateway-calls.ts';
import { apiOfUnknown, channelBodies, judgeGatewayCalls, ownUnknown } from '../../src/run/gateway-calls.ts';
import { ensureTransportGivesWebhookUrl } from '../../src/checks/registration/transport-webhook-url.ts';
import { registrationSubject } from '../../src/checks/registration/judge.ts';

const BASE = 'http://127.0.0.1:9';
let seq = 0;

function exchange(method: string, path: string, status: number, headers: Record<string, string> = {}, reply?: unknown): Exchange {
  return {
    id: `x${++seq}`,
    direction: 'module->gateway',
    label: 'gateway',
    startedAt: '',
    durationMs: 1,
    request: { method, url: `${BASE}${path}`, headers, bytes: 10 },
    response: { status, headers: {}, bytes: 10, ...(reply !== undefined ? { body: JSON.stringify(reply) } : {}) },
  };
}

interface Canned {
  token?: string | null;
  known?: boolean;
  status?: number;
  payload?: unknown;
  decodeError?: string;
  path?: string;
  errors?: string[];
  unprefixed?: boolean;
}

/** A call as the gateway simulator records it: by default with a known token, accepted. */
function call(route: GatewayRoute, o: Canned = {}): GatewayCall {
  const def = GATEWAY_ROUTES[route];
  const status = o.status ?? (o.token === null ? 401 : o.known === false ? 401 : 200);
  const prefix = def.api === 'transport' ? '/api/transport/v1' : '/api/bot/v1';
  const path = o.path ?? `${o.unprefixed ? '' : prefix}${def.path.replace(/\{[^}]+\}/g, '7')}`;
  const header = def.api === 'transport' ? 'x-transport-token' : 'x-bot-token';
  const token = o.token === null ? undefined : (o.token ?? 'tok');
  const c: GatewayCall = {
    route,
    api: def.api,
    exchange: exchange(def.method, path, status, token ? { [header]: token } : {}, o.errors ? { errors: o.errors } : status >= 400 ? { errors: ['refused'] } : {}),
    params: {},
    unprefixed: o.unprefixed ?? false,
    schemaErrors: [],
    accepted: status < 300,
    status,
  };
  if (token !== undefined) c.token = token;
  if (token !== undefined && o.known !== false) c.tokenKind = def.api;
  if (o.payload !== undefined) c.payload = o.payload;
  if (o.decodeError !== undefined) c.decodeError = o.decodeError;
  return c;
}

const run = async <S>(check: { run(s: S): unknown }, s: S) => (await check.run(s)) as { outcome: string; received?: string; detail?: string; evidence?: string[] };

const ACTIVATION = { type: 'custom', name: 'N', external_id: 'e', settings: { status: { delivered: 'both', read: 'both' }, text: { creating: 'both', deleting: 'receive' }, sending_policy: { new_customer: 'template', after_reply_timeout: 'template' }, template: { creation: true } } };

test.describe('the token header', () => {
  test('a call without X-Transport-Token fails the header check; its origin is not judged', async () => {
    const calls = [call('transport.channel.activate', { payload: ACTIVATION, status: 201 }), call('transport.channels.list', { token: null })];
    const header = await run(ensureGatewayCallCarriesToken, { api: 'transport', calls });
    expect(header.outcome).toBe('fail');
    expect(header.received).toMatch(/1 of 2 Transport API calls without X-Transport-Token .*GET \/api\/transport\/v1\/channels -> 401/);
    expect(header.evidence).toEqual([calls[1]!.exchange.id]);
    expect((await run(ensureGatewayTokenIsFromRegistration, { api: 'transport', calls })).outcome).toBe('pass');
    expect((await run(ensureGatewayTokenIsFromRegistration, { api: 'transport', calls: [calls[1]!] })).outcome).toBe('notApplicable');
  });

  test('a token the system never gave fails its origin, not the header', async () => {
    const calls = [call('bot.command.set', { payload: { name: 'a', description: 'b' } }), call('bot.bots.list', { token: 'other', known: false })];
    expect((await run(ensureGatewayCallCarriesToken, { api: 'bot', calls })).outcome).toBe('pass');
    const origin = await run(ensureGatewayTokenIsFromRegistration, { api: 'bot', calls });
    expect(origin.outcome).toBe('fail');
    expect(origin.received).toMatch(/X-Bot-Token the system never handed out/);
  });

  test('no call of an API: not applicable', async () => {
    expect((await run(ensureGatewayCallCarriesToken, { api: 'bot', calls: [] })).outcome).toBe('notApplicable');
  });
});

test.describe('the API base and endpoints', () => {
  test('a call under another version of the API fails the base, not the endpoint list', async () => {
    const calls = [call('transport.channel.activate', { payload: ACTIVATION, status: 201 })];
    const unknown = [exchange('GET', '/api/transport/v2/channels', 404, { 'x-transport-token': 'tok' })];
    const base = await run(ensureGatewayCallAtKnownEndpoint, { api: 'transport', calls, unknown, aspect: 'base' });
    expect(base.outcome).toBe('fail');
    expect(base.received).toMatch(/outside \/api\/transport\/v1/);
    expect((await run(ensureGatewayCallAtKnownEndpoint, { api: 'transport', calls, unknown, aspect: 'paths' })).outcome).toBe('pass');
  });

  test('a method the path does not have fails the endpoint list, not the base', async () => {
    const calls = [call('transport.channel.activate', { payload: ACTIVATION, status: 201 })];
    const unknown = [exchange('PATCH', '/api/transport/v1/channels/7', 405, { 'x-transport-token': 'tok' }, { errors: ['method PATCH not allowed'] })];
    expect((await run(ensureGatewayCallAtKnownEndpoint, { api: 'transport', calls, unknown, aspect: 'base' })).outcome).toBe('pass');
    const paths = await run(ensureGatewayCallAtKnownEndpoint, { api: 'transport', calls, unknown, aspect: 'paths' });
    expect(paths.outcome).toBe('fail');
    expect(paths.received).toMatch(/PATCH \/api\/transport\/v1\/channels\/7 -> 405 "method PATCH not allowed"/);
  });

  test('template calls written without the prefix (the document\'s form) do not exercise the base', async () => {
    const calls = [call('transport.template.update', { unprefixed: true, payload: {} })];
    const base = await run(ensureGatewayCallAtKnownEndpoint, { api: 'transport', calls, unknown: [], aspect: 'base' });
    expect(base.outcome).toBe('notApplicable');
    expect(base.detail).toMatch(/without the prefix/);
  });

  test('requests to no endpoint: template paths and the bot\'s commands are left to their checks; the API by prefix, header, module', () => {
    const unknown = [
      exchange('PATCH', '/channels/7/templates/abc', 405),
      exchange('POST', '/api/transport/v1/channels/7/templates/abc', 405),
      exchange('POST', '/api/bot/v1/my/commands/help', 405),
      exchange('GET', '/api/bot/v2/bots', 404),
      exchange('GET', '/channels', 404, { 'x-transport-token': 't' }),
      exchange('GET', '/bots', 404, { 'x-bot-token': 't' }),
      exchange('GET', '/', 404),
    ];
    const own = ownUnknown(unknown);
    expect(own.map((x) => new URL(x.request.url!).pathname)).toEqual(['/api/bot/v2/bots', '/channels', '/bots', '/']);
    expect(own.map((x) => apiOfUnknown(x, ['bot']))).toEqual(['bot', 'transport', 'bot', 'bot']);
    expect(apiOfUnknown(own[3]!, ['transport', 'bot'])).toBe('transport');
  });
});

test.describe('refusals', () => {
  test('a body that is not JSON fails the JSON aspect only', async () => {
    const calls = [call('transport.channel.activate', { payload: ACTIVATION, status: 201 }), call('transport.channel.update', { decodeError: 'request body is not JSON', status: 400 })];
    const json = await run(ensureGatewayAcceptedCall, { api: 'transport', calls, aspect: 'json' });
    expect(json.outcome).toBe('fail');
    expect(json.evidence).toEqual([calls[1]!.exchange.id]);
    expect((await run(ensureGatewayAcceptedCall, { api: 'transport', calls, aspect: 'other' })).outcome).toBe('pass');
  });

  test('a message to a channel the transport does not have fails; 401, 429 and a refused channel body are judged elsewhere', async () => {
    const calls = [
      call('transport.message.send', { payload: { channel: 99 }, status: 404, errors: ['channel 99 not found'] }),
      call('transport.channels.list', { token: null }),
      call('transport.messages.ack', { payload: { channel: 1 }, status: 429 }),
      call('transport.channel.update', { payload: { name: 5 }, status: 400, errors: ['channel name must be a string, not a number'] }),
    ];
    const other = await run(ensureGatewayAcceptedCall, { api: 'transport', calls, aspect: 'other' });
    expect(other.outcome).toBe('fail');
    expect(other.received).toMatch(/refused 1 of 4 .*POST \/api\/transport\/v1\/messages -> 404 "channel 99 not found"/);
    expect((await run(ensureGatewayAcceptedCall, { api: 'transport', calls: calls.slice(1), aspect: 'other' })).outcome).toBe('pass');
  });
});

test.describe('channel bodies', () => {
  const judge = (aspect: SettingsAspect, calls: GatewayCall[]) => run(ensureChannelSettingsAreLegal, { aspect, bodies: channelBodies(calls, true) });

  test('the reference channel is legal in every aspect', async () => {
    const calls = [call('transport.channel.activate', { payload: ACTIVATION, status: 201 })];
    for (const aspect of ['new_customer', 'after_reply_timeout', 'template.creation', 'features', 'body'] as const) expect((await judge(aspect, calls)).outcome, aspect).toBe('pass');
  });

  test('a sending policy outside its values fails its own aspect; an absent one is not applicable', async () => {
    const calls = [call('transport.channel.activate', { payload: { ...ACTIVATION, settings: { sending_policy: { new_customer: 'always' } } }, status: 201 })];
    const nc = await judge('new_customer', calls);
    expect(nc.outcome).toBe('fail');
    expect(nc.received).toMatch(/new_customer = "always"/);
    expect((await judge('after_reply_timeout', calls)).outcome).toBe('notApplicable');
    expect((await judge('body', calls)).outcome).toBe('pass');
  });

  test('template.creation as a text, refused 400 by the gateway, fails template.creation only', async () => {
    const calls = [
      call('transport.channel.update', {
        payload: { ...ACTIVATION, settings: { template: { creation: 'true' } } },
        status: 400,
        errors: ['channel settings.template.creation must be a boolean, not a string'],
      }),
    ];
    expect((await judge('template.creation', calls)).outcome).toBe('fail');
    expect((await judge('body', calls)).outcome).toBe('pass');
    expect((await run(ensureGatewayAcceptedCall, { api: 'transport', calls, aspect: 'other' })).outcome).toBe('pass');
  });

  test('feature values: none, receive, send, both, any and "" (not given) hold; others fail the feature aspect only', async () => {
    const ok = call('transport.channel.activate', { payload: { settings: { status: { delivered: '', read: 'any' }, text: { creating: 'send', max_chars_count: 10 } } }, status: 201 });
    expect((await judge('features', [ok])).outcome).toBe('pass');
    const bad = call('transport.channel.activate', { payload: { settings: { text: { deleting: 'yes' }, file: { creating: 5 } } }, status: 400, errors: ['channel settings.file.creating must be a string, not a number'] });
    const features = await judge('features', [bad]);
    expect(features.outcome).toBe('fail');
    expect(features.received).toMatch(/\/settings\/text\/deleting = "yes", \/settings\/file\/creating = 5/);
    expect((await judge('body', [bad])).outcome).toBe('pass');
    expect((await judge('features', [call('transport.channel.activate', { payload: { name: 'x' }, status: 201 })])).outcome).toBe('notApplicable');
  });

  test('members of the wrong type the schema does not cover fail the body aspect with the gateway\'s refusal', async () => {
    const calls = [call('transport.channel.update', { payload: { settings: { text: { max_chars_count: 'many' } } }, status: 400, errors: ['channel settings.text.max_chars_count must be an integer from 0 to 65535, not a string'] })];
    const body = await judge('body', calls);
    expect(body.outcome).toBe('fail');
    expect(body.received).toMatch(/the gateway refused it: channel settings\.text\.max_chars_count/);
    const extId = [call('transport.channel.update', { payload: { external_id: 7 }, status: 400, errors: ['channel external_id must be a string, not a number'] })];
    expect((await judge('body', extId)).received).toMatch(/\/external_id must be string/);
  });

  test('no channel body: not applicable with the reason given', async () => {
    const out = await run(ensureChannelSettingsAreLegal, { aspect: 'body', bodies: [], none: 'the transport activated no channel' });
    expect(out).toEqual({ outcome: 'notApplicable', detail: 'the transport activated no channel' });
  });
});

test.describe('the webhookUrl of a transport', () => {
  const module = (mgTransport: unknown) => ({ code: 'c', integrationCode: 'c', active: true, name: 'n', clientId: 'x', baseUrl: 'https://m.example', integrations: { mgTransport } });
  test('a transport without webhookUrl fails; with one it holds; a module without transport is not applicable', async () => {
    expect((await run(ensureTransportGivesWebhookUrl, registrationSubject(module({}), { profile: true }))).outcome).toBe('fail');
    expect((await run(ensureTransportGivesWebhookUrl, registrationSubject(module({ webhookUrl: null }), { profile: true }))).outcome).toBe('fail');
    expect((await run(ensureTransportGivesWebhookUrl, registrationSubject(module({ webhookUrl: 'https://m.example/webhook' }), { profile: true }))).outcome).toBe('pass');
    const telephony = { ...module({}), integrations: { telephony: { makeCallUrl: 'https://m.example/call' } } };
    expect((await run(ensureTransportGivesWebhookUrl, registrationSubject(telephony, { profile: true }))).outcome).toBe('notApplicable');
  });
});

test.describe('the judgement at the session end', () => {
  function conformance(calls: GatewayCall[], unknown: Exchange[], kinds: string[], profile = true): Conformance {
    const session = {
      log: new EvidenceLog(),
      judged: new Set<string>(),
      registration: { code: 'c', kinds },
      config: { profile },
      system: { calls: [], unsimulated: [] },
      gateway: { calls, unknown },
    } as unknown as RunSession;
    const sink: RecordSink = { spec: 'test', annotate: () => undefined, write: async () => undefined };
    return new Conformance(session, sink);
  }

  test('a transport and a bot that do everything right pass; nothing fails', async () => {
    const c = conformance([call('transport.channel.activate', { payload: ACTIVATION, status: 201 }), call('bot.command.set', { payload: { name: 'a', description: 'b' } })], [], ['mgTransport', 'mgBot']);
    await judgeGatewayCalls(c);
    expect(c.results.filter((r) => r.status === 'failed')).toEqual([]);
    const passed = new Set(c.results.filter((r) => r.status === 'passed').flatMap((r) => r.requirements));
    for (const id of ['TRN-AUTH-TOKEN-HEADER', 'BOT-AUTH-TOKEN-HEADER', 'TRN-API-BASE-PATH', 'BOT-API-BASE-PATH', 'TRN-POLICY-NEW-CUSTOMER-VALUES', 'TRN-TEMPLATE-CREATION-BOOLEAN', 'WIRE-TRN-CHANNEL-FEATURE-VALUES']) expect(passed.has(id), id).toBe(true);
  });

  test('a transport that never activated a channel: its channel checks say so', async () => {
    const c = conformance([call('transport.channels.list')], [], ['mgTransport']);
    await judgeGatewayCalls(c);
    const settings = c.results.filter((r) => r.check === 'ensureChannelSettingsAreLegal');
    expect(settings).toHaveLength(5);
    for (const r of settings) {
      expect(r.status).toBe('notApplicable');
      expect(r.message).toMatch(/activated no channel/);
    }
  });

  test('a module with no transport and no bot: every gateway check is not applicable', async () => {
    const c = conformance([], [], ['delivery']);
    await judgeGatewayCalls(c);
    expect(c.results.length).toBeGreaterThan(0);
    expect(c.results.every((r) => r.status === 'notApplicable')).toBe(true);
  });

  test('a request to no endpoint fails with its exchange as evidence', async () => {
    const wrong = exchange('GET', '/api/transport/v2/channels', 404, { 'x-transport-token': 'tok' }, { errors: ['no endpoint /api/transport/v2/channels'] });
    const c = conformance([call('transport.channel.activate', { payload: ACTIVATION, status: 201 })], [wrong], ['mgTransport']);
    await judgeGatewayCalls(c);
    const failed = c.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => [r.check, r.requirements])).toEqual([['ensureGatewayCallAtKnownEndpoint', ['TRN-API-BASE-PATH', 'WIRE-TRN-ENDPOINTURL-BASE']]]);
    expect(failed[0]!.evidence).toEqual([wrong.id]);
  });
});
