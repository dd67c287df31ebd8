/**
 * The bot's property (issue 25, item 5): generated frames on the bot WebSocket (commands the bot
 * registered and plain messages, in chats the gateway knows), each judged by what the bot did
 * through the Bot API. Spread into `PROPERTY_CHECKS` (registry.ts); its checks' rows are in
 * `src/checks/chat/applications.ts` (so are the bot spec's).
 */
import type { RunSession } from '../run/session.ts';
import type { CallbackName } from '../callbacks/table.ts';
import type { Reply } from '../client/callback-client.ts';
import type { Exchange } from '../evidence/exchange.ts';
import type { CaseOutcome, GeneratedCase } from '../checks/case.ts';
import type { BotEvent } from '../generators/chat/bot-events.ts';

// The property's name lives with its rows (the chat application table).

/** Not a callback: the case is a frame on the bot WebSocket (`conformance replay` sends it again on the socket). */
export const BOT_FRAME_CASE = 'bot.websocket-frame' as CallbackName;
/** How long a plain message waits for a possible answer (not judged; kept apart from the next case). */
const TEXT_SETTLE_MS = 150;
/** How long a command waits once the bot has left one unanswered. */
const UNANSWERED_WAIT_MS = 500;

/** The exchange of the frame just sent (the latest of its label). */
function frameExchange(session: RunSession, type: string): Exchange | undefined {
  const all = session.log.all();
  for (let i = all.length - 1; i >= 0; i--) if (all[i]!.label === `bot websocket frame ${type}`) return all[i];
  return undefined;
}

/**
 * Sends one generated frame on the bot's socket and reads what the bot did through the Bot API:
 * its answer (`POST /messages`) as the case's reply, or why none came. `state.unanswered` (a
 * command the bot left unanswered) shortens the wait of later commands. The spec and
 * `conformance replay` send a case through here.
 */
export async function runBotEvent(session: RunSession, c: GeneratedCase, caseId: string, state: { unanswered: boolean }): Promise<CaseOutcome> {
  const bound = session.config.flowTimeoutMs;
  const ev = c.payload as BotEvent;
  if (!session.gateway.botConnections().some((b) => b.closedAt === undefined)) await session.gateway.waitForBotConnection(bound);
  const since = session.gateway.callCount();
  const sent = session.gateway.sendToBots({ ...ev.frame, meta: { timestamp: Math.floor(Date.now() / 1000) } });
  const frame = frameExchange(session, ev.frame.type);
  const waitMs = ev.kind === 'text' ? TEXT_SETTLE_MS : state.unanswered ? UNANSWERED_WAIT_MS : bound;
  const answer = sent > 0 ? await session.gateway.waitFor('bot.message.send', waitMs, () => true, since) : undefined;
  if (ev.kind === 'command' && !answer) state.unanswered = true;
  const outcome = { case: c, module: session.registration!.module, profile: session.config.profile, trigger: `bot websocket frame ${ev.frame.type} (${ev.kind}) ${caseId}` };
  if (answer) {
    const reply: Reply = {
      exchange: answer.exchange,
      status: answer.status,
      headers: {},
      body: Buffer.from(typeof answer.exchange.request.body === 'string' ? answer.exchange.request.body : ''),
      ...(answer.payload !== undefined ? { json: answer.payload } : {}),
      ...(answer.decodeError !== undefined ? { jsonError: answer.decodeError, error: answer.decodeError } : {}),
    };
    return { ...outcome, reply };
  }
  const noAnswer = sent === 0 ? 'the bot had no open WebSocket to send the frame on' : `no Bot API answer within ${waitMs} ms`;
  const exchange: Exchange = frame ?? { id: 'none', direction: 'gateway->module', label: `bot websocket frame ${ev.frame.type}`, startedAt: new Date().toISOString(), durationMs: 0, request: { method: 'WS', url: '', headers: {}, bytes: 0 } as Exchange['request'] };
  return { ...outcome, reply: { exchange, headers: {}, body: Buffer.alloc(0), error: noAnswer } };
}
