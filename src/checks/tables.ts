/**
 * Every application table of the suite, one per area: the one place a check gets its
 * requirement ids and severity. The property registry, the specs, `conformance replay`, the
 * coverage and the gauntlet's proofs read the rows from here.
 */
import type { Row } from './apply.ts';
import { CALLBACKS_ROWS } from './callbacks/applications.ts';
import { REGISTRATION_ROWS } from './registration/applications.ts';
import { DELIVERY_ROWS } from './delivery/applications.ts';
import { PAYMENT_ROWS } from './payment/applications.ts';
import { TELEPHONY_ROWS } from './telephony/applications.ts';
import { CHAT_ROWS } from './chat/applications.ts';
import { SYSTEM_API_ROWS } from './system-api/applications.ts';
import { RUN_ROWS } from './run/applications.ts';

/** The tables by area. */
export const TABLES: Readonly<Record<string, ReadonlyArray<Row<never>>>> = {
  callbacks: CALLBACKS_ROWS,
  registration: REGISTRATION_ROWS,
  delivery: DELIVERY_ROWS,
  payment: PAYMENT_ROWS,
  telephony: TELEPHONY_ROWS,
  chat: CHAT_ROWS,
  'system-api': SYSTEM_API_ROWS,
  run: RUN_ROWS,
};

/** Every row of every table. */
export const ALL_ROWS: ReadonlyArray<Row<never>> = Object.values(TABLES).flat();
