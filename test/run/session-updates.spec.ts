/**
 * A module that registers again changes itself (`edit` "creates the module if the code is new,
 * otherwise changes it"): the session follows it, so later callbacks use the module as it
 * stands after the update, and the system answers an update as the real one does (the delivery
 * type only on creation).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loadConfig } from '../../src/module/config.ts';
import { RunSession } from '../../src/run/session.ts';

const MODULE = {
  code: 'updating-module',
  integrationCode: 'updating-module',
  active: true,
  name: 'Updating module',
  clientId: 'client-of-the-updating-module',
  baseUrl: 'http://127.0.0.1:9/v1',
  actions: { activity: '/activity' },
  integrations: { delivery: { actions: { calculate: '/calculate' } } },
};

test('a second accepted edit of the same code is the module from then on; the update is answered without a new delivery type', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-updates-'));
  const file = path.join(dir, 'conformance.config.json');
  // Something listens at the module's address (a remote run first connects to it); the module itself is never called here.
  const listening = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => listening.listen(0, '127.0.0.1', r));
  fs.writeFileSync(file, JSON.stringify({ mode: 'remote', remote: { moduleUrl: `http://127.0.0.1:${(listening.address() as net.AddressInfo).port}`, registration: MODULE } }));
  const config = loadConfig(file);
  const session = await RunSession.start(config, 'updates').finally(() => listening.close());
  try {
    expect(session.baseUrl()).toBe('http://127.0.0.1:9/v1');
    const update = { ...MODULE, name: 'Updating module, renamed', baseUrl: 'http://127.0.0.1:9/v2' };
    const reply = await fetch(`${session.system.url()}/api/v5/integration-modules/${MODULE.code}/edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: config.apiKey, integrationModule: JSON.stringify(update) }).toString(),
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ success: true });
    expect(session.baseUrl()).toBe('http://127.0.0.1:9/v2');
    expect(session.registration?.module.name).toBe('Updating module, renamed');
    // Another code is another module: the session's module stays the one it certifies.
    const other = await fetch(`${session.system.url()}/api/v5/integration-modules/other/edit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: config.apiKey, integrationModule: JSON.stringify({ ...MODULE, code: 'other', baseUrl: 'http://127.0.0.1:9/other' }) }).toString(),
    });
    expect(other.status).toBe(200);
    expect(session.baseUrl()).toBe('http://127.0.0.1:9/v2');
  } finally {
    await session.stop();
  }
});
