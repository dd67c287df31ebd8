import { defineSchemaRule } from '../schema-rule.ts';

/** A `choice` data field carries its `choices`, each `{value, label}`. */
export const ensureChoiceFieldsHaveChoices = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureChoiceFieldsHaveChoices',
  checks: 'every choice data field carries its choices, each {value, label}',
  kind: 'delivery',
  owns: [
    { path: /^\/integrations\/delivery\/(deliveryDataFieldList|shipmentDataFieldList)\/\d+$/, keyword: 'required', missing: 'choices' },
    { path: /^\/integrations\/delivery\/(deliveryDataFieldList|shipmentDataFieldList)\/\d+\/choices(\/.*)?$/ },
  ],
});
