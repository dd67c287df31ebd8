import { defineSchemaRule } from '../schema-rule.ts';

/** An `autocomplete` data field carries its `autocompleteUrl`. */
export const ensureAutocompleteFieldsHaveUrl = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureAutocompleteFieldsHaveUrl',
  checks: 'every autocomplete data field carries its autocompleteUrl',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/(deliveryDataFieldList|shipmentDataFieldList)\/\d+$/, keyword: 'required', missing: 'autocompleteUrl' }],
});
