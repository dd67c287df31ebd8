/**
 * Environment for a child Playwright run: Playwright's own worker variables are not passed
 * on (a run started from inside a test would otherwise take itself for a worker).
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  return Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && !/^(TEST_|PW_|PLAYWRIGHT_)/.test(k))) as NodeJS.ProcessEnv;
}
