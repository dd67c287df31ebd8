import { defineSchemaRule } from '../schema-rule.ts';

/** `requiredFields` holds only the document's allowed values. */
export const ensureRequiredFieldsAreAllowed = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureRequiredFieldsAreAllowed',
  checks: 'delivery requiredFields holds only the allowed values',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/requiredFields(\/\d+)?$/ }],
});
