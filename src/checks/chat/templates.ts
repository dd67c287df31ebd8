/**
 * A transport module's template calls (`POST /channels/{channel_id}/templates`,
 * `PUT|DELETE /channels/{channel_id}/templates/{code}`, with or without `/api/transport/v1`),
 * judged against the chat template verification table and the document's values and limits
 * (`src/contract/template-machine.ts`, the model the gateway simulator enforces too). Each
 * breach belongs to exactly one check:
 *
 * - the table (`ensureTemplateVerdictFollowsTable`): a verdict that moves the template where the
 *   table does not lead, or reports other than the provider decided, or a verdict sent by
 *   another method than PUT;
 * - a verdict asked (the `transport.templateVerdict` trigger) and never reported
 *   (`ensureTemplateVerdictIsReported`); a provider's template never reported by POST
 *   (`ensureTemplateReportIsPosted`);
 * - the document's values (`verification_status`, `rejection_reason`; `quality` by the wire
 *   profile), the fields of an update and of a report, the limits (at most 10 quick replies,
 *   header attachment types and the files' types and sizes where the gateway knows them, button
 *   types, URL buttons with their url);
 * - the rest of the template's schema (`ensureTemplateCallMatchesSchema`: header shape, examples,
 *   header or attachments, strings);
 * - any other refusal of the gateway (`ensureTemplateCallsAreAccepted`: an unknown template or
 *   channel, a code reported twice, a body that is not JSON, a method the path does not have),
 *   with the exchange as evidence. 401 and 429 are the token's and the rate limit's checks'.
 *
 * Every check judges only what the module sent; a call nothing asked for (outside the sequences)
 * is judged for its content and the table all the same.
 */
import { at } from '../schema-rule.ts';
import { defineCheck, fail, notApplicable, pass, show, type Check, type Verdict } from '../check.ts';
import type { TemplateBreach, TemplateRule } from '../../contract/template-machine.ts';
import type { CaseOutcome } from '../case.ts';
import type { TemplateCallView, TemplateStepView, TemplateSubject } from './template-views.ts';

// The subjects of the checks below (the views are built in template-views.ts).

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


const words = (c: TemplateCallView): string => `${c.method} ${c.path} (HTTP ${c.status || 'no answer'})`;
const breachesOf = (c: TemplateCallView, rule: TemplateRule): TemplateBreach[] => c.judgement?.breaches.filter((b) => b.rule === rule) ?? [];
/** A call to a template's own path by another method, carrying a verdict: a verdict not sent by PUT. */
const verdictByOtherMethod = (c: TemplateCallView): boolean => c.kind === 'offRoute' && c.code !== undefined && isObj(c.payload) && 'verification_status' in c.payload;
/** The call a report step's report went by PUT to the code it names (the gateway does not know it: 404). */
const reportByPut = (c: TemplateCallView, step?: TemplateStepView): boolean => step?.op === 'report' && step.report !== undefined && c.code === step.report.code && c.kind !== 'report';

/**
 * A check of one rule of the judge over every call: fails on the calls that break it, passes when
 * some call exercised it (`exercised`), not applicable otherwise.
 */
function ruleCheck(name: string, checks: string, rule: TemplateRule, expected: string, exercised: (c: TemplateCallView) => boolean, only?: (c: TemplateCallView) => boolean): Check<TemplateSubject> {
  return defineCheck<TemplateSubject>({
    name,
    checks,
    run({ calls }) {
      const mine = calls.filter((c) => !only || only(c));
      const bad = mine.filter((c) => breachesOf(c, rule).length > 0);
      if (bad.length > 0) return fail(bad.map((c) => `${words(c)}: ${breachesOf(c, rule).map((b) => b.why).join('; ')}`).join('; '), expected, bad.map((c) => c.exchange));
      const held = mine.filter(exercised);
      if (held.length > 0) return pass(`${held.length} template call(s) exercised it`, held.map((c) => c.exchange));
      return notApplicable('no template call of the module carried it');
    },
  });
}

const body = (c: TemplateCallView): Record<string, unknown> => (isObj(c.payload) ? c.payload : {});
const carries = (field: string) => (c: TemplateCallView): boolean => (c.kind === 'update' || c.kind === 'report') && body(c)[field] !== undefined && body(c)[field] !== null;
const items = (c: TemplateCallView): unknown[] => {
  const b = body(c).buttons;
  return isObj(b) && Array.isArray(b.items) ? b.items : [];
};

export const ensureTemplateVerificationStatusIsKnown = ruleCheck(
  'ensureTemplateVerificationStatusIsKnown',
  "a template call's verification_status is one of the document's three values",
  'verification-status',
  'verification_status one of approved, pending, rejected (integration-interface.md, Chat template)',
  carries('verification_status'),
);

export const ensureTemplateRejectionReasonIsKnown = ruleCheck(
  'ensureTemplateRejectionReasonIsKnown',
  "a template call's rejection_reason is one of the document's four values",
  'rejection-reason',
  'rejection_reason one of abusive_content, incorrect_category, invalid_format, scam (integration-interface.md, Chat template)',
  (c) => carries('rejection_reason')(c) && body(c).rejection_reason !== '',
);

export const ensureTemplateQualityIsKnown = ruleCheck(
  'ensureTemplateQualityIsKnown',
  "a template call's quality is one of the wire profile's four values",
  'quality',
  'quality one of pending, high, medium, low (wire profile section 6)',
  (c) => carries('quality')(c) && body(c).quality !== '',
);

export const ensureTemplateQuickRepliesWithinLimit = ruleCheck(
  'ensureTemplateQuickRepliesWithinLimit',
  'a template carries at most 10 quick-reply buttons',
  'quick-replies',
  'at most 10 quick-reply (plain) buttons (integration-interface.md, Chat template and Limits)',
  (c) => items(c).length > 0,
);

export const ensureTemplateAttachmentTypesAreKnown = ruleCheck(
  'ensureTemplateAttachmentTypesAreKnown',
  "a template's header attachment is an image, document or video, its file of that kind's type and size",
  'attachment-type',
  'attachments.type one of image (jpeg, jpg, png, 5 MB), document (pdf, 100 MB), video (mp4, 16 MB) (integration-interface.md, Attachment types for template headers)',
  carries('attachments'),
);

export const ensureTemplateButtonTypesAreKnown = ruleCheck(
  'ensureTemplateButtonTypesAreKnown',
  "a template's buttons are of the document's types (url, phone, plain)",
  'button-type',
  'buttons.items[].type one of url, phone, plain (integration-interface.md, Chat template)',
  (c) => items(c).some((b) => isObj(b) && b.type !== undefined),
);

export const ensureTemplateUrlButtonsHaveUrl = ruleCheck(
  'ensureTemplateUrlButtonsHaveUrl',
  "a template's URL buttons carry their url",
  'url-button',
  'a url button carries url (it may hold a variable) (integration-interface.md, Chat template)',
  (c) => items(c).some((b) => isObj(b) && b.type === 'url'),
);

export const ensureTemplateUpdateCarriesFields = ruleCheck(
  'ensureTemplateUpdateCarriesFields',
  "a template update carries the document's fields (name, body, verification_status)",
  'fields',
  'PUT /channels/{channel_id}/templates/{template_code} with name, body, verification_status, optional rejection_reason, header or attachments, footer, buttons (integration-interface.md, Chat transport and chat bot)',
  (c) => c.kind === 'update' && c.judgement !== undefined && c.status !== 404,
  (c) => c.kind === 'update',
);

export const ensureTemplateReportCarriesFields = ruleCheck(
  'ensureTemplateReportCarriesFields',
  "a template report carries the document's fields (code, name, body, verification_status)",
  'fields',
  'POST /channels/{channel_id}/templates with code, name, type, body, verification_status, header, examples, footer, buttons (integration-interface.md, Chat transport and chat bot)',
  (c) => c.kind === 'report',
  (c) => c.kind === 'report',
);

/** Schema errors the named rules above own (their values and limits); the rest is the schema check's. */
function ownedByRules(e: TemplateCallView['schemaErrors'][number], payload: unknown): boolean {
  const p = e.instancePath;
  if (/^\/(verification_status|rejection_reason|quality)$/.test(p)) return true;
  if (p === '/buttons/items' && e.keyword === 'contains') return true;
  if (/^\/buttons\/items\/\d+\/type$/.test(p)) return true;
  if (/^\/attachments\/type$/.test(p)) return true;
  const item = at(payload, p);
  if (/^\/buttons\/items\/\d+$/.test(p) && isObj(item) && item.type === 'url' && (e.keyword === 'if' || (e.params as { missingProperty?: string }).missingProperty === 'url')) return true;
  if (p === '' && e.keyword === 'required' && ['name', 'body', 'verification_status'].includes(String((e.params as { missingProperty?: string }).missingProperty))) return true;
  return false;
}

/** The rest of the template's schema: header `{content: {type, body}}`, examples, header or attachments, strings. */
export const ensureTemplateCallMatchesSchema = defineCheck<TemplateSubject>({
  name: 'ensureTemplateCallMatchesSchema',
  checks: "a template call's body has the shape of the document's chat template (header, attachments, examples, buttons, strings)",
  run({ calls }) {
    const judged = calls.filter((c) => (c.kind === 'update' || c.kind === 'report') && c.payload !== undefined);
    const bad = judged.map((c) => ({ c, errors: c.schemaErrors.filter((e) => !ownedByRules(e, c.payload)) })).filter((x) => x.errors.length > 0);
    if (bad.length > 0) {
      const one = (c: TemplateCallView, e: TemplateCallView['schemaErrors'][number]): string =>
        e.instancePath === '' && e.keyword === 'not' ? 'both header and attachments (attachments replaces header when the header is a file)' : `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.instancePath ? ` (${show(at(c.payload, e.instancePath), 80)})` : ''}`;
      const received = bad.map(({ c, errors }) => `${words(c)}: ${errors.map((e) => one(c, e)).join('; ')}`).join('; ');
      return fail(received, "the chat template's shape (integration-interface.md, Chat template: header {content: {type, body}}, attachments replacing header, examples of arrays of strings for buttons, string fields)", bad.map((x) => x.c.exchange));
    }
    if (judged.length > 0) return pass(`${judged.length} template body(ies) of the template's shape`, judged.map((c) => c.exchange));
    return notApplicable('no template body of the module to judge');
  },
});

/**
 * The table: every verdict (PUT) moves the template along a row (verifying -> approved or
 * rejected; a repeat of its state is no transition; approved -> anything is not shown and
 * accepted), reports what the provider decided in a verdict step, and is sent by PUT.
 */
export const ensureTemplateVerdictFollowsTable = defineCheck<TemplateSubject>({
  name: 'ensureTemplateVerdictFollowsTable',
  checks: 'a template verdict is a PUT of the template that moves it only along the verification table, to what the provider decided',
  run({ calls, step }) {
    const bad: Array<{ c: TemplateCallView; why: string }> = [];
    for (const c of calls) {
      for (const b of breachesOf(c, 'table')) bad.push({ c, why: b.why });
      if (verdictByOtherMethod(c) && !reportByPut(c, step)) bad.push({ c, why: `the verdict was sent by ${c.method}, not PUT` });
    }
    const mine = step?.op === 'verdict' && step.asked ? calls.filter((c) => c.kind === 'update' && c.code === step.code && c.channelId === step.channelId && c.judgement?.to !== undefined) : [];
    if (step?.asked) {
      // Reported other than the provider decided: the other verdict; or only `pending` (no decision passed on).
      const asked = step.asked.verdict;
      const other = mine.filter((c) => breachesOf(c, 'table').length === 0 && c.judgement!.to !== asked && (c.judgement!.to !== 'pending' || !mine.some((x) => x.judgement!.to === asked)));
      for (const c of other) bad.push({ c, why: `the provider ${asked} the template, the module reported ${c.judgement!.to}` });
    }
    if (bad.length > 0) {
      return fail(
        bad.map(({ c, why }) => `${words(c)}: ${why}`).join('; '),
        'PUT /channels/{channel_id}/templates/{template_code} with verification_status approved or rejected as the provider decided, from verifying only; a rejected template waits for the user to resubmit it (integration-interface.md, Chat template verification)',
        bad.map((x) => x.c.exchange),
      );
    }
    const moved = calls.filter((c) => c.kind === 'update' && c.accepted && c.judgement?.to !== undefined && c.judgement.from === 'pending' && c.judgement.to !== 'pending');
    if (moved.length > 0) return pass(`${moved.length} verdict(s) along the table (${[...new Set(moved.map((c) => `pending -> ${c.judgement!.to}`))].join(', ')})`, moved.map((c) => c.exchange));
    const others = calls.filter((c) => c.kind === 'update' && c.accepted && c.judgement?.to !== undefined);
    if (others.length > 0) return pass(`${others.length} update(s) that the table allows (no transition, or from approved: not shown)`, others.map((c) => c.exchange));
    return notApplicable('no template verdict of the module');
  },
});

/** A verdict the provider made (the trigger) is reported to the gateway: some call on the template's path follows. */
export const ensureTemplateVerdictIsReported = defineCheck<TemplateSubject>({
  name: 'ensureTemplateVerdictIsReported',
  checks: "the provider's verdict on a template, told to the module, is reported to the gateway",
  run({ calls, step }) {
    if (step?.op !== 'verdict' || !step.asked) return notApplicable('no verdict asked');
    const onPath = calls.filter((c) => c.code === step.code && c.channelId === step.channelId && c.kind !== 'report');
    if (onPath.length > 0) return pass(`the ${step.asked.verdict} verdict on ${step.code} was reported (${onPath.map(words).join(', ')})`, onPath.map((c) => c.exchange));
    const refused = calls.filter((c) => !c.accepted && c.kind !== 'report');
    if (refused.length > 0) return notApplicable(`the module's template call of the step was refused (${refused.map(words).join(', ')}): judged by ensureTemplateCallsAreAccepted`);
    const trig = step.trigger;
    return fail(
      `the provider ${step.asked.verdict} template ${step.code} of channel ${step.channelId} (trigger transport.templateVerdict${trig?.failed ? `, answered ${trig.failed}` : ''}); no call on /channels/${step.channelId}/templates/${step.code} within ${step.waitedMs} ms`,
      'PUT /channels/{channel_id}/templates/{template_code} with verification_status approved or rejected (integration-interface.md, Chat template verification)',
      trig ? [trig.exchange] : [],
    );
  },
});

/** A template the provider created, told to the module, is reported by POST with its code. */
export const ensureTemplateReportIsPosted = defineCheck<TemplateSubject>({
  name: 'ensureTemplateReportIsPosted',
  checks: 'a template the provider created is reported with POST /channels/{channel_id}/templates',
  run({ calls, step }) {
    if (step?.op !== 'report' || !step.report) return notApplicable('no report asked');
    // A report without a code (or another) in the channel during the step is posted all the same: its fields are the fields check's.
    const posted = calls.filter((c) => c.kind === 'report' && c.channelId === step.channelId && (c.code === step.report!.code || !isObj(c.payload) || typeof c.payload.code !== 'string' || c.payload.code === ''));
    if (posted.length > 0) return pass(`template ${step.report.code} reported by POST`, posted.map((c) => c.exchange));
    const other = calls.filter((c) => reportByPut(c, step));
    const trig = step.trigger;
    return fail(
      other.length > 0
        ? `template ${step.report.code} reported by ${other.map(words).join(', ')}`
        : `the provider created template ${step.report.code} in channel ${step.channelId} (trigger transport.templateReport${trig?.failed ? `, answered ${trig.failed}` : ''}); no POST /channels/${step.channelId}/templates with that code within ${step.waitedMs} ms`,
      'POST /channels/{channel_id}/templates with code, name, type, body, verification_status, header, examples, footer, buttons (integration-interface.md, Chat transport and chat bot)',
      [...other.map((c) => c.exchange), ...(trig && other.length === 0 ? [trig.exchange] : [])],
    );
  },
});

/** A refusal that some rule above owns (its breach made the gateway refuse, or it is a verdict or report by another method). */
function refusalOwned(c: TemplateCallView, step?: TemplateStepView): boolean {
  if (c.judgement?.breaches.some((b) => b.refuse)) return true;
  if (verdictByOtherMethod(c)) return true;
  if (reportByPut(c, step)) return true;
  return false;
}

/** Every other refusal of a template call: the gateway refused it (404, 405, 400) for a reason no rule above names. */
export const ensureTemplateCallsAreAccepted = defineCheck<TemplateSubject>({
  name: 'ensureTemplateCallsAreAccepted',
  checks: 'the gateway accepts the template calls of the module',
  run({ calls, step }) {
    const refused = calls.filter((c) => !c.accepted && !refusalOwned(c, step));
    if (refused.length > 0) {
      return fail(
        refused.map((c) => `${words(c)}${c.decodeError ? `: ${c.decodeError}` : ''}`).join('; '),
        "template calls the gateway accepts: a template of the module's own active channel, by its code, each code reported once, a JSON body, the profile's methods (wire profile section 6)",
        refused.map((c) => c.exchange),
      );
    }
    const ok = calls.filter((c) => c.accepted);
    if (ok.length > 0) return pass(`${ok.length} template call(s) accepted`, ok.map((c) => c.exchange));
    return notApplicable('no template call of the module');
  },
});

/** A template check over a sequence step's outcome (its `template` view); not applicable to other steps. */
export function onTemplateStep(check: Check<TemplateSubject>): Check<CaseOutcome> {
  return {
    name: check.name,
    checks: check.checks,
    run: (o): Verdict | Promise<Verdict> => (o.template ? check.run({ calls: o.template.calls, step: o.template }) : notApplicable('not a template step')),
  };
}
