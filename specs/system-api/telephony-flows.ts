/**
 * The telephony flows of module-calls.spec.ts (integration-interface.md: telephony configuration,
 * the endpoint table, Events; wire-profile.md section 4):
 *
 * - Calls upload named by the trigger, as tracking names its deliveries: the trigger is given the
 *   ids of 60 calls (`externalIds`, invented from the run's seed: the calls the module's PBX
 *   handled, by their id in the telephony) and each must arrive under that id, in requests of at
 *   most 50 (a re-sent one is no fault). Only with the profile (the call's `externalId` rests on
 *   it) and a trigger that passes `externalIds` on; otherwise a `count` is asked for.
 * - Call events of the three kinds (incoming call, outgoing call, call end), each judged against
 *   what the trigger asked: the kind and the customer's number; the extension code asked is one
 *   of the module's settings (`additionalCodes`), and the external number, when the trigger
 *   passes `externalPhone` on, one configured in `externalPhones`.
 * - Manager lookup, answered both ways: for a customer whose responsible manager is free with an
 *   extension code in the module's settings (the system answers with the manager), and for a
 *   number no customer has (the system answers `{success: true}` without `manager`).
 */
import fc from 'fast-check';
import type { RunSession } from '../../src/run/session.ts';
import { invent, inventedHex } from '../../src/generators/invented.ts';
import { e164Between, writePhone, type PhoneForm } from '../../src/generators/people.ts';
import type { CallEventKind } from '../../src/checks/system-api/call-event.ts';
import { FLOW_ROWS } from '../../src/checks/system-api/applications.ts';
import { customerByPhone, freeManager } from '../../src/simulators/telephony-manager.ts';
import type { Asked, Flow } from './flow.ts';

/** Calls the upload flow asks for: more than one request's worth (50). */
export const CALLS_TO_UPLOAD = 60;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The module's telephony settings as registered (JSON null read as absent by the system). */
function telephonyOf(session: RunSession): Obj {
  const integrations = session.registration?.module.integrations;
  const telephony = isObj(integrations) ? integrations.telephony : undefined;
  return isObj(telephony) ? telephony : {};
}

/**
 * The calls the upload flow names: 60 ids invented from the seed, given as `externalIds` (the
 * module's PBX logs calls under them, as calls it handled, and uploads them). Only with the
 * profile (`externalId` of a call rests on it alone) and when the trigger passes `externalIds` on;
 * otherwise the flow asks for a `count`.
 */
export async function askedCalls(session: RunSession): Promise<Asked | undefined> {
  if (!session.config.profile || !session.triggers.takes('telephony.callsUpload', 'externalIds')) return undefined;
  const token = inventedHex(session.config.generation.seed, 'calls upload: call ids', 10);
  const ids = Array.from({ length: CALLS_TO_UPLOAD }, (_, i) => `call-${token}-${String(i + 1).padStart(2, '0')}`);
  return { params: { count: ids.length, externalIds: ids }, items: ids };
}

/**
 * A customer's number the account does not know, invented from the seed: a real number of
 * `min` to `max` digits in all (E.164, a country code and at most 15 digits), with `+` or its
 * digits alone, as a telephony system passes a caller's number (`people.ts`).
 */
export function unknownPhone(seed: number, purpose: string, known: (phone: string) => boolean, min = 8, max = 15): string {
  const number = fc.tuple(e164Between(min, max), fc.constantFrom<PhoneForm>('e164', 'digits')).map(([n, form]) => writePhone(n, form));
  for (let i = 0; ; i++) {
    const phone = invent(seed, `${purpose} ${i}`, number);
    if (!known(phone)) return phone;
  }
}

/**
 * The number of each call event flow's customer (the call end ends the incoming call, so it
 * shares its number): the incoming call's a long one, 13 to 15 digits, the outgoing call's a
 * shorter one, 8 to 12 (E.164 runs from 8 to 15 in all): between them the lengths a module must
 * keep whole.
 */
export function callEventPhone(seed: number, type: CallEventKind, known: (phone: string) => boolean): string {
  return type === 'out' ? unknownPhone(seed, 'call event: out', known, 8, 12) : unknownPhone(seed, 'call event: in', known, 13, 15);
}

const eventPhone = (session: RunSession, type: CallEventKind): string => callEventPhone(session.config.generation.seed, type, (p) => customerByPhone(session.system.account, p) !== undefined);

/**
 * The parameters of a call event: its kind, the customer's number, the extension code of a user
 * in the module's settings (`additionalCodes`; 101 when it has none), and, when the trigger
 * passes `externalPhone` on and the module configured external numbers, the first of them.
 */
function askedEvent(type: CallEventKind) {
  return async (session: RunSession): Promise<Asked> => {
    const telephony = telephonyOf(session);
    const codes = (Array.isArray(telephony.additionalCodes) ? telephony.additionalCodes : [])
      .map((c) => (isObj(c) ? c.code : undefined))
      .filter((c): c is string | number => (typeof c === 'string' && c.trim() !== '') || typeof c === 'number')
      .map(String);
    const external = (Array.isArray(telephony.externalPhones) ? telephony.externalPhones : [])
      .map((p) => (isObj(p) ? p.externalPhone : undefined))
      .find((p): p is string => typeof p === 'string' && p.trim() !== '');
    const params: Flow['params'] = { phone: eventPhone(session, type), type, codes: [codes[0] ?? '101'] };
    if (external && session.triggers.takes('telephony.callEvent', 'externalPhone')) params.externalPhone = external;
    return { params, items: [] };
  };
}

/** A call event flow of a kind, with its rows (the kind's ids: `in` is the value the document gives, for the incoming call). */
function callEventFlow(type: CallEventKind, title: string): Flow {
  const rows = FLOW_ROWS.callEvent[type];
  return {
    title,
    kind: 'telephony',
    trigger: 'telephony.callEvent',
    params: { type },
    endpoint: 'call.event',
    reached: rows.reached,
    ask: askedEvent(type),
    extra: {
      rows: rows.extra,
      async judge({ session, conformance, calls, params }) {
        const subject = { type, phone: String(params.phone), calls, profile: session.config.profile };
        await conformance.apply(rows.kind, subject);
        await conformance.apply(rows.phone, subject);
      },
    },
  };
}

/** The phone of a customer whose responsible manager is free with an extension code in the settings the system holds; or why there is none. */
async function customerWithFreeManager(session: RunSession): Promise<Asked> {
  const { account, modules } = session.system;
  const held = account.customers.flatMap((c) => c.phones).find((p) => freeManager(account, modules.values(), p) !== undefined);
  if (held === undefined) {
    return {
      skip: 'no customer of the account has a free responsible manager with an extension code in the module\'s settings (additionalCodes): the system has no manager to answer with',
      evidence: [],
    };
  }
  // The number as the telephony system passes it: with `+` or its digits alone (the system finds the customer by the digits).
  const phone = asDialled(held, invent(session.config.generation.seed, 'manager lookup: the free manager\'s customer', fc.boolean()));
  return { params: { phone }, items: [] };
}

/** A held number with its `+` (E.164 form), or its digits alone. */
export const asDialled = (phone: string, plus: boolean): string => `${plus ? '+' : ''}${phone.replace(/\D/g, '')}`;

async function customerUnknown(session: RunSession): Promise<Asked> {
  return { params: { phone: unknownPhone(session.config.generation.seed, 'manager lookup: unknown customer', (p) => customerByPhone(session.system.account, p) !== undefined) }, items: [] };
}

function managerFlow(title: string, ask: (session: RunSession) => Promise<Asked>): Flow {
  const rows = FLOW_ROWS.manager;
  return {
    title,
    kind: 'telephony',
    trigger: 'telephony.managerLookup',
    params: {},
    endpoint: 'manager',
    // The endpoint table's row: the module looks the manager up with GET /api/v5/telephony/manager.
    reached: rows.reached,
    ask,
    extra: {
      rows: rows.extra,
      async judge({ conformance, calls, reply }) {
        await conformance.apply(rows.copes, { calls, trigger: reply });
      },
    },
  };
}

/** The flows after the calls upload: a call event of each kind, then the manager lookup answered both ways. */
export const CALL_EVENT_AND_MANAGER_FLOWS: Flow[] = [
  callEventFlow('in', 'an incoming call reported as a call event'),
  callEventFlow('out', 'an outgoing call reported as a call event'),
  callEventFlow('hangup', 'a call end reported as a call event'),
  managerFlow('manager lookup answered with the free responsible manager', customerWithFreeManager),
  managerFlow('manager lookup answered without a manager (no customer has the number)', customerUnknown),
];

