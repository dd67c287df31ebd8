import { defineSchemaRule } from '../schema-rule.ts';

/** A payment module declares the `create` action (required by the document). */
export const ensurePaymentDeclaresCreate = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensurePaymentDeclaresCreate',
  checks: 'a payment module declares the create action',
  kind: 'payment',
  owns: [
    { path: /^\/integrations\/payment\/actions$/, keyword: 'required', missing: 'create' },
    { path: /^\/integrations\/payment$/, keyword: 'required', missing: 'actions' },
  ],
});
