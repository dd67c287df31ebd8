/**
 * Errors of registration rules that relate two fields of the message (a map keyed by the codes
 * of a list), which no schema can state. Each is found in code and reported like a schema error
 * on the field it concerns, with a keyword of its own that one named rule owns; the
 * registration subject carries them beside the schema's errors, so that each field-level
 * requirement is judged on its own field.
 */
import type { ErrorObject } from 'ajv';
import { extraDataKeyErrors } from './delivery-extra-data.ts';

/** The cross-field errors of a registration (already read with null as absent). */
export function crossFieldErrors(module: unknown): ErrorObject[] {
  return [...extraDataKeyErrors(module)];
}
