/**
 * A check is one rule, as one small named function that knows nothing of the clauses it serves:
 * the spec that applies it gives the requirement ids and the severity (see `apply.ts`).
 * A check answers with a verdict; a failing verdict says what was received and what was expected.
 */

export type Outcome = 'pass' | 'fail' | 'skip' | 'notApplicable';

export interface Verdict {
  outcome: Outcome;
  /** One sentence: what held, or why it was skipped or not applicable. */
  detail?: string;
  /** For a failure: what the module sent or did. */
  received?: string;
  /** For a failure: what the contract asks for. */
  expected?: string;
  /** Ids of the exchanges that show it. */
  evidence?: string[];
}

export interface Check<S> {
  /** Verb phrase naming the rule: `ensureDeliveryActionPathsAreUnique`. Unique in the registry. */
  name: string;
  /** What is checked, in words, for the report: "delivery action paths are unique". */
  checks: string;
  run(subject: S): Verdict | Promise<Verdict>;
}

export const pass = (detail?: string, evidence?: string[]): Verdict => ({ outcome: 'pass', ...(detail ? { detail } : {}), ...(evidence ? { evidence } : {}) });
export const fail = (received: string, expected: string, evidence?: string[]): Verdict => ({ outcome: 'fail', received, expected, ...(evidence ? { evidence } : {}) });
export const skip = (detail: string): Verdict => ({ outcome: 'skip', detail });
export const notApplicable = (detail: string): Verdict => ({ outcome: 'notApplicable', detail });

/** Every check of the suite, by name. A second check with a taken name is an error. */
const registry = new Map<string, Check<never>>();

/** Defines and registers a check. */
export function defineCheck<S>(check: Check<S>): Check<S> {
  if (registry.has(check.name)) throw new Error(`a check named ${check.name} is already registered`);
  if (!/^(ensure|check)[A-Z]\w+$/.test(check.name)) throw new Error(`check name ${check.name} is not a verb phrase (ensureX, checkX)`);
  registry.set(check.name, check as Check<never>);
  return check;
}

/** The registered checks, by name. */
export function registeredChecks(): ReadonlyMap<string, Check<never>> {
  return registry;
}

/** Shortens a value for a message: JSON, at most `max` characters. */
export function show(value: unknown, max = 300): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}
