/** Logging of the reference module: one line per event, on stderr only (stdout stays clean). */
export function log(message: string, data?: Record<string, unknown>): void {
  const line = `[reference-module] ${new Date().toISOString()} ${message}${data ? ` ${safeJson(data)}` : ''}\n`;
  process.stderr.write(line);
}

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}

const seen = new Map<string, number>();

/**
 * Logs an event that repeats (a webhook, a gateway call): the first 3 of each key, then every
 * 100th with its count, so that a run of thousands keeps the module's output short and its first
 * lines (the registration) within the suite's bounded record of it.
 */
export function logSampled(key: string, message: string, data?: Record<string, unknown>): void {
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  if (n <= 3 || n % 100 === 0) log(n <= 3 ? message : `${message} (the ${n}th)`, data);
}
