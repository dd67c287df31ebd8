import { defineSchemaRule } from '../schema-rule.ts';

/** With `save`, the `calculate` and `delete` actions are given (actions rule 3). */
export const ensureSaveComesWithCalculateAndDelete = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureSaveComesWithCalculateAndDelete',
  checks: 'a delivery module that declares save also declares calculate and delete',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/actions$/, keyword: 'dependentRequired' }],
});
