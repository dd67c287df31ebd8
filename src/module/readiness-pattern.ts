/**
 * `readiness.stdout` is a regular expression, compiled as the run compiles it
 * (src/run/module-wait.ts: `new RegExp(stdout)`, no flags): one that does not compile is a
 * configuration error when the configuration is loaded, not a session that breaks at its start.
 */

/** A problem of the configuration, placed as `configProblems` places the placeholder problems. */
export interface PatternProblem {
  at: string;
  pointer: string;
  rank: number;
  text: string;
}

/** The readiness pattern's problem, if it has one. */
export function readinessPatternProblems(data: unknown): PatternProblem[] {
  const readiness = data && typeof data === 'object' ? (data as { readiness?: unknown }).readiness : undefined;
  const stdout = readiness && typeof readiness === 'object' ? (readiness as { stdout?: unknown }).stdout : undefined;
  if (typeof stdout !== 'string') return [];
  try {
    new RegExp(stdout);
    return [];
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: /, '');
    return [{ at: '/readiness/stdout', pointer: '/readiness/stdout', rank: 3, text: `invalid regular expression at /readiness/stdout: ${why} (the module's output lines are matched with it, not searched for it as text; to match ( ) [ ] { } . * + ? | ^ $ as written, escape them: "\\\\(" in JSON)` }];
  }
}
