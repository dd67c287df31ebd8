/**
 * A calculate module played in memory, and a Conformance over a session stub, for the property
 * runner's tests: tariffs whose cost turns into text above 10 kg in all (the third check fails).
 */
import { EvidenceLog, type Exchange } from '../../src/evidence/exchange.ts';
import { Conformance, type RecordSink } from '../../src/run/conformance.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { PropertySpec } from '../../src/properties/run.ts';
import { validCalculate } from '../../src/generators/delivery/calculate.ts';
import { ensureCalculateAnswersTariffList, ensureTariffCostIsNumberOrAbsent, ensureTariffTypeIsKnown } from '../../src/checks/delivery/calculate-reply.ts';
import { AcceptedCalls } from '../../src/checks/callbacks/acceptance.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { CaseOutcome, GeneratedCase } from '../../src/checks/case.ts';

type Json = Record<string, unknown>;

export function inMemoryConformance(): Conformance {
  const session = { log: new EvidenceLog(), judged: new Set<string>(), accepted: new AcceptedCalls(), registration: { code: 'm' }, config: { profile: true }, system: { calls: [], unsimulated: [] }, gateway: { calls: [], unknown: [] } } as unknown as RunSession;
  const sink: RecordSink = { spec: 'test', annotate: () => undefined, write: async () => undefined };
  return new Conformance(session, sink);
}

const ctx = { module: {}, stores: [{ code: 'w1', name: 'W1' }], currencies: ['EUR'], firstDay: '2030-01-01', profile: true };

/** The calculate property on the module in memory; `answer` is awaited before each answer (a wait, a count of cases in flight). */
export function calculateInMemory(options: { answer?: (caseId: string) => Promise<void>; independent?: boolean } = {}): PropertySpec {
  return {
    name: 'delivery.calculate: valid requests',
    id: 'calc',
    ...(options.independent !== undefined ? { independent: options.independent } : {}),
    arbitrary: validCalculate(ctx),
    checks: [
      { check: ensureCalculateAnswersTariffList, app: { requirements: ['WIRE-DLV-CALCULATE-RESULT-TARIFFS'], severity: 'MUST' } },
      { check: ensureTariffTypeIsKnown, app: { requirements: ['WIRE-DLV-CALCULATE-TARIFF-TYPE'], severity: 'MUST' } },
      { check: ensureTariffCostIsNumberOrAbsent, app: { requirements: ['DLV-CALCULATE-TARIFF-FIELDS'], severity: 'MUST' } },
    ],
    exec: async (c: GeneratedCase, caseId: string): Promise<CaseOutcome> => {
      await options.answer?.(caseId);
      const weight = ((c.payload as Json).packages as Json[]).reduce((s, p) => s + Number(p.weight), 0);
      const json = { success: true, result: [{ code: 'std', name: 'Standard', type: 'courier', cost: weight > 10_000 ? '5.40' : 5.4 }] };
      const reply: Reply = { exchange: { id: caseId, request: { method: 'POST', url: 'http://127.0.0.1:9/calculate', headers: {}, bytes: 0 } } as Exchange, status: 200, headers: {}, body: Buffer.from(JSON.stringify(json)), json };
      return { case: c, reply, module: {}, profile: true };
    },
  };
}
