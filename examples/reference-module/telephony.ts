/**
 * Telephony: a small PBX. The system starts calls (`makeCallUrl`) and reports user statuses
 * (`changeUserStatusUrl`); the PBX keeps active calls and a call log with recordings served
 * at `/records/{callId}.wav?clientId=...`; triggers report call events, upload the call log
 * and look up the responsible manager (wire-profile section 4).
 */
import { randomBytes } from 'node:crypto';
import { CallbackAuth, HttpError, afterReply, badRequest, getCallback, notFound, presentedClientId, sendReply, success, type CallbackReply, type Ctx, type RouteHandler, type Router } from './http.ts';
import { dateTime } from './input.ts';
import { buildWav } from './documents.ts';
import { EXTERNAL_PHONES, TELEPHONY_CODES, TELEPHONY_PATHS } from './registration.ts';
import { chunks, describeFailure, systemOk, type OutboundReply, type SystemClient } from './outbound.ts';
import { log } from './log.ts';
import type { FaultSet } from './faults.ts';

export const USER_STATUSES = ['free', 'busy', 'dinner', 'break'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

const CALL_RESULTS = ['answered', 'busy', 'failed', 'no answer'] as const;

interface ActiveCall {
  callExternalId: string;
  type: 'in' | 'out';
  phone: string;
  code?: string;
  userId?: string;
  externalPhone?: string;
  startedAt: Date;
}

export interface CallRecord {
  id: string;
  date: Date;
  type: 'in' | 'out';
  phone: string;
  code: string;
  userId?: string;
  result: (typeof CALL_RESULTS)[number];
  duration: number;
  durationWaiting: number;
  externalPhone?: string;
  uploaded: boolean;
}

/** Calls per upload request (contract limit). */
export const CALLS_PER_UPLOAD = 50;

export class TelephonyService {
  readonly active = new Map<string, ActiveCall>();
  readonly log = new Map<string, CallRecord>();
  readonly userStatuses = new Map<string, { code?: string; status: UserStatus; updatedAt: string }>();
  private synthetic = 0;

  constructor(
    private readonly system: SystemClient,
    private readonly publicUrl: () => string,
    private readonly faults?: FaultSet,
    /** Variation `resends-one-call`: the last call of a request is sent again at the head of the next (a retry after a lost answer). */
    private readonly options: { resendOne?: boolean; /** Variation `reports-started-calls`. */ reportsCalls?: boolean } = {},
  ) {}

  private newId(prefix: string): string {
    return `${prefix}${randomBytes(6).toString('hex')}`;
  }

  recordUrl(id: string): string {
    return `${this.publicUrl()}${TELEPHONY_PATHS.recordPrefix}${id}.wav`;
  }

  /** The system asks the PBX to call `phone` from the user's extension `code`. */
  makeCall(q: Record<string, string>): CallbackReply {
    const phone = q.phone?.trim();
    const code = q.code?.trim();
    // Fault `make-call-no-number-200`: a call to no number at all answered 200, as if it had started.
    if (!phone && this.faults?.has('make-call-no-number-200')) return { kind: 'json', status: 200, body: { success: true } };
    if (!phone) throw badRequest('phone is required');
    if (!code) throw badRequest('code is required');
    // A number as users type it: `+` or not, spaces, dashes, parentheses; 3 to 15 digits (E.164 allows 15).
    const digitCount = phone.replace(/\D/g, '').length;
    if (!/^\+?[0-9 ()-]+$/.test(phone) || digitCount < 3 || digitCount > 15) throw badRequest(`phone ${JSON.stringify(phone)} is not a phone number`);
    // A call starts from an extension of this PBX (the codes it registered).
    if (!TELEPHONY_CODES.some((c) => c.code === code)) throw badRequest(`code ${JSON.stringify(code)} is not an extension of this PBX`);
    const call: ActiveCall = { callExternalId: this.newId('call_'), type: 'out', phone, code, startedAt: new Date() };
    if (q.userId) call.userId = q.userId;
    if (q.externalPhone) call.externalPhone = q.externalPhone;
    this.active.set(phone, call);
    log('call started', { phone, code, callExternalId: call.callExternalId });
    if (this.faults?.has('make-call-201')) return { kind: 'json', status: 201, body: { success: true, result: { callExternalId: call.callExternalId } } };
    return success({ callExternalId: call.callExternalId });
  }

  changeUserStatus(q: Record<string, string>, ctx?: Ctx): CallbackReply | Promise<CallbackReply> {
    const userId = q.userId?.trim();
    if (!userId) throw badRequest('userId is required');
    const status = q.status?.trim();
    if (!status) throw badRequest('status is required');
    if (!(USER_STATUSES as readonly string[]).includes(status)) throw badRequest(`status must be one of ${USER_STATUSES.join(', ')}`);
    const entry: { code?: string; status: UserStatus; updatedAt: string } = { status: status as UserStatus, updatedAt: new Date().toISOString() };
    if (q.code) entry.code = q.code;
    this.userStatuses.set(userId, entry);
    // Fault `change-status-hangs`: a change to `dinner` is taken but never answered, the connection left open until the system gives up.
    if (this.faults?.has('change-status-hangs') && status === 'dinner' && ctx) {
      const { res } = ctx;
      log('user status change never answered', { userId, status });
      return res.destroyed ? success() : new Promise((resolve) => res.once('close', () => resolve(success())));
    }
    return success();
  }

  record(id: string): CallbackReply {
    const call = this.log.get(id);
    if (!call) throw notFound(`call ${JSON.stringify(id)} has no recording`);
    // A tone per call direction: 440 Hz incoming, 520 Hz outgoing; 0.5 s.
    return { kind: 'bytes', contentType: this.faults?.has('record-wav-as-mpeg') ? 'audio/mpeg' : 'audio/wav', body: buildWav({ seconds: 0.5, frequency: call.type === 'in' ? 440 : 520 }), filename: `${id}.wav` };
  }

  /** The route of the recordings: the clientId required, as every callback's; fault `record-without-client-id` serves them to anyone. */
  recordRoute(auth: CallbackAuth): RouteHandler {
    if (this.faults?.has('record-without-client-id')) return (ctx) => sendReply(ctx.res, this.record(ctx.params.id ?? ''));
    return getCallback(auth, (_q, ctx) => this.record(ctx.params.id ?? ''));
  }

  /**
   * The route of makeCall: the clientId required, as every callback's. Fault
   * `refused-make-call-takes-effect`: the PBX reports each call it starts with an outgoing call
   * event (what a real PBX does), and starts the call before it looks at the clientId: a refused
   * makeCall still rings, and its event reaches the system.
   */
  makeCallRoute(auth: CallbackAuth): RouteHandler {
    const actsFirst = this.faults?.has('refused-make-call-takes-effect') ?? false;
    // Variation `reports-started-calls`: each call started is reported with an outgoing call event; a refused one is never started.
    if (!actsFirst && !this.options.reportsCalls) return queryOrFormCallback(auth, (q) => this.makeCall(q));
    return async (ctx) => {
      if (!actsFirst) auth.require(ctx);
      const q = paramsOf(ctx);
      const reply = this.makeCall(q);
      afterReply(ctx, async () => {
        await this.callEvent({ phone: q.phone!.trim(), type: 'out', codes: [q.code!.trim()] });
      });
      const judged = auth.judge(presentedClientId(ctx));
      if (!judged.ok) throw new HttpError(judged.status, judged.errorMsg);
      sendReply(ctx.res, reply);
    };
  }

  /** A call the PBX handled without the system (its history), for uploads; under `id` when the trigger named it. */
  private synthesize(id?: string): CallRecord {
    const n = this.synthetic++;
    const ext = TELEPHONY_CODES[n % TELEPHONY_CODES.length]!;
    const rec: CallRecord = {
      id: id ?? this.newId('rec_'),
      date: new Date(Date.now() - (n + 1) * 60_000),
      type: n % 2 === 0 ? 'in' : 'out',
      phone: `+4915${String(10_000_000 + n).padStart(8, '0')}`,
      code: ext.code,
      userId: String(ext.userId),
      result: CALL_RESULTS[n % CALL_RESULTS.length]!,
      duration: n % CALL_RESULTS.length === 0 ? 30 + (n % 90) : 0,
      durationWaiting: 3 + (n % 20),
      uploaded: false,
    };
    this.log.set(rec.id, rec);
    return rec;
  }

  private callEntry(c: CallRecord): Record<string, unknown> {
    const entry: Record<string, unknown> = {
      date: dateTime(c.date),
      type: c.type,
      phone: c.phone,
      code: c.code,
      result: c.result,
      duration: c.duration,
      durationWaiting: c.durationWaiting,
      externalId: c.id,
      recordUrl: this.recordUrl(c.id),
    };
    if (this.faults?.has('calls-upload-without-record-url')) delete entry.recordUrl;
    if (c.userId !== undefined) entry.userId = /^\d+$/.test(c.userId) ? Number(c.userId) : c.userId;
    if (c.externalPhone) {
      entry.externalPhone = c.externalPhone;
      const site = EXTERNAL_PHONES.find((p) => p.externalPhone === c.externalPhone)?.siteCode;
      if (site) entry.site = site;
    }
    return entry;
  }

  /**
   * Uploads the call log not yet uploaded, in requests of at most 50 calls. With `count`, exactly
   * `count` calls: the oldest pending ones, completed from the PBX history when there are fewer.
   * With `externalIds`, the calls the PBX handled under those ids (those it has not logged yet are
   * logged now), each uploaded again even when it was before.
   */
  async uploadCalls(count?: number, externalIds?: string[]): Promise<Record<string, unknown>> {
    let pending = [...this.log.values()].filter((c) => !c.uploaded);
    if (externalIds) {
      pending = externalIds.map((id) => this.log.get(id) ?? this.synthesize(id));
      // calls-upload-drops-asked-call: the first asked call left out, a call of the PBX history uploaded in its place.
      if (this.faults?.has('calls-upload-drops-asked-call')) pending = [...pending.slice(1), this.synthesize()];
    } else if (count !== undefined) {
      while (pending.length < count) pending.push(this.synthesize());
      pending = pending.slice(0, count);
    } else if (pending.length === 0) {
      pending.push(this.synthesize());
    }
    const replies: OutboundReply[] = [];
    let previous: CallRecord | undefined;
    for (const chunk0 of chunks(pending, this.faults?.has('calls-upload-unchunked') ? Number.MAX_SAFE_INTEGER : CALLS_PER_UPLOAD)) {
      const chunk = this.options.resendOne && previous && chunk0.length < CALLS_PER_UPLOAD ? [previous, ...chunk0] : chunk0;
      previous = chunk0.at(-1);
      const reply = await this.system.postForm('/api/v5/telephony/calls/upload', { calls: JSON.stringify(chunk.map((c) => this.callEntry(c))) });
      replies.push(reply);
      if (systemOk(reply)) for (const c of chunk) c.uploaded = true;
    }
    const failed = replies.filter((r) => !systemOk(r));
    return {
      success: failed.length === 0,
      ...(failed.length ? { errorMsg: `calls upload refused: ${describeFailure(failed[0]!)}` } : {}),
      calls: pending.length,
      requests: replies.length,
      replies: replies.map((r) => ({ status: r.status, body: r.json ?? r.text })),
    };
  }

  /** Reports a call event (incoming, outgoing, hangup) and keeps the PBX state in step. */
  async callEvent(params: { phone: string; type: 'in' | 'out' | 'hangup'; codes?: string[]; externalPhone?: string; userIds?: (string | number)[] }): Promise<Record<string, unknown>> {
    const { phone, type } = params;
    let active = this.active.get(phone);
    if (type === 'in' || type === 'out') {
      active = { callExternalId: this.newId('call_'), type, phone, startedAt: new Date() };
      if (params.codes?.[0]) active.code = params.codes[0];
      if (params.externalPhone) active.externalPhone = params.externalPhone;
      this.active.set(phone, active);
    }
    const codes = params.codes ?? (active?.code ? [active.code] : TELEPHONY_CODES.map((c) => c.code));
    const event: Record<string, unknown> = { phone, type, codes, callExternalId: active?.callExternalId ?? this.newId('call_') };
    if (params.userIds) event.userIds = params.userIds;
    const externalPhone = params.externalPhone ?? active?.externalPhone;
    if (externalPhone) {
      event.externalPhone = externalPhone;
      const site = EXTERNAL_PHONES.find((p) => p.externalPhone === externalPhone)?.siteCode;
      if (site) event.site = site;
    }
    if (type === 'hangup') {
      event.hangupStatus = active ? 'answered' : 'unknown';
      if (active) {
        this.active.delete(phone);
        const rec: CallRecord = {
          id: active.callExternalId,
          date: active.startedAt,
          type: active.type,
          phone,
          code: active.code ?? codes[0] ?? TELEPHONY_CODES[0].code,
          result: 'answered',
          duration: Math.max(1, Math.round((Date.now() - active.startedAt.getTime()) / 1000)),
          durationWaiting: 0,
          uploaded: false,
        };
        if (active.userId) rec.userId = active.userId;
        if (active.externalPhone) rec.externalPhone = active.externalPhone;
        this.log.set(rec.id, rec);
      }
    }
    if (this.faults?.has('call-event-codes-not-strings')) event.codes = codes.map((c) => (/^\d+$/.test(c) ? Number(c) : c));
    if (this.faults?.has('call-event-type-unknown') && event.type === 'in') event.type = 'ringing';
    // call-event-in-out-swapped: incoming calls reported as outgoing, outgoing as incoming.
    if (this.faults?.has('call-event-in-out-swapped') && (type === 'in' || type === 'out')) event.type = type === 'in' ? 'out' : 'in';
    // call-event-phone-is-external: the shop's external number where the customer's number belongs.
    if (this.faults?.has('call-event-phone-is-external')) event.phone = externalPhone ?? EXTERNAL_PHONES[0].externalPhone;
    // long-phone-truncated: the customer's number cut to its first 12 characters.
    if (this.faults?.has('long-phone-truncated') && typeof event.phone === 'string') event.phone = event.phone.slice(0, 12);
    if (this.faults?.has('call-event-ignored')) return { success: true, event };
    const reply = this.faults?.has('call-event-json-body')
      ? await this.system.postJson('/api/v5/telephony/call/event', { event })
      : await this.system.postForm('/api/v5/telephony/call/event', { event: JSON.stringify(event) });
    return { success: systemOk(reply), ...(systemOk(reply) ? {} : { errorMsg: `call event refused: ${describeFailure(reply)}` }), event, reply: reply.json ?? reply.text };
  }

  /** Asks the system for the free responsible manager of a customer's phone. */
  async managerLookup(phone: string): Promise<Record<string, unknown>> {
    const f = this.faults;
    // manager-lookup-by-post: the lookup POSTed as a form; manager-lookup-phone-param-renamed: the number as `number`, not `phone`.
    const reply = f?.has('manager-lookup-by-post')
      ? await this.system.postForm('/api/v5/telephony/manager', { phone })
      : await this.system.get('/api/v5/telephony/manager', f?.has('manager-lookup-phone-param-renamed') ? { number: phone } : { phone });
    const body = reply.json as { manager?: { code?: unknown } } | undefined;
    // manager-lookup-crashes-without-manager: the manager's extension read without asking whether one was found (throws on `{success: true}`).
    if (f?.has('manager-lookup-crashes-without-manager') && systemOk(reply)) log('routing the call to extension', { code: String(body!.manager!.code) });
    return {
      success: systemOk(reply),
      ...(systemOk(reply) ? {} : { errorMsg: `manager lookup refused: ${describeFailure(reply)}` }),
      manager: body?.manager ?? null,
      reply: reply.json ?? reply.text,
    };
  }
}

/** Query parameters and form fields of a request, without `clientId`. */
function paramsOf(ctx: Ctx): Record<string, string> {
  const q: Record<string, string> = {};
  for (const [k, v] of ctx.query) q[k] = v;
  for (const [k, v] of ctx.form ?? []) q[k] = v;
  delete q.clientId;
  return q;
}

/** GET with the query is the contract's method; POST with a form is accepted too (wire-profile section 4: the method is a setting). */
function queryOrFormCallback(auth: CallbackAuth, handler: (q: Record<string, string>, ctx: Ctx) => CallbackReply | Promise<CallbackReply>): RouteHandler {
  return async (ctx) => {
    auth.require(ctx);
    sendReply(ctx.res, await handler(paramsOf(ctx), ctx));
  };
}

export function mountTelephony(router: Router, auth: CallbackAuth, service: TelephonyService): void {
  const makeCall = service.makeCallRoute(auth);
  const changeStatus = queryOrFormCallback(auth, (q, ctx) => service.changeUserStatus(q, ctx));
  router.add(['GET', 'POST'], TELEPHONY_PATHS.makeCall, makeCall);
  router.add(['GET', 'POST'], TELEPHONY_PATHS.changeUserStatus, changeStatus);
  router.add('GET', `${TELEPHONY_PATHS.recordPrefix}{id}.wav`, service.recordRoute(auth));
}
