import { defineSchemaRule } from '../schema-rule.ts';

/** `payerType` holds only `sender` and `receiver`. */
export const ensurePayerTypesAreAllowed = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensurePayerTypesAreAllowed',
  checks: 'delivery payerType holds only sender and receiver',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/payerType(\/\d+)?$/ }],
});
