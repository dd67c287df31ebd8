import { defineSchemaRule } from '../schema-rule.ts';

/** With `selfShipmentAvailable`, the `shipmentPointList` action is given (actions rule 6). */
export const ensureShipmentPointListWithSelfShipment = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureShipmentPointListWithSelfShipment',
  checks: 'a delivery module with selfShipmentAvailable declares the shipmentPointList action',
  kind: 'delivery',
  owns: [{ path: /^\/integrations\/delivery\/actions$/, keyword: 'required', missing: 'shipmentPointList' }],
});
