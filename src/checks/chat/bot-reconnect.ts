/**
 * The chat bot's reconnection (document, Chat transport and chat bot: "The bot must handle the
 * socket closing, whether normal or abnormal, by reconnecting after a timeout"), judged on what
 * the bot spec measured when the gateway closed the socket and refused upgrades for a while
 * (`specs/chat/bot.spec.ts`). After each close the bot is connected again within the flow
 * timeout; while the gateway refuses upgrades its attempts are not a tight loop: at most
 * `MAX_ATTEMPTS_PER_SECOND` (10) in any second, i.e. 100 ms or more between attempts. The first
 * attempt right after a close is not failed: the official bot (`mg-bot-helper`, `UpWS`) dials
 * again at once after a close and sleeps 1 s after each failed dial; its timeout is the one
 * between failed attempts, and that is the one a tight loop lacks. A first attempt within
 * `MIN_REDIAL_MS` (100) of a close warns (`ensureBotPausesBeforeRedialing`, a SHOULD that quotes
 * the sentence: "after a timeout", of no stated length). The bot's commands, socket and answers
 * are `bot.ts`'s.
 */
import { defineCheck, fail, notApplicable, pass, type Verdict } from '../check.ts';

/** The most upgrade attempts in any second while refused before the retries count as a tight loop (100 ms between attempts). */
export const MAX_ATTEMPTS_PER_SECOND = 10;

/** One close of the bot's socket by the gateway and what followed. */
export interface CloseMeasure {
  mode: 'normal' | 'abnormal';
  /** Epoch ms when the gateway began closing. */
  closedAt: number;
  /** Delay from the close to the first upgrade request (ms). */
  firstAttemptMs?: number;
  /** Delay from the close to the connection opened again (ms); undefined when it did not within the bound. */
  reconnectedMs?: number;
  /** Upgrade requests between the close and the reconnection (or the end of the wait). */
  attempts: number;
  boundMs: number;
  evidence: string[];
}

/** The gateway refused upgrades for a while after closing the socket. */
export interface RefusalMeasure extends CloseMeasure {
  refusedMs: number;
  /** Times of the upgrade requests while refused (ms after the close). */
  refusedAttemptsAt: number[];
  /** After the refusal ended: delay to the connection (ms). */
  reconnectedAfterRefusalMs?: number;
}

export interface BotReconnectSubject {
  /** Why nothing could be measured (no open connection to close). */
  notMeasured?: string;
  abnormal?: CloseMeasure;
  normal?: CloseMeasure;
  refused?: RefusalMeasure;
}

/** The most attempts within any one-second window. */
export function peakPerSecond(times: number[]): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

const fmt = (ms: number | undefined): string => (ms === undefined ? '-' : `${Math.round(ms)} ms`);

function reconnected(m: CloseMeasure | undefined, what: string, why: string | undefined): Verdict {
  if (!m) return notApplicable(why ?? `the ${what} close was not measured`);
  if (m.reconnectedMs !== undefined) return pass(`after ${what === 'abnormal' ? 'an' : 'a'} ${what} close: first upgrade request ${fmt(m.firstAttemptMs)} later, connected again ${fmt(m.reconnectedMs)} later (${m.attempts} request(s))`, m.evidence);
  return fail(`after ${what === 'abnormal' ? 'an' : 'a'} ${what} close the bot did not connect again within ${m.boundMs} ms (${m.attempts} upgrade request(s)${m.firstAttemptMs !== undefined ? `, the first ${fmt(m.firstAttemptMs)} after the close` : ''})`, `a reconnection after a timeout, within ${m.boundMs} ms (flowTimeoutMs)`, m.evidence);
}

export const ensureBotReconnectsAfterAbnormalClose = defineCheck<BotReconnectSubject>({
  name: 'ensureBotReconnectsAfterAbnormalClose',
  checks: 'after the gateway drops the bot\'s socket (abnormal close, 1006) the bot connects again within the flow timeout',
  run: (s) => reconnected(s.abnormal, 'abnormal', s.notMeasured),
});

export const ensureBotReconnectsAfterNormalClose = defineCheck<BotReconnectSubject>({
  name: 'ensureBotReconnectsAfterNormalClose',
  checks: 'after the gateway closes the bot\'s socket normally (1000) the bot connects again within the flow timeout',
  run: (s) => reconnected(s.normal, 'normal', s.notMeasured),
});

/** The document's sentence on reconnection (Chat transport and chat bot; BOT-RECONNECT-AFTER-CLOSE). */
export const RECONNECT_SENTENCE = 'The bot must handle the socket closing, whether normal or abnormal, by reconnecting after a timeout.';
/** A first upgrade request sooner than this after a close is a redial "at once", no timeout (warned). */
export const MIN_REDIAL_MS = 100;

/**
 * The timeout before the first redial after a close (issue 31, item 7): a SHOULD. The document
 * asks for "a timeout" without a length, and the official bot (`mg-bot-helper`) dials again 8 to
 * 19 ms after a close: so a redial within `MIN_REDIAL_MS` warns, quoting the sentence, and never
 * fails. Each measured close is judged (abnormal, refused, normal).
 */
export const ensureBotPausesBeforeRedialing = defineCheck<BotReconnectSubject>({
  name: 'ensureBotPausesBeforeRedialing',
  checks: `after its socket closes the bot waits a timeout (${MIN_REDIAL_MS} ms or more) before it dials again`,
  run(s) {
    const measured = (['abnormal', 'refused', 'normal'] as const).flatMap((k) => (s[k]?.firstAttemptMs !== undefined ? [{ k, ms: s[k]!.firstAttemptMs!, evidence: s[k]!.evidence }] : []));
    if (measured.length === 0) return notApplicable(s.notMeasured ?? 'no upgrade request after a close was measured');
    const words = measured.map((m) => `after the ${m.k} close ${fmt(m.ms)}`).join(', ');
    const soon = measured.filter((m) => m.ms < MIN_REDIAL_MS);
    if (soon.length > 0) {
      return fail(
        `the first upgrade request came ${words} later: ${soon.length === measured.length ? 'every' : `${soon.length} of ${measured.length}`} redial within ${MIN_REDIAL_MS} ms of the close, no timeout`,
        `"${RECONNECT_SENTENCE}" (document, Chat transport and chat bot): a pause of ${MIN_REDIAL_MS} ms or more before dialing again (a warning: the document gives the timeout no length, and the official bot mg-bot-helper dials again at once)`,
        soon.flatMap((m) => m.evidence.slice(0, 1)),
      );
    }
    return pass(`the first upgrade request came ${words} later`, measured.flatMap((m) => m.evidence.slice(0, 1)));
  },
});

export const ensureBotReconnectIsNotTightLoop = defineCheck<BotReconnectSubject>({
  name: 'ensureBotReconnectIsNotTightLoop',
  checks: `while the gateway refuses its upgrades the bot retries after a timeout (at most ${MAX_ATTEMPTS_PER_SECOND} attempts in any second), and connects once it accepts again`,
  run(s) {
    const r = s.refused;
    if (!r) return notApplicable(s.notMeasured ?? 'the refusal was not measured');
    const peak = peakPerSecond(r.refusedAttemptsAt);
    const rate = r.refusedAttemptsAt.length / (r.refusedMs / 1000);
    const figures = `${r.refusedAttemptsAt.length} upgrade request(s) in ${r.refusedMs} ms of refusal (${rate.toFixed(1)}/s on average, at most ${peak} in one second), the first ${fmt(r.firstAttemptMs)} after the close`;
    if (peak > MAX_ATTEMPTS_PER_SECOND) return fail(`${figures}: a tight loop`, `a timeout between attempts: at most ${MAX_ATTEMPTS_PER_SECOND} attempts in any second (100 ms or more apart)`, r.evidence);
    if (r.reconnectedAfterRefusalMs === undefined) return fail(`${figures}; not connected again within ${r.boundMs} ms after the gateway accepted upgrades again`, `a reconnection within ${r.boundMs} ms (flowTimeoutMs) once the gateway accepts`, r.evidence);
    return pass(`${figures}; connected ${fmt(r.reconnectedAfterRefusalMs)} after the refusal ended`, r.evidence);
  },
});
