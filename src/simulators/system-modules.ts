/**
 * The integration modules the system holds, by code: what an accepted `edit` does (the tokens it
 * hands out for the gateway, the delivery type it creates for a delivery module, the payment
 * shops it syncs) and answers, and what `read` answers.
 */
import { randomBytes } from 'node:crypto';
import type { BoundedMap } from '../evidence/bounded.ts';
import type { Redactor } from '../evidence/redact.ts';
import { withoutNulls } from '../contract/schemas.ts';
import type { Account } from './account.ts';
import { json, systemError, type Answer } from './http.ts';
import type { Registration } from './system-endpoints.ts';

/** A module as the system holds it: the module JSON, the tokens handed out, the delivery type created for it. */
export interface HeldModule {
  module: Record<string, unknown>;
  tokens: Registration['tokens'];
  deliveryType?: { id: number; code: string };
}

/** What an `edit` reads and changes: the modules held, the account, the redaction of the tokens, the gateway's address. */
export interface ModuleBook {
  modules: BoundedMap<string, HeldModule>;
  account: Account;
  redactor: Redactor;
  gatewayUrl: () => string;
}

/** Symbolic code from a name, as the system does for the delivery type created at registration. */
function symbolicCode(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'delivery'
  );
}

/** An edit of module `code` (the payload: its module JSON): held, answered as the system answers (its `info`: the delivery type created, the gateway's address and tokens). */
export function editModule(book: ModuleBook, code: string, payload: unknown): Answer {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return systemError(400, 'integrationModule must be a JSON object');
  const module = withoutNulls(payload as Record<string, unknown>);
  const integrations = (module.integrations && typeof module.integrations === 'object' ? module.integrations : {}) as Record<string, unknown>;
  const existing = book.modules.get(code);
  const tokens = existing?.tokens ?? {};
  const info: Record<string, unknown> = {};
  let deliveryType = existing?.deliveryType;
  if ('delivery' in integrations && !deliveryType) {
    const created = book.account.addDeliveryType(symbolicCode(String(module.name ?? code)), String(module.name ?? code), String(module.integrationCode ?? code));
    deliveryType = { id: created.id, code: created.code };
    info.deliveryType = deliveryType;
  }
  for (const kind of ['mgTransport', 'mgBot'] as const) {
    if (kind in integrations) {
      tokens[kind] ??= randomBytes(24).toString('hex');
      book.redactor.add(`${kind}Token`, tokens[kind]);
      info[kind] = { endpointUrl: book.gatewayUrl(), token: tokens[kind] };
    }
  }
  book.modules.set(code, { module, tokens, ...(deliveryType ? { deliveryType } : {}) });
  // Each newly passed shop gets a payment type; a shop missing on update is removed with it (document, Payment configuration).
  const payment = integrations.payment && typeof integrations.payment === 'object' ? (integrations.payment as Record<string, unknown>) : undefined;
  book.account.syncShops(code, payment?.shops);
  const body = Object.keys(info).length > 0 ? { success: true, info } : { success: true };
  // Telephony answers with HTTP 201 (document, Endpoints > edit).
  return json('telephony' in integrations ? 201 : 200, body);
}

/** What `read` answers for module `code`: the module as held, with its tokens. */
export function readModule(modules: ReadonlyMap<string, HeldModule>, code: string): Answer {
  const held = modules.get(code);
  if (!held) return systemError(404, `no integration module ${code}`);
  const integrations = { ...((held.module.integrations ?? {}) as Record<string, unknown>) };
  // The document: the transport token "also in the module information"; the bot's holds token and isActive.
  if (integrations.mgTransport && typeof integrations.mgTransport === 'object') integrations.mgTransport = { ...integrations.mgTransport, token: held.tokens.mgTransport };
  if ('mgBot' in integrations) integrations.mgBot = { token: held.tokens.mgBot, isActive: held.module.active !== false };
  return json(200, {
    success: true,
    integrationModule: { ...held.module, integrations, freeze: false, native: false, availableCountries: [] },
  });
}
