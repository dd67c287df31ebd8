import { defineSchemaRule } from '../schema-rule.ts';

/** A bot registers `mgBot` as an empty object. */
export const ensureBotRegistersEmptyObject = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureBotRegistersEmptyObject',
  checks: 'mgBot is an empty object at registration',
  kind: 'mgBot',
  owns: [{ path: /^\/integrations\/mgBot$/ }],
});
