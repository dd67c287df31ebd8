import { defineSchemaRule } from '../schema-rule.ts';

/** Every data field has one of the six types. */
export const ensureDataFieldTypesAreKnown = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureDataFieldTypesAreKnown',
  checks: 'every delivery and shipment data field has one of the six types',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/(deliveryDataFieldList|shipmentDataFieldList)\/\d+\/type$/ }],
});
