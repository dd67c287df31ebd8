import { defineSchemaRule } from '../schema-rule.ts';

const URL_FIELDS =
  /^(\/(baseUrl|accountUrl|logo)|\/integrations\/telephony\/(makeCallUrl|changeUserStatusUrl|personalAccountUrl)|\/integrations\/delivery\/deliveryConfigurationUrl|\/integrations\/delivery\/(deliveryDataFieldList|shipmentDataFieldList)\/\d+\/autocompleteUrl|\/integrations\/mgTransport\/webhookUrl)$/;

/** Every URL of the registration is absolute and well formed, and callbacks have a baseUrl. */
export const ensureUrlsAreWellFormed = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureUrlsAreWellFormed',
  checks: 'every URL of the registration is a well-formed absolute http(s) URL, and callback paths have a baseUrl',
  owns: [
    { path: URL_FIELDS, keyword: ['format', 'pattern', 'type', 'minLength'] },
    { path: /^$/, keyword: 'required', missing: 'baseUrl' },
  ],
});
