/**
 * The reference module's ANSWER_DELAY_MS (a slow module, for the benchmark): every request waits
 * the delay before it is handled, and is then answered as it would be without it; a bad value
 * is a configuration error (exit 2).
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { postCallback, REPO_ROOT, startModule } from './harness.ts';

// The two tests share nothing: they may run on two workers at once.
test.describe.configure({ mode: 'parallel' });

/** Tomorrow as `Y-m-d 10:00:00` (local time, as the module reads it). */
function tomorrow(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} 10:00:00`;
}

test('with ANSWER_DELAY_MS every answer comes after the delay, and is the answer it gives without it', async () => {
  const delay = 300;
  const m = await startModule({ env: { ANSWER_DELAY_MS: String(delay) } });
  try {
    await m.registration();
    const timed = async <T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> => {
      const t0 = performance.now();
      const value = await call();
      return { value, ms: performance.now() - t0 };
    };
    const calculate = await timed(async () => {
      const res = await postCallback(`${m.url}/delivery/calculate`, m.clientId, 'calculate', { currency: 'EUR', packages: [{ weight: 1000 }], deliveryAddress: { city: 'Berlin', countryIso: 'DE' }, shipmentDate: tomorrow() });
      return { status: res.status, body: (await res.json()) as { success?: boolean } };
    });
    expect(calculate.value.status).toBe(200);
    expect(calculate.value.body.success).toBe(true);
    expect(calculate.ms).toBeGreaterThanOrEqual(delay);
    // A refusal (missing clientId) and a page wait too.
    const refused = await timed(async () => (await postCallback(`${m.url}/delivery/calculate`, undefined, 'calculate', {})).status);
    expect(refused.value).toBe(401);
    expect(refused.ms).toBeGreaterThanOrEqual(delay);
    const page = await timed(async () => (await fetch(`${m.url}/dev/state`)).status);
    expect(page.value).toBe(200);
    expect(page.ms).toBeGreaterThanOrEqual(delay);
  } finally {
    await m.stop();
  }
});

test('a bad ANSWER_DELAY_MS is a configuration error naming it', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/reference-module/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, SYSTEM_URL: 'http://127.0.0.1:9', API_KEY: 'k', PORT: '0', ANSWER_DELAY_MS: 'slow' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect(code).toBe(2);
  expect(err).toContain('ANSWER_DELAY_MS must be an integer');
});
