/**
 * The recordings of the calls a telephony module uploaded (document, Calls from the system to a
 * telephony module: "`recordUrl` of a call | `clientId` | Audio with a correct Content-Type
 * header"). The calls are the module's own: those it uploaded in the run, after the suite asks
 * for a few more with the trigger `telephony.callsUpload`; their `recordUrl`s (at most
 * `MAX_RECORDINGS`, the newest first) are the addresses fetched.
 *
 * - Every recording, fetched once with the clientId: audio (recognised by its structure) under a
 *   Content-Type that names its format.
 * - Recordings fetched with a missing or an unknown clientId (generated: which recording, which
 *   clientId): refused, and without the audio (wire profile 1: the clientId is the only
 *   credential of a callback; a module must not act on a request without it).
 *
 * The calls uploads themselves are judged with every call of the module to the system (the
 * calls upload flow, and the session's end).
 */
import { test } from '../fixtures.ts';
import { covers } from '../covers.ts';
import { inArea } from '../../src/run/areas.ts';
import { runProperty, type PropertyCheck, type PropertySpec } from '../../src/properties/run.ts';
import { propertyChecks, propertyCovers } from '../../src/properties/registry.ts';
import { RECORD_REFUSED } from '../../src/checks/telephony/applications.ts';
import { notRunFor, type NotRun } from '../../src/properties/applicability.ts';
import { refusedRecord, type RecordProbe } from '../../src/generators/telephony/requests.ts';
import { RECORDING_ROWS } from '../../src/checks/system-api/applications.ts';
import { NeedsTrigger, triggerFailure } from '../../src/module/triggers.ts';
import type { RunSession } from '../../src/run/session.ts';
import type { Conformance, Planned } from '../../src/run/conformance.ts';
import type { Reply } from '../../src/client/callback-client.ts';
import type { GeneratedCase } from '../../src/checks/case.ts';
import { idsOfRows } from '../../src/checks/apply.ts';

/** Most recordings fetched (the newest first). */
export const MAX_RECORDINGS = 20;
/** Calls the trigger asks the module to upload. */
const CALLS_ASKED = 5;


/** The recordings of the run, or why there are none to fetch. */
type Recordings = { urls: string[]; evidence: string[] } | (NotRun & { evidence: string[]; trigger?: NeedsTrigger });

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The http(s) recordUrls of the calls of accepted uploads, the newest first, each once. */
function recordUrlsOf(session: RunSession, since = 0): { urls: string[]; calls: number } {
  const uploads = session.system.callsSince(since).filter((c) => c.endpoint === 'calls.upload' && c.accepted && Array.isArray(c.payload));
  const calls = uploads.flatMap((c) => c.payload as unknown[]).reverse();
  const urls = calls
    .map((c) => (isObj(c) ? c.recordUrl : undefined))
    .filter((u): u is string => {
      if (typeof u !== 'string') return false;
      try {
        return ['http:', 'https:'].includes(new URL(u).protocol);
      } catch {
        return false;
      }
    });
  return { urls: [...new Set(urls)], calls: calls.length };
}

/** Waits for the calls a trigger led to: the first within the flow timeout, then until 1 s passes without another. */
async function settle(session: RunSession, since: { calls: number; unsimulated: number }, timeoutMs: number): Promise<void> {
  const arrived = (): boolean => session.system.callCount() > since.calls || session.system.unsimulatedCount() > since.unsimulated;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !arrived()) await new Promise((r) => setTimeout(r, 50));
  let count = -1;
  while (Date.now() < deadline + 30_000 && count !== session.system.callCount() + session.system.unsimulatedCount()) {
    count = session.system.callCount() + session.system.unsimulatedCount();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const gathered = new WeakMap<RunSession, Promise<Recordings>>();

/** The recordings of the run: asked for once per session (the trigger), then shared by the tests of this file. */
function recordingsOf(session: RunSession): Promise<Recordings> {
  let p = gathered.get(session);
  if (!p) gathered.set(session, (p = gather(session)));
  return p;
}

async function gather(session: RunSession): Promise<Recordings> {
  const evidence: string[] = [];
  const earlier = recordUrlsOf(session);
  let fresh: { urls: string[]; calls: number } = { urls: [], calls: 0 };
  let triggerNote = '';
  if (session.triggers.declared('telephony.callsUpload')) {
    const since = { calls: session.system.callCount(), unsimulated: session.system.unsimulatedCount() };
    const reply = await session.triggers.fire('telephony.callsUpload', { count: CALLS_ASKED });
    evidence.push(reply.exchange.id);
    const failed = triggerFailure(reply);
    const called = (): boolean => session.system.callCount() > since.calls || session.system.unsimulatedCount() > since.unsimulated;
    if (!failed || called()) await settle(session, since, session.config.flowTimeoutMs);
    if (failed && !called()) triggerNote = `; the trigger telephony.callsUpload failed: ${failed}`;
    fresh = recordUrlsOf(session, since.calls);
  }
  const urls = [...new Set([...fresh.urls, ...earlier.urls])].slice(0, MAX_RECORDINGS);
  if (urls.length > 0) return { urls, evidence };
  const calls = fresh.calls + earlier.calls;
  if (calls > 0) return { status: 'notApplicable', why: `none of the ${calls} uploaded call(s) has a recordUrl that is an http(s) address (ensureUploadedCallsHaveRecordUrl judges the uploads)`, evidence };
  if (!session.triggers.declared('telephony.callsUpload')) return { status: 'skipped', why: 'the module uploaded no call in the run', evidence, trigger: new NeedsTrigger('telephony.callsUpload') };
  return { status: 'skipped', why: `the system accepted no calls upload${triggerNote || ' after the trigger telephony.callsUpload (the calls upload flow judges it)'}`, evidence };
}

/** The recordings to fetch; or undefined, the checks recorded as not run (and why). */
async function blockedFor(session: RunSession, conformance: Conformance, checks: ReadonlyArray<Planned>): Promise<string[] | undefined> {
  const blocked = notRunFor(session, 'telephony');
  if (blocked) {
    conformance.notRun(blocked.status, blocked.why, checks);
    return undefined;
  }
  const r = await recordingsOf(session);
  if ('urls' in r) return r.urls;
  if (r.trigger) conformance.skipForTrigger(r.trigger, checks);
  else conformance.notRun(r.status, r.why, checks, r.evidence);
  return undefined;
}

test.describe('telephony recordUrl', () => {
  test("recordUrl: every uploaded call's recording, fetched with the clientId, is audio of its Content-Type", { ...covers(idsOfRows(RECORDING_ROWS)), ...inArea('telephony') }, async ({ session, conformance }) => {
    test.setTimeout(session.config.flowTimeoutMs + 60_000 + MAX_RECORDINGS * (session.config.callbacks?.timeoutMs ?? 10_000));
    // The checks of the recordings fetched with the clientId, each over all of them (their rows: src/checks/system-api/applications.ts).
    const urls = await blockedFor(session, conformance, RECORDING_ROWS);
    if (!urls) return;
    const clientId = session.clientId();
    const fetched: Array<{ url: string; reply: Reply }> = [];
    for (const [i, url] of urls.entries()) fetched.push({ url, reply: await session.send('telephony.record', {}, { clientId, url, case: `record-${i + 1}` }) });
    for (const r of RECORDING_ROWS) await conformance.apply(r, fetched);
  });

  test('recordUrl: generated fetches with a missing or unknown clientId, refused without the audio', { ...covers(propertyCovers(RECORD_REFUSED)), ...inArea('telephony') }, async ({ session, conformance }) => {
    const gen = session.config.generation;
    test.setTimeout(session.config.flowTimeoutMs + gen.timeLimitMs + 60_000);
    const checks = propertyChecks(RECORD_REFUSED, session.config.profile);
    const planned = checks;
    const urls = await blockedFor(session, conformance, planned);
    if (!urls) return;
    const spec: PropertySpec = {
      name: RECORD_REFUSED,
      id: 'record-refused',
      // Each probe is judged on its answer alone.
      independent: true,
      arbitrary: refusedRecord(urls, session.clientId()!),
      checks: checks as PropertyCheck[],
      exec: async (c: GeneratedCase, caseId: string) => {
        const probe = c as RecordProbe;
        const reply = await session.send('telephony.record', {}, { clientId: probe.presented, url: probe.url, case: caseId, probe: true, label: `telephony.record (${probe.presented === undefined ? 'no clientId' : 'an unknown clientId'})` });
        return { case: c, reply, module: session.registration!.module, profile: session.config.profile };
      },
    };
    await runProperty(conformance, spec, gen);
  });
});
