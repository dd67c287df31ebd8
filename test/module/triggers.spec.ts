/**
 * A trigger's request: its own `timeoutMs` (configuration `triggers.<name>.timeoutMs`) bounds it
 * instead of `callbacks.timeoutMs`; without one, the callbacks' timeout holds.
 */
import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Triggers } from '../../src/module/triggers.ts';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { EvidenceLog } from '../../src/evidence/exchange.ts';

/** A hook that answers after `delayMs`. */
async function slowHook(delayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => setTimeout(() => res.end('{"success":true}'), delayMs));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, close: () => new Promise((r) => server.close(() => r())) };
}

test('a trigger with its own timeoutMs waits that long, not the callbacks\' timeout; one without waits the callbacks\' timeout', async () => {
  const hook = await slowHook(600);
  const client = new CallbackClient({ log: new EvidenceLog(), timeoutMs: 300 });
  try {
    const triggers = new Triggers(
      { 'payment.notify': { url: hook.url, timeoutMs: 3000 }, 'telephony.callEvent': { url: hook.url } },
      client,
      () => ({}),
    );
    const own = await triggers.fire('payment.notify', { paymentId: 'p1', event: 'paid' });
    expect(own.error).toBeUndefined();
    expect(own.status).toBe(200);
    const shared = await triggers.fire('telephony.callEvent', { phone: '+100', type: 'in' });
    expect(shared.status).toBeUndefined();
    expect(shared.error).toMatch(/no complete reply within 300 ms \(the per-request timeout, setting callbacks\.timeoutMs\)/);
  } finally {
    await client.close();
    await hook.close();
  }
});
