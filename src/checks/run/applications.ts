/**
 * The application table of the run area: which check is applied to which property, call or
 * session judgement, with its requirement ids and severity (`Row`, `src/checks/apply.ts`).
 *
 * - `SESSION_ROWS`: what is judged once when the session ends, beside the calls
 *   (`src/run/session-judgements.ts`): the calls to endpoints the suite does not simulate, and how
 *   the module's traffic met the suite's limits and the gateway's rate (information).
 * - `RUN_RULES`: the suite rules of the run itself: something reached the module, one session per
 *   run, a spec run to its end (`src/run/session-start.ts`; the reporter, `src/report/`).
 */
import { row, type Row } from '../apply.ts';
import { checkModuleCallsSimulatedEndpoints } from './unsimulated.ts';
import { checkGatewayRateLimitIsKept, checkModuleRequestsAreReadWhole } from './traffic.ts';
import { ensureModuleWasReached } from './module-reached.ts';
import { ensureOneSessionPerRun, ensureSpecRanToTheEnd } from './session-rules.ts';

/** Judged when the session ends: information beside the checks. */
export const SESSION_ROWS = {
  unsimulated: row('calls the module made on its own', checkModuleCallsSimulatedEndpoints, [], 'INFO'),
  readWhole: row("the module's traffic", checkModuleRequestsAreReadWhole, [], 'INFO'),
  gatewayRate: row("the module's traffic", checkGatewayRateLimitIsKept, [], 'INFO'),
};

/** The run's own rules (suite rules: no requirement id). */
export const RUN_RULES = {
  /** Something reached the module (the reporter, over every exchange of the run). */
  moduleReached: row('the run', ensureModuleWasReached, [], 'MUST'),
  /** A second session start is refused (`src/run/session-start.ts`). */
  oneSession: row('the run', ensureOneSessionPerRun, [], 'MUST'),
  /** A spec that broke (an exception): failed. */
  specBroke: row('a conformance spec', ensureSpecRanToTheEnd, [], 'MUST'),
  /** A spec left unrun (a refused second session start, the run deadline): skipped, information. */
  specNotRun: row('a conformance spec', ensureSpecRanToTheEnd, [], 'INFO'),
};

/** Every row of the area, in the order they are applied. */
export const RUN_ROWS: ReadonlyArray<Row<never>> = [...Object.values(SESSION_ROWS), ...Object.values(RUN_RULES)] as ReadonlyArray<Row<never>>;
