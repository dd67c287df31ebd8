/**
 * The refusal-credit runs (refusal-credit.spec.ts): each refusal fault of the reference module
 * with the statuses its answer must give the error-answer ids, and the transport refusing every
 * webhook; rows of the shared batch (batch.ts) of the compiled reference module.
 */
import type { GauntletRow } from './batch.ts';
import { compiledReferenceConfig } from './compiled-module.ts';

export const IDS = ['WIRE-GEN-ERROR-REPLY-SHAPE', 'WIRE-GEN-ERROR-STATUS-200-OR-4XX', 'WIRE-GEN-ERROR-5XX-FAILURE', 'WIRE-GEN-ERROR-NON-JSON-FAILURE', 'WIRE-GEN-ERROR-MISSING-ERRORMSG'] as const;
type Id = (typeof IDS)[number];

export const CASES: Array<{ fault: string; answer: string; statuses: Record<Id, string> }> = [
  {
    fault: 'refusal-without-errormsg',
    answer: '403 {"success": false}',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed',
    },
  },
  {
    fault: 'refusal-status-500',
    answer: '500 with the error body',
    statuses: {
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'failed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'failed',
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
  {
    fault: 'refusal-body-not-json',
    answer: '401/403 text/plain "Forbidden"',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'notApplicable',
    },
  },
  {
    fault: 'refusal-errormsg-not-text',
    answer: '401/403 {"success": false, "errorMsg": {...}}',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'failed',
      'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed', 'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
  {
    fault: 'refusal-missing-clientid-400',
    answer: '400 with the error body (4xx: accepted with the profile)',
    statuses: {
      'WIRE-GEN-ERROR-REPLY-SHAPE': 'passed', 'WIRE-GEN-ERROR-STATUS-200-OR-4XX': 'passed', 'WIRE-GEN-ERROR-5XX-FAILURE': 'passed',
      'WIRE-GEN-ERROR-NON-JSON-FAILURE': 'passed', 'WIRE-GEN-ERROR-MISSING-ERRORMSG': 'passed',
    },
  },
];

/** The title of a refusal case's test. */
export const refusalTitle = (c: (typeof CASES)[number]): string => `a refusal answered ${c.answer} (${c.fault}) fails only the ids whose statement it breaks`;

export const EVERY_WEBHOOK_REFUSED: GauntletRow = {
  name: 'refusal-every-webhook',
  title: 'a transport that refuses every webhook: the ClientId probes are not applicable (no webhook was accepted), not passed',
  args: () => ['--area', 'chat', '--grep', 'transport webhooks', '--runs', '20', '--config', compiledReferenceConfig()],
  env: { FAULTS: 'transport-refuses-every-webhook' },
};

export const REFUSAL_ROWS: GauntletRow[] = [
  ...CASES.map((c) => ({ name: `refusal-${c.fault}`, title: refusalTitle(c), args: () => ['--area', 'registration', '--config', compiledReferenceConfig()], env: { FAULTS: c.fault } })),
  EVERY_WEBHOOK_REFUSED,
];
