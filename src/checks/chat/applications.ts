/**
 * The application table of the chat area: which check is applied to which property, call or
 * session judgement, with its requirement ids and severity (`Row`, `src/checks/apply.ts`). The
 * transport's webhooks and template sequences and the bot's events are properties (their names
 * are the rows' `to`; `src/properties/chat-*.ts` run them); the bot's commands, socket and
 * reconnection and the rate limit are judged by the specs of `specs/chat/`; the template calls
 * no step judged and every call to the gateway are judged when the session ends
 * (`src/run/template-calls.ts`, `src/run/gateway-calls.ts`).
 */
import { applyTo, forProperty, row, use, type Row, type Use } from '../apply.ts';
import { overSteps } from '../adapt.ts';
import type { CaseOutcome } from '../case.ts';
import type { Api } from '../../simulators/gateway-records.ts';
import {
  authorisedStep,
  ensureMessageSentAnswersReply,
  ensureMessageSentErrorCodeKnown,
  ensureMessageWebhookAcknowledged,
  ensureRefusedWebhookLeftNoEffect,
  ensureTemplateCodeUniqueInChannel,
  ensureTemplateCreateAnswersCode,
  ensureTemplateDeleteAcknowledged,
  ensureTemplateUpdateAcknowledged,
  ensureWebhookWithoutClientIdRefused,
  probeStep,
} from './webhooks.ts';
import {
  ensureTemplateAttachmentTypesAreKnown,
  ensureTemplateButtonTypesAreKnown,
  ensureTemplateCallMatchesSchema,
  ensureTemplateCallsAreAccepted,
  ensureTemplateQualityIsKnown,
  ensureTemplateQuickRepliesWithinLimit,
  ensureTemplateRejectionReasonIsKnown,
  ensureTemplateReportCarriesFields,
  ensureTemplateReportIsPosted,
  ensureTemplateUpdateCarriesFields,
  ensureTemplateUrlButtonsHaveUrl,
  ensureTemplateVerdictFollowsTable,
  ensureTemplateVerdictIsReported,
  ensureTemplateVerificationStatusIsKnown,
  onTemplateStep,
} from './templates.ts';
import type { TemplateSubject } from './template-views.ts';
import {
  ensureBotAnswersInItsChat,
  ensureBotCommandBodyIsNameDescription,
  ensureBotCommandDescriptionFits,
  ensureBotCommandsArePut,
  ensureBotListensOnSocket,
  ensureBotMessageBody,
  ensureBotRegistersCommandsAfterRegistration,
  ensureBotSocketAddress,
  ensureBotSocketCarriesToken,
} from './bot.ts';
import { ensureBotPausesBeforeRedialing, ensureBotReconnectIsNotTightLoop, ensureBotReconnectsAfterAbnormalClose, ensureBotReconnectsAfterNormalClose } from './bot-reconnect.ts';
import { ensureEveryMessageArrives, ensureRateBacksOff, ensureRetryKeepsExternalId } from './rate.ts';
import {
  ensureChannelSettingsAreLegal,
  ensureGatewayAcceptedCall,
  ensureGatewayCallAtKnownEndpoint,
  ensureGatewayCallCarriesToken,
  ensureGatewayTokenIsFromRegistration,
  type ChannelBodies,
  type SettingsAspect,
} from './gateway-calls.ts';

// ---- the properties -----------------------------------------------------------------------------

/** The gateway's webhooks of the types each channel enables (`src/properties/chat-webhooks.ts`). */
export const CHAT_WEBHOOKS = 'transport webhooks: each channel\'s enabled types';
/** Webhooks with a missing or unknown ClientId. */
export const CHAT_WEBHOOK_PROBES = 'transport webhooks: a missing or unknown ClientId';

/** The webhook checks, each over the steps of a case it judges. */
export const WEBHOOK_ROWS: ReadonlyArray<Row<CaseOutcome>> = [
  ...forProperty(CHAT_WEBHOOKS, [
    use(overSteps(ensureTemplateCreateAnswersCode, authorisedStep), ['TRN-TEMPLATE-CREATE-REPLY-CODE', 'TRN-TEMPLATE-CODE-STRING']),
    use(overSteps(ensureTemplateCodeUniqueInChannel, authorisedStep), ['TRN-TEMPLATE-CODE-UNIQUE-IN-CHANNEL']),
    use(overSteps(ensureTemplateUpdateAcknowledged, authorisedStep), ['TRN-WEBHOOKURL-GIVEN']),
    use(overSteps(ensureTemplateDeleteAcknowledged, authorisedStep), ['TRN-WEBHOOKURL-GIVEN']),
    use(overSteps(ensureMessageWebhookAcknowledged, authorisedStep), ['WIRE-TRN-WEBHOOK-ANSWERED']),
    use(overSteps(ensureMessageSentAnswersReply, authorisedStep), ['WIRE-TRN-MESSAGE-SENT-REPLY']),
    use(overSteps(ensureMessageSentErrorCodeKnown, authorisedStep), ['WIRE-TRN-MESSAGE-SENT-ERROR-CODES']),
  ]),
  ...forProperty(CHAT_WEBHOOK_PROBES, [
    use(overSteps(ensureWebhookWithoutClientIdRefused, probeStep), ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']),
    use(overSteps(ensureRefusedWebhookLeftNoEffect, probeStep), ['WIRE-GEN-BAD-CLIENTID-NO-ACTION']),
  ]),
];

/** Template sequences: created, verdicts, resubmitted, edited, deleted, reported templates over the verification table (`template-sequences.ts`). */
export const TEMPLATE_SEQUENCES = 'chat: template sequences';
/** The template calls no template step judged, once, when the session ends (`src/run/template-calls.ts`). */
export const TEMPLATE_CALLS = 'chat: template calls no step judged';

/** The template checks that judge calls' content: over every step of a sequence, and on every template call of the session no step judged. */
const TEMPLATE_CALL_USES: ReadonlyArray<Use<TemplateSubject>> = [
  use(ensureTemplateVerdictFollowsTable, ['TRN-VERIFY-APPROVED-VIA-PUT', 'TRN-VERIFY-REJECTED-VIA-PUT', 'TRN-TEMPLATE-UPDATE-PUT']),
  use(ensureTemplateVerificationStatusIsKnown, ['TRN-TEMPLATE-VERIFICATION-VALUES']),
  use(ensureTemplateRejectionReasonIsKnown, ['TRN-TEMPLATE-REJECTION-REASON-VALUES']),
  use(ensureTemplateQualityIsKnown, ['WIRE-TRN-TEMPLATE-QUALITY-VALUES']),
  use(ensureTemplateUpdateCarriesFields, ['TRN-TEMPLATE-UPDATE-FIELDS']),
  use(ensureTemplateReportCarriesFields, ['TRN-TEMPLATE-REPORT-FIELDS']),
  use(ensureTemplateQuickRepliesWithinLimit, ['TRN-TEMPLATE-QUICK-REPLIES-MAX-10']),
  use(ensureTemplateAttachmentTypesAreKnown, ['TRN-TEMPLATE-ATTACHMENT-TYPES']),
  use(ensureTemplateButtonTypesAreKnown, ['TRN-TEMPLATE-BUTTON-TYPES']),
  use(ensureTemplateUrlButtonsHaveUrl, ['TRN-TEMPLATE-URL-BUTTON-URL']),
  use(ensureTemplateCallMatchesSchema, ['TRN-TEMPLATE-HEADER-SHAPE', 'TRN-TEMPLATE-ATTACHMENTS-REPLACE-HEADER', 'TRN-TEMPLATE-EXAMPLES-SHAPE', 'TRN-TEMPLATE-NAME-STRING', 'TRN-TEMPLATE-FOOTER-STRING', 'TRN-TEMPLATE-BUTTONS-ITEMS', 'TRN-TEMPLATE-PHONE-BUTTON-PHONE']),
  use(ensureTemplateCallsAreAccepted, []),
];

/** The step-only template checks (a trigger asked for a call): judged in the sequences alone. */
export const TEMPLATE_STEP_USES: ReadonlyArray<Use<TemplateSubject>> = [
  use(ensureTemplateVerdictIsReported, ['TRN-VERIFY-APPROVED-VIA-PUT', 'TRN-VERIFY-REJECTED-VIA-PUT']),
  use(ensureTemplateReportIsPosted, ['TRN-TEMPLATE-REPORT-POST']),
];

/** The checks of a template sequence, each over every step (on a template step's view, `onTemplateStep`). */
export const TEMPLATE_SEQUENCE_ROWS: ReadonlyArray<Row<CaseOutcome>> = forProperty(
  TEMPLATE_SEQUENCES,
  [...TEMPLATE_STEP_USES, ...TEMPLATE_CALL_USES].map((u) => ({ ...u, check: overSteps(onTemplateStep(u.check)) })),
);

/** The content checks on the template calls no step judged. */
export const TEMPLATE_CALL_ROWS: ReadonlyArray<Row<TemplateSubject>> = applyTo(TEMPLATE_CALLS, TEMPLATE_CALL_USES);

// ---- the bot ------------------------------------------------------------------------------------

/** `bot events`: commands and new messages sent on the socket, the answers judged (`src/properties/chat-bot.ts`). */
export const BOT_EVENTS = 'chat bot: events on the WebSocket';
/** The bot spec's judgements (`specs/chat/bot.spec.ts`). */
export const BOT_COMMANDS = 'chat bot: commands';
export const BOT_SOCKET = 'chat bot: the WebSocket';
export const BOT_RECONNECT = 'chat bot: reconnection';

export const BOT_EVENT_ROWS: ReadonlyArray<Row<CaseOutcome>> = forProperty(BOT_EVENTS, [
  // "Bot listens to events, then acts through Bot API calls": the action on a command is in its chat.
  use(ensureBotAnswersInItsChat, ['BOT-WEBSOCKET-LISTEN']),
  use(ensureBotMessageBody, ['WIRE-BOT-MESSAGES-BODY']),
]);

export const BOT_COMMAND_ROWS = applyTo(BOT_COMMANDS, [
  use(ensureBotCommandsArePut, ['BOT-COMMANDS-PUT']),
  use(ensureBotCommandBodyIsNameDescription, ['WIRE-BOT-COMMAND-BODY']),
  use(ensureBotCommandDescriptionFits, ['WIRE-BOT-COMMAND-DESCRIPTION-MAX-64']),
  use(ensureBotRegistersCommandsAfterRegistration, ['BOT-COMMANDS-AFTER-REGISTRATION']),
]);

export const BOT_SOCKET_ROWS = applyTo(BOT_SOCKET, [
  use(ensureBotSocketCarriesToken, ['WIRE-BOT-WS-TOKEN-HEADER', 'BOT-AUTH-TOKEN-HEADER']),
  use(ensureBotSocketAddress, ['WIRE-BOT-WS-URL']),
  use(ensureBotListensOnSocket, ['BOT-WEBSOCKET-LISTEN']),
]);

/**
 * The reconnection: after each close, not a tight loop, a pause before the redial. The pause
 * before the first redial is a SHOULD below the MUST of BOT-RECONNECT-AFTER-CLOSE
 * (`levelReason`): "after a timeout" gives no length, and the official bot dials again at once.
 */
export const BOT_RECONNECT_ROWS = applyTo(BOT_RECONNECT, [
  use(ensureBotReconnectsAfterAbnormalClose, ['BOT-RECONNECT-AFTER-CLOSE']),
  use(ensureBotReconnectsAfterNormalClose, ['BOT-RECONNECT-AFTER-CLOSE']),
  use(ensureBotReconnectIsNotTightLoop, ['BOT-RECONNECT-AFTER-CLOSE']),
  use(ensureBotPausesBeforeRedialing, ['BOT-RECONNECT-AFTER-CLOSE'], 'SHOULD', {
    levelReason: 'the timeout has no stated length, and the official bot (mg-bot-helper) dials again at once: a redial within 100 ms warns',
  }),
]);

// ---- the rate limit -----------------------------------------------------------------------------

/** The rate limit spec's judgements (`specs/chat/rate-limit.spec.ts`). */
export const RATE_TRANSPORT = 'chat rate limit: the transport';
export const RATE_BOT = 'chat rate limit: the bot';

/** The limit itself: 30 a second per token (MUST). The resends after a 429 are SHOULD, the catalogue's level (`WHY_SHOULD`, rate.ts). */
const BACKS_OFF = use(ensureRateBacksOff, ['GEN-RATE-30-PER-SECOND']);

export const RATE = {
  transport: {
    arrives: row(RATE_TRANSPORT, ensureEveryMessageArrives, ['TRN-RATE-LIMIT-BACKOFF'], 'SHOULD'),
    keepsExternalId: row(RATE_TRANSPORT, ensureRetryKeepsExternalId, ['TRN-RATE-LIMIT-BACKOFF'], 'SHOULD'),
    backsOff: { ...BACKS_OFF, to: RATE_TRANSPORT },
  },
  bot: {
    arrives: row(RATE_BOT, ensureEveryMessageArrives, ['BOT-RATE-LIMIT-BACKOFF'], 'SHOULD'),
    backsOff: { ...BACKS_OFF, to: RATE_BOT },
  },
};

/** The transport drive's rows, in the order applied. */
export const RATE_TRANSPORT_ROWS: ReadonlyArray<Row<never>> = [RATE.transport.arrives, RATE.transport.keepsExternalId, RATE.transport.backsOff];
/** The bot drive's rows, in the order applied. */
export const RATE_BOT_ROWS: ReadonlyArray<Row<never>> = [RATE.bot.arrives, RATE.bot.backsOff];

// ---- the gateway calls, when the session ends ---------------------------------------------------

/** The judgement of every call of one API to the gateway (`src/run/gateway-calls.ts`). */
export const GATEWAY_CALLS: Readonly<Record<Api, string>> = { transport: 'chat gateway calls: the Transport API', bot: 'chat gateway calls: the Bot API' };
/** The judgement of the transport's channel activation and update bodies. */
export const CHANNEL_BODIES = 'chat gateway calls: the channel bodies';

/** One API's checks: the token and its origin, the base, the endpoints, the JSON bodies, the other refusals. */
function apiRows(api: Api, ids: Record<'token' | 'origin' | 'base' | 'paths' | 'json' | 'other', string[]>) {
  const to = GATEWAY_CALLS[api];
  return {
    token: row(to, ensureGatewayCallCarriesToken, ids.token),
    origin: row(to, ensureGatewayTokenIsFromRegistration, ids.origin),
    base: row(to, ensureGatewayCallAtKnownEndpoint, ids.base),
    paths: row(to, ensureGatewayCallAtKnownEndpoint, ids.paths),
    json: row(to, ensureGatewayAcceptedCall, ids.json),
    other: row(to, ensureGatewayAcceptedCall, ids.other),
  };
}

export const GATEWAY = {
  transport: apiRows('transport', {
    token: ['TRN-AUTH-TOKEN-HEADER'],
    origin: ['TRN-AUTH-TOKEN-FROM-REGISTRATION'],
    base: ['TRN-API-BASE-PATH', 'WIRE-TRN-ENDPOINTURL-BASE'],
    paths: ['WIRE-TRN-API-PATHS'],
    json: ['WIRE-TRN-API-JSON'],
    other: [],
  }),
  bot: apiRows('bot', {
    token: ['BOT-AUTH-TOKEN-HEADER'],
    origin: ['BOT-AUTH-TOKEN-FROM-REGISTRATION'],
    base: ['BOT-API-BASE-PATH', 'WIRE-BOT-ENDPOINTURL-BASE'],
    // The Bot API's endpoints are the official bot clients' (the document: "not shown"; the profile names two).
    paths: [],
    json: [],
    other: [],
  }),
};

/** The channel bodies' checks, one per aspect, in the order applied. */
export const CHANNEL_SETTINGS: ReadonlyArray<Row<ChannelBodies> & { aspect: SettingsAspect }> = [
  { aspect: 'new_customer', ...row(CHANNEL_BODIES, ensureChannelSettingsAreLegal, ['TRN-POLICY-NEW-CUSTOMER-VALUES']) },
  { aspect: 'after_reply_timeout', ...row(CHANNEL_BODIES, ensureChannelSettingsAreLegal, ['TRN-POLICY-AFTER-REPLY-VALUES']) },
  { aspect: 'template.creation', ...row(CHANNEL_BODIES, ensureChannelSettingsAreLegal, ['TRN-TEMPLATE-CREATION-BOOLEAN']) },
  { aspect: 'features', ...row(CHANNEL_BODIES, ensureChannelSettingsAreLegal, ['WIRE-TRN-CHANNEL-FEATURE-VALUES']) },
  { aspect: 'body', ...row(CHANNEL_BODIES, ensureChannelSettingsAreLegal, ['WIRE-TRN-CHANNEL-ACTIVATION-BODY']) },
];

const apiRowList = (api: Api): Array<Row<never>> => {
  const r = GATEWAY[api];
  return [r.token, r.origin, r.base, r.paths, r.json, r.other];
};

/** Every row of the area, in the order they are applied. */
export const CHAT_ROWS: ReadonlyArray<Row<never>> = [
  ...WEBHOOK_ROWS,
  ...TEMPLATE_SEQUENCE_ROWS,
  ...BOT_COMMAND_ROWS,
  ...BOT_SOCKET_ROWS,
  ...BOT_EVENT_ROWS,
  ...BOT_RECONNECT_ROWS,
  ...RATE_TRANSPORT_ROWS,
  ...RATE_BOT_ROWS,
  ...apiRowList('transport'),
  ...CHANNEL_SETTINGS,
  ...apiRowList('bot'),
  ...TEMPLATE_CALL_ROWS,
];
