/**
 * Template content as the system creates it (document, Chat transport module > Chat template;
 * Events: `template_create` carries the template fields and `channel_id`, `template_update` the
 * same plus `code`), drawn by fast-check:
 *
 * - `name`, `lang`, `category` (a provider category), `type` (`text`, or `media` for a template
 *   with a file header);
 * - `body` with numbered variables {{1}}, {{2}}...; a text `header` `{content: {type: 'text',
 *   body}}` (it can hold a variable) or, for a media template, `attachments` `{type}` (`image`,
 *   `document` or `video`) replacing it, never both;
 * - `footer`; `buttons` `{items: [...]}`: quick replies (`plain`, at most 10), URL buttons (`url`,
 *   whose link may hold a variable) and call buttons (`phone`);
 * - `example` or `examples`: sample values, `body` and `header` one string per variable,
 *   `buttons` one array of strings per button (document: "array of arrays of strings"); for a
 *   file header the sample file ids in `attachments` `[{id, caption}]`;
 * - `channel_id`: the channel's id.
 *
 * Shapes that the official transport client decodes (wire profile section 6,
 * `retailcrm/mg-transport-api-client-go` `v1`): samples as arrays of strings, button types among
 * plain/phone/url with their `phone`/`url`, template types among text/media, `channel_id` an
 * integer. The same seed gives the same templates.
 */
import fc from 'fast-check';
import type { ChatChannel } from './context.ts';
import { matching } from '../matching.ts';

/** At most 10 quick-reply buttons (document, Chat template and Limits). */
export const MAX_QUICK_REPLIES = 10;
export const TEMPLATE_LANGS = ['en', 'en_US', 'ru', 'es', 'pt_BR', 'de', 'fr', 'it'] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const HEADER_ATTACHMENT_TYPES = ['image', 'document', 'video'] as const;

/** Latin, Cyrillic, with diacritics and an emoji (issue 31, item 8: the platform's users write in Russian and other languages). */
const WORDS = ['hello', 'your', 'order', 'is', 'ready', 'thanks', 'for', 'shopping', 'with', 'us', 'delivery', 'today', 'Привет', 'pedido', 'listo', 'новый', 'статус', 'code', 'visit', 'store', 'soon', '🙂', 'número', 'déjà', 'Grüße', 'ваш', 'заказ'];
const word = fc.constantFrom(...WORDS);
/** A few words separated by spaces. */
const words = (min: number, max: number): fc.Arbitrary<string> => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(' '));

/** A template name: lower case letters, digits and underscores (as providers name templates). */
export const templateName: fc.Arbitrary<string> = matching(/^[a-z][a-z0-9_]{2,30}$/);

/** Text with the variables {{1}}..{{n}} in order, words around them. */
function textWithVariables(n: number, minWords = 1): fc.Arbitrary<string> {
  return fc.array(words(0, 4), { minLength: n + 1, maxLength: n + 1 }).chain((parts) =>
    words(minWords, 5).map((lead) => {
      let out = lead;
      for (let i = 1; i <= n; i++) out += ` {{${i}}}${parts[i] ? ` ${parts[i]}` : ''}`;
      return out;
    }),
  );
}

/** A sample value of a variable. */
const sample = fc.oneof(words(1, 2), matching(/^[0-9]{1,8}$/), fc.constantFrom('John', 'Мария', 'A-1024'));
const samples = (n: number): fc.Arbitrary<string[]> => fc.array(sample, { minLength: n, maxLength: n });

/** A file id of the gateway's files (a uuid, as the gateway names its files). */
export const fileId: fc.Arbitrary<string> = fc.uuid();

interface Button {
  type: 'url' | 'phone' | 'plain';
  label: string;
  url?: string;
  phone?: string;
}

/** At most `n` characters (code points: an emoji is never cut in two). */
const cut = (s: string, n: number): string => [...s].slice(0, n).join('');
const label = words(1, 3).map((s) => cut(s, 25));
const phoneNumber = matching(/^\+[1-9][0-9]{9,12}$/);

/** A URL button: its link may hold one variable {{1}} (then it has one sample). */
const urlButton: fc.Arbitrary<{ button: Button; vars: number }> = fc
  .record({ label, path: matching(/^[a-z0-9]{1,12}$/), variable: fc.boolean() })
  .map(({ label, path, variable }) => ({ button: { type: 'url', label, url: `https://shop.example/${path}${variable ? '/{{1}}' : ''}` }, vars: variable ? 1 : 0 }));
const phoneButton: fc.Arbitrary<{ button: Button; vars: number }> = fc.record({ label, phone: phoneNumber }).map(({ label, phone }) => ({ button: { type: 'phone', label, phone }, vars: 0 }));
const plainButton: fc.Arbitrary<{ button: Button; vars: number }> = label.map((label) => ({ button: { type: 'plain', label }, vars: 0 }));

/** Buttons: up to 10 quick replies, up to 2 URL buttons and one call button, in any order. */
const buttons: fc.Arbitrary<Array<{ button: Button; vars: number }>> = fc
  .tuple(
    fc.array(plainButton, { maxLength: MAX_QUICK_REPLIES, size: 'small' }),
    fc.array(urlButton, { maxLength: 2 }),
    fc.option(phoneButton, { nil: undefined }),
  )
  .chain(([plain, url, phone]) => fc.shuffledSubarray([...plain, ...url, ...(phone ? [phone] : [])], { minLength: plain.length + url.length + (phone ? 1 : 0) }));

/** The header: none, a text header (perhaps with one variable), or a file header (`attachments`, media templates). */
type HeaderChoice = { kind: 'none' } | { kind: 'text'; body: string; vars: number } | { kind: 'file'; type: (typeof HEADER_ATTACHMENT_TYPES)[number]; files: Array<{ id: string; caption: string }> };
const header: fc.Arbitrary<HeaderChoice> = fc.oneof(
  fc.constant<HeaderChoice>({ kind: 'none' }),
  fc.integer({ min: 0, max: 1 }).chain((vars) => textWithVariables(vars).map((body): HeaderChoice => ({ kind: 'text', body: cut(body, 60), vars }))),
  fc
    .record({ type: fc.constantFrom(...HEADER_ATTACHMENT_TYPES), files: fc.array(fc.record({ id: fileId, caption: words(0, 3) }), { minLength: 1, maxLength: 1 }) })
    .map((f): HeaderChoice => ({ kind: 'file', ...f })),
);

/** The parts a template is made of, before it is laid out as the webhook's data. */
export interface TemplateParts {
  name: string;
  lang: string;
  category: string;
  bodyVars: number;
  body: string;
  header: HeaderChoice;
  footer?: string;
  buttons: Array<{ button: Button; vars: number }>;
  /** `example` (the official client's name) or `examples` (the document names both). */
  exampleKey: 'example' | 'examples' | 'none';
  bodySamples: string[];
  headerSamples: string[];
  buttonSamples: string[][];
}

const parts: fc.Arbitrary<TemplateParts> = fc
  .record({
    name: templateName,
    lang: fc.constantFrom(...TEMPLATE_LANGS),
    category: fc.constantFrom(...TEMPLATE_CATEGORIES),
    bodyVars: fc.integer({ min: 0, max: 4 }),
    header,
    footer: fc.option(words(1, 5), { nil: undefined }),
    buttons,
    exampleKey: fc.constantFrom<TemplateParts['exampleKey']>('example', 'example', 'examples', 'none'),
  })
  .chain((p) =>
    fc
      .record({
        body: textWithVariables(p.bodyVars, 2),
        bodySamples: samples(p.bodyVars),
        headerSamples: samples(p.header.kind === 'text' ? p.header.vars : 0),
        buttonSamples: fc.tuple(...p.buttons.map((b) => samples(b.vars))),
      })
      .map((q) => ({ ...p, ...q, buttonSamples: q.buttonSamples as string[][] })),
  );

/** The webhook data of a template laid out from its parts (without `code`). */
export function templateData(channelId: number, p: TemplateParts): Record<string, unknown> {
  const media = p.header.kind === 'file';
  const out: Record<string, unknown> = { name: p.name, lang: p.lang, category: p.category, type: media ? 'media' : 'text', body: p.body };
  if (p.header.kind === 'text') out.header = { content: { type: 'text', body: p.header.body } };
  if (p.header.kind === 'file') out.attachments = { type: p.header.type };
  if (p.footer !== undefined) out.footer = p.footer;
  if (p.buttons.length > 0) out.buttons = { items: p.buttons.map((b) => ({ ...b.button })) };
  if (p.exampleKey !== 'none') {
    const ex: Record<string, unknown> = {};
    if (p.bodyVars > 0) ex.body = p.bodySamples;
    if (p.header.kind === 'text' && p.header.vars > 0) ex.header = p.headerSamples;
    if (p.buttons.length > 0) ex.buttons = p.buttonSamples;
    if (p.header.kind === 'file') ex.attachments = p.header.files;
    out[p.exampleKey] = ex;
  }
  out.channel_id = channelId;
  return out;
}

/** The parts of a template (for generators that need its variables, e.g. template messages). */
export const templateParts: fc.Arbitrary<TemplateParts> = parts;

/** `data` of `template_create` for a template of this channel. */
export function templateContent(channel: Pick<ChatChannel, 'id'>): fc.Arbitrary<Record<string, unknown>> {
  return parts.map((p) => templateData(channel.id, p));
}

/**
 * `data` of `template_update`: the template `previous` (as created) edited by a user, with the
 * `code` the transport gave it. Either only the sample values change (all an approved template
 * allows: variable values in header, body and buttons), or the template is rewritten (a rejected
 * one resubmitted); name and lang stay.
 */
export function updatedTemplateContent(channel: Pick<ChatChannel, 'id'>, previous: Record<string, unknown>, code: string): fc.Arbitrary<Record<string, unknown>> {
  const exampleKey = 'examples' in previous ? 'examples' : 'example';
  const prevExample = (previous[exampleKey] ?? {}) as Record<string, unknown>;
  const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  const resample = fc
    .record({
      body: samples(count(prevExample.body)),
      header: samples(count(prevExample.header)),
      buttons: fc.tuple(...(Array.isArray(prevExample.buttons) ? prevExample.buttons : []).map((b) => samples(count(b)))),
    })
    .map(({ body, header, buttons }) => {
      const ex: Record<string, unknown> = { ...prevExample };
      if (ex.body !== undefined) ex.body = body;
      if (ex.header !== undefined) ex.header = header;
      if (ex.buttons !== undefined) ex.buttons = buttons;
      return { ...previous, [exampleKey]: ex, channel_id: channel.id, code };
    });
  const rewrite = parts.map((p) => ({ ...templateData(channel.id, p), name: previous.name, lang: previous.lang, code }));
  return fc.oneof(resample, rewrite);
}

/** `data` of `template_delete`: `channel_id`, `code`, `lang` (document, Events). */
export function templateDeleteData(channel: Pick<ChatChannel, 'id'>, code: string, lang: unknown): Record<string, unknown> {
  return { channel_id: channel.id, code, lang: typeof lang === 'string' ? lang : 'en' };
}
