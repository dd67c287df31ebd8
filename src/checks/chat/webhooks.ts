/**
 * A transport's replies to the gateway's webhooks (document, Events and Authentication; wire
 * profile section 6), each judged on one webhook of a case (`src/properties/chat-webhooks.ts`
 * runs the cases and applies these over their steps):
 *
 * - `template_create` answers `{code}`, a non-empty string (an extra `verification_status`, the
 *   older client's form, is accepted), and no code of a live template of another name in the
 *   channel is given again (a copy of a template, same name, may share its code: the document
 *   ties several copies to one transport template);
 * - `template_update`, `template_delete` and the message webhooks `message_updated`,
 *   `message_deleted`, `message_read` are acknowledged (2xx; the body is not shown, so not judged);
 * - `message_sent` answers `{external_message_id}`, or `{error: {code, message}}` (with 200 or a
 *   4xx), or `{async: true}` (the official client's asynchronous form, its id possibly empty),
 *   and an error's code is one of the profile's five;
 * - a webhook with a missing or unknown `ClientId` is refused (a 4xx, or 200 with an error body:
 *   the gateway's `{errors: [...]}`, the module's `{success: false, errorMsg}` or
 *   `{error: ...}`), and leaves no effect the gateway can see: no template or message call of the
 *   transport between it and the authorised webhook sent right after, and a template it would
 *   have deleted still gets its verdict reported.
 */
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import type { CaseOutcome } from '../case.ts';
import { credited, isRefusal } from '../callbacks/acceptance.ts';

/** The error codes of a `message_sent` reply (wire profile section 6). */
export const MESSAGE_SENT_ERROR_CODES = ['general', 'customer_not_exists', 'reply_timed_out', 'spam_suspicion', 'access_restricted'] as const;

/** What the webhook runner records of a step beyond its reply. */
export interface WebhookStepInfo {
  type: string;
  channelId: number;
  /** The step needed the code of the case's template and the module had given none (`template_create` failed). */
  codeMissing?: boolean;
  /** template_create: the codes the module gave before for live templates of this channel, with their names. */
  earlier?: Array<{ code: string; name: unknown }>;
  /** template_create: a step of a case of template_create webhooks only (the cases the uniqueness of codes is judged on). */
  batch?: boolean;
  /** template_create: the template's name. */
  name?: unknown;
  /** A refused template_create: the transport's reports of a template of its name to the gateway after it and before the next step. */
  effects?: Array<{ route: string; exchange: string; status: number }>;
  /** A refused template_delete observed by the provider's verdict: the trigger's answer and whether the verdict reached the gateway. */
  verdict?: { trigger: Reply; reported: boolean; code: string };
}

export type WebhookOutcome = CaseOutcome & { webhook?: WebhookStepInfo };

/** A step of a webhook case sent with the ClientId (not a probe, not a trigger): what the reply checks judge, over the case's steps (`overSteps`). */
export const authorisedStep = (s: CaseOutcome): boolean => s.case.intent.kind !== 'refused' && s.trigger === undefined;
/** A step of a webhook case sent with a missing or unknown ClientId: what the refusal checks judge. */
export const probeStep = (s: CaseOutcome): boolean => s.case.intent.kind === 'refused';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const info = (o: CaseOutcome): WebhookStepInfo | undefined => (o as WebhookOutcome).webhook;
const refused = (o: CaseOutcome): boolean => o.case.intent.kind === 'refused';
const ok2xx = (r: Reply): boolean => r.status !== undefined && r.status >= 200 && r.status < 300;
const ev = (o: CaseOutcome): string[] => [o.reply.exchange.id];

function answer(r: Reply): string {
  if (r.status === undefined) return `no answer (${r.error ?? 'the connection failed'})`;
  const body = r.json !== undefined ? show(r.json, 200) : r.body.length > 0 ? show(r.body.toString('utf8'), 120) : 'an empty body';
  return `HTTP ${r.status} with ${body}`;
}

/** Steps of one authorised webhook type (not a probe). */
function authorised(o: CaseOutcome, type: string): Verdict | undefined {
  const w = info(o);
  if (!w || w.type !== type) return notApplicable(`not a ${type} webhook`);
  if (refused(o)) return notApplicable('a probe with a missing or unknown ClientId');
  return undefined;
}

export const ensureTemplateCreateAnswersCode = defineCheck<CaseOutcome>({
  name: 'ensureTemplateCreateAnswersCode',
  checks: 'template_create is answered with {code}, a non-empty string',
  run(o) {
    const na = authorised(o, 'template_create');
    if (na) return na;
    const r = o.reply;
    if (!ok2xx(r)) return fail(`template_create was answered ${answer(r)}`, 'HTTP 2xx with {code}: the code the transport assigns to the new template (document, Events)', ev(o));
    if (!isObj(r.json)) return fail(`template_create was answered ${answer(r)}: no JSON object`, '{code} with the unique template code (document, Events)', ev(o));
    const code = r.json.code;
    if (typeof code !== 'string' || code === '') return fail(`template_create was answered ${show(r.json, 200)}: code is ${code === undefined ? 'missing' : show(code)}`, '{code}: a non-empty string (document, Chat template: code string; an extra verification_status is accepted)', ev(o));
    return pass(`answered code ${show(code, 60)}`, ev(o));
  },
});

export const ensureTemplateCodeUniqueInChannel = defineCheck<CaseOutcome>({
  name: 'ensureTemplateCodeUniqueInChannel',
  checks: 'the code template_create answers is not the code of another live template of the channel',
  run(o) {
    const na = authorised(o, 'template_create');
    if (na) return na;
    const code = isObj(o.reply.json) ? o.reply.json.code : undefined;
    if (!ok2xx(o.reply) || typeof code !== 'string' || code === '') return notApplicable('no code was answered (ensureTemplateCreateAnswersCode\'s)');
    const w = info(o)!;
    // Judged on the cases that create templates only (several each), so that a failing case replays alone; every template the module got a code for counts as earlier.
    if (!w.batch) return notApplicable('a template created for a later step of its case: its code is judged with the cases of template_create alone');
    const clash = (w.earlier ?? []).find((e) => e.code === code && e.name !== w.name);
    if (clash) return fail(`template ${show(w.name, 60)} of channel ${w.channelId} got code ${show(code, 60)}, already the code of template ${show(clash.name, 60)} of the channel`, 'a code unique within the channel (document, Chat template: code unique within the channel)', ev(o));
    return pass(`code ${show(code, 60)} is new in channel ${w.channelId} (${w.earlier?.length ?? 0} earlier template code(s))`, ev(o));
  },
});

/** A webhook whose reply is only an acknowledgement (its body not shown): answered 2xx. */
function acknowledged(name: string, types: readonly string[], says: string): ReturnType<typeof defineCheck<CaseOutcome>> {
  return defineCheck<CaseOutcome>({
    name,
    checks: `${types.join(', ')} ${types.length > 1 ? 'are' : 'is'} acknowledged with HTTP 2xx`,
    run(o) {
      const w = info(o);
      if (!w || !types.includes(w.type)) return notApplicable(`not a ${types.join('/')} webhook`);
      if (refused(o)) return notApplicable('a probe with a missing or unknown ClientId');
      if (w.codeMissing) return notApplicable('the template\'s template_create got no code (ensureTemplateCreateAnswersCode\'s)');
      if (!ok2xx(o.reply)) return fail(`${w.type} was answered ${answer(o.reply)}`, `HTTP 2xx: ${says}`, ev(o));
      return pass(`${w.type} answered HTTP ${o.reply.status}`, ev(o));
    },
  });
}

export const ensureTemplateUpdateAcknowledged = acknowledged('ensureTemplateUpdateAcknowledged', ['template_update'], 'the edited template (with the code the transport gave) is taken (document, Events; Chat template verification: resubmitted templates are verified again)');
export const ensureTemplateDeleteAcknowledged = acknowledged('ensureTemplateDeleteAcknowledged', ['template_delete'], 'the deletion of the template (channel_id, code, lang) is taken (document, Events)');
export const ensureMessageWebhookAcknowledged = acknowledged(
  'ensureMessageWebhookAcknowledged',
  ['message_updated', 'message_deleted', 'message_read'],
  'a webhook of a type the channel enables is taken (wire profile section 6: the gateway sends these types where the settings enable them)',
);

export const ensureMessageSentAnswersReply = defineCheck<CaseOutcome>({
  name: 'ensureMessageSentAnswersReply',
  checks: 'message_sent is answered with {external_message_id}, {error: {code, message}} or {async: true}',
  run(o) {
    const na = authorised(o, 'message_sent');
    if (na) return na;
    const r = o.reply;
    const expected = '{external_message_id} (a non-empty string), or {error: {code, message}} with HTTP 200 or 4xx, or {async: true} (wire profile section 6)';
    if (r.status === undefined || r.status >= 500 || r.status < 200 || (r.status >= 300 && r.status < 400)) return fail(`message_sent was answered ${answer(r)}`, expected, ev(o));
    if (!isObj(r.json)) return fail(`message_sent was answered ${answer(r)}: no JSON object`, expected, ev(o));
    const j = r.json;
    if (isObj(j.error)) return pass(`answered the error form (code ${show(j.error.code, 40)})${j.error.message === undefined || j.error.message === null ? '; absent, not judged: message' : ''}`, ev(o));
    if (!ok2xx(r)) return fail(`message_sent was answered ${answer(r)}: an error status without the error form`, expected, ev(o));
    if (typeof j.external_message_id === 'string' && j.external_message_id !== '') return pass(`answered external_message_id ${show(j.external_message_id, 60)}`, ev(o));
    if (j.async === true && (j.external_message_id === undefined || typeof j.external_message_id === 'string')) return pass('answered async: true (the message id follows later)', ev(o));
    return fail(`message_sent was answered ${show(j, 200)}: ${j.external_message_id === undefined ? 'no external_message_id' : `external_message_id ${show(j.external_message_id, 60)}`}, no error, not async`, expected, ev(o));
  },
});

export const ensureMessageSentErrorCodeKnown = defineCheck<CaseOutcome>({
  name: 'ensureMessageSentErrorCodeKnown',
  checks: 'the error code of a message_sent reply is one of general, customer_not_exists, reply_timed_out, spam_suspicion, access_restricted',
  run(o) {
    const na = authorised(o, 'message_sent');
    if (na) return na;
    const j = o.reply.json;
    if (!isObj(j) || !isObj(j.error)) return notApplicable('the reply is no error');
    const code = j.error.code;
    if (typeof code !== 'string' || !(MESSAGE_SENT_ERROR_CODES as readonly string[]).includes(code)) {
      return fail(`message_sent was answered the error ${show(j.error, 200)}: code ${code === undefined ? 'missing' : show(code, 60)}`, `error.code one of ${MESSAGE_SENT_ERROR_CODES.join(', ')} (wire profile section 6)`, ev(o));
    }
    return pass(`error code ${code}`, ev(o));
  },
});


export const ensureWebhookWithoutClientIdRefused = defineCheck<CaseOutcome>({
  name: 'ensureWebhookWithoutClientIdRefused',
  checks: 'a webhook with a missing or unknown ClientId header is refused',
  run(o) {
    const w = info(o);
    if (!w || o.case.intent.kind !== 'refused') return notApplicable('not a probe of the ClientId header');
    const presented = o.case.intent.clientId === 'missing' ? 'without a ClientId header' : 'with a ClientId the module never gave';
    if (isRefusal(o.reply)) return credited(o, pass(`${w.type} ${presented} refused: HTTP ${o.reply.status}`, ev(o)));
    return fail(`${w.type} ${presented} was answered ${answer(o.reply)}`, 'a refusal: HTTP 4xx, or 200 with an error body ({errors: [...]} or {success: false, errorMsg}); the ClientId header identifies the account (document, Authentication)', ev(o));
  },
});

export const ensureRefusedWebhookLeftNoEffect = defineCheck<CaseOutcome>({
  name: 'ensureRefusedWebhookLeftNoEffect',
  checks: 'a webhook refused for its ClientId leaves no effect the gateway can see',
  run(o) {
    const w = info(o);
    if (!w || o.case.intent.kind !== 'refused') return notApplicable('not a probe of the ClientId header');
    if (!isRefusal(o.reply)) return notApplicable(`the webhook was not refused (${answer(o.reply)}): ensureWebhookWithoutClientIdRefused's`);
    if (w.codeMissing) return notApplicable('the template\'s template_create got no code (ensureTemplateCreateAnswersCode\'s)');
    const presented = o.case.intent.clientId === 'missing' ? 'without a ClientId header' : 'with a ClientId the module never gave';
    const effects = w.effects ?? [];
    if (effects.length > 0) {
      return fail(`after ${w.type} ${presented} was refused, the transport reported its template to the gateway: ${effects.map((e) => `${e.route} (HTTP ${e.status})`).join(', ')}`, 'no effect of a refused webhook: no template reported for it', [...ev(o), ...effects.map((e) => e.exchange)]);
    }
    if (w.verdict) {
      const t = w.verdict.trigger;
      if (w.verdict.reported) return credited(o, pass(`refused (HTTP ${o.reply.status}); the template ${show(w.verdict.code, 60)} it named still got its verdict reported`, [...ev(o), t.exchange.id]));
      if (t.status === undefined || !ok2xx(t)) return fail(`after template_delete ${presented} was refused, the provider's verdict on template ${show(w.verdict.code, 60)} was refused by the transport: ${answer(t)}`, 'the template is still known to the transport: its verdict is reported to the gateway as if the refused webhook had not come', [...ev(o), t.exchange.id]);
      return notApplicable(`the verdict trigger was acknowledged but no verdict reached the gateway: judged by the template rules`);
    }
    if (w.effects) return credited(o, pass(`refused (HTTP ${o.reply.status}); no template of its name was reported to the gateway after it`, ev(o)));
    return notApplicable(`nothing the gateway could show of a refused ${w.type}`);
  },
});
