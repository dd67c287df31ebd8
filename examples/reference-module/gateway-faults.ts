/**
 * The fault variants of the module's calls to the chat gateway (issue 25, item 1): calls
 * without their token header, with a token the system never gave, under another API prefix, by a
 * method the API does not have, a channel update that is not JSON, and channel settings outside
 * their value lists. The correct module makes none of the extra calls here; the transport and the
 * bot call these hooks, each fault guarded by its name.
 */
import { request } from 'undici';
import type { FaultSet } from './faults.ts';
import type { GatewayAccess } from './registration.ts';
import { log } from './log.ts';

type Obj = Record<string, unknown>;

async function send(method: string, url: string, headers: Record<string, string>, body?: string, timeoutMs = 5000): Promise<number | undefined> {
  try {
    const res = await request(url, { method: method as 'GET', headers, ...(body === undefined ? {} : { body }), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await res.body.text();
    log(`gateway ${method} ${url} -> ${res.statusCode} (fault)`);
    return res.statusCode;
  } catch (e) {
    log(`gateway ${method} ${url} failed (fault)`, { error: (e as Error).message });
    return undefined;
  }
}

/**
 * Before the transport activates its channel (or the bot registers its command), it reads what
 * the gateway holds (`GET /channels`, `GET /bots?self=true`): under a fault, without its token
 * header, with a token the system never gave, or under version 2 of the API.
 */
export async function faultyRead(api: 'transport' | 'bot', access: GatewayAccess, faults: FaultSet, timeoutMs: number): Promise<void> {
  const header = api === 'transport' ? 'X-Transport-Token' : 'X-Bot-Token';
  const path = api === 'transport' ? '/channels?active=1' : '/bots?self=true';
  const base = `${access.endpointUrl}/api/${api}`;
  if (faults.has('gw-calls-without-token')) await send('GET', `${base}/v1${path}`, { accept: 'application/json' }, undefined, timeoutMs);
  if (faults.has('gw-calls-unknown-token')) {
    // A token of another installation: as long as the real one, never handed out by this system.
    const other = [...access.token].reverse().join('');
    await send('GET', `${base}/v1${path}`, { accept: 'application/json', [header]: other === access.token ? `${other}0` : other }, undefined, timeoutMs);
  }
  if (faults.has('gw-wrong-api-prefix')) await send('GET', `${base}/v2${path}`, { accept: 'application/json', [header]: access.token }, undefined, timeoutMs);
}

/** The channel settings under a fault (changed in place): a sending policy or a feature outside its values. */
export function faultySettings(settings: Obj, faults: FaultSet): void {
  if (faults.has('gw-channel-policy-unknown')) settings.sending_policy = { new_customer: 'always', after_reply_timeout: 'text' };
  if (faults.has('gw-channel-feature-unknown')) settings.text = { ...(settings.text as Obj), deleting: 'yes' };
}

/**
 * After activating its channel, the transport updates it (`PUT /channels/{id}`) under a fault:
 * the body cut short (not JSON), `template.creation` as the text "true", `external_id` as a
 * number, or the update sent with PATCH (a method the Transport API does not have there).
 */
export async function faultyChannelUpdate(access: GatewayAccess, faults: FaultSet, channelId: number, channel: Obj, timeoutMs: number): Promise<void> {
  const url = `${access.endpointUrl}/api/transport/v1/channels/${channelId}`;
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'X-Transport-Token': access.token };
  const settings = channel.settings as Obj;
  if (faults.has('gw-channel-settings-bad-json')) await send('PUT', url, headers, JSON.stringify(channel).slice(0, -2), timeoutMs);
  if (faults.has('gw-channel-creation-string')) await send('PUT', url, headers, JSON.stringify({ ...channel, settings: { ...settings, template: { creation: 'true' } } }), timeoutMs);
  if (faults.has('gw-channel-external-id-number')) await send('PUT', url, headers, JSON.stringify({ ...channel, external_id: channelId }), timeoutMs);
  if (faults.has('gw-channel-update-patch')) await send('PATCH', url, headers, JSON.stringify(channel), timeoutMs);
}
