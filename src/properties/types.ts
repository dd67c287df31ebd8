/**
 * What a property is made of: generated cases sent to the module, each judged by the same
 * checks. A case's outcome is all a property check reads, so that a saved failure can be judged
 * again exactly (`conformance replay`).
 */
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';

/** What a generated request is meant to be. */
export type CaseIntent =
  /** A request the contract allows: the module answers it (success, or an error of the right form). */
  | { kind: 'valid' }
  /** Wrong input: the module refuses it with the error form, and its message names `field`. */
  | { kind: 'wrong'; field: string; why: string };

/** One generated request. */
export interface GeneratedCase {
  callback: CallbackName;
  /** The payload as the sender takes it (the action's JSON, or `{raw}` for a malformed JSON string). */
  payload: unknown;
  intent: CaseIntent;
}

/** A case sent, and what the module answered. */
export interface CaseOutcome {
  case: GeneratedCase;
  reply: Reply;
  /** The module as registered when the case was sent (codes it declared: data fields, stores, currencies). */
  module: Record<string, unknown>;
  /** The run's reading: with the wire profile, or the document alone. */
  profile: boolean;
}

/** A saved failure (`failures/<check>.json`): enough to send the same request again and judge it the same way. */
export interface SavedFailure {
  check: string;
  requirements: string[];
  severity: 'MUST' | 'SHOULD';
  property: string;
  seed: number;
  path: string;
  case: GeneratedCase;
  /** The request as sent (secrets as placeholders) and the module's reply. */
  request: { method: string; url: string; body?: string };
  reply: { status?: number; body?: string; error?: string };
  /** What the check said: received and expected. */
  verdict: { outcome: string; received?: string; expected?: string };
}
