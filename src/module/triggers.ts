/**
 * Triggers: flows that the module starts itself (tracking push, calls upload, call events,
 * payment notices, template verdicts, inbound chat messages) are set off by named HTTP requests
 * the vendor declares in the configuration. A flow whose trigger is not declared is skipped
 * ("needs trigger X"), never passed.
 */
import type { TriggerSpec } from './config.ts';
import { fill, fillDeep } from './placeholders.ts';
import type { CallbackClient, Reply } from '../client/callback-client.ts';

/** The trigger names the suite knows, with their parameters (README lists them). */
export const TRIGGERS = {
  'delivery.tracking': 'the module pushes delivery statuses (tracking); params: count (orders, may exceed 100), deliveryIds (the deliveries the run saved through the module, when it declares save; count is then their number)',
  'telephony.callsUpload': 'the module uploads call history; params: count (calls, may exceed 50), externalIds (with the profile: ids the suite gives the calls the PBX handled; the module uploads each under its id, as the call\'s externalId; count is then their number)',
  'telephony.callEvent': 'the module reports a call event; params: phone (the customer), type (in, out, hangup), codes (extension codes from the module\'s additionalCodes), externalPhone (one of its externalPhones, when it configured any)',
  'telephony.managerLookup': 'the module asks for the responsible manager; params: phone',
  'payment.notify': 'the payment system notifies the module; params: paymentId, event (held: funds held; paid: paid without a hold; failed: the payment failed)',
  'transport.templateVerdict': 'the provider decides on a template; params: channelId, code, verdict (approved, rejected), reason',
  'transport.inboundMessage': 'a customer writes to the channel; params: channelId, text, count (how many messages, default 1: each its own message with its own external id, sent as fast as the rate limit allows; the answer may list their external_ids). Fired once per channel with count 1 before the webhooks (their chats are those customers opened), and with a large count for the rate test',
  'transport.templateReport': 'the provider created a template of its own and the module reports it (POST /channels/{channel_id}/templates with code, name, type, body, verification_status, header, examples, footer, buttons); params: channelId, code (the code to report it by), template (JSON text of the template: name, lang, category, type, body, verification_status, header or attachments, examples, footer, buttons)',
  'registration.repeat': 'the module registers again; no params',
  'registration.connect': 'remote mode: the module connects an account with the run\'s system (as a user does on its settings page) and registers with it; fired by the session once its simulators listen, when no registration is given; params: systemUrl (the system\'s public URL), apiKey (the run\'s key)',
} as const;

export type TriggerName = keyof typeof TRIGGERS;

export class NeedsTrigger extends Error {
  constructor(readonly trigger: string) {
    super(`needs trigger ${trigger}`);
  }
}

export class Triggers {
  constructor(
    private readonly specs: Record<string, TriggerSpec>,
    private readonly client: CallbackClient,
    private readonly vars: () => Record<string, string>,
  ) {}

  /** Every trigger fired in the run, in order, with the time it was sent. */
  readonly fired: Array<{ name: TriggerName; at: number }> = [];

  declared(name: string): boolean {
    return name in this.specs;
  }

  /**
   * Whether the declared trigger passes the parameter on to the module: a POST without a body of
   * its own sends every parameter as JSON; otherwise its url, headers or body must hold `{param}`.
   */
  takes(name: TriggerName, param: string): boolean {
    const spec = this.specs[name];
    if (!spec) return false;
    if ((spec.method ?? 'POST') !== 'GET' && spec.body === undefined) return true;
    return JSON.stringify([spec.url, spec.headers ?? {}, spec.body ?? null]).includes(`{${param}}`);
  }

  /** Fires a trigger; throws NeedsTrigger when it is not declared. */
  async fire(name: TriggerName, params: Record<string, string | number | string[]> = {}): Promise<Reply> {
    const spec = this.specs[name];
    if (!spec) throw new NeedsTrigger(name);
    const vars: Record<string, string> = { ...this.vars() };
    for (const [k, v] of Object.entries(params)) vars[k] = Array.isArray(v) ? v.join(',') : String(v);
    const url = fill(spec.url, vars);
    const headers = Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k, fill(v, vars)]));
    const method = spec.method ?? 'POST';
    const label = `trigger ${name}`;
    const timeout = spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs };
    this.fired.push({ name, at: Date.now() });
    if (method === 'GET') return this.client.get(url, {}, { label, headers, direction: 'system->module', ...timeout });
    let body: string;
    if (spec.body === undefined) body = JSON.stringify(params);
    else if (typeof spec.body === 'string') body = fill(spec.body, vars);
    else body = JSON.stringify(coerceNumbers(fillDeep(spec.body, vars), params));
    return this.client.send(method, url, body, { 'content-type': 'application/json', ...headers }, { label, direction: 'system->module', ...timeout });
  }
}

/** A body value that was exactly one numeric placeholder goes back to a number. */
function coerceNumbers(value: unknown, params: Record<string, unknown>): unknown {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && Object.values(params).includes(Number(value))) return Number(value);
  if (Array.isArray(value)) return value.map((v) => coerceNumbers(v, params));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerceNumbers(v, params)]));
  return value;
}

/**
 * Why a trigger's answer says the flow did not start (no answer, an error status, or
 * `{success: false}`), or undefined when it started.
 */
export function triggerFailure(reply: Reply): string | undefined {
  if (reply.status === undefined) return `no answer (${reply.error ?? 'no response'})`;
  const body = reply.json as { success?: unknown; errorMsg?: unknown } | undefined;
  if (reply.status >= 400) return `HTTP ${reply.status}${typeof body?.errorMsg === 'string' ? `: ${body.errorMsg}` : ''}`;
  if (body && typeof body === 'object' && body.success === false) return `HTTP ${reply.status} {"success": false${typeof body.errorMsg === 'string' ? `, "errorMsg": ${JSON.stringify(body.errorMsg)}` : ''}}`;
  return undefined;
}
