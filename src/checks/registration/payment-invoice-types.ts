import { defineSchemaRule } from '../schema-rule.ts';

/** Payment `invoiceTypes` holds only `link`. */
export const ensureInvoiceTypesAreLink = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureInvoiceTypesAreLink',
  checks: 'payment invoiceTypes holds only link',
  kind: 'payment',
  owns: [{ path: /^\/integrations\/payment\/invoiceTypes(\/\d+)?$/ }],
});
