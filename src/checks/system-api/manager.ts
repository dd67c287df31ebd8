/**
 * The manager lookup (`GET /api/v5/telephony/manager`): the system answers with the free
 * responsible manager of the customer when one exists, and without `manager` when none is free
 * (wire profile section 4: `{success: true}` without `manager`). The module copes with both.
 */
import type { InboundCall } from '../../simulators/system-endpoints.ts';
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';

/** A manager lookup flow: the calls it led to and how the module's trigger answered once they were answered. */
export interface ManagerLookupOutcome {
  /** The calls of the flow to the manager endpoint. */
  calls: readonly InboundCall[];
  /** The trigger's answer (absent when none came). */
  trigger: Pick<Reply, 'status' | 'error' | 'exchange'> | undefined;
}

/** What the system answered a lookup: with a manager (their id and code), or without. */
export function answeredManager(call: InboundCall): string {
  let body: unknown;
  try {
    body = JSON.parse(call.exchange.response?.body ?? '');
  } catch {
    return 'an answer that is not JSON';
  }
  const manager = body && typeof body === 'object' ? (body as Record<string, unknown>).manager : undefined;
  if (!manager || typeof manager !== 'object') return 'no manager (`{success: true}` without `manager`)';
  const m = manager as Record<string, unknown>;
  return `a free manager (id ${JSON.stringify(m.id)}, code ${JSON.stringify(m.code)})`;
}

/**
 * Once the system answered its lookup (HTTP 200, with a manager or without), the module takes the
 * answer in its stride: the flow its trigger started ends with an answer of the trigger that is
 * not a server error (5xx) and not missing (a module that broke on the reply). What the trigger
 * answers otherwise (the manager found, or `{success: false}` saying none is free) is the
 * vendor's own and is not judged; nor is a flow whose lookup the system refused (the method and
 * payload checks judge that call).
 */
export const ensureManagerLookupCopesWithAnswer = defineCheck<ManagerLookupOutcome>({
  name: 'ensureManagerLookupCopesWithAnswer',
  checks: "the module copes with the system's answer to its manager lookup, with a free manager or without",
  run(s) {
    const answered = s.calls.filter((c) => c.accepted && c.exchange.response !== undefined);
    if (answered.length === 0) return notApplicable('the system answered no lookup of the flow with success (a refused call is judged by the method and payload checks)');
    const last = answered.at(-1)!;
    const evidence = [...(s.trigger ? [s.trigger.exchange.id] : []), ...answered.slice(-3).map((c) => c.exchange.id)];
    const what = `the system answered ${answeredManager(last)}`;
    const status = s.trigger?.status;
    if (status === undefined) return fail(`${what}; then the trigger gave no answer (${s.trigger?.error ?? 'no response'})`, 'the module copes with the answer: its trigger answers, not with a server error', evidence);
    if (status >= 500) {
      const body = s.trigger?.exchange.response?.body ?? '';
      return fail(`${what}; then the trigger answered HTTP ${status}${body ? ` ${body.slice(0, 200)}` : ''}`, 'the module copes with the answer: its trigger answers, not with a server error', evidence);
    }
    return pass(`${what}; the trigger answered HTTP ${status}`, evidence);
  },
});
