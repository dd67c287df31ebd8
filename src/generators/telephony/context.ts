/**
 * What the telephony requests draw on: the module's telephony registration (document, Telephony
 * configuration): the extension codes it maps to users (`additionalCodes`, `{userId, code}`) and
 * the external numbers of its shops (`externalPhones`, `{siteCode, externalPhone}`). Codes and
 * user ids travel as text in a query string; a number in the registration is read as its text.
 */

type Json = Record<string, unknown>;

/** A user with an extension code, as the registration maps them. */
export interface Extension {
  userId: string;
  code: string;
}

export interface TelephonyContext {
  module: Json;
  /** The registration's `additionalCodes` that have both a user and a code; empty when none. */
  extensions: readonly Extension[];
  /** The registration's `externalPhones[].externalPhone`; empty when none is configured. */
  externalPhones: readonly string[];
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A text or a number as the text a query carries; undefined for anything else, or empty. */
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

/** The telephony context of a module's registration (`integrations.telephony`). */
export function telephonyContextOf(module: Json): TelephonyContext {
  const telephony = isObj(module.integrations) && isObj(module.integrations.telephony) ? module.integrations.telephony : {};
  const seen = new Set<string>();
  const extensions: Extension[] = [];
  for (const entry of Array.isArray(telephony.additionalCodes) ? telephony.additionalCodes : []) {
    if (!isObj(entry)) continue;
    const userId = text(entry.userId);
    const code = text(entry.code);
    if (userId === undefined || code === undefined || seen.has(`${userId}\u0000${code}`)) continue;
    seen.add(`${userId}\u0000${code}`);
    extensions.push({ userId, code });
  }
  const externalPhones = [...new Set((Array.isArray(telephony.externalPhones) ? telephony.externalPhones : []).map((p) => (isObj(p) ? text(p.externalPhone) : undefined)).filter((p): p is string => p !== undefined))];
  return { module, extensions, externalPhones };
}

/** Why no call can be built for this module, if none can: no user has an extension code. */
export function noExtensions(ctx: TelephonyContext): string | undefined {
  return ctx.extensions.length === 0 ? 'the registration maps no user to an extension code (additionalCodes, each {userId, code})' : undefined;
}
