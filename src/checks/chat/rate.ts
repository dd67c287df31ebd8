/**
 * The gateway's rate limit, from the module's side (document, Errors 6: "More than 30 requests
 * per second from one token to the Transport API or the Bot API: HTTP status 429 Too Many
 * Requests"; Limits: "Request rate | 30 per second per token | ... excess gives 429").
 *
 * - `ensureRateBacksOff`: the module's requests per second on one token (every HTTP request,
 *   429'd ones included, per second of the gateway's clock) do not stay above 30. One second over
 *   is the gateway's to refuse: the module learns of the limit from the 429 (its own count and the
 *   gateway's are not on one clock), and two in a row can still be a module that adapts at once (a
 *   429 at the end of one second, its pace unaligned with the gateway's seconds). Three seconds in
 *   a row above the limit (`CONSECUTIVE_SECONDS`) is a module that does not back off: it keeps
 *   its rate above the limit after its 429s for a whole second of its own. A 429'd request resent
 *   at once in a tight loop shows here: hundreds of requests a second while the gateway refuses.
 * - `ensureEveryMessageArrives`: what the module was asked to send (customer messages of a
 *   transport, answers of a bot to commands) all reach the gateway accepted, 429s met on the way
 *   notwithstanding: a refused request is resent (none lost).
 * - `ensureRetryKeepsExternalId`: a customer message resent after a 429 carries the external id
 *   it was refused with (`message.external_id`, the messenger's id of the message).
 *
 * The two resend checks are SHOULD (they warn, `WHY_SHOULD`): Errors 6 states what the gateway
 * answers above the limit, and no sentence of the documents binds the module to send a refused
 * request again. The limit itself (`ensureRateBacksOff`, Limits: "30 per second per token") binds.
 *
 * Where the module's own rate stayed above the limit (`ensureRateBacksOff` failed), the 429s
 * were its own doing and the other two judge nothing (one cause, one failing check).
 */
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import type { SecondOfTraffic } from '../../evidence/bounded.ts';

/** The gateway's limit (document, Limits). */
export const RATE_LIMIT_PER_SECOND = 30;
/** Seconds in a row above the limit that make a module that does not back off (see the file's comment). */
export const CONSECUTIVE_SECONDS = 3;
/**
 * A second is above the limit when the module's requests in it pass the limit by more than half
 * (over 45): a module that paces itself by its own clock at the limit and resends what got a 429
 * after a pause makes a few refused requests a second more than 30 and still backs off (the
 * official clients send at once and learn of the limit only from the 429); one that does not back
 * off resends in a loop, at hundreds a second.
 */
export const OVER_FACTOR = 1.5;

/**
 * Why the resend is judged as a SHOULD (issue 31, item 7; catalogue TRN-RATE-LIMIT-BACKOFF,
 * BOT-RATE-LIMIT-BACKOFF): the document states the gateway's answer, not a duty to resend.
 */
export const WHY_SHOULD = 'a warning: Errors 6 states that the gateway answers 429 above 30 requests a second; no sentence binds the module to resend a refused request';

export interface RateSubject {
  /** Whose token: "the transport", "the bot". */
  who: string;
  /** The token's per-second record over the judged stretch, oldest first. */
  seconds: readonly SecondOfTraffic[];
  limit?: number;
  consecutive?: number;
  /** Exchanges that show it (429 answers), kept. */
  evidence?: readonly string[];
}

/** The longest run of consecutive seconds above the limit, and every second above it. */
export function secondsOver(seconds: readonly SecondOfTraffic[], limit = RATE_LIMIT_PER_SECOND): { over: SecondOfTraffic[]; longest: SecondOfTraffic[] } {
  const over = seconds.filter((s) => s.requests > limit * OVER_FACTOR);
  let longest: SecondOfTraffic[] = [];
  let run: SecondOfTraffic[] = [];
  for (const s of over) {
    run = run.length > 0 && run[run.length - 1]!.second + 1 === s.second ? [...run, s] : [s];
    if (run.length > longest.length) longest = run;
  }
  return { over, longest };
}

const clock = (second: number): string => new Date(second * 1000).toISOString().slice(11, 19);
const secondWords = (s: SecondOfTraffic): string => `${clock(s.second)} ${s.requests} (${s.tooMany} answered 429${s.forced ? `, ${s.forced} of them forced` : ''})`;

export const ensureRateBacksOff = defineCheck<RateSubject>({
  name: 'ensureRateBacksOff',
  checks: 'the module does not stay above 30 requests a second per token: after 429s it backs off (measured per second)',
  run({ who, seconds, limit = RATE_LIMIT_PER_SECOND, consecutive = CONSECUTIVE_SECONDS, evidence = [] }) {
    if (seconds.length === 0) return notApplicable(`${who} made no request to the gateway in the stretch judged`);
    const { over, longest } = secondsOver(seconds, limit);
    const requests = seconds.reduce((n, s) => n + s.requests, 0);
    const tooMany = seconds.reduce((n, s) => n + s.tooMany, 0);
    const forced = seconds.reduce((n, s) => n + s.forced, 0);
    const peak = Math.max(...seconds.map((s) => s.requests));
    if (longest.length >= consecutive) {
      return fail(
        `${who} stayed above ${limit} requests a second (over ${limit * OVER_FACTOR}) for ${longest.length} seconds in a row: ${longest.slice(0, 8).map(secondWords).join('; ')}${longest.length > 8 ? '; …' : ''} (peak ${peak}/s; ${tooMany} answered 429 over ${seconds.length} seconds, ${forced} forced)`,
        `at most ${limit} requests a second per token (excess gives 429); after 429s the module waits before it resends, so that its rate does not stay above the limit (${consecutive} seconds in a row with more than ${limit * OVER_FACTOR} requests fail; one or two, or a few refused requests a second over the limit, are the gateway's to refuse)`,
        [...evidence].slice(0, 5),
      );
    }
    return pass(
      `${who}: ${requests} requests over ${seconds.length} seconds, peak ${peak} in one second; ${over.length === 0 ? `never above ${limit * OVER_FACTOR}` : `above ${limit * OVER_FACTOR} in ${over.length} second(s), at most ${longest.length} in a row`}; ${tooMany} answered 429 (${forced} forced by the suite)`,
      [...evidence].slice(0, 3),
    );
  },
});

/** One request of the module that carried an item it was asked to send, and the gateway's answer. */
export interface ItemSend {
  /** What names the item: a customer message's `message.external_id`, a bot answer's `chat_id`. */
  key: string;
  status: number;
  exchange: string;
  /** The item's content without its key (for pairing a resend with its refused request). */
  content?: string;
}

export interface ArrivalSubject {
  /** "customer messages", "answers to commands". */
  noun: string;
  /** What names an item, in words: "message.external_id", "chat_id". */
  keyName: string;
  /** How many items the module was asked for. */
  asked: number;
  /** The keys the items must arrive under, when the suite knows them (a bot's answers: the chats of the commands). */
  askedKeys?: readonly string[];
  /** Every request that carried an item, in order. */
  sends: readonly ItemSend[];
  /** Why the 429s were the module's own doing (its rate failed `ensureRateBacksOff`); nothing is judged then. */
  ownRate?: string;
}

const accepted = (s: ItemSend): boolean => s.status >= 200 && s.status < 300;

export const ensureEveryMessageArrives = defineCheck<ArrivalSubject>({
  name: 'ensureEveryMessageArrives',
  checks: 'everything the module was asked to send reaches the gateway, a request answered 429 resent (none lost)',
  run({ noun, keyName, asked, askedKeys, sends, ownRate }) {
    if (ownRate) return notApplicable(`the 429s were the module's own doing (${ownRate}): judged by ensureRateBacksOff`);
    const refused = sends.filter((s) => s.status === 429);
    if (refused.length === 0) return notApplicable(`none of the ${sends.length} requests carrying ${noun} was answered 429: no resend to judge`);
    const arrived = new Set(sends.filter(accepted).map((s) => s.key));
    const lastRefusal = new Map(refused.map((s) => [s.key, s.exchange]));
    if (askedKeys) {
      // Answers that arrived in chats no command came from: where they went is ensureBotAnswersInItsChat's to judge.
      const elsewhere = [...arrived].filter((k) => !askedKeys.includes(k));
      if (elsewhere.length > 0) return notApplicable(`${elsewhere.length} ${noun} arrived under a ${keyName} none of them was asked in (${elsewhere.slice(0, 5).join(', ')}${elsewhere.length > 5 ? ', …' : ''}): where they went is judged by ensureBotAnswersInItsChat`);
      const lost = askedKeys.filter((k) => !arrived.has(k));
      if (lost.length > 0) {
        return fail(
          `${lost.length} of ${askedKeys.length} ${noun} never arrived (${keyName} ${lost.slice(0, 10).join(', ')}${lost.length > 10 ? ', …' : ''}); ${refused.length} requests were answered 429`,
          `every one of the ${askedKeys.length} ${noun} accepted by the gateway: a request answered 429 is resent after a wait (${WHY_SHOULD})`,
          lost.map((k) => lastRefusal.get(k)).filter((x): x is string => x !== undefined).slice(0, 5),
        );
      }
      return pass(`all ${askedKeys.length} ${noun} arrived; ${refused.length} requests answered 429 on the way were resent`);
    }
    if (arrived.size < asked) {
      const neverAccepted = [...lastRefusal.keys()].filter((k) => !arrived.has(k));
      return fail(
        `${arrived.size} of ${asked} ${noun} arrived (distinct ${keyName} accepted); ${refused.length} requests were answered 429${neverAccepted.length ? `, ${neverAccepted.length} of them never accepted (${neverAccepted.slice(0, 10).join(', ')}${neverAccepted.length > 10 ? ', …' : ''})` : ''}`,
        `all ${asked} ${noun} accepted by the gateway: a request answered 429 is resent after a wait (${WHY_SHOULD})`,
        neverAccepted.map((k) => lastRefusal.get(k)!).slice(0, 5),
      );
    }
    return pass(`all ${asked} ${noun} arrived (${arrived.size} distinct ${keyName} accepted); ${refused.length} requests answered 429 on the way were resent`);
  },
});

export interface ResendSubject {
  /** How many messages the module was asked for. */
  asked: number;
  /** Every request that carried a customer message, in order. */
  sends: readonly ItemSend[];
  ownRate?: string;
}

export const ensureRetryKeepsExternalId = defineCheck<ResendSubject>({
  name: 'ensureRetryKeepsExternalId',
  checks: 'a customer message resent after a 429 carries the external id it was refused with',
  run({ asked, sends, ownRate }) {
    if (ownRate) return notApplicable(`the 429s were the module's own doing (${ownRate}): judged by ensureRateBacksOff`);
    const refusedKeys = [...new Set(sends.filter((s) => s.status === 429).map((s) => s.key))];
    if (refusedKeys.length === 0) return notApplicable(`none of the ${sends.length} customer messages sent was answered 429: no resend to judge`);
    const arrived = new Set(sends.filter(accepted).map((s) => s.key));
    const distinct = new Set(sends.map((s) => s.key));
    const kept = refusedKeys.filter((k) => arrived.has(k));
    const dropped = refusedKeys.filter((k) => !arrived.has(k));
    // More external ids than messages asked for, and a 429'd id never accepted: a resend went out under another id.
    if (distinct.size > asked && dropped.length > 0) {
      const pairs: Array<{ refused: ItemSend; resent?: ItemSend }> = dropped.map((k) => {
        const at = sends.findIndex((s) => s.key === k && s.status === 429);
        const refused = sends[at]!;
        const seenBefore = new Set(sends.slice(0, at).map((s) => s.key));
        const resent = refused.content === undefined ? undefined : sends.slice(at + 1).find((s) => s.key !== k && !seenBefore.has(s.key) && s.content === refused.content);
        return { refused, ...(resent ? { resent } : {}) };
      });
      const shown = pairs.filter((p) => p.resent);
      return fail(
        `${distinct.size} distinct message.external_id sent for ${asked} messages; ${dropped.length} external ids answered 429 never came again${shown.length ? `, their messages resent under new ones (${shown.slice(0, 5).map((p) => `${p.refused.key} -> ${p.resent!.key}`).join(', ')}${shown.length > 5 ? ', …' : ''})` : ''}`,
        `a message refused with 429 is resent as it was, under the same message.external_id, the messenger's id of the message (${WHY_SHOULD})`,
        shown.flatMap((p) => [p.refused.exchange, p.resent!.exchange]).slice(0, 6),
      );
    }
    if (kept.length === 0) return notApplicable(`none of the ${refusedKeys.length} messages answered 429 was sent again (lost: judged by ensureEveryMessageArrives)`);
    return pass(`${kept.length} messages answered 429 were resent under the same message.external_id and accepted`);
  },
});
