/**
 * The bot's rules on canned data (issue 25, item 5): commands registered with PUT right after the
 * registration, their body and description; the WebSocket's token and address; the answers to
 * commands (their chat, their body); the reconnection (after each close, within the bound, not a
 * tight loop). And the generated frames: the shape the official client decodes, in known chats,
 * with the registered commands.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import { contract } from '../../src/contract/schemas.ts';
import { GatewayState } from '../../src/simulators/gateway-state.ts';
import { botEvent, botEventContextOf, commandEvent, type BotEvent } from '../../src/generators/chat/bot-events.ts';
import { BOT_EVENTS } from '../../src/checks/chat/applications.ts';
import { apply, appOf } from '../../src/checks/apply.ts';
import type { Check } from '../../src/checks/check.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import {
  commandPath,
  ensureBotAnswersInItsChat,
  ensureBotCommandBodyIsNameDescription,
  ensureBotCommandDescriptionFits,
  ensureBotCommandsArePut,
  ensureBotListensOnSocket,
  ensureBotMessageBody,
  ensureBotRegistersCommandsAfterRegistration,
  ensureBotSocketAddress,
  ensureBotSocketCarriesToken,
  socketAddressProblem,
  type BotCommandsSubject,
  type BotSocketSubject,
  type CommandCall,
  type SocketAttempt,
} from '../../src/checks/chat/bot.ts';
import { ensureBotReconnectIsNotTightLoop, ensureBotReconnectsAfterAbnormalClose, ensureBotReconnectsAfterNormalClose, peakPerSecond, type BotReconnectSubject } from '../../src/checks/chat/bot-reconnect.ts';
import { BOT_RECONNECT_ROWS } from '../../src/checks/chat/applications.ts';

const T0 = 1_700_000_000_000;
const put = (name: string, body: unknown, at = T0 + 50, extra: Partial<CommandCall> = {}): CommandCall => ({ exchangeId: `x-${name}-${at}`, method: 'PUT', path: `/api/bot/v1/my/commands/${name}`, name, at, status: 200, body, ...extra });
const commands = (calls: CommandCall[], extra: Partial<BotCommandsSubject> = {}): BotCommandsSubject => ({ calls, registeredAt: T0, boundMs: 10_000, ...extra });
const outcome = async (check: { run(s: never): unknown }, s: unknown) => (await check.run(s as never)) as { outcome: string; received?: string; expected?: string; detail?: string };

test('commandPath: /my/commands with and without the prefix, with the name', () => {
  expect(commandPath('/api/bot/v1/my/commands/status')).toEqual({ matches: true, name: 'status' });
  expect(commandPath('/my/commands/st%20x')).toEqual({ matches: true, name: 'st x' });
  expect(commandPath('/api/bot/v1/my/commands')).toEqual({ matches: true });
  expect(commandPath('/api/bot/v1/messages').matches).toBe(false);
});

test('commands are PUT; POST (or PATCH) fails; GET and DELETE are other methods of the API; 401 and 429 are judged elsewhere', async () => {
  expect((await outcome(ensureBotCommandsArePut, commands([put('status', { name: 'status', description: 'd' })]))).outcome).toBe('pass');
  const post = await outcome(ensureBotCommandsArePut, commands([{ ...put('status', { name: 'status', description: 'd' }), method: 'POST', status: 405 }]));
  expect(post.outcome).toBe('fail');
  expect(post.received).toContain('POST /api/bot/v1/my/commands/status (answered 405)');
  // A POST to the list path is no registration with PUT either.
  expect((await outcome(ensureBotCommandsArePut, commands([{ exchangeId: 'p', method: 'POST', path: '/api/bot/v1/my/commands', at: T0, status: 405, body: {} }]))).outcome).toBe('fail');
  expect((await outcome(ensureBotCommandsArePut, commands([{ ...put('x', {}), method: 'PATCH', status: 405 }]))).outcome).toBe('fail');
  expect((await outcome(ensureBotCommandsArePut, commands([{ ...put('x', {}), method: 'GET' }, { ...put('x', {}), method: 'DELETE' }]))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotCommandsArePut, commands([{ ...put('x', {}), method: 'POST', status: 401 }]))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotCommandsArePut, commands([]))).outcome).toBe('notApplicable');
});

test('the command body is {name, description}, both strings; the description at most 64 characters', async () => {
  expect((await outcome(ensureBotCommandBodyIsNameDescription, commands([put('status', { name: 'status', description: 'Order status', extra: 1 })]))).outcome).toBe('pass');
  for (const body of [[{ name: 'status', description: 'd' }], { description: 'd' }, { name: 'status' }, { name: 'status', description: 5 }, 'status']) {
    expect((await outcome(ensureBotCommandBodyIsNameDescription, commands([put('status', body, T0, { status: 400 })]))).outcome, JSON.stringify(body)).toBe('fail');
  }
  expect((await outcome(ensureBotCommandBodyIsNameDescription, commands([put('status', undefined, T0, { status: 400, decodeError: 'request body is missing' })]))).received).toContain('request body is missing');

  const d64 = 'é'.repeat(64);
  expect((await outcome(ensureBotCommandDescriptionFits, commands([put('a', { name: 'a', description: d64 })]))).outcome).toBe('pass');
  // Characters, not bytes or UTF-16 units: 64 emoji fit, 65 do not.
  expect((await outcome(ensureBotCommandDescriptionFits, commands([put('a', { name: 'a', description: '😀'.repeat(64) })]))).outcome).toBe('pass');
  const long = await outcome(ensureBotCommandDescriptionFits, commands([put('a', { name: 'a', description: 'x'.repeat(65) })]));
  expect(long.outcome).toBe('fail');
  expect(long.received).toContain('65 characters');
  // No description to measure: the body rule's.
  expect((await outcome(ensureBotCommandDescriptionFits, commands([put('a', { name: 'a' })]))).outcome).toBe('notApplicable');
});

test('commands right after registration: within the bound; none and no reaction is a bot without commands; none but an answer fails', async () => {
  expect((await outcome(ensureBotRegistersCommandsAfterRegistration, commands([put('a', {}, T0 + 40)]))).outcome).toBe('pass');
  const late = await outcome(ensureBotRegistersCommandsAfterRegistration, commands([put('a', {}, T0 + 12_000)]));
  expect(late.outcome).toBe('fail');
  expect(late.received).toContain('12000 ms after the registration');
  // A POST attempt counts for the timing (its method is the other rule's).
  expect((await outcome(ensureBotRegistersCommandsAfterRegistration, commands([{ ...put('a', {}, T0 + 40), method: 'POST', status: 405 }]))).outcome).toBe('pass');
  expect((await outcome(ensureBotRegistersCommandsAfterRegistration, commands([], { probe: { answered: false, detail: 'no answer' } }))).outcome).toBe('notApplicable');
  const reacts = await outcome(ensureBotRegistersCommandsAfterRegistration, commands([], { probe: { answered: true, exchangeId: 'm1', detail: 'it answered "/help"' } }));
  expect(reacts.outcome).toBe('fail');
  expect(reacts.received).toContain('answered a command');
  // Remote mode: the registration's time is unknown; a registered command passes.
  expect((await outcome(ensureBotRegistersCommandsAfterRegistration, { calls: [put('a', {}, T0 + 99_000)], boundMs: 10_000 })).outcome).toBe('pass');
});

const attempt = (token: SocketAttempt['token'], status: number, url = 'ws://127.0.0.1:1/api/bot/v1/ws?events=message_new', at = T0): SocketAttempt => ({ exchangeId: `u${at}${status}`, at, url, token, status });
const socket = (attempts: SocketAttempt[], connected = attempts.some((a) => a.status === 101), tls = false): BotSocketSubject => ({ attempts, tls, connected, waitedMs: 2000 });

test('the WebSocket: the token on every upgrade; the address; a connection', async () => {
  expect((await outcome(ensureBotSocketCarriesToken, socket([attempt('bot', 101)]))).outcome).toBe('pass');
  expect((await outcome(ensureBotSocketCarriesToken, socket([attempt('missing', 401), attempt('missing', 401)]))).received).toContain('2 of 2 upgrade request(s) without the X-Bot-Token header');
  expect((await outcome(ensureBotSocketCarriesToken, socket([attempt('unknown', 401)]))).outcome).toBe('fail');
  expect((await outcome(ensureBotSocketCarriesToken, socket([]))).outcome).toBe('notApplicable');

  expect(socketAddressProblem('wss://h:1/api/bot/v1/ws?events=message_new,dialog_opened')).toBeUndefined();
  expect(socketAddressProblem('ws://h:1/api/bot/v1/ws/?events=message_new&options=include_mass_communication')).toBeUndefined();
  expect(socketAddressProblem('ws://h:1/api/bot/v1/websocket?events=message_new')).toContain('not /api/bot/v1/ws');
  expect(socketAddressProblem('ws://h:1/ws?events=message_new')).toContain('not /api/bot/v1/ws');
  expect(socketAddressProblem('ws://h:1/api/bot/v1/ws')).toBe('no events parameter');
  expect(socketAddressProblem('ws://h:1/api/bot/v1/ws?events=')).toBe('an empty events list');
  const tls = await outcome(ensureBotSocketAddress, socket([attempt('bot', 101, 'wss://127.0.0.1:1/api/bot/v1/ws?events=message_new')], true, true));
  expect(tls.outcome).toBe('pass');
  expect(tls.detail).toContain('over wss');
  expect((await outcome(ensureBotSocketAddress, socket([attempt('bot', 404, 'ws://h:1/api/bot/v1/websocket?events=a')]))).outcome).toBe('fail');

  expect((await outcome(ensureBotListensOnSocket, socket([attempt('bot', 101)]))).outcome).toBe('pass');
  expect((await outcome(ensureBotListensOnSocket, socket([]))).received).toContain('no WebSocket upgrade');
  // Refused for the token or the path: the other rules' cause.
  expect((await outcome(ensureBotListensOnSocket, socket([attempt('missing', 401)]))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotListensOnSocket, socket([attempt('bot', 404, 'ws://h:1/x?events=a')]))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotListensOnSocket, socket([attempt('bot', 503)], false))).outcome).toBe('fail');
});

const ev = (kind: 'command' | 'text', chatId = 7): BotEvent => ({ kind, chatId, ...(kind === 'command' ? { command: 'status' } : {}), frame: { type: 'message_new', meta: { timestamp: 1 }, data: { message: { chat_id: chatId, type: kind, content: kind === 'command' ? '/status 1' : 'hi' } } } });
function answer(e: BotEvent, body: unknown, status = 200): CaseOutcome {
  return { case: { callback: 'bot.websocket-frame' as CallbackName, payload: e, intent: { kind: 'open', why: 'a frame' } }, reply: { exchange: { id: 'm1' } as Exchange, status, headers: {}, body: Buffer.from(JSON.stringify(body)), json: body }, module: {}, profile: true };
}
function silent(e: BotEvent): CaseOutcome {
  return { case: { callback: 'bot.websocket-frame' as CallbackName, payload: e, intent: { kind: 'open', why: 'a frame' } }, reply: { exchange: { id: 'f1' } as Exchange, headers: {}, body: Buffer.alloc(0), error: 'no Bot API answer within 500 ms' }, module: {}, profile: true };
}

test('answers to commands: into the chat they came from, with {chat_id, scope, type, content}; no answer and plain messages not judged', async () => {
  const good = { chat_id: 7, scope: 'public', type: 'text', content: 'Order 1: delivered' };
  expect((await outcome(ensureBotAnswersInItsChat, answer(ev('command'), good))).outcome).toBe('pass');
  const other = await outcome(ensureBotAnswersInItsChat, answer(ev('command'), { ...good, chat_id: 1007 }));
  expect(other.outcome).toBe('fail');
  expect(other.received).toContain('chat 7 answered with chat_id 1007');
  expect((await outcome(ensureBotAnswersInItsChat, silent(ev('command')))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotAnswersInItsChat, answer(ev('text'), { ...good, chat_id: 99 }))).outcome).toBe('notApplicable');
  expect((await outcome(ensureBotAnswersInItsChat, answer(ev('command'), { ...good, chat_id: 99 }, 401))).outcome).toBe('notApplicable');

  expect((await outcome(ensureBotMessageBody, answer(ev('command'), good))).outcome).toBe('pass');
  // The official client sends `type: ""` when the bot leaves it unset.
  expect((await outcome(ensureBotMessageBody, answer(ev('command'), { ...good, type: '' }))).outcome).toBe('pass');
  expect((await outcome(ensureBotMessageBody, answer(ev('command'), { ...good, scope: 'private' }))).outcome).toBe('pass');
  for (const bad of [{ chat_id: 7, type: 'text', content: 'x' }, { ...good, scope: 'everyone' }, { ...good, chat_id: '7' }, { ...good, chat_id: 0 }, { ...good, content: 5 }, { ...good, type: 3 }]) {
    expect((await outcome(ensureBotMessageBody, answer(ev('command'), bad, 200))).outcome, JSON.stringify(bad)).toBe('fail');
  }
  expect((await outcome(ensureBotMessageBody, answer(ev('command'), [good], 400))).outcome).toBe('fail');
  expect((await outcome(ensureBotMessageBody, silent(ev('command')))).outcome).toBe('notApplicable');

  const checks = propertyChecks(BOT_EVENTS, true);
  expect(checks.map((c) => [c.check.name, c.app.requirements])).toEqual([
    ['ensureBotAnswersInItsChat', ['BOT-WEBSOCKET-LISTEN']],
    ['ensureBotMessageBody', ['WIRE-BOT-MESSAGES-BODY']],
  ]);
});

test('reconnection: connected again within the bound after each close; while refused, at most 10 attempts in any second', async () => {
  expect(peakPerSecond([0, 500, 1000, 1500])).toBe(2);
  expect(peakPerSecond([0, 10, 20, 30, 999])).toBe(5);
  expect(peakPerSecond([])).toBe(0);

  const close = (mode: 'normal' | 'abnormal', reconnectedMs?: number) => ({ mode, closedAt: T0, attempts: 1, boundMs: 10_000, firstAttemptMs: 500, ...(reconnectedMs !== undefined ? { reconnectedMs } : {}), evidence: ['c'] });
  const refused = (times: number[], after?: number) => ({ ...close('abnormal', after !== undefined ? 1500 + after : undefined), refusedMs: 1500, refusedAttemptsAt: times, ...(after !== undefined ? { reconnectedAfterRefusalMs: after } : {}) });
  const good: BotReconnectSubject = { abnormal: close('abnormal', 510), refused: refused([500, 1000], 20), normal: close('normal', 505) };
  for (const c of [ensureBotReconnectsAfterAbnormalClose, ensureBotReconnectsAfterNormalClose, ensureBotReconnectIsNotTightLoop]) expect((await outcome(c, good)).outcome, c.name).toBe('pass');
  expect((await outcome(ensureBotReconnectsAfterAbnormalClose, good)).detail).toContain('connected again 510 ms later');

  // The official bot (mg-bot-helper) dials again at once after a close, then sleeps 1 s after each failed dial: not a loop.
  expect((await outcome(ensureBotReconnectIsNotTightLoop, { ...good, refused: refused([2, 1003], 10) })).outcome).toBe('pass');
  // A bot with a long timeout makes no attempt while refused and connects later: fine within the bound.
  expect((await outcome(ensureBotReconnectIsNotTightLoop, { ...good, refused: refused([], 3000) })).outcome).toBe('pass');
  const loop = await outcome(ensureBotReconnectIsNotTightLoop, { ...good, refused: refused(Array.from({ length: 600 }, (_, i) => i * 2.5), 1) });
  expect(loop.outcome).toBe('fail');
  expect(loop.received).toContain('a tight loop');
  expect((await outcome(ensureBotReconnectIsNotTightLoop, { ...good, refused: refused(Array.from({ length: 11 }, (_, i) => i * 90), 1) })).outcome).toBe('fail');
  expect((await outcome(ensureBotReconnectIsNotTightLoop, { ...good, refused: refused([500, 1000]) })).received).toContain('not connected again');

  const normalLost = await outcome(ensureBotReconnectsAfterNormalClose, { ...good, normal: close('normal') });
  expect(normalLost.outcome).toBe('fail');
  expect(normalLost.received).toContain('after a normal close the bot did not connect again within 10000 ms');
  // Nothing measured (no open socket, or an earlier close lost it): not applicable, with the reason.
  const none: BotReconnectSubject = { notMeasured: 'the bot has no open WebSocket to close' };
  for (const c of [ensureBotReconnectsAfterAbnormalClose, ensureBotReconnectsAfterNormalClose, ensureBotReconnectIsNotTightLoop]) expect((await outcome(c, none)).outcome, c.name).toBe('notApplicable');
});

test('generated frames: the official client shape, in known chats, with the registered commands', () => {
  const state = new GatewayState();
  state.addBot({ token: 'bot-1', clientId: 'c' });
  const channel = state.addChannel('tr-1', { type: 'telegram', name: 'Shop', settings: {} });
  state.addChat(channel.id, 'chat-a', { external_id: 'cust-a', first_name: 'Anna' });
  state.addChat(channel.id, 'chat-b', { external_id: 'cust-b' });
  state.setCommand('bot-1', 'status', { name: 'status', description: 'd' });
  state.setCommand('bot-1', 'help', { name: 'help', description: 'h' });
  const ctx = botEventContextOf(state, 'bot-1');
  expect(ctx.chats.map((c) => c.id).sort()).toEqual([...state.chats.keys()].sort());
  expect(ctx.commands.sort()).toEqual(['help', 'status']);
  const chatIds = new Set(ctx.chats.map((c) => c.id));
  fc.assert(
    fc.property(botEvent(ctx), (e) => {
      expect(contract().validate('chat/bot.ws-frame.json', e.frame).errors).toEqual([]);
      const msg = (e.frame.data as { message: Record<string, unknown> }).message;
      expect(e.frame.type).toBe('message_new');
      expect(chatIds.has(msg.chat_id as number)).toBe(true);
      expect(msg.chat_id).toBe(e.chatId);
      expect((msg.chat as { id: number }).id).toBe(e.chatId);
      expect(msg.scope).toBe('public');
      expect(typeof msg.id).toBe('number');
      expect(msg.type).toBe(e.kind);
      if (e.kind === 'command') expect(msg.content as string).toMatch(new RegExp(`^/${e.command}( \\S+)*$`));
      else expect((msg.content as string).trim().startsWith('/')).toBe(false);
      expect((msg.from as { type: string }).type).toBe('customer');
    }),
    { seed: 42, numRuns: 100 },
  );
  expect(() => commandEvent({ chats: ctx.chats, commands: [] })).toThrow();
});

test('a bot that connected and then closed its socket: the failure says it connected, and when and how it left (issue 31, item 9)', async () => {
  const left = await outcome(ensureBotListensOnSocket, {
    ...socket([attempt('bot', 101, undefined, T0 + 300)], false),
    connections: [{ exchangeId: `u${T0 + 300}101`, connectedAt: T0 + 300, closedAt: T0 + 800, closeCode: 1000, closedBy: 'bot' }],
  });
  expect(left.outcome).toBe('fail');
  expect(left.received).toMatch(/^the bot connected \(upgrade answered 101\) and closed its socket 500 ms after connecting \(close code 1000, closed by the bot\); no connection open at the end of the 2000 ms wait \(1 upgrade request\(s\)\)/);
  expect(left.received).not.toContain('no connection opened');
  // Dropped twice: each stay told, the code the gateway saw.
  const twice = await outcome(ensureBotListensOnSocket, {
    ...socket([attempt('bot', 101, undefined, T0), attempt('bot', 101, undefined, T0 + 1000)], false),
    connections: [
      { exchangeId: 'a', connectedAt: T0, closedAt: T0 + 20, closeCode: 1006, closedBy: 'bot' },
      { exchangeId: 'b', connectedAt: T0 + 1000, closedAt: T0 + 1007, closeCode: 1011, closedBy: 'bot' },
    ],
  });
  expect(twice.received).toMatch(/connected 2 times .*20 ms after connecting \(close code 1006.*7 ms after connecting \(close code 1011/);
  // Never a 101: what was said before.
  expect((await outcome(ensureBotListensOnSocket, socket([attempt('bot', 503)], false))).received).toContain('no connection opened within 2000 ms (1 upgrade request(s), answered 503)');
});

test('a redial within 100 ms of a close: one warning that quotes the sentence, not a silent pass (issue 31, item 7)', async () => {
  const plan = BOT_RECONNECT_ROWS.map((r) => ({ check: r.check as Check<never>, app: appOf(r) }));
  const ctx = { profile: true, exchange: () => undefined };
  const close = (mode: 'normal' | 'abnormal', firstAttemptMs: number) => ({ mode, closedAt: T0, attempts: 1, boundMs: 10_000, firstAttemptMs, reconnectedMs: firstAttemptMs + 3, evidence: ['c'] });
  const subject = (first: number): BotReconnectSubject => ({
    abnormal: close('abnormal', first),
    refused: { ...close('abnormal', first), reconnectedMs: 1600, refusedMs: 1500, refusedAttemptsAt: [first, first + 500, first + 1000], reconnectedAfterRefusalMs: 100 },
    normal: close('normal', first + 2),
  });
  // The official bot (mg-bot-helper) dials again 8 to 19 ms after a close.
  const atOnce = await Promise.all(plan.map((p) => apply(p.check, subject(9) as never, p.app, ctx)));
  expect(atOnce.filter((r) => r.status === 'warning').map((r) => r.check)).toEqual(['ensureBotPausesBeforeRedialing']);
  expect(atOnce.filter((r) => r.status !== 'warning').map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
  const warning = atOnce.find((r) => r.status === 'warning')!;
  expect(warning.message).toContain('"The bot must handle the socket closing, whether normal or abnormal, by reconnecting after a timeout."');
  expect(warning.message).toMatch(/after the abnormal close 9 ms, after the refused close 9 ms, after the normal close 11 ms/);
  expect(warning.requirements).toEqual(['BOT-RECONNECT-AFTER-CLOSE']);
  // A pause of 100 ms or more before each redial: no warning.
  const paused = await Promise.all(plan.map((p) => apply(p.check, subject(150) as never, p.app, ctx)));
  expect(paused.map((r) => r.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
  // Nothing measured: not applicable with the reason.
  const none = await Promise.all(plan.map((p) => apply(p.check, { notMeasured: 'the bot has no open WebSocket to close' } as never, p.app, ctx)));
  expect(none.map((r) => r.status)).toEqual(['notApplicable', 'notApplicable', 'notApplicable', 'notApplicable']);
});
