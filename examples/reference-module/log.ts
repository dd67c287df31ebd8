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
