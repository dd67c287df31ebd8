/**
 * The chat bot (`mgBot`) toward the gateway: its commands, its WebSocket, its answers and its
 * reconnection (document, Chat transport and chat bot; wire profile section 6; the official
 * client `retailcrm/mg-bot-api-client-go` and bot `retailcrm/mg-bot-helper` for what a correct
 * bot does where the documents leave it open).
 *
 * - Commands: `PUT {gateway_url}/my/commands/{name}` ("Register a command; done right after
 *   registration when the bot reacts to commands"), never POST; body `{name, description}`,
 *   description at most 64 characters (profile). "Right after registration": the first command
 *   registration (PUT, or a POST judged by the method rule) arrives within the run's flow timeout
 *   (`flowTimeoutMs`) of the system's reply to the accepted registration, without anything asked
 *   of the bot in between. A bot that registers no command and does not react to a command sent
 *   to it has no commands: not applicable. A bot that registers none but answers a command does
 *   react to commands: it fails.
 * - WebSocket: `{endpointUrl as ws/wss}/api/bot/v1/ws?events=<comma list>` with `X-Bot-Token`
 *   (profile). The scheme follows the gateway's: over https only wss reaches it (the upgrade is
 *   recorded as wss), over http ws; a bot is never failed for the scheme the gateway serves.
 * - Answers: a command in a chat answered through the Bot API (`POST /messages`) into that chat,
 *   with a body `{chat_id, scope, type, content}` (profile; `v1.MessageSendRequest`). A command
 *   left unanswered, and any plain message, are not judged: the documents require no answer.
 *   An answer refused for its token (401) or the rate (429) belongs to other checks.
 * - Reconnection: `bot-reconnect.ts`.
 */
import { defineCheck, fail, notApplicable, pass, show, type Verdict } from '../check.ts';
import type { CaseOutcome } from '../case.ts';

// ---- commands ------------------------------------------------------------------------------------

/** A call of the module to a `/my/commands` path (prefixed or not), as recorded. */
export interface CommandCall {
  exchangeId: string;
  method: string;
  /** The path (no query). */
  path: string;
  /** The `{name}` of the path, when it has one. */
  name?: string;
  /** Epoch ms when the call began. */
  at: number;
  status?: number;
  /** The decoded JSON body, or why it could not be decoded. */
  body?: unknown;
  decodeError?: string;
}

export interface BotCommandsSubject {
  calls: CommandCall[];
  /** Epoch ms of the system's reply to the accepted registration (undefined: registration given in the configuration). */
  registeredAt?: number;
  /** How long after the registration the first command registration may come (`flowTimeoutMs`). */
  boundMs: number;
  /** What a command sent to a bot that registered none showed: it answered through the Bot API, or not. */
  probe?: { answered: boolean; exchangeId?: string; detail: string };
}

const COMMANDS_PATH = /(?:^|\/)my\/commands(?:\/([^/]+))?\/?$/;

/** The `/my/commands` paths: `{matches, name}`. */
export function commandPath(path: string): { matches: boolean; name?: string } {
  const m = COMMANDS_PATH.exec(path);
  if (!m) return { matches: false };
  return { matches: true, ...(m[1] !== undefined ? { name: decodeURIComponent(m[1]) } : {}) };
}

/** Refusals judged elsewhere: the token (401) and the rate (429). */
const judgedElsewhere = (status: number | undefined): boolean => status === 401 || status === 429;

/** Methods of the Bot API at `/my/commands` besides PUT: the list (GET) and the removal (DELETE) of the official client. */
const OTHER_COMMAND_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

export const ensureBotCommandsArePut = defineCheck<BotCommandsSubject>({
  name: 'ensureBotCommandsArePut',
  checks: 'the bot registers its commands with PUT /my/commands/{name}, never with POST (or another method)',
  run(s) {
    const writes = s.calls.filter((c) => !OTHER_COMMAND_METHODS.has(c.method) && !judgedElsewhere(c.status));
    if (writes.length === 0) return notApplicable('the bot registered no command');
    const wrong = writes.filter((c) => c.method !== 'PUT' || c.name === undefined);
    if (wrong.length > 0) {
      const w = wrong[0]!;
      return fail(`${w.method} ${w.path}${w.status !== undefined ? ` (answered ${w.status})` : ''}${wrong.length > 1 ? `, and ${wrong.length - 1} more such call(s)` : ''}`, 'PUT {gateway_url}/my/commands/{name} (document, Chat transport and chat bot); never POST', wrong.map((c) => c.exchangeId).slice(0, 5));
    }
    return pass(`${writes.length} command registration(s), each PUT /my/commands/{name}: ${[...new Set(writes.map((c) => c.name))].join(', ')}`, writes.map((c) => c.exchangeId).slice(0, 5));
  },
});

const puts = (s: BotCommandsSubject): CommandCall[] => s.calls.filter((c) => c.method === 'PUT' && c.name !== undefined && !judgedElsewhere(c.status));

export const ensureBotCommandBodyIsNameDescription = defineCheck<BotCommandsSubject>({
  name: 'ensureBotCommandBodyIsNameDescription',
  checks: 'the body of PUT /my/commands/{name} is a JSON object {name, description} with both strings',
  run(s) {
    const list = puts(s);
    if (list.length === 0) return notApplicable('the bot made no PUT /my/commands/{name}');
    for (const c of list) {
      const b = c.body;
      let why: string | undefined;
      if (c.decodeError !== undefined) why = c.decodeError;
      else if (typeof b !== 'object' || b === null || Array.isArray(b)) why = `the body is ${show(b)}, not a JSON object`;
      else {
        const o = b as Record<string, unknown>;
        if (typeof o.name !== 'string' || o.name === '') why = `name is ${show(o.name)}`;
        else if (typeof o.description !== 'string') why = `description is ${show(o.description)}`;
      }
      if (why) return fail(`PUT ${c.path}: ${why}`, 'a body {name, description}: the command name and its description, both strings (wire profile 6)', [c.exchangeId]);
    }
    return pass(`${list.length} command body(ies) {name, description}`, list.map((c) => c.exchangeId).slice(0, 5));
  },
});

/** Length in characters (code points), as the gateway counts a description. */
export const characters = (s: string): number => [...s].length;

export const ensureBotCommandDescriptionFits = defineCheck<BotCommandsSubject>({
  name: 'ensureBotCommandDescriptionFits',
  checks: 'a command description holds at most 64 characters',
  run(s) {
    const list = puts(s).filter((c) => typeof (c.body as Record<string, unknown> | undefined)?.description === 'string');
    if (list.length === 0) return notApplicable('no command body with a description (ensureBotCommandBodyIsNameDescription judges the body)');
    const long = list.find((c) => characters((c.body as { description: string }).description) > 64);
    if (long) {
      const d = (long.body as { description: string }).description;
      return fail(`PUT ${long.path}: a description of ${characters(d)} characters: ${show(d, 120)}`, 'at most 64 characters (wire profile 6)', [long.exchangeId]);
    }
    const max = Math.max(...list.map((c) => characters((c.body as { description: string }).description)));
    return pass(`${list.length} description(s), the longest ${max} characters`, list.map((c) => c.exchangeId).slice(0, 5));
  },
});

export const ensureBotRegistersCommandsAfterRegistration = defineCheck<BotCommandsSubject>({
  name: 'ensureBotRegistersCommandsAfterRegistration',
  checks: 'a bot that reacts to commands registers them right after its registration (within the flow timeout of the accepted registration)',
  run(s) {
    // PUT, or another write judged by the method rule: the registration of a command was attempted.
    const writes = s.calls.filter((c) => !OTHER_COMMAND_METHODS.has(c.method) && c.name !== undefined && !judgedElsewhere(c.status));
    if (writes.length === 0) {
      if (s.probe?.answered) return fail(`no command registered, yet the bot answered a command sent to it (${s.probe.detail})`, 'a bot that reacts to commands registers them with PUT /my/commands/{name} right after its registration', s.probe.exchangeId ? [s.probe.exchangeId] : undefined);
      return notApplicable(`the bot registered no command and ${s.probe ? `did not react to a command sent to it (${s.probe.detail})` : 'no command could be sent to it'}: a bot without commands`);
    }
    const first = writes.reduce((a, b) => (b.at < a.at ? b : a));
    if (s.registeredAt === undefined) return pass(`command ${JSON.stringify(first.name)} registered (the registration was given in the configuration: its time is unknown)`, [first.exchangeId]);
    const after = first.at - s.registeredAt;
    if (after > s.boundMs) return fail(`the first command registration (${first.method} ${first.path}) came ${Math.round(after)} ms after the registration`, `right after the registration: within ${s.boundMs} ms (flowTimeoutMs)`, [first.exchangeId]);
    return pass(`the first command registration came ${Math.max(0, Math.round(after))} ms after the registration`, [first.exchangeId]);
  },
});

// ---- the WebSocket -------------------------------------------------------------------------------

/** An upgrade request of the bot, as the gateway recorded it. */
export interface SocketAttempt {
  exchangeId: string;
  at: number;
  /** The full address as the gateway saw it (ws:// or wss://, by the gateway's scheme). */
  url: string;
  token: 'missing' | 'bot' | 'unknown';
  status: number;
}

export interface BotSocketSubject {
  attempts: SocketAttempt[];
  /** The gateway serves https (so the bot must use wss). */
  tls: boolean;
  /** Whether a connection opened with the bot's token within the wait. */
  connected: boolean;
  /** How long the suite waited for a connection (ms). */
  waitedMs: number;
  /** The bot's connections (upgrades answered 101) and how each ended, oldest first: what a bot that connected and left did. */
  connections?: BotStay[];
}

/** One connection of the bot: when it opened, and when and how it closed (epoch ms). */
export interface BotStay {
  exchangeId: string;
  connectedAt: number;
  closedAt?: number;
  /** The close code the gateway saw (1006: dropped without a close frame). */
  closeCode?: number;
  closedBy?: 'gateway' | 'bot';
}

/** Why no connection was open at the end of the wait, in words: never opened, or opened and left (when, with which code). */
export function noConnectionWords(s: BotSocketSubject): string {
  if (s.attempts.length === 0) return `no WebSocket upgrade within ${s.waitedMs} ms`;
  const stays = (s.connections ?? []).filter((c) => c.closedAt !== undefined);
  const requests = `${s.attempts.length} upgrade request(s)`;
  if (stays.length === 0) return `no connection opened within ${s.waitedMs} ms (${requests}, answered ${[...new Set(s.attempts.map((a) => a.status))].join(', ')})`;
  const left = (c: BotStay): string => `${Math.round(c.closedAt! - c.connectedAt)} ms after connecting (close code ${c.closeCode ?? 'none'}${c.closedBy ? `, closed by the ${c.closedBy}` : ''})`;
  const told =
    stays.length === 1
      ? `the bot connected (upgrade answered 101) and closed its socket ${left(stays[0]!)}`
      : `the bot connected ${stays.length} times (upgrades answered 101) and left each: ${stays.slice(0, 5).map(left).join('; ')}${stays.length > 5 ? '; …' : ''}`;
  return `${told}; no connection open at the end of the ${s.waitedMs} ms wait (${requests})`;
}

export const ensureBotSocketCarriesToken = defineCheck<BotSocketSubject>({
  name: 'ensureBotSocketCarriesToken',
  checks: 'the bot opens its WebSocket with the header X-Bot-Token carrying its token',
  run(s) {
    const judged = s.attempts.filter((a) => a.status !== 404);
    if (judged.length === 0) return notApplicable('the bot asked for no upgrade at the WebSocket path');
    const bad = judged.filter((a) => a.token !== 'bot');
    if (bad.length > 0) {
      const b = bad[0]!;
      return fail(`${bad.length} of ${judged.length} upgrade request(s) ${b.token === 'missing' ? 'without the X-Bot-Token header' : 'with an X-Bot-Token that is not the bot\'s token'} (refused ${b.status})`, 'the header X-Bot-Token: <the token of info.mgBot.token> on the upgrade (wire profile 6)', bad.map((a) => a.exchangeId).slice(0, 5));
    }
    return pass(`${judged.length} upgrade request(s), each with the bot's X-Bot-Token`, judged.map((a) => a.exchangeId).slice(0, 3));
  },
});

/** The path, and the events parameter, of an upgrade address: undefined when it is right, else why not. */
export function socketAddressProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${show(url)} is no address`;
  }
  if (u.pathname.replace(/\/$/, '') !== '/api/bot/v1/ws') return `the path is ${u.pathname}, not /api/bot/v1/ws`;
  const events = u.searchParams.get('events');
  if (events === null) return 'no events parameter';
  if (events.split(',').every((e) => e.trim() === '')) return 'an empty events list';
  return undefined;
}

export const ensureBotSocketAddress = defineCheck<BotSocketSubject>({
  name: 'ensureBotSocketAddress',
  checks: 'the bot WebSocket address is {endpointUrl as ws/wss}/api/bot/v1/ws?events=<comma list> (wss when the gateway is https)',
  run(s) {
    if (s.attempts.length === 0) return notApplicable('the bot asked for no WebSocket upgrade');
    for (const a of s.attempts) {
      const problem = socketAddressProblem(a.url);
      if (problem) return fail(`${a.url}: ${problem}`, '{endpointUrl as ws/wss}/api/bot/v1/ws?events=<comma list> (wire profile 6)', [a.exchangeId]);
    }
    const scheme = new URL(s.attempts[0]!.url).protocol.replace(':', '');
    return pass(`${s.attempts.length} upgrade request(s) at /api/bot/v1/ws with an events list, over ${scheme} (the gateway serves ${s.tls ? 'https: only wss reaches it' : 'http'})`, [s.attempts[0]!.exchangeId]);
  },
});

export const ensureBotListensOnSocket = defineCheck<BotSocketSubject>({
  name: 'ensureBotListensOnSocket',
  checks: 'the bot connects its WebSocket to listen to events',
  run(s) {
    if (s.connected) return pass('the bot\'s WebSocket is open', s.attempts.filter((a) => a.status === 101).map((a) => a.exchangeId).slice(0, 1));
    const refusedForToken = s.attempts.filter((a) => a.status === 401);
    if (s.attempts.length > 0 && refusedForToken.length === s.attempts.length) return notApplicable('every upgrade was refused for its token (ensureBotSocketCarriesToken judges it)');
    const wrongPath = s.attempts.filter((a) => a.status === 404);
    if (s.attempts.length > 0 && wrongPath.length + refusedForToken.length === s.attempts.length) return notApplicable('every upgrade asked for another path or lacked the token (ensureBotSocketAddress, ensureBotSocketCarriesToken judge it)');
    return fail(noConnectionWords(s), 'the bot connects the WebSocket and listens to events (document, Chat transport and chat bot)', s.attempts.map((a) => a.exchangeId).slice(0, 3));
  },
});

// ---- answers to events ---------------------------------------------------------------------------

/** The generated frame of a bot case (its payload). */
interface FramePayload {
  kind?: string;
  chatId?: number;
  frame?: { data?: { message?: { chat_id?: unknown; content?: unknown } } };
}

/** Whether the case's reply is the bot's Bot API answer (`POST /messages`), not the suite's frame left unanswered. */
export const answered = (o: CaseOutcome): boolean => o.reply.status !== undefined;

function answerOf(o: CaseOutcome, what: string): { verdict?: Verdict; body?: Record<string, unknown> } {
  const p = (o.case.payload ?? {}) as FramePayload;
  if (p.kind !== 'command') return { verdict: notApplicable(`a plain message: the documents require no answer to it`) };
  if (!answered(o)) return { verdict: notApplicable(`the bot did not answer the command ${show(p.frame?.data?.message?.content)} through the Bot API (an answer is not required)`) };
  if (judgedElsewhere(o.reply.status)) return { verdict: notApplicable(`the answer was refused ${o.reply.status} (the token and rate checks judge it)`) };
  const body = o.reply.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return what === 'body' ? { verdict: fail(`POST /messages with ${o.reply.error ?? `the body ${show(body)}`}`, 'a JSON object {chat_id, scope, type, content} (wire profile 6)', [o.reply.exchange.id]) } : { verdict: notApplicable('the answer has no JSON object body (ensureBotMessageBody judges it)') };
  return { body: body as Record<string, unknown> };
}

export const ensureBotAnswersInItsChat = defineCheck<CaseOutcome>({
  name: 'ensureBotAnswersInItsChat',
  checks: 'the bot answers a command through the Bot API into the chat the command came from',
  run(o) {
    const { verdict, body } = answerOf(o, 'chat');
    if (verdict) return verdict;
    const p = o.case.payload as FramePayload;
    const chatId = Number(body!.chat_id);
    if (chatId === p.chatId) return pass(`answered in chat ${p.chatId}`, [o.reply.exchange.id]);
    return fail(`a command in chat ${p.chatId} answered with chat_id ${show(body!.chat_id)}`, `POST /messages with chat_id ${p.chatId}: the chat the command came from`, [o.reply.exchange.id]);
  },
});

const SCOPES = ['public', 'private'];

export const ensureBotMessageBody = defineCheck<CaseOutcome>({
  name: 'ensureBotMessageBody',
  checks: 'the bot\'s POST /messages body is {chat_id, scope, type, content}: chat_id an integer, scope public or private, type and content strings',
  run(o) {
    const { verdict, body } = answerOf(o, 'body');
    if (verdict) return verdict;
    const b = body!;
    const problems: string[] = [];
    if (typeof b.chat_id !== 'number' || !Number.isInteger(b.chat_id) || b.chat_id <= 0) problems.push(`chat_id is ${show(b.chat_id)}, not a positive integer`);
    if (typeof b.scope !== 'string' || !SCOPES.includes(b.scope)) problems.push(`scope is ${show(b.scope)}, not public or private`);
    if (b.type !== undefined && typeof b.type !== 'string') problems.push(`type is ${show(b.type)}, not a string`);
    const textual = b.type === undefined || b.type === '' || b.type === 'text';
    if (textual && typeof b.content !== 'string') problems.push(`content is ${show(b.content)}, not a string`);
    if (problems.length > 0) return fail(`POST /messages with ${show(b)}: ${problems.join('; ')}`, '{chat_id, scope, type, content, ...} (wire profile 6; v1.MessageSendRequest: chat_id uint64, scope public|private)', [o.reply.exchange.id]);
    return pass(`{chat_id: ${b.chat_id}, scope: ${b.scope}, type: ${show(b.type)}}`, [o.reply.exchange.id]);
  },
});
