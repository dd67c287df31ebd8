/**
 * Chat transport (mgTransport): the module connects one messenger channel to the chat gateway,
 * keeps the channel's message templates, and answers the gateway's webhooks.
 *
 * - Transport API (header `X-Transport-Token`) at `{endpointUrl}/api/transport/v1`: the channel
 *   is activated with `POST /channels`; template verdicts go out with
 *   `PUT /channels/{id}/templates/{code}`; customer messages with `POST /messages`.
 * - Webhooks (`webhookUrl`): JSON `{type, meta, data}` with header `ClientId`.
 */
import { randomBytes } from 'node:crypto';
import { type CallbackAuth, HttpError, badRequest, notFound, sendJson, type Ctx, type Router } from './http.ts';
import { isObj, type Obj } from './input.ts';
import { TRANSPORT_WEBHOOK_PATH } from './registration.ts';
import { GatewayClient, describeFailure, rateBehaviour, systemOk, type OutboundReply } from './outbound.ts';
import type { GatewayAccess } from './registration.ts';
import { log, logSampled } from './log.ts';
import { FaultSet } from './faults.ts';
import { faultyChannelUpdate, faultyRead, faultySettings } from './gateway-faults.ts';

const REJECTION_REASONS = ['abusive_content', 'incorrect_category', 'invalid_format', 'scam'] as const;

export interface StoredTemplate {
  channelId: number;
  code: string;
  name?: string;
  lang?: string;
  category?: string;
  type?: string;
  body?: string;
  header?: Obj;
  attachments?: Obj;
  footer?: string;
  buttons?: Obj;
  example?: Obj;
  verification_status: 'pending' | 'approved' | 'rejected';
  rejection_reason?: string;
  updatedAt: string;
}

const TEMPLATE_FIELDS = ['name', 'lang', 'category', 'type', 'body', 'header', 'attachments', 'footer', 'buttons', 'example'] as const;

export class TransportService {
  private api: GatewayClient | undefined;
  /** Channels activated at the gateway: id -> external id. */
  readonly channels = new Map<number, { id: number; externalId: string; activatedAt: string }>();
  readonly templates = new Map<string, StoredTemplate>();
  /** Messages the system sent through the channel (message_sent), by external message id. */
  readonly sent = new Map<string, Obj>();
  /** The fault variants the webhooks act out (set at start). */
  private webhookFaults = new FaultSet();
  /** Customer messages forwarded to the gateway. */
  readonly inbound: { channelId: number; externalId: string; text: string; reply: unknown }[] = [];
  private messageSeq = 0;
  /** Variation `acts-on-references`: the chats each channel's customers wrote from, and the message ids the module knows (its own answers, its customers' messages). */
  private readonly knownChats = new Map<number, Set<string>>();
  private readonly knownMessages = new Set<string>();

  constructor(
    private readonly timeoutMs: number,
    /** Variation `acts-on-references`: acts on what a webhook names as the official transport does (see `checkReferences`). */
    private readonly actsOnReferences = false,
  ) {}

  get connected(): boolean {
    return this.api !== undefined;
  }

  private key(channelId: number, code: string): string {
    return `${channelId}/${code}`;
  }

  /** Uses the gateway access handed out at registration and activates the channel. */
  async start(access: GatewayAccess, faults: FaultSet = new FaultSet()): Promise<void> {
    this.webhookFaults = faults;
    this.api = new GatewayClient(`${access.endpointUrl}/api/transport/v1`, 'X-Transport-Token', access.token, this.timeoutMs, rateBehaviour('transport', faults));
    if (this.channels.size > 0) return;
    await faultyRead('transport', access, faults, this.timeoutMs);
    const externalId = `reference-channel-${randomBytes(4).toString('hex')}`;
    const body = {
      type: 'custom',
      name: 'Reference messenger',
      external_id: externalId,
      settings: {
        status: { delivered: 'both', read: 'both' },
        text: { creating: 'both', editing: 'both', quoting: 'both', deleting: 'receive', max_chars_count: 4096 },
        sending_policy: { new_customer: 'template', after_reply_timeout: 'template' },
        template: { creation: true },
        // acts-on-references: files and images are sent too, so that webhooks name files to fetch.
        ...(this.actsOnReferences ? { file: { creating: 'both', quoting: 'both' }, image: { creating: 'both', quoting: 'both' } } : {}),
      },
    };
    faultySettings(body.settings, faults);
    try {
      const reply = await this.api.call('POST', '/channels', body);
      if (!systemOk(reply)) {
        log('channel activation refused', { reply: describeFailure(reply) });
        return;
      }
      const r = (reply.json ?? {}) as Obj;
      const id = Number(r.id ?? r.channel_id);
      if (Number.isInteger(id) && id > 0) {
        this.channels.set(id, { id, externalId, activatedAt: typeof r.activated_at === 'string' ? r.activated_at : new Date().toISOString() });
        log('channel activated', { id, externalId });
        await faultyChannelUpdate(access, faults, id, body, this.timeoutMs);
      } else {
        log('channel activation answered without a channel id', { reply: reply.json ?? reply.text });
      }
    } catch (e) {
      log('channel activation failed', { error: (e as Error).message });
    }
  }

  private requireApi(): GatewayClient {
    if (!this.api) throw new HttpError(409, 'the transport is not connected to the gateway (not registered)');
    return this.api;
  }

  /** The channel a trigger means: the given one, else the activated one. */
  private channelOf(raw: unknown, path = 'channelId'): number {
    if (raw === undefined || raw === null || raw === '') {
      const first = [...this.channels.keys()][0];
      if (first === undefined) throw badRequest(`${path} is required (no channel is activated)`);
      return first;
    }
    const id = Number(raw);
    if (!Number.isInteger(id) || id <= 0) throw badRequest(`${path} must be a positive integer`);
    return id;
  }

  // ------------------------------------------------------------ webhook

  /** Answers one webhook: `{type, meta, data}`; the `ClientId` header identifies the account. */
  async handleWebhook(ctx: Ctx, auth: CallbackAuth): Promise<void> {
    const header = ctx.headers.clientid;
    const presented = Array.isArray(header) ? header[0] : header;
    const judged = auth.judge(presented === '' ? undefined : presented);
    // Fault `transport-refuses-every-webhook`: the refusal whatever the ClientId, the right one too.
    if (this.webhookFaults.has('transport-refuses-every-webhook')) {
      sendJson(ctx.res, 403, { errors: ['clientId is not recognised'], success: false, errorMsg: 'clientId is not recognised' });
      return;
    }
    if (!judged.ok && !this.webhookFaults.has('webhook-without-client-id-accepted')) {
      if (this.webhookFaults.has('webhook-refused-but-acted')) this.actAnyway(ctx);
      // Both error shapes: the gateway's `{errors}` and the module's `{success, errorMsg}`.
      sendJson(ctx.res, judged.status, { errors: [judged.errorMsg], success: false, errorMsg: judged.errorMsg });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(ctx.body.toString('utf8'));
    } catch (e) {
      return this.refuse(ctx, 400, `body is not valid JSON: ${(e as Error).message}`);
    }
    if (!isObj(body)) return this.refuse(ctx, 400, 'body must be a JSON object');
    const type = body.type;
    if (typeof type !== 'string' || type === '') return this.refuse(ctx, 400, 'type is required');
    const data = body.data;
    if (!isObj(data)) return this.refuse(ctx, 400, 'data must be an object');
    try {
      if (this.actsOnReferences) await this.checkReferences(type, data);
      sendJson(ctx.res, 200, this.dispatch(type, data));
    } catch (e) {
      if (e instanceof HttpError) return this.refuse(ctx, e.status, e.message);
      throw e;
    }
  }

  /**
   * Variation `acts-on-references`, as the official transport `retailcrm/mg-transport-telegram`
   * and public transports do: a message webhook of a chat none of its customers wrote from is
   * answered 422 "unexpected chat ID"; a quoted message (`quote_external_id`) is read as a message
   * of the messenger and must be one it knows (else 500), as must the message an edit or a
   * deletion names (else 400); every file of `items` is fetched with `GET /files/{id}` before
   * sending, and the webhook fails (500) when the gateway does not serve it.
   */
  private async checkReferences(type: string, data: Obj): Promise<void> {
    if (!['message_sent', 'message_updated', 'message_deleted', 'message_read'].includes(type)) return;
    const chats = this.knownChats.get(Number(data.channel_id));
    if (typeof data.external_chat_id !== 'string' || !chats?.has(data.external_chat_id)) throw new HttpError(422, 'unexpected chat ID');
    if ((type === 'message_updated' || type === 'message_deleted') && !this.knownMessages.has(String(data.external_message_id))) throw badRequest(`message ${String(data.external_message_id)} is unknown`);
    if (type !== 'message_sent') return;
    const quote = data.quote_external_id;
    if (quote !== undefined && quote !== '' && !this.knownMessages.has(String(quote))) throw new HttpError(500, `quoted message ${String(quote)} is unknown to the messenger`);
    for (const item of Array.isArray(data.items) ? data.items : []) {
      const id = isObj(item) ? item.id : undefined;
      const reply = await this.requireApi().call('GET', `/files/${encodeURIComponent(String(id))}`);
      if (reply.status !== 200) throw new HttpError(500, `file ${String(id)} could not be fetched: HTTP ${reply.status ?? 'no answer'}`);
    }
  }

  /** Fault `webhook-refused-but-acted`: the webhook is acted on though it will be refused. */
  private actAnyway(ctx: Ctx): void {
    try {
      const body = JSON.parse(ctx.body.toString('utf8')) as Obj;
      if (typeof body.type === 'string' && isObj(body.data)) this.dispatch(body.type, body.data);
    } catch {
      // Nothing to act on.
    }
  }

  private refuse(ctx: Ctx, status: number, message: string): void {
    sendJson(ctx.res, status, { errors: [message] });
  }

  private dispatch(type: string, data: Obj): Obj {
    switch (type) {
      case 'template_create':
        return this.templateCreate(data);
      case 'template_update':
        return this.templateUpdate(data);
      case 'template_delete':
        return this.templateDelete(data);
      case 'message_sent':
        return this.messageSent(data);
      case 'message_updated':
      case 'message_deleted':
      case 'message_read':
        if (this.webhookFaults.has('webhook-message-events-unhandled')) throw new HttpError(404, 'unknown webhook type');
        logSampled(`webhook ${type}`, 'webhook acknowledged', { type });
        return {};
      default:
        // message_updated, message_deleted, message_read, reactions and future types: acknowledged.
        logSampled(`webhook ${type}`, 'webhook acknowledged', { type });
        return {};
    }
  }

  private channelIdOf(data: Obj): number {
    const id = data.channel_id;
    if (typeof id !== 'number' || !Number.isInteger(id)) throw badRequest('data.channel_id must be an integer');
    return id;
  }

  private copyFields(target: StoredTemplate, data: Obj): void {
    for (const f of TEMPLATE_FIELDS) {
      const v = data[f];
      if (v === undefined) continue;
      (target as unknown as Obj)[f] = v;
    }
    if (isObj(data.examples) && !isObj(data.example)) target.example = data.examples;
  }

  /** A template was created in the system: assign a fresh unique code, submit it for verification. */
  private templateCreate(data: Obj): Obj {
    const channelId = this.channelIdOf(data);
    let code: string;
    do code = `tpl_${randomBytes(6).toString('hex')}`;
    while (this.templates.has(this.key(channelId, code)));
    if (this.webhookFaults.has('webhook-template-code-reused')) code = 'tpl_shared';
    const t: StoredTemplate = { channelId, code, verification_status: 'pending', updatedAt: new Date().toISOString() };
    this.copyFields(t, data);
    this.templates.set(this.key(channelId, code), t);
    logSampled('template submitted', 'template submitted for verification', { channelId, code, name: t.name });
    if (this.webhookFaults.has('webhook-template-create-without-code')) return { verification_status: 'pending' };
    return { code };
  }

  /** A template was edited (or resubmitted after a rejection): verification starts again. */
  private templateUpdate(data: Obj): Obj {
    const channelId = this.channelIdOf(data);
    const code = data.code;
    if (typeof code !== 'string' || code === '') throw badRequest('data.code is required');
    if (this.webhookFaults.has('webhook-template-update-refused')) throw badRequest('template cannot be edited');
    const existing = this.templates.get(this.key(channelId, code));
    const t: StoredTemplate = existing ?? { channelId, code, verification_status: 'pending', updatedAt: '' };
    this.copyFields(t, data);
    if (t.verification_status === 'rejected' || !existing) {
      t.verification_status = 'pending';
      delete t.rejection_reason;
    }
    t.updatedAt = new Date().toISOString();
    this.templates.set(this.key(channelId, code), t);
    return {};
  }

  private templateDelete(data: Obj): Obj {
    const channelId = this.channelIdOf(data);
    const code = data.code;
    if (typeof code !== 'string' || code === '') throw badRequest('data.code is required');
    if (this.webhookFaults.has('webhook-delete-500')) throw new HttpError(500, 'internal error');
    this.templates.delete(this.key(channelId, code));
    return {};
  }

  /** The system sent a message through the channel: deliver it to the messenger, return its id. */
  private messageSent(data: Obj): Obj {
    const channelId = this.channelIdOf(data);
    const tpl = isObj(data.template) ? data.template : undefined;
    if (tpl && typeof tpl.code === 'string') {
      const t = this.templates.get(this.key(channelId, tpl.code));
      if (t && t.verification_status === 'rejected') {
        return { error: { code: 'general', message: `template ${tpl.code} was rejected by the provider` } };
      }
    }
    const id = `msg_${++this.messageSeq}_${randomBytes(4).toString('hex')}`;
    this.sent.set(id, { ...data });
    this.knownMessages.add(id);
    if (this.webhookFaults.has('webhook-message-sent-error-code-unknown')) return { error: { code: 'delivery_failed', message: 'the messenger did not take the message' } };
    if (this.webhookFaults.has('webhook-message-sent-without-id')) return {};
    return { external_message_id: id };
  }

  // ------------------------------------------------------------ triggers

  /** The provider decided on a template: report it to the gateway. */
  async templateVerdict(p: Obj): Promise<Obj> {
    const api = this.requireApi();
    const channelId = this.channelOf(p.channelId);
    const code = p.code;
    if (typeof code !== 'string' || code === '') throw badRequest('code is required');
    const verdict = p.verdict;
    if (verdict !== 'approved' && verdict !== 'rejected') throw badRequest('verdict must be approved or rejected');
    const t = this.templates.get(this.key(channelId, code));
    if (!t) throw notFound(`template ${code} is unknown in channel ${channelId}`);
    let reason: string | undefined;
    if (verdict === 'rejected') {
      reason = typeof p.reason === 'string' && p.reason ? p.reason : 'invalid_format';
      if (!(REJECTION_REASONS as readonly string[]).includes(reason)) throw badRequest(`reason must be one of ${REJECTION_REASONS.join(', ')}`);
    }
    const body: Obj = { name: t.name ?? t.code, body: t.body ?? '', verification_status: verdict };
    if (t.lang) body.lang = t.lang;
    if (t.category) body.category = t.category;
    if (t.header && !t.attachments) body.header = t.header;
    if (t.footer) body.footer = t.footer;
    if (t.buttons) body.buttons = t.buttons;
    if (t.example) body.example = t.example;
    if (reason) body.rejection_reason = reason;
    // chat: templates (issue 25, item 3): the template faults act on rejections only.
    const f = verdict === 'rejected' ? this.webhookFaults : new FaultSet();
    if (f.has('template-verdict-not-sent')) return { success: true, channelId, code, verification_status: t.verification_status };
    if (f.has('template-verdict-status-unknown')) body.verification_status = 'declined';
    if (f.has('template-rejection-reason-unknown')) body.rejection_reason = 'spam';
    if (f.has('template-quality-unknown')) body.quality = 'excellent';
    if (f.has('template-verdict-without-name')) delete body.name;
    const path = `/channels/${channelId}/templates/${encodeURIComponent(f.has('template-verdict-unknown-code') ? `${code}_x` : code)}`;
    const reply = await api.call(f.has('template-verdict-by-post') ? 'POST' : 'PUT', path, body);
    if (systemOk(reply)) {
      t.verification_status = verdict;
      if (reason) t.rejection_reason = reason;
      else delete t.rejection_reason;
      t.updatedAt = new Date().toISOString();
      if (f.has('template-approve-rejected')) {
        // The provider's later approval passed on without the user's resubmission.
        const again: Obj = { ...body, verification_status: 'approved' };
        delete again.rejection_reason;
        await api.call('PUT', path, again);
      }
    }
    return this.outcome(reply, { channelId, code, verification_status: t.verification_status });
  }

  /**
   * The provider created a template of its own (trigger `transport.templateReport`, params
   * channelId, code, template as JSON text): report it with `POST /channels/{id}/templates`
   * (code, name, type, body, verification_status, header or attachments, examples, footer, buttons).
   */
  async templateReport(p: Obj): Promise<Obj> {
    const api = this.requireApi();
    const channelId = this.channelOf(p.channelId);
    const code = p.code;
    if (typeof code !== 'string' || code === '') throw badRequest('code is required');
    let tpl: unknown = p.template;
    if (typeof tpl === 'string') {
      try {
        tpl = JSON.parse(tpl);
      } catch (e) {
        throw badRequest(`template is not JSON: ${(e as Error).message}`);
      }
    }
    if (!isObj(tpl)) throw badRequest('template must be a JSON object');
    const status = tpl.verification_status;
    const verification_status = status === 'approved' || status === 'rejected' ? status : 'pending';
    const body: Obj = { code, name: typeof tpl.name === 'string' ? tpl.name : code, type: typeof tpl.type === 'string' ? tpl.type : 'text', body: typeof tpl.body === 'string' ? tpl.body : '', verification_status };
    if (typeof tpl.lang === 'string') body.lang = tpl.lang;
    if (typeof tpl.category === 'string') body.category = tpl.category;
    if (isObj(tpl.attachments)) body.attachments = tpl.attachments;
    else if (isObj(tpl.header)) body.header = tpl.header;
    const examples = isObj(tpl.examples) ? tpl.examples : tpl.example;
    if (isObj(examples)) body.examples = examples;
    if (typeof tpl.footer === 'string') body.footer = tpl.footer;
    if (isObj(tpl.buttons)) body.buttons = tpl.buttons;
    if (verification_status === 'rejected' && typeof tpl.rejection_reason === 'string' && (REJECTION_REASONS as readonly string[]).includes(tpl.rejection_reason)) body.rejection_reason = tpl.rejection_reason;
    // chat: templates (issue 25, item 3)
    const f = this.webhookFaults;
    const items = (): Obj[] => {
      const buttons = isObj(body.buttons) ? body.buttons : {};
      const list = Array.isArray(buttons.items) ? (buttons.items as Obj[]) : [];
      body.buttons = { ...buttons, items: list };
      return list;
    };
    if (f.has('template-report-eleven-quick-replies')) {
      const list = items();
      for (let i = list.filter((b) => isObj(b) && b.type === 'plain').length; i < 11; i++) list.push({ type: 'plain', label: `Reply ${i + 1}` });
    }
    if (f.has('template-button-type-unknown')) items().push({ type: 'link', label: 'Open', url: 'https://shop.example/' });
    if (f.has('template-url-button-without-url')) items().push({ type: 'url', label: 'Visit' });
    if (f.has('template-attachment-type-unknown')) {
      delete body.header;
      body.attachments = { type: 'audio' };
    }
    if (f.has('template-header-and-attachments')) {
      body.header = { content: { type: 'text', body: 'Hello' } };
      body.attachments = { type: 'image' };
    }
    if (f.has('template-report-without-code')) delete body.code;
    const reply = f.has('template-report-by-put')
      ? await api.call('PUT', `/channels/${channelId}/templates/${encodeURIComponent(code)}`, body)
      : await api.call('POST', `/channels/${channelId}/templates`, body);
    if (systemOk(reply)) {
      const t: StoredTemplate = { channelId, code, verification_status, updatedAt: new Date().toISOString() };
      this.copyFields(t, body);
      if (typeof body.rejection_reason === 'string') t.rejection_reason = body.rejection_reason;
      this.templates.set(this.key(channelId, code), t);
    }
    return this.outcome(reply, { channelId, code, verification_status });
  }

  /** A customer wrote in the messenger: forward the message to the gateway. */
  async inboundMessage(p: Obj): Promise<Obj> {
    const api = this.requireApi();
    const channelId = this.channelOf(p.channelId);
    const text = p.text;
    if (typeof text !== 'string' || text.trim() === '') throw badRequest('text is required');
    const customerId = typeof p.customerId === 'string' && p.customerId ? p.customerId : 'customer-1';
    const count = p.count === undefined || p.count === null || p.count === '' ? 1 : Number(p.count);
    if (!Number.isInteger(count) || count < 1 || count > 1000) throw badRequest('count must be an integer from 1 to 1000');
    const message = (i: number) => {
      const externalId = `in_${++this.messageSeq}_${randomBytes(4).toString('hex')}`;
      // acts-on-references: the chat and the message are the messenger's own from now on.
      this.knownMessages.add(externalId);
      if (!this.knownChats.has(channelId)) this.knownChats.set(channelId, new Set());
      this.knownChats.get(channelId)!.add(`chat-${customerId}`);
      const body = {
        message: { external_id: externalId, type: 'text', text: count === 1 ? text : `${text} (${i}/${count})` },
        originator: 'customer',
        customer: { external_id: customerId, nickname: customerId, first_name: 'Reference customer' },
        channel: channelId,
        external_chat_id: `chat-${customerId}`,
      };
      return { externalId, body };
    };
    if (count === 1) {
      const { externalId, body } = message(1);
      const reply = await api.call('POST', '/messages', body);
      this.inbound.push({ channelId, externalId, text, reply: reply.json ?? reply.text });
      return this.outcome(reply, { channelId, external_id: externalId });
    }
    // Many messages: each its own, with its own external id, one after the other as fast as the
    // client's rate allows (a 429'd one resent with the same body); answered at once with the ids.
    const messages = Array.from({ length: count }, (_, i) => message(i + 1));
    void (async () => {
      for (const { externalId, body } of messages) {
        try {
          const reply = await api.call('POST', '/messages', body);
          this.inbound.push({ channelId, externalId, text: body.message.text, reply: reply.json ?? reply.text });
        } catch (e) {
          log('customer message not forwarded', { externalId, error: (e as Error).message });
        }
      }
    })();
    return { success: true, channelId, count, external_ids: messages.map((m) => m.externalId) };
  }

  private outcome(reply: OutboundReply, extra: Obj): Obj {
    const ok = systemOk(reply);
    return { success: ok, ...(ok ? {} : { errorMsg: `gateway refused: ${describeFailure(reply)}` }), ...extra, reply: reply.json ?? reply.text };
  }
}

export function mountTransport(router: Router, auth: CallbackAuth, service: TransportService): void {
  router.add('POST', TRANSPORT_WEBHOOK_PATH, (ctx) => service.handleWebhook(ctx, auth));
}
