import { defineSchemaRule } from '../schema-rule.ts';

/** The registration names the account's `clientId`. */
export const ensureClientIdPresent = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureClientIdPresent',
  checks: 'the registration carries clientId, a non-empty string',
  owns: [{ path: /^$/, keyword: 'required', missing: 'clientId' }, { path: /^\/clientId$/ }],
});
