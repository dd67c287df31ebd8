/**
 * The manager lookup the system answers (`GET /api/v5/telephony/manager`): the free responsible
 * manager of the customer found by the number, when one exists (integration-interface.md,
 * Endpoints). "A manager is free when authorised, with status `free` and with an extension code
 * in the integration settings; otherwise the manager lookup does not return them" (Calls from the
 * system to a telephony module). The reply's shape is the wire profile's (section 4):
 * `{success, manager{id, firstName, lastName, email, code}, customer{...}, links{...}}`, and with
 * no free manager `{success: true}` without `manager`. The number travels as query parameter
 * `phone` (section 4; the document leaves its name not shown).
 */
import type { Account, Customer, User } from './account.ts';
import { json, systemError, type Answer } from './http.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The digits of a number: how a customer is found whatever the spacing, dashes or `+`. */
const digits = (phone: string): string => phone.replace(/\D/g, '');

/**
 * The extension codes of the account's users in the integration settings the system holds: every
 * held module's `integrations.telephony.additionalCodes` (`{userId, code}`; JSON null is absent,
 * a code given as a number is read as its text, an entry without both is passed over).
 */
export function extensionCodes(modules: Iterable<{ module: Obj }>): Map<string, string> {
  const codes = new Map<string, string>();
  for (const { module } of modules) {
    const integrations = isObj(module.integrations) ? module.integrations : {};
    const telephony = isObj(integrations.telephony) ? integrations.telephony : {};
    if (!Array.isArray(telephony.additionalCodes)) continue;
    for (const entry of telephony.additionalCodes) {
      if (!isObj(entry)) continue;
      const { userId, code } = entry;
      const text = typeof code === 'string' ? code.trim() : typeof code === 'number' && Number.isFinite(code) ? String(code) : '';
      if ((typeof userId === 'string' || typeof userId === 'number') && text !== '' && !codes.has(String(userId))) codes.set(String(userId), text);
    }
  }
  return codes;
}

/** The customer of the account with this number (digits compared), if any. */
export function customerByPhone(account: Account, phone: string): Customer | undefined {
  const wanted = digits(phone);
  if (wanted === '') return undefined;
  return account.customers.find((c) => c.phones.some((p) => digits(p) === wanted));
}

/** The free responsible manager of the customer with this number, with their extension code; undefined when there is none. */
export function freeManager(account: Account, modules: Iterable<{ module: Obj }>, phone: string): { manager: User; code: string; customer: Customer } | undefined {
  const customer = customerByPhone(account, phone);
  if (!customer) return undefined;
  const manager = account.users.find((u) => u.id === customer.managerId);
  // Free: authorised (active and online), with status free, and with an extension code in the integration settings.
  if (!manager || !manager.active || !manager.online || manager.status !== 'free') return undefined;
  const code = extensionCodes(modules).get(String(manager.id));
  return code === undefined ? undefined : { manager, code, customer };
}

/** The system's answer to a manager lookup for the query's `phone`. */
export function managerReply(account: Account, modules: Iterable<{ module: Obj }>, phone: string | undefined, systemUrl: string): Answer {
  if (phone === undefined || phone.trim() === '') return systemError(400, 'Parameter "phone" is missing');
  const found = freeManager(account, modules, phone);
  if (!found) return json(200, { success: true });
  const { manager, code, customer } = found;
  return json(200, {
    success: true,
    manager: { id: manager.id, firstName: manager.firstName, lastName: manager.lastName, email: manager.email, code },
    customer: { id: customer.id, firstName: customer.firstName, lastName: customer.lastName, phones: customer.phones.map((number) => ({ number })) },
    links: {
      customerLink: `${systemUrl}/customers/${customer.id}`,
      newOrderLink: `${systemUrl}/orders/add?customerId=${customer.id}`,
    },
  });
}
