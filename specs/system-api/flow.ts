/**
 * The shape of a flow of module-calls.spec.ts (a trigger, the system endpoint it leads the module
 * to call, the checks of those calls), shared with the flows built in telephony-flows.ts.
 */
import type { TriggerName } from '../../src/module/triggers.ts';
import type { Row } from '../../src/checks/apply.ts';
import type { FlowCalls } from '../../src/checks/system-api/calls.ts';
import type { RequestedItems } from '../../src/checks/system-api/counts.ts';
import type { SystemEndpoint, InboundCall } from '../../src/simulators/system-endpoints.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { Conformance } from '../../src/run/conformance.ts';
import type { Reply } from '../../src/client/callback-client.ts';

export interface Flow {
  title: string;
  kind: string;
  trigger: TriggerName;
  params: Record<string, string | number | string[]>;
  endpoint: SystemEndpoint;
  /** What the flow is for: the requirement the module meets by making the call at all (its row, src/checks/system-api/applications.ts). */
  reached: Row<FlowCalls>;
  /** A flow that asks for N items: all must arrive, within the limit (a repeat is no fault). */
  items?: { limit: number; noun: string; row: Row<RequestedItems>; key: (item: unknown) => string };
  /** Before the trigger: the items to ask for by identity, with the trigger's parameters; undefined: ask by `params`. */
  ask?: (session: RunSession) => Promise<Asked | undefined>;
  /** What the flow judges beyond the endpoint's checks (the trigger's asked values against the calls), once its calls are in. */
  extra?: FlowExtra;
}

/** A flow's own checks (also what its test declares it covers), and how it applies them. */
export interface FlowExtra {
  rows: ReadonlyArray<Row<never>>;
  judge: (outcome: { session: RunSession; conformance: Conformance; calls: InboundCall[]; params: Flow['params']; reply: Reply | undefined }) => Promise<void>;
}

/** Items asked for by identity, and the parameters that name them; or why the flow cannot run. */
export type Asked = { params: Flow['params']; items: string[] } | { skip: string; evidence: string[] };
