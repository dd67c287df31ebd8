/**
 * The chat template verification table of the contract (integration-interface.md, States and
 * transitions > Chat template verification), written once as data: the gateway simulator
 * enforces it on every template call of a transport module (`src/simulators/gateway-transport-api.ts`)
 * and on the webhooks it sends (`gateway-webhooks.ts`), and the generated template sequences
 * (`src/properties/template-sequences.ts`) use it to know what each step may and must lead to.
 *
 * A row reads: from a state, a trigger (the user's action in the system, which the gateway
 * tells the transport by a webhook, or the transport's own call after the provider decided),
 * under a condition, to the next state. The values are the document's alone:
 * `verification_status` approved, pending (shown as verifying), rejected; `rejection_reason`
 * abusive_content, incorrect_category, invalid_format, scam; `quality` (pending, high, medium,
 * low) rests on wire profile section 6 alone.
 *
 * "Transition from `approved` to other states: not shown." A module that reports another status
 * for an approved template (the provider paused or disabled it) is never failed for it: the
 * judge accepts every status reported for an approved template (`APPROVED_LEAVES_NOT_SHOWN`).
 */

/** The document's three values of `verification_status` (a closed list). */
export const VERIFICATION_STATUSES = ['approved', 'pending', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** The document's four values of `rejection_reason`. */
export const REJECTION_REASONS = ['abusive_content', 'incorrect_category', 'invalid_format', 'scam'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Wire profile section 6 alone: a template update may carry `quality`. */
export const QUALITY_VALUES = ['pending', 'high', 'medium', 'low'] as const;

/** Button item types (document: `url`, `phone`, `plain`); `plain` is a quick reply. */
export const BUTTON_TYPES = ['url', 'phone', 'plain'] as const;
/** Quick-reply buttons: up to 10 (document, Chat template and Limits). */
export const MAX_QUICK_REPLIES = 10;

/** Attachment types for template headers, with their file types and maximum sizes (MB read as MiB, the larger reading). */
export const HEADER_FILES = {
  document: { extensions: ['pdf'], mimes: ['application/pdf'], maxBytes: 100 * 1024 * 1024 },
  image: { extensions: ['jpeg', 'jpg', 'png'], mimes: ['image/jpeg', 'image/jpg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  video: { extensions: ['mp4'], mimes: ['video/mp4'], maxBytes: 16 * 1024 * 1024 },
} as const;
export type HeaderKind = keyof typeof HEADER_FILES;

/** Transition from `approved` to other states: not shown. Such a report is accepted, never failed. */
export const APPROVED_LEAVES_NOT_SHOWN = true;

export const isVerificationStatus = (v: unknown): v is VerificationStatus => typeof v === 'string' && (VERIFICATION_STATUSES as readonly string[]).includes(v);
export const isRejectionReason = (v: unknown): v is RejectionReason => typeof v === 'string' && (REJECTION_REASONS as readonly string[]).includes(v);

/** The state of a template: the document's three, or not yet known to the gateway. */
export type TemplateState = VerificationStatus | 'new';

export interface TemplateTransition {
  from: TemplateState;
  /**
   * `create`: the user creates it (the `template_create` webhook); `verdict`: the transport's
   * `PUT .../templates/{code}`; `resubmit`: the user edits a rejected one and resubmits it
   * (`template_update`); `edit`: the user edits an approved one (`template_update`).
   */
  trigger: 'create' | 'verdict' | 'resubmit' | 'edit';
  condition: string;
  to: VerificationStatus;
  /** The requirements the row states. */
  ids: readonly string[];
}

/** The table, row by row. */
export const TEMPLATE_TABLE: readonly TemplateTransition[] = [
  { from: 'new', trigger: 'create', condition: 'user creates it in the system (template_create sent; the transport returns code)', to: 'pending', ids: ['TRN-NEW-TEMPLATE-PENDING', 'TRN-WEBHOOK-TEMPLATE-CREATE'] },
  { from: 'pending', trigger: 'verdict', condition: 'verification_status = approved', to: 'approved', ids: ['TRN-VERIFY-APPROVED-VIA-PUT'] },
  { from: 'pending', trigger: 'verdict', condition: 'verification_status = rejected', to: 'rejected', ids: ['TRN-VERIFY-REJECTED-VIA-PUT'] },
  { from: 'rejected', trigger: 'resubmit', condition: 'user edits and resubmits (template_update sent)', to: 'pending', ids: ['TRN-RESUBMIT-SENDS-UPDATE-WEBHOOK'] },
  { from: 'approved', trigger: 'edit', condition: 'only variable values in header, body, buttons and the sending event are editable', to: 'approved', ids: ['TRN-APPROVED-LIMITED-EDITS'] },
];

/** The state a `template_update` webhook (the user edited the template) leads to: a rejected one is resubmitted, an approved one stays approved. */
export function afterUpdateWebhook(from: VerificationStatus | undefined): VerificationStatus | undefined {
  if (from === undefined) return undefined;
  return TEMPLATE_TABLE.find((t) => t.from === from && (t.trigger === 'resubmit' || t.trigger === 'edit'))?.to ?? from;
}

/** The verdicts the table lets a transport report for a template in `from` (by PUT). */
export function verdictsFrom(from: VerificationStatus): VerificationStatus[] {
  return TEMPLATE_TABLE.filter((t) => t.from === from && t.trigger === 'verdict').map((t) => t.to);
}

/** What a module's template call is. */
export type TemplateCallKind = 'update' | 'report' | 'delete';

/** One rule a template call breaks; `rule` names the check that owns it, `refuse` whether the gateway refuses the call for it. */
export interface TemplateBreach {
  rule: TemplateRule;
  why: string;
  refuse: boolean;
}

export type TemplateRule =
  | 'verification-status'
  | 'rejection-reason'
  | 'quality'
  | 'table'
  | 'fields'
  | 'quick-replies'
  | 'attachment-type'
  | 'button-type'
  | 'url-button'
  | 'shape';

/** What the gateway knows of a header file a template names by id (`gateway-files.ts`). */
export interface KnownFile {
  size: number;
  mime: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** JSON null reads as absent (wire profile section 9). */
const given = (v: unknown): boolean => v !== undefined && v !== null;
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/**
 * Judges the content of a template a module sends (a report or an update) against the
 * document's values and limits: what the gateway refuses (`refuse`) and what it only records.
 * Shapes that are not values (a footer that is no string, ...) are the schema's (`shape`).
 */
export function judgeContent(body: Record<string, unknown>, files: (id: string) => KnownFile | undefined = () => undefined): TemplateBreach[] {
  const out: TemplateBreach[] = [];
  const status = body.verification_status;
  if (given(status) && !isVerificationStatus(status)) out.push({ rule: 'verification-status', why: `verification_status ${show(status)} is not one of ${VERIFICATION_STATUSES.join(', ')}`, refuse: true });
  const reason = body.rejection_reason;
  // An empty reason is read as none given (the official clients send the zero value of an optional string).
  if (given(reason) && reason !== '' && !isRejectionReason(reason)) out.push({ rule: 'rejection-reason', why: `rejection_reason ${show(reason)} is not one of ${REJECTION_REASONS.join(', ')}`, refuse: true });
  const quality = body.quality;
  if (given(quality) && quality !== '' && !(QUALITY_VALUES as readonly unknown[]).includes(quality)) {
    // Wire profile alone: the gateway does not refuse it (a field the document does not show is never a failure there).
    out.push({ rule: 'quality', why: `quality ${show(quality)} is not one of ${QUALITY_VALUES.join(', ')}`, refuse: false });
  }
  const buttons = isObj(body.buttons) && Array.isArray(body.buttons.items) ? body.buttons.items : [];
  const quick = buttons.filter((b) => isObj(b) && b.type === 'plain').length;
  if (quick > MAX_QUICK_REPLIES) out.push({ rule: 'quick-replies', why: `${quick} quick-reply (plain) buttons, more than ${MAX_QUICK_REPLIES}`, refuse: true });
  buttons.forEach((b, i) => {
    if (!isObj(b)) return;
    if (given(b.type) && !(BUTTON_TYPES as readonly unknown[]).includes(b.type)) out.push({ rule: 'button-type', why: `buttons.items[${i}].type ${show(b.type)} is not one of ${BUTTON_TYPES.join(', ')}`, refuse: true });
    if (b.type === 'url' && (typeof b.url !== 'string' || b.url === '')) out.push({ rule: 'url-button', why: `buttons.items[${i}] is a url button without a url (${show(b.url)})`, refuse: true });
  });
  if (isObj(body.attachments)) {
    const kind = body.attachments.type;
    if (given(kind) && !(typeof kind === 'string' && Object.hasOwn(HEADER_FILES, kind))) out.push({ rule: 'attachment-type', why: `attachments.type ${show(kind)} is not one of ${Object.keys(HEADER_FILES).join(', ')}`, refuse: true });
    else if (typeof kind === 'string') {
      const spec = HEADER_FILES[kind as HeaderKind];
      const samples = [body.example, body.examples].flatMap((e) => (isObj(e) ? [e.attachments] : []));
      for (const id of [...fileIdsOf(body.attachments), ...samples.flatMap((a) => (Array.isArray(a) ? a.flatMap((x) => (isObj(x) ? fileIdsOf(x) : [])) : isObj(a) ? fileIdsOf(a) : []))]) {
        const file = files(id);
        if (!file) continue;
        if (file.size > spec.maxBytes) out.push({ rule: 'attachment-type', why: `the ${kind} header file ${id} has ${file.size} bytes, more than ${spec.maxBytes} (${spec.maxBytes / 1024 / 1024} MB)`, refuse: true });
        const mime = file.mime.split(';')[0]!.trim().toLowerCase();
        if (mime !== 'application/octet-stream' && !(spec.mimes as readonly string[]).includes(mime)) out.push({ rule: 'attachment-type', why: `the ${kind} header file ${id} is ${mime}, not ${spec.extensions.join(', ')}`, refuse: true });
      }
    }
  }
  return out;
}

/** The file ids an attachments object names (`id`, `file_id`, or items with them; the document does not show the field). */
function fileIdsOf(att: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const take = (o: unknown): void => {
    if (!isObj(o)) return;
    for (const k of ['id', 'file_id']) if (typeof o[k] === 'string' && o[k] !== '') ids.push(o[k] as string);
  };
  take(att);
  for (const k of ['items', 'files']) if (Array.isArray(att[k])) (att[k] as unknown[]).forEach(take);
  return ids;
}

/** The judgement of one template call: the state before, the state after (when accepted), every breach. */
export interface TemplateJudgement {
  kind: TemplateCallKind;
  channelId: number;
  code: string;
  /** The template's state before the call: `new` for a report or an unknown template. */
  from: TemplateState;
  /** The state the call reports (a verdict's or report's `verification_status`), when it is one of the three. */
  to?: VerificationStatus;
  breaches: TemplateBreach[];
}

/**
 * Judges an update (`PUT .../templates/{code}`) of a template in `from`. The table: a pending
 * template becomes approved or rejected; a report of the state it is in is no transition (a
 * repeat, changed content) and legal; an approved template may be reported in any state
 * (transition from approved: not shown); a rejected one leaves `rejected` only when the user
 * resubmits it (`template_update`), never by the transport's own report. A verdict without
 * `verification_status` is refused: it reports nothing (the document lists the field, and only
 * `rejection_reason` as optional).
 */
export function judgeUpdate(from: VerificationStatus, body: Record<string, unknown>, files?: (id: string) => KnownFile | undefined): { breaches: TemplateBreach[]; to?: VerificationStatus } {
  const breaches = judgeContent(body, files);
  const missing = ['name', 'body', 'verification_status'].filter((f) => !given(body[f]));
  if (missing.length > 0) breaches.push({ rule: 'fields', why: `the update has no ${missing.join(', ')} (the document's fields: name, body, verification_status, optional rejection_reason, header or attachments, footer, buttons)`, refuse: missing.includes('verification_status') });
  const status = body.verification_status;
  if (!isVerificationStatus(status)) return { breaches };
  if (status !== from && from !== 'approved' && !verdictsFrom(from).includes(status)) {
    const how = from === 'rejected' ? 'a rejected template becomes verifying again only when the user resubmits it (template_update), never by the transport\'s report' : 'by no row of the table';
    breaches.push({ rule: 'table', why: `${from} -> ${status}: ${how}`, refuse: true });
  }
  return { breaches, to: status };
}

/** Judges a report (`POST .../templates`) of a template created at the provider: a new template in any of the three states. */
export function judgeReport(body: Record<string, unknown>, files?: (id: string) => KnownFile | undefined): { breaches: TemplateBreach[]; to?: VerificationStatus } {
  const breaches = judgeContent(body, files);
  if (typeof body.code !== 'string' || body.code === '') breaches.push({ rule: 'fields', why: `the report has no code (${show(body.code)}): the template's code is what the transport reports it by`, refuse: true });
  const missing = ['name', 'body', 'verification_status'].filter((f) => !given(body[f]));
  if (missing.length > 0) breaches.push({ rule: 'fields', why: `the report has no ${missing.join(', ')} (the document's fields: code, name, type, body, verification_status, header, examples, footer, buttons)`, refuse: false });
  const status = body.verification_status;
  return { breaches, ...(isVerificationStatus(status) ? { to: status } : {}) };
}
