/**
 * The gateway's rate limit from the module's side (issue 25, item 4; document, Errors 6 and
 * Limits: more than 30 requests a second per token to the Transport API or the Bot API gives
 * 429). The gateway answers 429 above the limit, and the suite makes it answer 429 on demand
 * for a stretch (`GatewaySimulator.throttle`). With the numbers drawn from the run's seed
 * (`invent`: the same seed, the same drive):
 *
 * - Transport: `transport.inboundMessage` with `count` (90 to 120) messages; once the gateway
 *   has accepted a few (5 to 30), every `POST /messages` of the transport's token is answered
 *   429 for 1 to 2 s. Judged: every message arrives (as many distinct `message.external_id`
 *   accepted as asked), a message resent after a 429 keeps its external id, and the token's
 *   requests per second do not stay above the limit.
 * - Bot: one command (`message_new`, `message.type = "command"`, a command the bot registered)
 *   in each of 45 to 60 chats, all at once on the bot's socket; once a few answers are in (5 to
 *   20), every `POST /messages` of the bot is answered 429 for 1 to 2 s. Judged: every command
 *   gets its answer in its chat (none lost), and the bot's rate as above.
 *
 * The rate is judged over the token's whole traffic so far (the drive's end included): per
 * second of the gateway's clock, every HTTP request of the token (429'd ones too; bot WebSocket
 * upgrades are the bot socket's to judge). The figures of each drive (messages, 429s forced,
 * per-second rate, wall time) go to the attachment `rate-limit.json`, and to the same file in the
 * run's folder (one member per drive).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { notRunFor } from '../../src/properties/applicability.ts';
import { awaitChannels, botOf } from '../../src/generators/chat/context.ts';
import { botEventContextOf, probeCommand, seedBotChats } from '../../src/generators/chat/bot-events.ts';
import { invent } from '../../src/generators/invented.ts';
import { NeedsTrigger, triggerFailure } from '../../src/module/triggers.ts';
import { CONSECUTIVE_SECONDS, RATE_LIMIT_PER_SECOND, secondsOver, type ItemSend } from '../../src/checks/chat/rate.ts';
import { RATE, RATE_BOT_ROWS, RATE_TRANSPORT_ROWS } from '../../src/checks/chat/applications.ts';
import type { GatewayCall, GatewayRoute } from '../../src/simulators/gateway-endpoints.ts';
import type { SecondOfTraffic } from '../../src/evidence/bounded.ts';
import type { RunSession } from '../../src/run/session.ts';
import { appOf, idsOfRows, type Application, type Row } from '../../src/checks/apply.ts';
import type { Check } from '../../src/checks/check.ts';
import { internalDir } from '../../src/run/environment.ts';

type Planned = { check: Check<never>; app: Application };
const plan = (rows: ReadonlyArray<Row<never>>): Planned[] => rows.map((r) => ({ check: r.check, app: appOf(r) }));

/** What each drive applies (the chat application table: the resend after a 429 is a SHOULD, the catalogue's level; `WHY_SHOULD` in rate.ts). */
const TRANSPORT_CHECKS = plan(RATE_TRANSPORT_ROWS);
const BOT_CHECKS = plan(RATE_BOT_ROWS);

/** The drives, drawn from the run's seed. */
const transportDrive = fc.record({ count: fc.integer({ min: 90, max: 120 }), after: fc.integer({ min: 5, max: 30 }), stretchMs: fc.integer({ min: 1000, max: 2000 }) });
const botDrive = fc.record({ commands: fc.integer({ min: 45, max: 60 }), after: fc.integer({ min: 5, max: 20 }), stretchMs: fc.integer({ min: 1000, max: 2000 }) });

/** Most requests of a drive kept for judging (a module in a tight loop makes thousands; the rest are counted). */
const MAX_SENDS = 20_000;

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

interface Drive {
  sends: ItemSend[];
  /** Requests past MAX_SENDS, not kept. */
  overflow: number;
  /** When the 429s began to be forced (gateway clock, epoch ms). */
  forcedAt?: number;
  started: number;
  ended: number;
  stop(): void;
}

/**
 * Records every call of a token to `route` from now on (the item it carried, the answer), and
 * once `after` of them were accepted makes the gateway answer that route 429 for `stretchMs`.
 */
function record(session: RunSession, token: string, route: GatewayRoute, keyOf: (payload: unknown) => string | undefined, contentOf: (payload: unknown) => string | undefined, after: number, stretchMs: number): Drive {
  const gateway = session.gateway;
  let acceptedCount = 0;
  const drive: Drive = {
    sends: [],
    overflow: 0,
    started: gateway.now(),
    ended: 0,
    stop: () => {
      gateway.off('call', onCall);
      drive.ended = gateway.now();
    },
  };
  const onCall = (c: GatewayCall): void => {
    if (c.token !== token || c.route !== route) return;
    const key = keyOf(c.payload);
    if (key === undefined) return;
    if (drive.sends.length >= MAX_SENDS) drive.overflow++;
    else {
      const content = contentOf(c.payload);
      drive.sends.push({ key, status: c.status, exchange: c.exchange.id, ...(content !== undefined ? { content } : {}) });
    }
    if (c.accepted && ++acceptedCount === after && drive.forcedAt === undefined) {
      drive.forcedAt = gateway.now();
      gateway.throttle(token, { untilMs: drive.forcedAt + stretchMs, routes: [route] });
    }
  };
  gateway.on('call', onCall);
  return drive;
}

/** Waits until `done`, or `quietMs` without a new request of the drive, or the deadline. */
async function settle(drive: Drive, done: () => boolean, quietMs: number, deadline: number): Promise<void> {
  let seen = -1;
  let lastChange = Date.now();
  while (Date.now() < deadline && !done()) {
    const n = drive.sends.length + drive.overflow;
    if (n !== seen) (seen = n), (lastChange = Date.now());
    else if (Date.now() - lastChange > quietMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The rate of a token over its whole traffic so far, with the words for the other checks when it stayed above the limit. */
function rateOf(session: RunSession, token: string): { seconds: SecondOfTraffic[]; ownRate?: string } {
  const seconds = session.gateway.requestsPerSecond(token);
  const { longest } = secondsOver(seconds, RATE_LIMIT_PER_SECOND);
  return longest.length >= CONSECUTIVE_SECONDS ? { seconds, ownRate: `its own rate stayed above ${RATE_LIMIT_PER_SECOND} requests a second for ${longest.length} seconds in a row` } : { seconds };
}

/** The figures of a drive: attached to the test, and in the run's folder (`internal/rate-limit.json`, one member per drive). */
async function report(who: string, record: Record<string, unknown>): Promise<void> {
  await test.info().attach('rate-limit.json', { body: JSON.stringify(record, null, 2), contentType: 'application/json' });
  try {
    const file = path.join(internalDir(), 'rate-limit.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    fs.writeFileSync(file, `${JSON.stringify({ ...all, [who]: record }, null, 2)}\n`);
  } catch {
    // The attachment has it.
  }
}

function figures(drive: Drive, seconds: SecondOfTraffic[], extra: Record<string, unknown>): Record<string, unknown> {
  const during = seconds.filter((s) => s.second >= Math.floor(drive.started / 1000) && s.second <= Math.floor(drive.ended / 1000));
  return {
    ...extra,
    requests: drive.sends.length + drive.overflow,
    answered429: drive.sends.filter((s) => s.status === 429).length,
    forced429: during.reduce((n, s) => n + s.forced, 0),
    wallMs: drive.ended - drive.started,
    peakPerSecond: Math.max(0, ...during.map((s) => s.requests)),
    perSecond: during.map((s) => ({ second: s.second, requests: s.requests, tooMany: s.tooMany, forced: s.forced })),
  };
}

test.describe('chat: the gateway rate limit (429), from the module\'s side', () => {
  test('transport: many customer messages with 429s on the way: all arrive, under their external ids, at a rate that backs off', { ...covers(idsOfRows(RATE_TRANSPORT_ROWS)), ...inArea('chat', 'mgTransport') }, async ({ session, conformance }) => {
    const blocked = notRunFor(session, 'mgTransport');
    if (blocked) return conformance.notRun(blocked.status, blocked.why, TRANSPORT_CHECKS);
    if (!session.triggers.declared('transport.inboundMessage')) return conformance.skipForTrigger(new NeedsTrigger('transport.inboundMessage'), TRANSPORT_CHECKS);
    if (!session.triggers.takes('transport.inboundMessage', 'count')) return conformance.notRun('skipped', 'the trigger transport.inboundMessage does not pass `count` on: the module cannot be asked for many messages', TRANSPORT_CHECKS);
    const transport = await awaitChannels(session, session.config.flowTimeoutMs);
    if (!transport) return conformance.notRun('notApplicable', 'the module has no transport token at the gateway', TRANSPORT_CHECKS);
    if (transport.channels.length === 0) return conformance.notRun('notApplicable', 'the transport activated no channel: a customer has nowhere to write', TRANSPORT_CHECKS);
    const { count, after, stretchMs } = invent(session.config.generation.seed, 'chat rate: transport drive', transportDrive);
    const flowMs = session.config.flowTimeoutMs;
    test.setTimeout(flowMs * 2 + (count / RATE_LIMIT_PER_SECOND) * 2000 + stretchMs + 60_000);

    const drive = record(
      session,
      transport.token,
      'transport.message.send',
      (p) => {
        const id = obj(obj(p).message).external_id;
        return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
      },
      (p) => {
        const { external_id: _id, ...message } = obj(obj(p).message);
        return JSON.stringify([message, obj(p).external_chat_id ?? null, obj(obj(p).customer).external_id ?? null, obj(p).channel ?? null]);
      },
      after,
      stretchMs,
    );
    const channelId = transport.channels[0]!.id;
    let triggerEvidence: string[] = [];
    try {
      const reply = await session.triggers.fire('transport.inboundMessage', { channelId, text: 'Is my order on its way?', count });
      triggerEvidence = [reply.exchange.id];
      const failed = triggerFailure(reply);
      if (failed && drive.sends.length === 0) {
        drive.stop();
        return conformance.notRun('skipped', `the trigger failed: ${failed}`, TRANSPORT_CHECKS, triggerEvidence);
      }
    } catch (e) {
      drive.stop();
      if (e instanceof NeedsTrigger) return conformance.skipForTrigger(e, TRANSPORT_CHECKS);
      throw e;
    }
    const accepted = (): number => new Set(drive.sends.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.key)).size;
    // Done when every message is in; a module that falls silent for the flow timeout is done too.
    await settle(drive, () => accepted() >= count, flowMs, Date.now() + flowMs + (count / RATE_LIMIT_PER_SECOND) * 2000 + stretchMs + 30_000);
    drive.stop();

    const { seconds, ownRate } = rateOf(session, transport.token);
    const refusals = drive.sends.filter((s) => s.status === 429).map((s) => s.exchange);
    await conformance.apply(RATE.transport.arrives, { noun: 'customer messages', keyName: 'message.external_id', asked: count, sends: drive.sends, ...(ownRate ? { ownRate } : {}) });
    await conformance.apply(RATE.transport.keepsExternalId, { asked: count, sends: drive.sends, ...(ownRate ? { ownRate } : {}) });
    await conformance.apply(RATE.transport.backsOff, { who: 'the transport', seconds, evidence: [...refusals.slice(0, 2), ...refusals.slice(-2), ...triggerEvidence] });
    await report('transport', figures(drive, seconds, { messages: count, forcedAfterAccepted: after, stretchMs }));
  });

  test('bot: many commands with 429s on the way: every one answered, at a rate that backs off', { ...covers(idsOfRows(RATE_BOT_ROWS)), ...inArea('chat', 'mgBot') }, async ({ session, conformance }) => {
    const blocked = notRunFor(session, 'mgBot');
    if (blocked) return conformance.notRun(blocked.status, blocked.why, BOT_CHECKS);
    const bot = botOf(session);
    if (!bot) return conformance.notRun('notApplicable', 'the module has no bot token at the gateway', BOT_CHECKS);
    const flowMs = session.config.flowTimeoutMs;
    const socket = await session.gateway.waitForBotConnection(flowMs);
    if (!socket) return conformance.notRun('notApplicable', `the bot has no open WebSocket (none within ${flowMs} ms): no command reaches it (judged by the bot's socket checks)`, BOT_CHECKS);
    const names = botEventContextOf(session.gateway.state, bot.token).commands;
    if (names.length === 0) return conformance.notRun('notApplicable', 'the bot registered no command: none can be sent to it that it answers', BOT_CHECKS);
    const { commands, after, stretchMs } = invent(session.config.generation.seed, 'chat rate: bot drive', botDrive);
    test.setTimeout(flowMs * 2 + (commands / RATE_LIMIT_PER_SECOND) * 2000 + stretchMs + 60_000);
    seedBotChats(session.gateway, commands);
    const chats = botEventContextOf(session.gateway.state, bot.token).chats.slice(-commands);
    const name = names[0]!;

    const drive = record(
      session,
      bot.token,
      'bot.message.send',
      (p) => {
        const id = obj(p).chat_id;
        return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
      },
      () => undefined,
      after,
      stretchMs,
    );
    let sent = 0;
    for (const [i, chat] of chats.entries()) sent += session.gateway.sendToBots(probeCommand(chat, name, 3_000_001 + i).frame) > 0 ? 1 : 0;
    if (sent === 0) {
      drive.stop();
      return conformance.notRun('notApplicable', 'the bot\'s socket closed before the commands could be sent', BOT_CHECKS);
    }
    const askedKeys = chats.map((c) => String(c.id));
    const answered = (): boolean => {
      const ok = new Set(drive.sends.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.key));
      return askedKeys.every((k) => ok.has(k));
    };
    await settle(drive, answered, flowMs, Date.now() + flowMs + (commands / RATE_LIMIT_PER_SECOND) * 2000 + stretchMs + 30_000);
    drive.stop();

    const { seconds, ownRate } = rateOf(session, bot.token);
    const refusals = drive.sends.filter((s) => s.status === 429).map((s) => s.exchange);
    await conformance.apply(RATE.bot.arrives, { noun: 'answers to commands', keyName: 'chat_id', asked: askedKeys.length, askedKeys, sends: drive.sends, ...(ownRate ? { ownRate } : {}) });
    await conformance.apply(RATE.bot.backsOff, { who: 'the bot', seconds, evidence: [...refusals.slice(0, 2), ...refusals.slice(-2)] });
    await report('bot', figures(drive, seconds, { commands: askedKeys.length, command: name, forcedAfterAccepted: after, stretchMs }));
  });
});
