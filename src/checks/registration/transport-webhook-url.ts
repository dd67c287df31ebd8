import { defineSchemaRule } from '../schema-rule.ts';

/**
 * A transport gives the gateway its `webhookUrl`: the gateway sends its webhooks there
 * (document, Events: "Webhooks sent by the gateway to `webhookUrl` of a transport module"), so a
 * transport without one can receive none. The URL's form is `ensureUrlsAreWellFormed`'s.
 */
export const ensureTransportGivesWebhookUrl = defineSchemaRule({
  schema: 'registration/integration-module.edit.json',
  name: 'ensureTransportGivesWebhookUrl',
  checks: 'a chat transport (mgTransport) gives the webhookUrl the gateway sends its webhooks to',
  kind: 'mgTransport',
  owns: [],
  extra(message) {
    const integrations = (message as { integrations?: Record<string, unknown> } | undefined)?.integrations;
    const transport = integrations?.mgTransport;
    const given = transport !== null && typeof transport === 'object' && (transport as Record<string, unknown>).webhookUrl !== undefined;
    if (given) return undefined;
    return {
      received: `integrations.mgTransport = ${JSON.stringify(transport)}: no webhookUrl`,
      expected: 'integrations.mgTransport.webhookUrl: the address the gateway sends webhooks (template_create, message_sent, ...) to',
    };
  },
});
