/**
 * The self-tests whose runs are rows of the one shared batch (batch.ts), by group, in the order
 * the batch plays them: the groups whose tests run mid-way first, the fault and variation rows
 * (their tests run last: playwright.config.ts) after. The batch selection reporter starts the
 * batch with the rows of these the self-test run selected. A spec whose runs are fixed before
 * the run (arguments and environment, no module of the test's own) joins by giving its rows here.
 */
import type { GauntletRow } from './batch.ts';
import { FAULT_ROWS } from './fault-rows.ts';
import { VARIATION_ROWS } from './variation-rows.ts';
import { REFUSAL_ROWS } from './refusal-rows.ts';
import { SHRINK_ROWS } from './shrink-rows.ts';
import { DETERMINISM_ROWS } from '../run/determinism-rows.ts';
import { AREA_ROWS, DOCUMENT_ALONE_ROWS, EVIDENCE_ROWS, NARROWED_ROWS, REPLAY_ROWS, SESSION_ROWS } from './run-rows.ts';

export const BATCHED_GROUPS: ReadonlyArray<readonly [string, GauntletRow[]]> = [
  ['session', SESSION_ROWS],
  ['evidence-complete', EVIDENCE_ROWS],
  ['document-alone', DOCUMENT_ALONE_ROWS],
  ['area', AREA_ROWS],
  ['narrowed', NARROWED_ROWS],
  ['replay', REPLAY_ROWS],
  ['determinism', DETERMINISM_ROWS],
  ['shrink', SHRINK_ROWS],
  ['refusal-credit', REFUSAL_ROWS],
  ['variations', VARIATION_ROWS],
  ['faults', FAULT_ROWS],
];
