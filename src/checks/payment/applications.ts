/**
 * The application table of the payment area: which check is applied to which property, call or
 * session judgement, with its requirement ids and severity (`Row`, `src/checks/apply.ts`).
 */
import type { Row } from '../apply.ts';

/** Every row of the area, in the order they are applied. */
export const PAYMENT_ROWS: ReadonlyArray<Row<never>> = [];
