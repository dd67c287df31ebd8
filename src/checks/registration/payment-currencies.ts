import { defineSchemaRule } from '../schema-rule.ts';

/** Payment currencies are ISO 4217 codes. */
export const ensureCurrenciesAreIso4217 = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureCurrenciesAreIso4217',
  checks: 'payment currencies are ISO 4217 codes',
  kind: 'payment',
  owns: [{ path: /^\/integrations\/payment\/currencies(\/\d+)?$/ }],
});
