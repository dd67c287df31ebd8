/**
 * The method of the telephony URLs is a setting (wire profile section 4: GET with query
 * parameters, L; default GET): the sender uses it, GET with the query, POST with the same
 * parameters as a form body; the recordings and the other query callbacks keep their method.
 */
import { test, expect } from '@playwright/test';
import { send, telephonyMethods, type SendContext } from '../../src/callbacks/send.ts';
import type { CallbackClient, Reply } from '../../src/client/callback-client.ts';
import { loadConfig } from '../../src/module/config.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function context(methods: SendContext['methods']): { ctx: SendContext; sent: Array<{ method: string; url: string; body?: string; headers: Record<string, string> }> } {
  const sent: Array<{ method: string; url: string; body?: string; headers: Record<string, string> }> = [];
  const client = {
    send(method: string, url: string, body: string | undefined, headers: Record<string, string>) {
      sent.push({ method, url, ...(body !== undefined ? { body } : {}), headers });
      return Promise.resolve({} as Reply);
    },
  } as unknown as CallbackClient;
  const module = {
    baseUrl: 'https://module.example/',
    integrations: { delivery: { actions: { get: 'delivery/get' } }, telephony: { makeCallUrl: 'https://module.example/call?v=2', changeUserStatusUrl: 'https://module.example/status' } },
  };
  return { ctx: { client, module: () => module, ...(methods ? { methods } : {}) }, sent };
}

async function sendAll(ctx: SendContext): Promise<void> {
  await send(ctx, 'telephony.makeCall', { code: '101', phone: '+1 555 0100', userId: '7' }, { clientId: 'c-1' });
  await send(ctx, 'telephony.changeUserStatus', { userId: '7', code: '101', status: 'dinner' }, { clientId: undefined, probe: true });
  await send(ctx, 'telephony.record', {}, { clientId: 'c-1', url: 'https://records.example/r/9.mp3' });
  await send(ctx, 'delivery.get', { deliveryId: 'D1' }, { clientId: 'c-1' });
}

test('by default (no setting) the telephony URLs are requested with GET and the query', async () => {
  for (const methods of [undefined, telephonyMethods(undefined), telephonyMethods({})]) {
    const { ctx, sent } = context(methods);
    await sendAll(ctx);
    expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'GET', url: 'https://module.example/call?v=2&clientId=c-1&code=101&phone=%2B1+555+0100&userId=7', body: undefined },
      { method: 'GET', url: 'https://module.example/status?userId=7&code=101&status=dinner', body: undefined },
      { method: 'GET', url: 'https://records.example/r/9.mp3?clientId=c-1', body: undefined },
      { method: 'GET', url: 'https://module.example/delivery/get?clientId=c-1&deliveryId=D1', body: undefined },
    ]);
  }
});

test('with POST, each telephony URL gets the same parameters as a form body, at its address as given', async () => {
  const { ctx, sent } = context(telephonyMethods({ makeCallMethod: 'POST', changeUserStatusMethod: 'POST' }));
  await sendAll(ctx);
  expect(sent).toEqual([
    { method: 'POST', url: 'https://module.example/call?v=2', body: 'clientId=c-1&code=101&phone=%2B1+555+0100&userId=7', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { method: 'POST', url: 'https://module.example/status', body: 'userId=7&code=101&status=dinner', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    // A recording and a delivery GET keep their method.
    { method: 'GET', url: 'https://records.example/r/9.mp3?clientId=c-1', headers: {} },
    { method: 'GET', url: 'https://module.example/delivery/get?clientId=c-1&deliveryId=D1', headers: {} },
  ]);
  // One of the two only.
  const one = context(telephonyMethods({ changeUserStatusMethod: 'POST' }));
  await sendAll(one.ctx);
  expect(one.sent.map((s) => s.method)).toEqual(['GET', 'POST', 'GET', 'GET']);
});

test('the setting is part of the strict configuration: GET or POST, nothing else', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'telephony-method-'));
  const write = (telephony: unknown): string => {
    const file = path.join(dir, `c${Math.random().toString(16).slice(2)}.json`);
    fs.writeFileSync(file, JSON.stringify({ mode: 'remote', remote: { moduleUrl: 'http://127.0.0.1:1' }, telephony }));
    return file;
  };
  expect(loadConfig(write({ makeCallMethod: 'POST' })).telephony).toEqual({ makeCallMethod: 'POST' });
  expect(() => loadConfig(write({ makeCallMethod: 'PUT' }))).toThrow(/\/telephony\/makeCallMethod/);
  expect(() => loadConfig(write({ makeCalMethod: 'GET' }))).toThrow(/did you mean "makeCallMethod"/);
});
