/**
 * The gateway's webhooks to a transport as properties (issue 25, item 2): generated cases
 * (`src/generators/chat/webhooks.ts`: short sequences of webhooks as data, only of the types
 * each channel enables) sent to the module's `webhookUrl`, the authorised ones through the gateway
 * simulator (`session.gateway.sendWebhook`: the gateway takes a successful reply as the system
 * would, a created template becomes the gateway's), the probes with a missing or unknown
 * `ClientId` through the one sender. A case's steps are recorded, each judged by the checks of
 * `src/checks/chat/webhooks.ts` (`overSteps`, the rows of `src/checks/chat/applications.ts`); a
 * failing case replays step by step (`conformance replay`, through `runWebhookCase`).
 */
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import { inventedHex } from '../generators/invented.ts';
import type { WebhookCasePayload, WebhookStep } from '../generators/chat/webhooks.ts';
import type { RunSession } from '../run/session.ts';
import { bindStep, type ReferenceScope } from '../generators/chat/references.ts';
import { openConversation } from '../generators/chat/context.ts';
import type { Conversation } from '../simulators/gateway-conversations.ts';
import type { GatewayCall } from '../simulators/gateway-endpoints.ts';
import type { WebhookOutcome, WebhookStepInfo } from '../checks/chat/webhooks.ts';
import type { CaseOutcome, GeneratedCase } from '../checks/case.ts';

/** What running a case needs of the session. */
export interface WebhookDriver {
  /** An authorised webhook, as the gateway sends it. */
  send(type: string, data: unknown): Promise<Reply>;
  /** A webhook with no ClientId header (undefined) or the given one. */
  sendAs(type: string, data: unknown, clientId: string | undefined, label: string): Promise<Reply>;
  /** The provider's verdict on a template (trigger `transport.templateVerdict`); undefined when the trigger is not declared. */
  verdict?(channelId: number, code: string): Promise<Reply>;
  /** A mark of the gateway's calls, and the transport's template and message calls since it. */
  mark(): number;
  callsSince(mark: number): GatewayCall[];
  /** Waits for the transport's report of a template's verdict (PUT or POST of its templates) since the mark. */
  awaitVerdict(channelId: number, code: string, mark: number): Promise<boolean>;
  unknownClientId: string;
  module: Record<string, unknown>;
  profile: boolean;
  /** Codes the module gave live templates, per channel (code -> name), over the session. */
  codes: Map<number, Map<string, unknown>>;
  /** Webhooks sent per channel and type (probes as `type (refused)`). */
  sent: Map<number, Map<string, number>>;
  /** The gateway's state as the transport sees it: what a step's references are bound to (`references.ts`). */
  references?: ReferenceScope;
  /** Before a channel's first case: its first customer message, where the module can be asked for one (`openConversation`, context.ts). */
  prepare?(channelId: number): Promise<void>;
}

const TEMPLATE_OR_MESSAGE = /^transport\.(template\.|message\.|messages\.)/;

export function sessionWebhookDriver(session: RunSession, seed: number): WebhookDriver {
  const clientId = session.clientId()!;
  const token = [...session.gateway.transports.values()].filter((t) => t.clientId === clientId).at(-1)?.token;
  return {
    send: async (type, data) => {
      const reply = await session.gateway.sendWebhook(clientId, type, data);
      // The record a refused webhook's credit rests on (`acceptance.ts`): an authorised webhook of its type accepted.
      session.accepted.note(`transport.${type}` as CallbackName, reply);
      return reply;
    },
    sendAs: (type, data, id, label) => session.send(`transport.${type}` as CallbackName, data, { clientId: id, case: label, probe: true }),
    ...(session.triggers.declared('transport.templateVerdict')
      ? { verdict: (channelId: number, code: string) => session.triggers.fire('transport.templateVerdict', { channelId, code, verdict: 'approved', reason: '' }) }
      : {}),
    mark: () => session.gateway.callCount(),
    callsSince: (mark) => session.gateway.callsSince(mark).filter((c) => TEMPLATE_OR_MESSAGE.test(c.route) && (token === undefined || c.token === token)),
    awaitVerdict: async (channelId, code, mark) => {
      const match = (c: GatewayCall): boolean => c.accepted && (c.route === 'transport.template.update' || c.route === 'transport.template.create') && (c.params.code === code || (c.payload as { code?: unknown } | undefined)?.code === code) && Number(c.params.channel_id) === channelId;
      return (await session.gateway.waitFor('transport.template.update', Math.min(session.config.flowTimeoutMs, 5000), match, mark)) !== undefined || session.gateway.callsSince(mark).some(match);
    },
    unknownClientId: `unknown-${inventedHex(seed, 'transport webhooks: an unknown ClientId', 16)}`,
    ...(token !== undefined ? { references: { state: session.gateway.state, token }, prepare: (channelId: number) => openConversation(session, channelId) } : {}),
    module: session.registration!.module,
    profile: session.config.profile,
    codes: new Map(),
    sent: new Map(),
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (d: WebhookDriver, channel: number, key: string): void => {
  let m = d.sent.get(channel);
  if (!m) d.sent.set(channel, (m = new Map()));
  m.set(key, (m.get(key) ?? 0) + 1);
};

/** Stands in for a code the module never gave, so that the later steps still go out (and are not judged). */
const NO_CODE = 'no-code-given';

/**
 * Runs a case's steps in order: fills in the code the module gave the case's template and the id
 * it gave the case's message, sends each webhook (a probe with its ClientId), observes what a
 * refused one was followed by, and records the steps.
 */
export async function runWebhookCase(d: WebhookDriver, c: GeneratedCase, caseId: string): Promise<CaseOutcome> {
  const payload = c.payload as WebhookCasePayload;
  const channelId = payload.channel_id;
  const codes = d.codes.get(channelId) ?? new Map<string, unknown>();
  d.codes.set(channelId, codes);
  let code: string | undefined;
  let created = false;
  let messageId: string | undefined;
  /** The conversation of the case's last message: the one its message events name. */
  let conversation: Conversation | undefined;
  await d.prepare?.(channelId);
  const steps: WebhookOutcome[] = [];
  let pendingProbe: { outcome: WebhookOutcome; mark: number } | undefined;
  const batch = payload.steps.every((s) => s.kind === 'webhook' && s.type === 'template_create' && s.clientId === undefined);
  for (const [i, step] of payload.steps.entries()) {
    const label = `${caseId}.${i + 1}`;
    if (step.kind === 'verdict') {
      const probe = pendingProbe;
      const mark = d.mark();
      if (probe) observe(d, probe);
      pendingProbe = undefined;
      if (!d.verdict || code === undefined) continue;
      const trigger = await d.verdict(channelId, code);
      const reported = trigger.status !== undefined && trigger.status < 300 ? await d.awaitVerdict(channelId, code, mark) : false;
      if (probe) probe.outcome.webhook!.verdict = { trigger, reported, code };
      steps.push({ case: { callback: 'transport.template_update', payload: { channelId, code, verdict: 'approved' }, intent: { kind: 'valid' } }, reply: trigger, module: d.module, profile: d.profile, trigger: 'transport.templateVerdict', webhook: { type: 'verdict', channelId } });
      continue;
    }
    // What the step names, bound to the gateway's state as it is now (references.ts).
    const bound = d.references ? bindStep(d.references, channelId, step.data, step.refs, conversation) : { data: step.data };
    if (step.type === 'message_sent' && bound.conversation) conversation = bound.conversation;
    // The message an event names exists (wire profile 6): a read, the customer's last message in the chat; an edit or a deletion,
    // the case's message, else the transport's last answer in the chat; none known: the event is not sent.
    const named = !step.useMessage ? messageId : step.type === 'message_read' ? (conversation?.transportMessages.at(-1) ?? messageId) : (messageId ?? conversation?.answers.at(-1));
    if (step.useMessage && named === undefined && d.references) continue;
    const data = fill({ ...step, data: bound.data }, code ?? (created ? NO_CODE : undefined), named);
    const codeMissing = (step.useCode === true && created && code === undefined) || undefined;
    const mark = d.mark();
    if (pendingProbe) {
      observe(d, pendingProbe);
      pendingProbe = undefined;
    }
    const info: WebhookStepInfo = { type: step.type, channelId, ...(codeMissing ? { codeMissing } : {}) };
    if (step.type === 'template_create') {
      info.name = data.name;
      if (batch) info.batch = true;
      info.earlier = [...codes].map(([k, name]) => ({ code: k, name }));
    }
    let reply: Reply;
    if (step.clientId) {
      count(d, channelId, `${step.type} (refused)`);
      reply = await d.sendAs(step.type, data, step.clientId === 'missing' ? undefined : d.unknownClientId, label);
    } else {
      count(d, channelId, step.type);
      reply = await d.send(step.type, data);
    }
    const outcome: WebhookOutcome = {
      case: { callback: `transport.${step.type}` as CallbackName, payload: data, intent: step.clientId ? { kind: 'refused', clientId: step.clientId } : { kind: 'valid' } },
      reply,
      module: d.module,
      profile: d.profile,
      webhook: info,
    };
    steps.push(outcome);
    if (step.clientId) {
      pendingProbe = { outcome, mark };
      continue;
    }
    const ok = reply.status !== undefined && reply.status < 300;
    if (step.type === 'template_create') {
      created = true;
      const given = ok && isObj(reply.json) && typeof reply.json.code === 'string' && reply.json.code !== '' ? reply.json.code : undefined;
      code = given;
      if (given !== undefined) codes.set(given, data.name);
    } else if (step.type === 'template_delete' && ok && typeof data.code === 'string') codes.delete(data.code);
    else if (step.type === 'message_sent' && ok && isObj(reply.json) && typeof reply.json.external_message_id === 'string' && reply.json.external_message_id !== '') messageId = reply.json.external_message_id;
  }
  // A probe that ends the case: what followed it up to now.
  if (pendingProbe) observe(d, pendingProbe);
  const main = steps.find((s) => s.case.intent.kind === 'refused') ?? steps.at(-1)!;
  return { case: c, reply: main.reply, module: d.module, profile: d.profile, steps };
}

/**
 * What the gateway saw after a refused webhook, up to the next step: for a refused
 * template_create, a template of its name reported (`POST .../templates`). Calls about other
 * templates and messages are left out: a module may report a template or acknowledge a message
 * of an earlier, authorised webhook at any time.
 */
function observe(d: WebhookDriver, probe: { outcome: WebhookOutcome; mark: number }): void {
  const w = probe.outcome.webhook!;
  if (w.type !== 'template_create') return;
  const name = (probe.outcome.case.payload as Record<string, unknown>).name;
  w.effects = d
    .callsSince(probe.mark)
    .filter((c) => c.route === 'transport.template.create' && isObj(c.payload) && c.payload.name === name)
    .map((c) => ({ route: c.route, exchange: c.exchange.id, status: c.status }));
}

/** A step's data with the case's template code and message id filled in where it uses them. */
function fill(step: WebhookStep, code: string | undefined, messageId: string | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = structuredClone(step.data);
  if (step.useCode && code !== undefined) {
    if (isObj(data.template)) data.template = { ...data.template, code };
    else data.code = code;
  }
  if (step.useMessage && messageId !== undefined) data.external_message_id = messageId;
  return data;
}

/** The webhook types a property sent, per channel: `{channel id: {type: count}}`. */
export function sentPerChannel(d: WebhookDriver): Record<string, Record<string, number>> {
  return Object.fromEntries([...d.sent].map(([ch, m]) => [String(ch), Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)))]));
}


/** Whether a saved case is a webhook case of this file (its steps are webhooks and verdicts), for `conformance replay`. */
export function isWebhookCase(c: GeneratedCase): boolean {
  const p = c.payload as Partial<WebhookCasePayload> | undefined;
  return c.callback.startsWith('transport.') && isObj(p) && typeof p.channel_id === 'number' && Array.isArray(p.steps) && p.steps.length > 0 && p.steps.every((s) => isObj(s) && (s.kind === 'webhook' || s.kind === 'verdict'));
}
