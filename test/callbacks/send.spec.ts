/**
 * Where a callback's address comes from (each kind of source, for every row of the table), and
 * the request the one sender makes of each wire form, seen by a client that records it.
 */
import { test, expect } from '@playwright/test';
import { callbackUrl, NoCallbackAddress, send, type SendContext } from '../../src/callbacks/send.ts';
import { CALLBACK_NAMES, CALLBACKS, type CallbackSpec } from '../../src/callbacks/table.ts';
import type { CallbackClient, Reply } from '../../src/client/callback-client.ts';

/** A registration holding `value` at `path`, beside `base`. */
function registration(path: readonly string[], value: unknown, base: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(base);
  let at = out;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path.at(-1)!] = value;
  return out;
}

const rows = CALLBACK_NAMES.map((n) => CALLBACKS[n]);
const bySource = (from: CallbackSpec['url']['from']): CallbackSpec[] => rows.filter((s) => s.url.from === from);

test.describe('callbackUrl', () => {
  test('an action path is joined to baseUrl, whatever slashes either has', () => {
    const cases: Array<[string, string, string]> = [
      ['https://module.example/base', '/delivery/save', 'https://module.example/base/delivery/save'],
      ['https://module.example/base/', '/delivery/save', 'https://module.example/base/delivery/save'],
      ['https://module.example/base/', 'delivery/save', 'https://module.example/base/delivery/save'],
      ['https://module.example/base', 'delivery/save', 'https://module.example/base/delivery/save'],
      ['https://module.example//', 'delivery/save', 'https://module.example/delivery/save'],
      ['http://127.0.0.1:8080', '/cb?x=1', 'http://127.0.0.1:8080/cb?x=1'],
    ];
    expect(bySource('action').length).toBe(14);
    for (const spec of bySource('action')) {
      if (spec.url.from !== 'action') continue;
      for (const [baseUrl, p, url] of cases) expect(callbackUrl(spec, registration(spec.url.path, p, { baseUrl })), `${spec.name}: ${baseUrl} + ${p}`).toEqual({ url });
    }
  });

  test('an action without its path, or without baseUrl, or that makes no URL, has no address', () => {
    const spec = CALLBACKS['payment.refund'];
    const path = ['integrations', 'payment', 'actions', 'refund'];
    expect(callbackUrl(spec, undefined)).toEqual({ missing: 'the registration gives no integrations.payment.actions.refund path' });
    expect(callbackUrl(spec, { baseUrl: 'https://m.example' })).toEqual({ missing: 'the registration gives no integrations.payment.actions.refund path' });
    expect(callbackUrl(spec, registration(path, '', { baseUrl: 'https://m.example' }))).toEqual({ missing: 'the registration gives no integrations.payment.actions.refund path' });
    expect(callbackUrl(spec, registration(path, 7, { baseUrl: 'https://m.example' }))).toEqual({ missing: 'the registration gives no integrations.payment.actions.refund path' });
    expect(callbackUrl(spec, registration(path, '/refund'))).toEqual({ missing: 'the registration gives no baseUrl' });
    expect(callbackUrl(spec, registration(path, '/refund', { baseUrl: 'module.example' }))).toEqual({ missing: '"module.example/refund" is not a URL' });
    // Activity's path is top-level.
    expect(callbackUrl(CALLBACKS.activity, { baseUrl: 'https://m.example/', actions: { activity: 'activity' } })).toEqual({ url: 'https://m.example/activity' });
  });

  test('a URL field of the registration is the address, as given', () => {
    expect(bySource('field').length).toBe(11);
    for (const spec of bySource('field')) {
      if (spec.url.from !== 'field') continue;
      const field = spec.url.path;
      // baseUrl plays no part.
      const reg = (v: unknown): Record<string, unknown> => registration(field, v, { baseUrl: 'https://elsewhere.example/' });
      expect(callbackUrl(spec, reg('https://module.example/hooks/a?b=c')), spec.name).toEqual({ url: 'https://module.example/hooks/a?b=c' });
      expect(callbackUrl(spec, reg('https://module.example')), spec.name).toEqual({ url: 'https://module.example/' });
      expect(callbackUrl(spec, reg('')), spec.name).toEqual({ missing: `the registration gives no ${field.join('.')}` });
      expect(callbackUrl(spec, reg(null)), spec.name).toEqual({ missing: `the registration gives no ${field.join('.')}` });
      expect(callbackUrl(spec, { baseUrl: 'https://elsewhere.example/' }), spec.name).toEqual({ missing: `the registration gives no ${field.join('.')}` });
      expect(callbackUrl(spec, reg('/relative/path')), spec.name).toEqual({ missing: '"/relative/path" is not a URL' });
    }
  });

  test('a given address is the one given with the request', () => {
    expect(bySource('given').map((s) => s.name).sort()).toEqual(['delivery.autocomplete', 'telephony.record']);
    for (const spec of bySource('given')) {
      if (spec.url.from !== 'given') continue;
      const module = { baseUrl: 'https://elsewhere.example/' };
      expect(callbackUrl(spec, module, 'https://module.example/records/1.mp3?sig=x'), spec.name).toEqual({ url: 'https://module.example/records/1.mp3?sig=x' });
      expect(callbackUrl(spec, module), spec.name).toEqual({ missing: `the ${spec.url.what} to call` });
      expect(callbackUrl(spec, undefined, 'not a url'), spec.name).toEqual({ missing: '"not a url" is not a URL' });
    }
  });
});

test.describe('send', () => {
  interface Sent {
    method: string;
    url: string;
    body: string | undefined;
    headers: Record<string, string>;
    options: { label: string; direction?: string; probe?: boolean; case?: string };
  }

  /** A sender context whose client records the request instead of making it. */
  function context(module: Record<string, unknown> | undefined): { ctx: SendContext; sent: Sent[] } {
    const sent: Sent[] = [];
    const client = {
      send: (method: string, url: string, body: string | undefined, headers: Record<string, string>, options: Sent['options']) => {
        sent.push({ method, url, body, headers, options });
        return Promise.resolve({} as Reply);
      },
    } as unknown as CallbackClient;
    return { ctx: { client, module: () => module }, sent };
  }

  const module = {
    baseUrl: 'https://module.example/',
    actions: { activity: 'activity' },
    integrations: {
      delivery: { actions: { get: 'delivery/get', print: '/delivery/print' } },
      telephony: { makeCallUrl: 'https://module.example/call?v=2' },
      mgTransport: { webhookUrl: 'https://module.example/webhook' },
    },
  };

  test('an action form: POST, clientId, plain fields, the action field holding JSON', async () => {
    const { ctx, sent } = context(module);
    await send(ctx, 'activity', { active: true, freeze: false }, { clientId: 'c-1', extra: { systemUrl: 'https://system.example' } });
    await send(ctx, 'delivery.print', { deliveryIds: [['1', '2']] }, { clientId: undefined, label: 'print (missing clientId)', probe: true, case: 'p-1' });
    expect(sent[0]).toEqual({
      method: 'POST',
      url: 'https://module.example/activity',
      body: 'clientId=c-1&systemUrl=https%3A%2F%2Fsystem.example&activity=%7B%22active%22%3Atrue%2C%22freeze%22%3Afalse%7D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      options: { label: 'activity', direction: 'system->module' },
    });
    expect(sent[1]).toEqual({
      method: 'POST',
      url: 'https://module.example/delivery/print',
      body: 'print=%7B%22deliveryIds%22%3A%5B%5B%221%22%2C%222%22%5D%5D%7D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      options: { label: 'print (missing clientId)', direction: 'system->module', probe: true, case: 'p-1' },
    });
  });

  test('a query: GET, clientId and the parameters added to the address', async () => {
    const { ctx, sent } = context(module);
    await send(ctx, 'delivery.get', { deliveryId: 'D 1' }, { clientId: 'c-1' });
    await send(ctx, 'telephony.makeCall', { code: '101', phone: '+1 555 0100', userId: 7, externalPhone: undefined }, { clientId: 'c-1' });
    await send(ctx, 'telephony.record', {}, { clientId: 'c-1', url: 'https://records.example/r/9.mp3' });
    expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: 'https://module.example/delivery/get?clientId=c-1&deliveryId=D+1', body: undefined },
      { method: 'GET', url: 'https://module.example/call?v=2&clientId=c-1&code=101&phone=%2B1+555+0100&userId=7', body: undefined },
      { method: 'GET', url: 'https://records.example/r/9.mp3?clientId=c-1', body: undefined },
    ]);
  });

  test('a webhook: POST of the envelope of its type, with the ClientId header, from the gateway', async () => {
    const { ctx, sent } = context(module);
    const before = Math.floor(Date.now() / 1000);
    await send(ctx, 'transport.message_sent', { channel_id: 3, type: 'text', content: 'hi' }, { clientId: 'c-1' });
    await send(ctx, 'transport.template_delete', { raw: '{"type":' }, { clientId: 'c-1', label: 'template_delete (broken body)' });
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://module.example/webhook', headers: { 'content-type': 'application/json', clientid: 'c-1' } });
    expect(sent[0]!.options).toEqual({ label: 'transport.message_sent', direction: 'gateway->module' });
    const body = JSON.parse(sent[0]!.body!) as { type: string; meta: { timestamp: number }; data: unknown };
    expect(body.type).toBe('message_sent');
    expect(body.meta.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.meta.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(body.data).toEqual({ channel_id: 3, type: 'text', content: 'hi' });
    // A raw body is sent as given.
    expect(sent[1]!.body).toBe('{"type":');
  });

  test('a callback the registration gives no address is not sent', async () => {
    const { ctx, sent } = context({ baseUrl: 'https://module.example/' });
    await expect(send(ctx, 'payment.create', {}, { clientId: 'c-1' })).rejects.toThrow(NoCallbackAddress);
    await expect(send(ctx, 'telephony.changeUserStatus', {}, { clientId: 'c-1' })).rejects.toThrow('telephony.changeUserStatus: the registration gives no integrations.telephony.changeUserStatusUrl');
    await expect(send(ctx, 'telephony.record', {}, { clientId: 'c-1' })).rejects.toThrow('telephony.record: the recordUrl of a call to call');
    expect(sent).toEqual([]);
  });
});
