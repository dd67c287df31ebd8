/**
 * The `activity` callback (every kind; path in the top-level `actions.activity`): the system
 * tells the module that it was switched on or off, or frozen, in an account. POST form
 * `clientId`, `systemUrl`, `activity={"active": bool, "freeze": bool}`; reply `{success: true}`.
 */
import type { FaultSet } from './faults.ts';
import { CallbackAuth, HttpError, badRequest, jsonField, presentedClientId, sendError, sendJson, sendSuccess, sendText, type Router } from './http.ts';
import { optBoolean } from './input.ts';
import { ACTIVITY_PATH } from './registration.ts';
import { log } from './log.ts';

export interface ActivityRecord {
  active: boolean;
  freeze: boolean;
  systemUrl?: string;
  updatedAt: string;
}

/** Activity per account (clientId). A correct module only ever stores its own clientId. */
export class ActivityStore {
  readonly byClient = new Map<string, ActivityRecord>();

  set(clientId: string, record: ActivityRecord): void {
    this.byClient.set(clientId, record);
  }

  get(clientId: string): ActivityRecord | undefined {
    return this.byClient.get(clientId);
  }
}

export function mountActivity(router: Router, auth: CallbackAuth, store: ActivityStore, faults: FaultSet): void {
  router.add('POST', ACTIVITY_PATH, (ctx) => {
    const judged = auth.judge(presentedClientId(ctx), { acceptUnknown: faults.has('activity-accepts-unknown-client') });
    if (!judged.ok && judged.status === 401 && faults.has('refusal-missing-clientid-400')) throw new HttpError(400, judged.errorMsg);
    if (!judged.ok && faults.has('refusal-body-not-json')) return sendText(ctx.res, judged.status, 'text/plain; charset=utf-8', 'Forbidden');
    if (!judged.ok && faults.has('refusal-status-500')) return sendError(ctx.res, 500, judged.errorMsg);
    if (!judged.ok && faults.has('refusal-without-errormsg')) return sendJson(ctx.res, judged.status, { success: false });
    if (!judged.ok && faults.has('refusal-errormsg-not-text')) return sendJson(ctx.res, judged.status, { success: false, errorMsg: { code: 'unknown_client', message: judged.errorMsg } });
    if (!judged.ok) throw new HttpError(judged.status, judged.errorMsg);
    const activity = jsonField(ctx, 'activity');
    const active = optBoolean(activity, 'active', 'activity.active');
    const freeze = optBoolean(activity, 'freeze', 'activity.freeze');
    if (active === undefined) throw badRequest('activity.active is required');
    if (freeze === undefined) throw badRequest('activity.freeze is required');
    const systemUrl = ctx.form?.get('systemUrl') ?? undefined;
    const record: ActivityRecord = { active, freeze, updatedAt: new Date().toISOString() };
    if (systemUrl) record.systemUrl = systemUrl;
    store.set(judged.clientId, record);
    log('activity changed', { clientId: judged.clientId, active, freeze });
    if (faults.has('activity-reply-malformed')) return sendText(ctx.res, 200, 'text/plain; charset=utf-8', 'OK');
    sendSuccess(ctx.res);
  });
}
