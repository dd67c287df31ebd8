/**
 * The chat bot (`mgBot`, issue 25 item 5; document, Chat transport and chat bot; wire profile
 * section 6). In order:
 *
 * 1. Commands: `PUT /my/commands/{name}` with `X-Bot-Token` right after the registration (within
 *    `flowTimeoutMs` of the accepted registration), body `{name, description}`, description at
 *    most 64 characters, never POST. A bot that registered none is sent one command: if it
 *    answers, it reacts to commands and should have registered them.
 * 2. The WebSocket: opened with the token at `{endpointUrl as ws/wss}/api/bot/v1/ws?events=...`
 *    (with the simulators over https only wss reaches the gateway).
 * 3. Events (generated): commands the bot registered and customers' plain messages, in chats the
 *    gateway knows (seeded when transports opened too few); each command's answer through the
 *    Bot API is judged (into the chat it came from, its body). No answer is required.
 * 4. Reconnection: the gateway drops the socket (abnormal), then drops it and refuses upgrades
 *    for `REFUSE_MS` (the attempts per second measured), then closes it normally; after each the
 *    bot must be connected again within `flowTimeoutMs`; a first redial within 100 ms of a close
 *    warns (a SHOULD: "after a timeout", of no stated length). The figures go to the results and
 *    to the attachment `bot-reconnect.json`.
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { BOT_FRAME_CASE, runBotEvent } from '../../src/properties/chat-bot.ts';
import { BOT_COMMAND_ROWS, BOT_EVENTS, BOT_RECONNECT_ROWS, BOT_SOCKET_ROWS } from '../../src/checks/chat/applications.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { botOf, type BotContext } from '../../src/generators/chat/context.ts';
import { botEvent, botEventContextOf, probeCommand, seedBotChats } from '../../src/generators/chat/bot-events.ts';
import { commandPath, type BotCommandsSubject, type BotSocketSubject, type CommandCall, type SocketAttempt } from '../../src/checks/chat/bot.ts';
import type { BotReconnectSubject, CloseMeasure, RefusalMeasure } from '../../src/checks/chat/bot-reconnect.ts';
import { idsOfRows } from '../../src/checks/apply.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';

// The rows each test applies are the chat application table's: BOT_COMMAND_ROWS, BOT_SOCKET_ROWS, BOT_EVENTS' and
// BOT_RECONNECT_ROWS (after each close, not a tight loop, a pause before the redial: a SHOULD).

/** How long the gateway refuses upgrades while the attempts are counted. */
const REFUSE_MS = 1500;
/** Cases of the events property at most (each waits for the bot's answer). */
const MAX_EVENT_CASES = 30;


/** The bot, or why its checks do not apply. */
function botOrWhy(session: RunSession): { bot?: BotContext; status?: 'skipped' | 'notApplicable'; why?: string } {
  const blocked = notRunFor(session, 'mgBot');
  if (blocked) return { status: blocked.status, why: blocked.why };
  const bot = botOf(session);
  if (!bot) return { status: 'notApplicable', why: 'the system handed out no bot token (the registration checks judge the registration)' };
  return { bot };
}

/** Epoch ms of the system's reply to the accepted registration. */
function registeredAt(session: RunSession): number | undefined {
  const x = session.registration?.call?.exchange;
  return x ? Date.parse(x.startedAt) + x.durationMs : undefined;
}

/** The module's calls to `/my/commands` paths, as recorded (routed or answered 404/405). */
function commandCalls(session: RunSession): CommandCall[] {
  const out: CommandCall[] = [];
  for (const x of session.log.all()) {
    if (x.direction !== 'module->gateway' || x.request.method === 'WS') continue;
    let path: string;
    try {
      path = new URL(x.request.url ?? '', 'http://gateway.invalid').pathname;
    } catch {
      continue;
    }
    const { matches, name } = commandPath(path);
    if (!matches || path.endsWith('/ws')) continue;
    const call = session.gateway.calls.find((c) => c.exchange.id === x.id);
    const method = (x.request.method ?? 'GET').toUpperCase();
    const c: CommandCall = { exchangeId: x.id, method, path, at: Date.parse(x.startedAt), ...(name !== undefined ? { name } : {}), ...(x.response?.status !== undefined ? { status: x.response.status } : {}) };
    if (call) {
      if (call.decodeError !== undefined) c.decodeError = call.decodeError;
      else if (call.payload !== undefined && method !== 'GET') c.body = call.payload;
    } else if (typeof x.request.body === 'string' && x.request.body !== '') {
      try {
        c.body = JSON.parse(x.request.body);
      } catch (e) {
        c.decodeError = `the body is not JSON: ${(e as Error).message}`;
      }
    }
    out.push(c);
  }
  return out;
}

function socketAttempts(session: RunSession, afterTime?: number): SocketAttempt[] {
  return session.gateway.botUpgradeAttempts(afterTime).map((a) => ({ exchangeId: a.exchange.id, at: a.at, url: a.exchange.request.url ?? a.url, token: a.token, status: a.status }));
}


test.describe('chat bot', () => {
  test('commands: PUT /my/commands/{name} right after registration, {name, description}, at most 64 characters', { ...covers(idsOfRows(BOT_COMMAND_ROWS)), ...inArea('chat', 'mgBot') }, async ({ session, conformance }) => {
    const { bot, status, why } = botOrWhy(session);
    if (!bot) return conformance.notRun(status!, why!, BOT_COMMAND_ROWS);
    const bound = session.config.flowTimeoutMs;
    const at = registeredAt(session);
    // The commands come on the bot's own: wait up to the bound after the registration.
    const deadline = (at ?? Date.now()) + bound;
    while (!commandCalls(session).some((c) => c.name !== undefined && c.method !== 'GET' && c.method !== 'DELETE') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const subject: BotCommandsSubject = { calls: commandCalls(session), boundMs: bound, ...(at !== undefined ? { registeredAt: at } : {}) };
    // None registered: does the bot react to a command? One is sent to learn it.
    if (!subject.calls.some((c) => c.name !== undefined && c.method !== 'GET' && c.method !== 'DELETE')) {
      seedBotChats(session.gateway);
      const conn = await session.gateway.waitForBotConnection(bound);
      const chat = botEventContextOf(session.gateway.state, bot.token).chats[0];
      if (!conn || !chat) subject.probe = { answered: false, detail: conn ? 'no chat to send it in' : 'the bot has no open WebSocket' };
      else {
        const since = session.gateway.callCount();
        const probe = probeCommand(chat, 'help');
        session.gateway.sendToBots(probe.frame, { all: true });
        const answer = await session.gateway.waitFor('bot.message.send', bound, () => true, since);
        subject.probe = answer
          ? { answered: true, exchangeId: answer.exchange.id, detail: `it answered "/help" in chat ${chat.id} with POST /messages` }
          : { answered: false, detail: `no Bot API answer to "/help" within ${bound} ms` };
      }
    }
    for (const r of BOT_COMMAND_ROWS) await conformance.apply(r, subject);
  });

  test('WebSocket: opened with X-Bot-Token at {endpointUrl as ws/wss}/api/bot/v1/ws?events=...', { ...covers(idsOfRows(BOT_SOCKET_ROWS)), ...inArea('chat', 'mgBot') }, async ({ session, conformance }) => {
    const { bot, status, why } = botOrWhy(session);
    if (!bot) return conformance.notRun(status!, why!, BOT_SOCKET_ROWS);
    const bound = session.config.flowTimeoutMs;
    const started = Date.now();
    const conn = await session.gateway.waitForBotConnection(Math.max(0, (registeredAt(session) ?? started) + bound - started));
    const connections = session.gateway.botConnections().filter((c) => c.token === bot.token).map((c) => ({ exchangeId: c.exchange.id, connectedAt: c.connectedAt, ...(c.closedAt !== undefined ? { closedAt: c.closedAt } : {}), ...(c.closeCode !== undefined ? { closeCode: c.closeCode } : {}), ...(c.closedBy ? { closedBy: c.closedBy } : {}) }));
    const subject: BotSocketSubject = { attempts: socketAttempts(session), tls: session.tls !== undefined, connected: conn !== undefined, waitedMs: Date.now() - (registeredAt(session) ?? started), connections };
    for (const r of BOT_SOCKET_ROWS) await conformance.apply(r, subject);
  });

  test('events on the WebSocket (generated): commands answered through the Bot API into their chat', { ...covers(propertyCovers(BOT_EVENTS)), ...inArea('chat', 'mgBot') }, async ({ session, conformance }) => {
    const checks = propertyChecks(BOT_EVENTS, session.config.profile);
    const { bot, status, why } = botOrWhy(session);
    if (!bot) return conformance.notRun(status!, why!, checks);
    const bound = session.config.flowTimeoutMs;
    const conn = await session.gateway.waitForBotConnection(bound);
    if (!conn) return conformance.notRun('notApplicable', 'the bot has no open WebSocket to send events on (ensureBotListensOnSocket judges it)', checks);
    if (conn.events.length > 0 && !conn.events.includes('message_new')) return conformance.notRun('notApplicable', `the bot subscribed to ${conn.events.join(', ')}, not message_new: the gateway sends it no commands or messages`, checks);
    seedBotChats(session.gateway);
    const ctx = botEventContextOf(session.gateway.state, bot.token);
    if (ctx.commands.length === 0) return conformance.notRun('notApplicable', 'the bot registered no command (the command checks judge it)', checks);
    const gen = session.config.generation;
    test.setTimeout(gen.timeLimitMs + 30_000);
    const state = { unanswered: false };
    const spec: PropertySpec = {
      name: BOT_EVENTS,
      id: 'bot-events',
      arbitrary: botEvent(ctx).map((ev): GeneratedCase => ({ callback: BOT_FRAME_CASE, payload: ev, intent: { kind: 'open', why: `a ${ev.kind === 'command' ? 'command' : 'plain message'} on the bot WebSocket` } })),
      checks,
      exec: (c, caseId) => runBotEvent(session, c, caseId, state),
    };
    await runProperty(conformance, spec, { ...gen, runs: Math.min(gen.runs, MAX_EVENT_CASES) });
  });

  test('reconnects after a normal and an abnormal close, after a timeout, not in a tight loop', { ...covers(idsOfRows(BOT_RECONNECT_ROWS)), ...inArea('chat', 'mgBot') }, async ({ session, conformance }, testInfo) => {
    const { bot, status, why } = botOrWhy(session);
    if (!bot) return conformance.notRun(status!, why!, BOT_RECONNECT_ROWS);
    const gw = session.gateway;
    const bound = session.config.flowTimeoutMs;
    test.setTimeout(4 * bound + REFUSE_MS + 30_000);
    const subject: BotReconnectSubject = {};

    /** Closes the open socket and measures what follows, up to the bound. */
    const measure = async (mode: 'normal' | 'abnormal'): Promise<CloseMeasure> => {
      const closedAt = await gw.closeBots(mode);
      const conn = await gw.waitForBotConnection(bound, closedAt);
      const attempts = socketAttempts(session, closedAt).filter((a) => !conn || a.at <= conn.connectedAt);
      return {
        mode,
        closedAt,
        attempts: attempts.length,
        boundMs: bound,
        ...(attempts[0] ? { firstAttemptMs: attempts[0].at - closedAt } : {}),
        ...(conn ? { reconnectedMs: conn.connectedAt - closedAt } : {}),
        evidence: [...attempts.slice(0, 2).map((a) => a.exchangeId), ...(conn && !attempts.some((a) => a.exchangeId === conn.exchange.id) ? [conn.exchange.id] : [])],
      };
    };

    const open = await gw.waitForBotConnection(bound);
    if (!open) subject.notMeasured = 'the bot has no open WebSocket to close (ensureBotListensOnSocket judges it)';
    else {
      subject.abnormal = await measure('abnormal');
      if (subject.abnormal.reconnectedMs === undefined) subject.notMeasured = 'the bot did not reconnect after the abnormal close (ensureBotReconnectsAfterAbnormalClose judges it)';
      else {
        // Refused: the gateway drops the socket and answers every upgrade 503 for REFUSE_MS.
        const until = gw.refuseBotUpgrades(REFUSE_MS);
        let refused: RefusalMeasure | undefined;
        try {
          const closedAt = await gw.closeBots('abnormal');
          await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
          const during = socketAttempts(session, closedAt).filter((a) => a.status === 503);
          const conn = await gw.waitForBotConnection(bound, closedAt);
          const all = socketAttempts(session, closedAt).filter((a) => !conn || a.at <= conn.connectedAt);
          refused = {
            mode: 'abnormal',
            closedAt,
            refusedMs: Math.round(until - closedAt),
            refusedAttemptsAt: during.map((a) => a.at - closedAt),
            attempts: all.length,
            boundMs: bound,
            ...(all[0] ? { firstAttemptMs: all[0].at - closedAt } : {}),
            ...(conn ? { reconnectedMs: conn.connectedAt - closedAt, reconnectedAfterRefusalMs: Math.max(0, conn.connectedAt - until) } : {}),
            evidence: [...during.slice(0, 2).map((a) => a.exchangeId), ...(during.length > 2 ? [during.at(-1)!.exchangeId] : []), ...(conn ? [conn.exchange.id] : [])],
          };
        } finally {
          gw.refuseBotUpgrades(0);
        }
        subject.refused = refused;
        if (refused?.reconnectedMs === undefined) subject.notMeasured = 'the bot did not reconnect after the refusal (ensureBotReconnectIsNotTightLoop judges it)';
        else subject.normal = await measure('normal');
      }
    }
    await testInfo.attach('bot-reconnect.json', {
      body: JSON.stringify(
        {
          boundMs: bound,
          refuseMs: REFUSE_MS,
          ...(subject.notMeasured ? { notMeasured: subject.notMeasured } : {}),
          abnormal: subject.abnormal && { firstAttemptMs: subject.abnormal.firstAttemptMs, reconnectedMs: subject.abnormal.reconnectedMs, attempts: subject.abnormal.attempts },
          refused: subject.refused && { attempts: subject.refused.refusedAttemptsAt.length, perSecond: subject.refused.refusedAttemptsAt.length / (subject.refused.refusedMs / 1000), firstAttemptMs: subject.refused.firstAttemptMs, reconnectedAfterRefusalMs: subject.refused.reconnectedAfterRefusalMs },
          normal: subject.normal && { firstAttemptMs: subject.normal.firstAttemptMs, reconnectedMs: subject.normal.reconnectedMs, attempts: subject.normal.attempts },
        },
        null,
        2,
      ),
      contentType: 'application/json',
    });
    for (const r of BOT_RECONNECT_ROWS) await conformance.apply(r, subject);
  });
});
