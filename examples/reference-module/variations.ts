/**
 * Legitimate variations of the reference module (env `VARIATIONS=a,b`): ways of talking to the
 * platform that official modules use and the real platform accepts (wire profile sections 5, 8
 * and 9). A variation breaks no rule: the suite must certify the module with every one of
 * them exactly as without (the gauntlet proves it). Where each lives: outbound.ts (how the
 * system is called), registration.ts (what is sent, what is checked first).
 */
import { NamedSet, parseNames } from './named-set.ts';

export const VARIATIONS = {
  multipart: 'Every form sent to the system is `multipart/form-data`, as HTTP clients that post a form object do (wire profile section 8).',
  'credentials-first':
    'Before registering, the module checks its API key with `GET /api/credentials` (key in `X-API-KEY`), refuses to register without the integration scopes or credentials, and reads `/api/api-versions` and the reference books of sites and stores (wire profile section 8).',
  nulls: 'The registration writes JSON `null` for the optional fields it leaves unset, as PHP serializers do (wire profile section 9).',
  'api-key-header': 'The API key travels in the `X-API-KEY` header on every system call, never as a parameter (wire profile section 5).',
  'query-api-key': 'The API key of system POSTs travels in the query string (`?apiKey=`), the payload in the form body (wire profile section 5: form or query parameter).',
  'ready-late':
    'For 1.5 s after its registration the module is still storing its account and refuses every callback with 403; `GET /ready` answers 503 until then and 200 after, and it prints `ready for callbacks` when it is (wire profile section 9).',
  'reads-orders':
    'After registering, the module reads the order list (`GET /api/v5/orders`), an endpoint of the system that the suite does not simulate: the suite answers 404 and reports the call as information, never as a failure.',
  'registers-again':
    '1.5 s after its first registration the module sends `edit` again with one more payment shop (a shop added in its settings): the document expects updates (`edit` "creates the module if the code is new, otherwise changes it"; a shop missing on update is removed).',
  'resends-one-call':
    'A calls upload of more than one request sends the last call of a request again at the head of the next (a retry after a lost answer); the system reports it in `duplicateCalls` (wire profile section 4).',
  'strict-delivery-configuration':
    'The delivery registration allows one package per order (allowPackages false), offers no cash on delivery (codAvailable false), computes no cost (rateDeliveryCost false: tariffs without cost) and requires email, the package sizes, a shipment date and a flat; calculate and save refuse, before anything else, a second package, cash-on-delivery data and (save) a required field left empty: requests the system would never send for such a registration (document, Delivery configuration).',
  'auto-capture':
    'Funds held are captured at once after a passed check and reported `succeeded` (typical flow 1, hold with automatic capture: no `waitingForCapture`, so approve never applies); every update-invoice carries only `invoiceUuid`, `paymentId` and `status` (the profile marks no field of it required).',
  'tracking-syncs-others':
    'While it pushes the delivery statuses asked for, the module\'s sync job pushes the statuses of the other deliveries it holds (every other active one, and two registered directly at its carrier desk, never seen by the system), in requests of their own between the asked ones: the document has a module send current data to the system (What the service does).',
  'acts-on-references':
    'The transport acts on what a webhook names, as the official transport `retailcrm/mg-transport-telegram` and public transports do (wire profile section 6, "What a webhook\'s `data` names exists on the gateway"): its channel also sends files and images; a message webhook of a chat none of its customers wrote from is answered 422 "unexpected chat ID"; a quoted message it does not know is answered 500, an edit or deletion of a message it does not know 400; every file of `items` is fetched with `GET /files/{id}` before sending, and the webhook fails when that is not 200.',
  'bot-redials-at-once':
    'The bot dials its WebSocket again about 10 ms after the socket closes, normally or not, as the official bot `retailcrm/mg-bot-helper` does (8 to 19 ms); after a dial that fails it waits its timeout (`BOT_RECONNECT_MS`) before the next. The document asks for "reconnecting after a timeout" of no stated length: the suite warns, and certifies.',
  'accepts-past-shipment-date':
    'calculate and save price and save a shipment dated in the past (handed over already), and shipmentSave saves a pickup dated in the past: no sentence of the documents makes a past shipment date wrong input (document, Errors 7 names a past delivery date).',
  'reports-started-calls':
    'The PBX reports each call it starts for `makeCallUrl` with an outgoing call event (`POST /api/v5/telephony/call/event`), as a PBX does once the call rings (document, Events: outgoing call); a call refused for its `clientId` is never started, so never reported.',
  'not-found-quotes-value':
    'Every "not found" refusal quotes the unknown value instead of naming its key: `delivery <id> not found` (get, delete, print), `shipment <id> not found`, `payment <id> not found` (approve, cancel, refund): a message that names the incorrect field as a person reads it (document, Errors 7).',
  'whole-amounts-only':
    'The payment system captures and refunds only whole amounts: an approve or a refund whose `amount` is below the amount held or paid is refused with `{"success": false, "errorMsg": "amount ...: partial ... is not supported"}` (HTTP 400); without an amount, or with the whole, it acts. No sentence binds a module to partial captures or refunds (wire profile section 3 only says the system may send `amount`), and the system shows the error to the user (document, Errors 1).',
} as const satisfies Record<string, string>;

export type VariationName = keyof typeof VARIATIONS;

export const VARIATION_NAMES = Object.keys(VARIATIONS) as VariationName[];

/** The active variations of one run. */
export class VariationSet extends NamedSet<VariationName> {}

/** Parses `VARIATIONS` (comma separated, blanks ignored). Unknown names are an error. */
export function parseVariations(raw: string | undefined): VariationSet {
  return new VariationSet(parseNames(raw, VARIATIONS, 'VARIATIONS', 'variation').list());
}
