/**
 * Stateful chat template sequences: fast-check commands over the template verification table
 * (`src/contract/template-machine.ts`, the model the gateway simulator enforces too). A
 * sequence creates templates in the system (a `template_create` webhook with content of
 * `src/generators/chat/templates.ts`; the transport answers the code), has the provider decide
 * on the verifying ones (the `transport.templateVerdict` trigger: approved, or rejected with a
 * document's reason or none), resubmits rejected ones (`template_update`: verifying again),
 * edits approved ones (`template_update` with new variable values only: still approved),
 * deletes templates (`template_delete`), and has the provider create templates of its own that
 * the module reports (`transport.templateReport`: `POST /channels/{channel_id}/templates`).
 *
 * Only channels whose settings enable template creation get template steps (wire profile 6:
 * the gateway sends `template_*` only there); a step that needs an undeclared trigger is not
 * generated. Each step records the module's template calls meanwhile (`CaseOutcome.template`)
 * for the checks of `src/checks/chat/templates.ts`. A step is data (`TplStep`): a saved failure
 * replays step by step (`conformance replay`).
 */
import fc from 'fast-check';
import { SequencePayload, StepCommand } from './step-commands.ts';
import type { Reply } from '../client/callback-client.ts';
import type { CallbackName } from '../callbacks/table.ts';
import { REJECTION_REASONS, VERIFICATION_STATUSES, isVerificationStatus, type RejectionReason, type TemplateState, type VerificationStatus } from '../contract/template-machine.ts';
import { templateContent } from '../generators/chat/templates.ts';
import { afterWebhook } from '../simulators/gateway-webhooks.ts';
import type { GatewaySimulator } from '../simulators/gateway.ts';
import type { Exchange } from '../evidence/exchange.ts';
import { offRouteCallOf, templateCallOf, type TemplateCallView, type TemplateStepView } from '../checks/chat/template-views.ts';
import { triggerFailure, type TriggerName } from '../module/triggers.ts';
import type { CaseOutcome, GeneratedCase } from '../checks/case.ts';
import type { RunSession } from '../run/session.ts';
import { transportOf } from '../generators/chat/context.ts';
import { bindStep } from '../generators/chat/references.ts';
import { matching } from '../generators/matching.ts';

type Json = Record<string, unknown>;

/** One step; `channel` indexes the template channels, `target` the sequence's own templates that qualify, both modulo their number. */
export type TplStep =
  | { op: 'create'; channel: number; data: Json }
  | { op: 'verdict'; target: number; verdict: 'approved' | 'rejected'; reason?: RejectionReason }
  | { op: 'resubmit'; target: number; data: Json }
  | { op: 'edit'; target: number; samples: string[] }
  | { op: 'delete'; target: number }
  | { op: 'report'; channel: number; code: string; status: VerificationStatus; data: Json };

interface ModelTemplate {
  channelId: number;
  code: string;
  state: VerificationStatus;
  /** The template's fields as the system last sent (or the provider reported) them. */
  data: Json;
  /** A call about it broke a rule, or it left the table: the module and the gateway no longer agree on it; no later step uses it. */
  tainted?: boolean;
}

export interface TemplateModel {
  templates: ModelTemplate[];
}

/** How a sequence reaches the module and the gateway: the run's session, or a replay's. */
export interface TemplateDriver {
  /** The active channels of the transport whose settings enable template creation. */
  channels(): number[];
  /** Sends a template webhook; the gateway applies what the reply means (a code given, resubmitted, deleted). */
  webhook(type: 'template_create' | 'template_update' | 'template_delete', data: Json, label: string): Promise<Reply>;
  fire(trigger: Extract<TriggerName, 'transport.templateVerdict' | 'transport.templateReport'>, params: Record<string, string | number>): Promise<Reply>;
  canVerdict: boolean;
  canReport: boolean;
  gateway: GatewaySimulator;
  /** Exchange ids judged here (the session's end does not judge them again). */
  judged: Set<string>;
  module: Json;
  profile: boolean;
  /** How long a call that must follow a trigger is waited for. */
  callTimeoutMs: number;
  /** Set once a required call was not seen: later waits are brief (it already fails; shrinking stays fast). */
  missed: Set<string>;
  /**
   * Whose each template is (`<channel> <code>` → the sequence's case id): sequences run in lanes
   * at once, and a step's calls are those about its own sequence's templates or about none of
   * another's (a call about a template no sequence made is every watching step's to judge).
   */
  owners?: Map<string, string>;
}

/** How long a step waits for calls it did not ask for (a module that acts on its own right after a webhook). */
const SETTLE_MS = 20;
/** Once a call was missed in the session, the wait for any later one. */
const BRIEF_MS = 60;

export function sessionTemplateDriver(session: RunSession): TemplateDriver {
  const clientId = session.clientId();
  return {
    channels: () => (transportOf(session)?.channels ?? []).filter((c) => c.templateCreation).map((c) => c.id),
    webhook: async (type, raw, label) => {
      // The files a template's header and samples name are files the gateway holds and serves (wire profile 6:
      // a transport may fetch each by its id): held ones of the header's kind, else one the gateway puts there.
      const token = transportOf(session)?.token;
      const channelId = Number(raw.channel_id);
      const data = token !== undefined && Number.isInteger(channelId) ? bindStep({ state: session.gateway.state, token }, channelId, raw, {}).data : raw;
      const reply = await session.send(`transport.${type}` as CallbackName, data, { clientId, case: label });
      if (reply.status !== undefined && reply.status < 300) afterWebhook(session.gateway.state, type, data, reply);
      return reply;
    },
    fire: (trigger, params) => session.triggers.fire(trigger, params),
    canVerdict: session.triggers.declared('transport.templateVerdict'),
    canReport: session.triggers.declared('transport.templateReport'),
    gateway: session.gateway,
    judged: session.judged,
    module: session.registration!.module,
    profile: session.config.profile,
    callTimeoutMs: Math.min(session.config.flowTimeoutMs, 5000),
    missed: new Set(),
    owners: new Map(),
  };
}

interface Real {
  driver: TemplateDriver;
  caseId: string;
  steps: CaseOutcome[];
}

const live = (m: TemplateModel): ModelTemplate[] => m.templates.filter((t) => !t.tainted);
const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

function candidates(step: TplStep, m: TemplateModel): ModelTemplate[] {
  switch (step.op) {
    case 'create':
    case 'report':
      return [];
    case 'verdict':
      return live(m).filter((t) => t.state === 'pending');
    case 'resubmit':
      return live(m).filter((t) => t.state === 'rejected');
    case 'edit':
      return live(m).filter((t) => t.state === 'approved');
    case 'delete':
      return live(m);
  }
}

export function canRun(step: TplStep, m: TemplateModel): boolean {
  return step.op === 'create' || step.op === 'report' || candidates(step, m).length > 0;
}

const ownerKey = (channelId: number | undefined, code: string | undefined): string => `${channelId} ${code}`;

/** Notes that the template is this sequence's. */
function own(r: Real, channelId: number, code: string): void {
  r.driver.owners?.set(ownerKey(channelId, code), r.caseId);
}

/** The module's template calls since the marks: recorded gateway calls on template routes, and requests to template paths by a method they do not have; those about another sequence's templates left out. */
function callsSince(d: TemplateDriver, mark: { calls: number; at: number }, caseId?: string): TemplateCallView[] {
  const recorded = d.gateway.callsSince(mark.calls).flatMap((c) => {
    const v = templateCallOf(c);
    return v ? [v] : [];
  });
  const unknown = ((d.gateway as unknown as { unknown?: Exchange[] }).unknown ?? []).filter((x) => Date.parse(x.startedAt) >= mark.at).flatMap((x) => {
    const v = offRouteCallOf(x);
    return v ? [v] : [];
  });
  const mine = (c: TemplateCallView): boolean => {
    const owner = d.owners?.get(ownerKey(c.channelId, c.code));
    return owner === undefined || caseId === undefined || owner === caseId;
  };
  return [...recorded, ...unknown].filter(mine);
}

/** Waits until a call satisfying `wanted` is among the template calls since the marks, or the timeout. */
async function awaitCall(d: TemplateDriver, mark: { calls: number; at: number }, wanted: (c: TemplateCallView) => boolean, kind: string, caseId: string): Promise<number> {
  const started = Date.now();
  const timeout = d.missed.size > 0 ? BRIEF_MS : d.callTimeoutMs;
  while (!callsSince(d, mark, caseId).some(wanted)) {
    if (Date.now() - started >= timeout) {
      d.missed.add(kind);
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  // A moment for what follows at once (a second call of the same answer).
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return Date.now() - started;
}

const stateAt = (d: TemplateDriver, channelId: number, code: string): TemplateState | undefined => {
  const tpl = d.gateway.template(channelId, code);
  if (!tpl) return undefined;
  return isVerificationStatus(tpl.verification_status) ? tpl.verification_status : 'pending';
};

const label = (r: Real, what?: string): string => `${r.caseId}.${r.steps.length + 1}${what ? `.${what}` : ''}`;

/** A code for a provider's template: the generated one, or a fresh one when the channel already has it. */
function freshCode(d: TemplateDriver, m: TemplateModel, channelId: number, code: string): string {
  let c = code;
  for (let i = 2; d.gateway.template(channelId, c) || m.templates.some((t) => t.channelId === channelId && t.code === c); i++) c = `${code}_${i}`;
  return c;
}

/** Replaces the sample values of an example with the step's samples (the only edit an approved template allows: variable values). */
function resampled(data: Json, samples: string[]): Json {
  let i = 0;
  const next = (): string => samples.length === 0 ? 'sample' : samples[i++ % samples.length]!;
  const redo = (v: unknown): unknown => (Array.isArray(v) ? v.map(redo) : typeof v === 'string' ? next() : v);
  const out: Json = { ...data };
  for (const key of ['example', 'examples']) {
    const ex = data[key];
    if (typeof ex !== 'object' || ex === null || Array.isArray(ex)) continue;
    const e = { ...(ex as Json) };
    for (const part of ['body', 'header', 'buttons']) if (e[part] !== undefined) e[part] = redo(e[part]);
    out[key] = e;
  }
  return out;
}

/** Runs one step against the module and the model. */
export async function runStep(step: TplStep, m: TemplateModel, r: Real): Promise<void> {
  const d = r.driver;
  const channels = d.channels();
  const mark = { calls: d.gateway.callCount(), at: Date.now() };
  let view: TemplateStepView;
  let reply: Reply;
  let callback: CallbackName;
  let payload: unknown;
  let trigger: string | undefined;
  let target: ModelTemplate | undefined;

  switch (step.op) {
    case 'create': {
      const channelId = pick(channels, step.channel)!;
      const data = { ...step.data, channel_id: channelId };
      callback = 'transport.template_create';
      payload = data;
      reply = await d.webhook('template_create', data, label(r));
      await new Promise((res) => setTimeout(res, SETTLE_MS));
      const code = (reply.json as { code?: unknown } | undefined)?.code;
      view = { op: 'create', channelId, before: 'new', calls: [], waitedMs: SETTLE_MS };
      if (typeof code === 'string' && code !== '') {
        view.code = code;
        const state = stateAt(d, channelId, code);
        // A code the channel already has is the webhook checks' to judge; the model keeps the first.
        if (state !== undefined && state !== 'new' && !m.templates.some((t) => t.channelId === channelId && t.code === code)) {
          target = { channelId, code, state, data };
          m.templates.push(target);
          own(r, channelId, code);
        }
      }
      break;
    }
    case 'report': {
      const channelId = pick(channels, step.channel)!;
      // The sequence's own code (its case's number appended): sequences in lanes never report the same template.
      const code = freshCode(d, m, channelId, `${step.code}_${r.caseId.slice(r.caseId.lastIndexOf('#') + 1).replace(/\W/g, '_')}`);
      own(r, channelId, code);
      const template: Json = { ...step.data, verification_status: step.status };
      delete template.channel_id;
      callback = 'transport.template_create';
      payload = { channelId, code, template };
      trigger = 'transport.templateReport';
      reply = await d.fire('transport.templateReport', { channelId, code, template: JSON.stringify(template) });
      const failed = triggerFailure(reply);
      const waitedMs = await awaitCall(d, mark, (c) => c.code === code && c.channelId === channelId, 'report', r.caseId);
      view = { op: 'report', channelId, code, before: 'new', report: { code, status: step.status }, trigger: { exchange: reply.exchange.id, ...(reply.status !== undefined ? { status: reply.status } : {}), ...(failed ? { failed } : {}) }, calls: [], waitedMs };
      const state = stateAt(d, channelId, code);
      if (state !== undefined && state !== 'new') {
        target = { channelId, code, state, data: { ...template, channel_id: channelId, code } };
        m.templates.push(target);
      }
      break;
    }
    default: {
      target = pick(candidates(step, m), step.target)!;
      const { channelId, code } = target;
      const before = target.state;
      if (step.op === 'verdict') {
        callback = 'transport.template_update';
        payload = { channelId, code, verdict: step.verdict, ...(step.reason ? { reason: step.reason } : {}) };
        trigger = 'transport.templateVerdict';
        reply = await d.fire('transport.templateVerdict', { channelId, code, verdict: step.verdict, ...(step.reason ? { reason: step.reason } : {}) });
        const failed = triggerFailure(reply);
        const waitedMs = await awaitCall(d, mark, (c) => c.code === code && c.channelId === channelId, 'verdict', r.caseId);
        view = { op: 'verdict', channelId, code, before, asked: { verdict: step.verdict, ...(step.reason ? { reason: step.reason } : {}) }, trigger: { exchange: reply.exchange.id, ...(reply.status !== undefined ? { status: reply.status } : {}), ...(failed ? { failed } : {}) }, calls: [], waitedMs };
      } else if (step.op === 'delete') {
        const data = { channel_id: channelId, code, lang: typeof target.data.lang === 'string' ? target.data.lang : 'en' };
        callback = 'transport.template_delete';
        payload = data;
        reply = await d.webhook('template_delete', data, label(r));
        await new Promise((res) => setTimeout(res, SETTLE_MS));
        view = { op: 'delete', channelId, code, before, calls: [], waitedMs: SETTLE_MS };
      } else {
        // resubmit: the user rewrites a rejected template (name and lang stay); edit: new variable values of an approved one.
        const data = step.op === 'resubmit' ? { ...step.data, name: target.data.name, lang: target.data.lang, channel_id: channelId, code } : { ...resampled(target.data, step.samples), channel_id: channelId, code };
        callback = 'transport.template_update';
        payload = data;
        reply = await d.webhook('template_update', data, label(r));
        await new Promise((res) => setTimeout(res, SETTLE_MS));
        if (reply.status !== undefined && reply.status < 300) target.data = data;
        view = { op: step.op, channelId, code, before, calls: [], waitedMs: SETTLE_MS };
      }
    }
  }

  view.calls = callsSince(d, mark, r.caseId);
  for (const c of view.calls) d.judged.add(c.exchange);
  if (target) {
    const after = stateAt(d, target.channelId, target.code);
    view.after = after ?? (step.op === 'delete' ? 'new' : target.state);
    if (after === undefined) m.templates.splice(m.templates.indexOf(target), 1);
    else if (after !== 'new') target.state = after;
    // A call about it that broke a rule or was refused: judged once, the template left alone from then on.
    const troubled = view.calls.some((c) => c.code === target!.code && (!c.accepted || (c.judgement?.breaches.length ?? 0) > 0));
    const unreported = step.op === 'verdict' && !view.calls.some((c) => c.code === target!.code);
    if (troubled || unreported) target.tainted = true;
  }
  r.steps.push({ case: { callback, payload, intent: trigger ? { kind: 'open', why: 'a trigger' } : { kind: 'valid' } }, reply, module: d.module, profile: d.profile, ...(trigger ? { trigger } : {}), template: view });
}

/** A step as a fast-check command over this model. */
const command = (step: TplStep): StepCommand<TplStep, TemplateModel, Real> => new StepCommand(step, canRun, runStep);

/** A template's content as the system creates it, its channel id filled in when the step runs. */
const content = templateContent({ id: 0 }).map((d) => {
  const { channel_id: _omit, ...rest } = d;
  return rest;
});

/** The steps the module's declared triggers allow. */
function stepArbitraries(canVerdict: boolean, canReport: boolean): Array<fc.Arbitrary<TplStep>> {
  const target = fc.nat({ max: 7 });
  const channel = fc.nat({ max: 3 });
  const out: Array<fc.Arbitrary<TplStep>> = [
    fc.record({ channel, data: content }).map((g) => ({ op: 'create' as const, ...g })),
    fc.record({ target }).map((g) => ({ op: 'delete' as const, ...g })),
  ];
  if (canVerdict) {
    const verdict = fc.record({ target, verdict: fc.constantFrom('approved' as const, 'rejected' as const), reason: fc.option(fc.constantFrom(...REJECTION_REASONS), { nil: undefined }) }).map(({ reason, ...g }) => ({ op: 'verdict' as const, ...g, ...(g.verdict === 'rejected' && reason ? { reason } : {}) }));
    // Verdicts are what the table is about: weighted so that most sequences reach a decision, rejections included.
    out.push(verdict, verdict, verdict, verdict);
    out.push(fc.record({ target, data: content }).map((g) => ({ op: 'resubmit' as const, ...g })));
    out.push(fc.record({ target, samples: fc.array(matching(/^[A-Za-z0-9]{1,10}$/), { minLength: 1, maxLength: 4 }) }).map((g) => ({ op: 'edit' as const, ...g })));
  }
  if (canReport) {
    const report = fc.record({ channel, code: matching(/^prov_[a-z0-9]{4,10}$/), status: fc.constantFrom(...VERIFICATION_STATUSES), data: content }).map((g) => ({ op: 'report' as const, ...g }));
    out.push(report, report);
  }
  return out;
}

/** The generated sequences: a create, then up to `maxCommands` steps the model allows. */
export function templateSequences(canVerdict: boolean, canReport: boolean, maxCommands = 8): fc.Arbitrary<GeneratedCase> {
  const commands = stepArbitraries(canVerdict, canReport).map((a) => a.map((s) => command(s)));
  return fc
    .tuple(fc.record({ channel: fc.nat({ max: 3 }), data: content }), fc.commands(commands, { maxCommands }))
    .map(([first, cmds]) => ({ callback: 'transport.template_create' as const, payload: new SequencePayload<TplStep, TemplateModel, Real>({ op: 'create', ...first }, cmds), intent: { kind: 'sequence' as const } }));
}

/** Runs a template sequence case and returns its outcome, every step in `steps`. */
export async function runTemplateSequence(driver: TemplateDriver, c: GeneratedCase, caseId: string): Promise<CaseOutcome> {
  const payload = c.payload instanceof SequencePayload ? (c.payload as SequencePayload<TplStep, TemplateModel, Real>) : undefined;
  const steps = payload ? [payload.first] : ((c.payload as { steps?: TplStep[] } | undefined)?.steps ?? []);
  const real: Real = { driver, caseId, steps: [] };
  const model: TemplateModel = { templates: [] };
  const commands: Iterable<fc.AsyncCommand<TemplateModel, Real>> = payload ? payload.commands : steps.slice(1).map((s) => command(s));
  if (driver.channels().length > 0) {
    await runStep(steps[0] ?? { op: 'create', channel: 0, data: {} }, model, real);
    await fc.asyncModelRun(() => ({ model, real }), commands);
  }
  const last = real.steps[real.steps.length - 1];
  return { case: c, reply: last?.reply ?? ({ exchange: { id: '', direction: 'gateway->module', label: 'none', startedAt: new Date().toISOString(), durationMs: 0, request: { headers: {}, bytes: 0 } } } as unknown as Reply), module: driver.module, profile: driver.profile, steps: real.steps };
}
