/**
 * Webhooks of the gateway to a transport module: a JSON POST `{type, meta: {timestamp}, data}`
 * to the module's `webhookUrl` with the `ClientId` header (document, Events; wire profile
 * section 6), encoded where the suite's sender encodes it (`src/wire/forms.ts`). What a
 * successful reply means for the templates is applied as the system would.
 */
import type { CallbackClient, Reply } from '../client/callback-client.ts';
import { encodeWebhook, webhookHeaders } from '../wire/forms.ts';
import { isObject } from './gateway-values.ts';
import type { GatewayState } from './gateway-state.ts';
import type { GatewayTemplate } from './gateway-records.ts';
import { afterUpdateWebhook, isVerificationStatus } from '../contract/template-machine.ts';

/**
 * Sends a webhook to the transport registered with this clientId or token. A successful reply
 * to `message_sent` with an `external_message_id` makes that id one the transport knows in the
 * chat (a later webhook may quote it), a successful `message_deleted` unmakes it; to `template_create` with a `code` adds the template (status `pending`, or the
 * `verification_status` of the reply) when its channel is known; a successful
 * `template_update` resubmits a rejected template (back to `pending`) and `template_delete`
 * removes it.
 */
export async function sendWebhook(state: GatewayState, client: CallbackClient, clientIdOrToken: string, type: string, data: unknown): Promise<Reply> {
  const transport = state.transports.get(clientIdOrToken) ?? [...state.transports.values()].find((t) => t.clientId === clientIdOrToken);
  if (!transport) throw new Error('sendWebhook: no transport registered with this clientId or token');
  if (!transport.webhookUrl) throw new Error(`sendWebhook: transport ${transport.clientId} has no webhookUrl`);
  const reply = await client.send('POST', transport.webhookUrl, encodeWebhook(type, data), webhookHeaders(transport.clientId), { label: `webhook ${type}`, direction: 'gateway->module' });
  if (reply.status !== undefined && reply.status < 300 && isObject(data)) afterWebhook(state, type, data, reply);
  return reply;
}

export function afterWebhook(state: GatewayState, type: string, data: Record<string, unknown>, reply: Reply): void {
  const channelId = Number(data.channel_id);
  if (!state.channels.has(channelId)) return;
  // The ids the transport knows in a chat: its answer to message_sent; a deleted message is quoted no more.
  const chat = typeof data.external_chat_id === 'string' ? data.external_chat_id : undefined;
  if (type === 'message_sent' && chat !== undefined && isObject(reply.json) && typeof reply.json.external_message_id === 'string' && reply.json.external_message_id !== '') {
    state.conversations.answered(channelId, chat, reply.json.external_message_id);
  } else if (type === 'message_deleted' && chat !== undefined && typeof data.external_message_id === 'string') state.conversations.deleted(channelId, chat, data.external_message_id);
  if (type === 'template_create' && isObject(reply.json) && typeof reply.json.code === 'string' && reply.json.code !== '') {
    const code = reply.json.code;
    // The table: a new template is verifying (`pending`); the older client's reply may name its status (wire profile 6), taken when it is one of the three.
    const status = isVerificationStatus(reply.json.verification_status) ? reply.json.verification_status : 'pending';
    const tpl: GatewayTemplate = { channel_id: channelId, code, template: { ...data, code, channel_id: channelId }, history: [] };
    state.applyStatus(tpl, { verification_status: status }, 'webhook template_create');
    state.channelTemplates(channelId).set(code, tpl);
  } else if (type === 'template_update' && typeof data.code === 'string') {
    const tpl = state.template(channelId, data.code);
    if (!tpl) return;
    tpl.template = { ...tpl.template, ...data, code: tpl.code, channel_id: channelId };
    // The table: a rejected template the user resubmits is verifying again; an approved one stays approved (only variable values editable).
    const from = isVerificationStatus(tpl.verification_status) ? tpl.verification_status : undefined;
    const to = afterUpdateWebhook(from);
    if (to !== undefined && to !== from) state.applyStatus(tpl, { verification_status: to }, 'webhook template_update');
  } else if (type === 'template_delete' && typeof data.code === 'string') {
    state.templates.get(channelId)?.delete(data.code);
  }
}
