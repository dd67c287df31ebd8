/**
 * Requests the system sends to a telephony module (document, Calls from the system to a
 * telephony module), drawn by fast-check from the run's seed:
 *
 * - `makeCallUrl` (`code`, `phone`, `userId`, and `externalPhone` only when external numbers are
 *   configured, and then one of them): calls the module can start, from a user the registration
 *   maps to an extension code, to a phone number; and calls it cannot start, from an extension
 *   code its settings do not know or to a "phone" that is no number (letters, or nothing).
 * - `changeUserStatusUrl` (`userId`, `code`, `status`): each of the four statuses, for a user
 *   with an extension code (status notifications are sent only for those).
 * - a call's `recordUrl` with a missing or unknown `clientId`.
 *
 * `clientId` is the sender's (every request carries the module's own, but the probes).
 */
import fc from 'fast-check';
import type { GeneratedCase } from '../../checks/case.ts';
import type { Extension, TelephonyContext } from './context.ts';
import { typedPhone } from '../people.ts';
import { matching } from '../matching.ts';

/** The statuses of a telephony user (document, Telephony user status). */
export const USER_STATUSES = ['free', 'busy', 'dinner', 'break'] as const;

const DIGITS = '0123456789'.split('');
const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...DIGITS), minLength, maxLength });

/**
 * A phone number a module can dial, as the system holds a customer's number (free text): E.164,
 * 8 to 15 digits of a real country's numbering (`people.ts`), with `+` or without, or typed with
 * spaces, dashes and parentheses. Its digits are always the E.164 digits.
 */
export const phoneNumber: fc.Arbitrary<string> = typedPhone;

/** A "phone" that is no number at all: empty, or blanks only. */
export const notAPhone: fc.Arbitrary<string> = fc.constantFrom('', ' ', '   ');

/** A "phone" of letters only: a vanity number (letters of the keypad), which a PBX may dial or refuse. */
export const lettersPhone: fc.Arbitrary<string> = matching(/^[A-Za-z]{1,12}$/);

/**
 * The sentences a call to no number at all rests on: the call is to `phone`, and a call that does
 * not start is answered with another status than 200 (document, Calls from the system to a
 * telephony module).
 */
export const NO_PHONE_SOURCE = 'document, Calls from the system to a telephony module: makeCallUrl "`code` (extension of the calling user), `phone`" and "HTTP 200 means success; any other status is an initiation error reported to the user"';

/** An extension code no user of the registration has: 6 to 9 digits (extensions are short), none of the known codes. */
export function unknownCode(known: readonly string[]): fc.Arbitrary<string> {
  const taken = new Set(known);
  return digits(6, 9).filter((c) => !taken.has(c));
}

const extensionOf = (ctx: TelephonyContext): fc.Arbitrary<Extension> => fc.constantFrom(...ctx.extensions);

/** `externalPhone`: only when external numbers are configured, and then one of them (or none: a call not tied to a shop). */
const externalPhoneOf = (ctx: TelephonyContext): fc.Arbitrary<string | undefined> =>
  ctx.externalPhones.length > 0 ? fc.option(fc.constantFrom(...ctx.externalPhones), { nil: undefined }) : fc.constant(undefined);

/** The query of a makeCall, its parameters in the document's order. */
function makeCallPayload(code: string, phone: string, userId: string, externalPhone: string | undefined): Record<string, string> {
  return { code, phone, userId, ...(externalPhone !== undefined ? { externalPhone } : {}) };
}

/** Calls the module can start: a user the registration maps to an extension code, a phone number. Needs an extension (`noExtensions`). */
export function validMakeCall(ctx: TelephonyContext): fc.Arbitrary<GeneratedCase> {
  return fc
    .record({ ext: extensionOf(ctx), phone: phoneNumber, externalPhone: externalPhoneOf(ctx) })
    .map(({ ext, phone, externalPhone }): GeneratedCase => ({ callback: 'telephony.makeCall', payload: makeCallPayload(ext.code, phone, ext.userId, externalPhone), intent: { kind: 'valid' } }));
}

/**
 * Calls the module cannot start: from a known extension to a "phone" that is no number at all
 * (empty, blanks: wrong by NO_PHONE_SOURCE). Sent beside them, as open cases (a 200 or another
 * status are both right): a call from an extension code the registration does not list (the
 * document: additionalCodes "Can also be set in the settings interface", so the system may send a
 * code the module's PBX has and its registration does not list), and a phone of letters (a vanity
 * number). Needs an extension.
 */
export function wrongMakeCall(ctx: TelephonyContext): fc.Arbitrary<GeneratedCase> {
  const unknown = fc
    .record({ ext: extensionOf(ctx), code: unknownCode(ctx.extensions.map((e) => e.code)), phone: phoneNumber, externalPhone: externalPhoneOf(ctx) })
    .map(({ ext, code, phone, externalPhone }): GeneratedCase => ({
      callback: 'telephony.makeCall',
      payload: makeCallPayload(code, phone, ext.userId, externalPhone),
      intent: { kind: 'open', why: `extension code ${JSON.stringify(code)} is not in the registration's additionalCodes (which "Can also be set in the settings interface": no sentence makes it wrong input)` },
    }));
  const letters = fc
    .record({ ext: extensionOf(ctx), phone: lettersPhone, externalPhone: externalPhoneOf(ctx) })
    .map(({ ext, phone, externalPhone }): GeneratedCase => ({
      callback: 'telephony.makeCall',
      payload: makeCallPayload(ext.code, phone, ext.userId, externalPhone),
      intent: { kind: 'open', why: `the phone ${JSON.stringify(phone)} is letters (a vanity number: no sentence makes it wrong input)` },
    }));
  const empty = fc
    .record({ ext: extensionOf(ctx), phone: notAPhone, externalPhone: externalPhoneOf(ctx) })
    .map(({ ext, phone, externalPhone }): GeneratedCase => ({
      callback: 'telephony.makeCall',
      payload: makeCallPayload(ext.code, phone, ext.userId, externalPhone),
      intent: { kind: 'wrong', field: 'phone', why: phone === '' ? 'the phone is empty' : `the phone ${JSON.stringify(phone)} is blank`, source: NO_PHONE_SOURCE },
    }));
  return fc.oneof({ arbitrary: unknown, weight: 1 }, { arbitrary: letters, weight: 1 }, { arbitrary: empty, weight: 2 });
}

/** A user's status change: each of the four statuses, for a user with an extension code. Needs an extension. */
export function statusChange(ctx: TelephonyContext): fc.Arbitrary<GeneratedCase> {
  return fc
    .record({ ext: extensionOf(ctx), status: fc.constantFrom(...USER_STATUSES) })
    .map(({ ext, status }): GeneratedCase => ({ callback: 'telephony.changeUserStatus', payload: { userId: ext.userId, code: ext.code, status }, intent: { kind: 'valid' } }));
}

/** A probe of a call's recording: the clientId it presents (undefined: none at all). */
export type RecordProbe = GeneratedCase & { presented: string | undefined };

/**
 * A call's recording fetched with a missing clientId (half the cases), or with one the module
 * never gave (letters, digits, `-` and `_`; never the module's own), given as `presented`.
 */
export function refusedRecord(urls: readonly string[], clientId: string): fc.Arbitrary<RecordProbe> {
  const unknown = matching(/^[A-Za-z0-9_-]{1,40}$/).filter((c) => c !== clientId);
  return fc
    .record({ url: fc.constantFrom(...urls), presented: fc.option(unknown, { nil: undefined, freq: 2 }) })
    .map(({ url, presented }) => ({
      callback: 'telephony.record' as const,
      payload: {},
      url,
      intent: { kind: 'refused' as const, clientId: presented === undefined ? ('missing' as const) : ('unknown' as const) },
      presented,
    }));
}
