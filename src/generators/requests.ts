/**
 * An arbitrary for the request of every callback of the table (src/callbacks/table.ts), built
 * from its schema in the run's view: the action's JSON, the query parameters, or a webhook's
 * `data`. The area specs put the contract's semantics on top (delivery/calculate.ts for
 * `calculate`); this is the floor every callback stands on.
 */
import type fc from 'fast-check';
import { CALLBACKS, CALLBACK_NAMES, type CallbackName } from '../callbacks/table.ts';
import { schemaArbitrary, type SchemaArbitraryOptions } from './from-schema.ts';

/** The schema a callback's generated payload follows: the request, or a webhook's `data`. */
export function payloadSchema(name: CallbackName): string | undefined {
  const spec = CALLBACKS[name];
  return spec.encoding === 'webhook' ? (spec.data ?? spec.request) : spec.request;
}

/** The callbacks with a payload schema to generate from. */
export const GENERATED_CALLBACKS: readonly CallbackName[] = CALLBACK_NAMES.filter((n) => payloadSchema(n) !== undefined);

/** Payloads of one callback, from its schema (undefined when the table gives it none). */
export function requestArbitrary(name: CallbackName, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> | undefined {
  const schema = payloadSchema(name);
  return schema ? schemaArbitrary(schema, options) : undefined;
}
