/**
 * Named fault variants of the reference module (env `FAULTS=a,b`).
 *
 * Each fault breaks exactly ONE rule of the contract (or of the wire profile) and nothing else,
 * so that a conformance run against the faulty module fails exactly the checks of the statements
 * that rule breaks (its row in test/gauntlet/faults.ts; most often one). The
 * process faults (`module-ignores-sigterm`, `child-ignores-sigterm`) and the hostile ones
 * (`flood-*`, `body-64mb`, `slow-connections`, `deep-json`, `ws-huge-frames`, and the hostile
 * answers of calculate `calculate-never-answers` ... `calculate-script-in-error`, hostile.ts) prove
 * that a module cannot break the run; the module->system ones but `deep-json`, and
 * `calculate-script-in-error`, break no rule. The behaviour of each
 * fault lives where the rule lives (registration.ts, http.ts, activity.ts, main.ts, hostile.ts);
 * this file is only the table and its parsing.
 */
import { NamedSet, parseNames } from './named-set.ts';

/** The fault table: name -> what it breaks (the faults whose behaviour lives where the rule lives). */
const BEHAVIOUR_FAULTS = {
  'delivery-duplicate-action-path':
    'Delivery actions `shipmentSave` and `shipmentDelete` are registered under one path (the module still tells them apart by the form field). Breaks: the same path must not be given for different actions.',
  'delivery-required-field-unknown':
    '`requiredFields` holds `middleName`, a value outside the 19 allowed ones.',
  'delivery-payer-type-unknown': '`payerType` holds `thirdParty` (allowed: sender, receiver).',
  'delivery-self-shipment-without-point-list':
    '`selfShipmentAvailable` is true but the delivery actions have no `shipmentPointList` (rule 6).',
  'delivery-save-without-delete':
    'Delivery actions have `save` (and `calculate`) but not `delete` (rule 3: delete is optional only without save).',
  'delivery-data-field-type-unknown':
    'The text field of `deliveryDataFieldList` is declared with type `select`, not one of text, integer, checkbox, choice, autocomplete, date.',
  'delivery-choice-without-choices': 'The `choice` data field has no `choices`.',
  'delivery-autocomplete-without-url': 'The `autocomplete` data field has no `autocompleteUrl`.',
  'delivery-extra-data-unknown-key':
    '`settings.deliveryExtraData` holds a default for `parcelSize`, a code that no field of `deliveryDataFieldList` has (the map is keyed by delivery field codes).',
  'delivery-autocomplete-default-not-label-value':
    'The default of the `autocomplete` field `pickupPoint` in `settings.deliveryExtraData` is the bare string `T-BER-01`, not an object `{label, value}`.',
  'payment-without-create': 'Payment actions lack `create` (approve, cancel and refund stay).',
  'payment-currency-not-iso': '`currencies` holds `EURO`, which is not of the ISO 4217 form (three capital letters).',
  'payment-currency-unlisted': '`currencies` holds `ABC`: of the ISO 4217 form, but in no ISO 4217 list, current or withdrawn (a SHOULD warning).',
  'payment-invoice-type-unknown': '`invoiceTypes` is [`qr`] (allowed: link).',
  'approve-reports-canceled': 'An approved invoice is captured (answered with success) but reported to the system as `canceled`, not `succeeded`: no row of the invoice table goes from waitingForCapture to canceled on an approve.',
  'hold-skips-check': 'When the payment system reports funds held, the module reports `waitingForCapture` without asking the system to check the invoice (`payment/check`); payments without a hold are still checked.',
  'paid-skips-check': 'When the payment system reports a payment without a hold, the module reports `succeeded` without asking the system to check the invoice (a SHOULD of the typical flows); holds are still checked.',
  'canceled-still-paid': 'A payment reported for a canceled invoice is checked and taken: the module reports `succeeded` for it (the module must accept no more payments for a canceled invoice).',
  'refused-create-takes-effect': 'A create with a missing or unknown clientId is refused (401 or 403), but only after the invoice was created and reported pending.',
  'refused-cancel-takes-effect': 'A cancel with a missing or unknown clientId is refused (401 or 403), but only after the invoice was canceled and reported canceled.',
  'refund-not-reported': 'A refund is made and answered with its result, but `refundSucceeded` is never reported to the system.',
  'refund-result-as-list': 'The refund is answered with `result` as a list holding the refund, not the refund object `{id, status, amount, comment}`.',
  'approve-accepts-zero-amount': 'An approve with an amount of zero or below captures the whole held amount instead of refusing the amount.',
  'approve-not-reported': 'An approve captures the held funds and is answered with success, but `succeeded` is never reported to the system.',
  'cancel-not-reported': 'A cancel is made and answered with success, but `canceled` is never reported to the system.',
  'paid-not-reported': 'A payment without a hold is checked and taken, but `succeeded` is never reported to the system (holds are reported).',
  'refund-without-amount-partial': 'A refund sent without an amount returns half the amount paid (answer and report say so), not the whole.',
  'partial-refund-refunds-all': 'A refund with an amount below the amount paid refunds the whole amount paid (answer and report say so), not the amount asked.',
  'update-invoice-status-unknown': 'Every `succeeded` is reported with `status: "paid"`, not one of the document\'s five values.',
  'update-invoice-amount-as-text': 'Every update-invoice gives the amount as text (`"40.00"`), not a number.',
  'update-invoice-put': 'Every update-invoice is sent with PUT, not POST (the system answers 405: nothing is reported).',
  'check-by-get': 'The invoice check is asked with GET, its payload in the query, not POST (the system answers 405: the module takes no payment).',
  'check-amount-as-text': 'The invoice check (`payment/check`) gives the amount as text (`"40.00"`), not a number (the system reads it all the same).',
  'payment-shop-without-active': 'The second shop of `shops` (`outlet`) is registered without `active` (each shop is `{name, code, active}`).',
  'create-without-invoice-url': 'The payment create answer is `{"success": true, "result": {paymentId, cancellable}}`: no invoiceUrl, the payment link the module must return (the invoice is created and reported all the same).',
  'create-accepts-zero-amount': 'payment create takes an amount of zero as it comes: it creates (and reports) an invoice of 0 instead of refusing.',
  'create-error-without-field': 'Every refusal of a currency by payment create says only "invalid request", naming no field.',
  'payment-create-on-get': 'payment create is served at GET only: the POST the platform sends is answered HTTP 405 with the error body (no invoice is ever created).',
  'mgbot-not-empty': '`integrations.mgBot` is `{"isActive": true}` at registration instead of an empty object.',
  'activity-action-missing': 'The top-level `actions` has no `activity` path.',
  'url-malformed': 'Every URL of the registration but `baseUrl` is malformed: without a scheme (`makeCallUrl` is `localhost:PORT/telephony/call`, and so on), the logo a bare file name.',
  'registration-field-types-wrong':
    'Fields of every kind are registered with a type the document does not give them (strings for booleans, numbers for strings, an unknown action that is not a path, lists that are strings); the module itself works from its own constants.',
  'registration-never-sent': 'The module checks its API key (`GET /api/credentials`) and then never registers.',
  'refusal-missing-clientid-400': 'A callback without a clientId is refused with HTTP 400 and the error body, not 401 or 403 (a SHOULD of the wire profile).',
  'call-event-ignored': 'The telephony.callEvent trigger answers success but the module never reports the event.',
  'system-calls-wrong-field': 'Tracking, calls upload and call events carry their JSON under the form field `data` instead of `statusUpdate`, `calls`, `event`.',
  'client-id-missing': 'The registration carries no `clientId`.',
  'activity-accepts-unknown-client':
    'The activity callback stores the activity of, and answers success to, an unknown `clientId` (it should refuse with 403 and not act).',
  'refusal-body-not-json':
    'A callback with a missing or unknown clientId is refused with the right status (401 or 403) but the body `Forbidden` as text/plain, not the error body {success: false, errorMsg}.',
  'refusal-status-500':
    'A callback with a missing or unknown clientId is refused with HTTP 500 and the error body {success: false, errorMsg} (an error answer is never a 5xx; not 401 or 403 either, a SHOULD).',
  'refusal-without-errormsg':
    'A callback with a missing or unknown clientId is refused with the right status (401 or 403) and the JSON body {success: false}, without `errorMsg`.',
  'refusal-errormsg-not-text':
    'A callback with a missing or unknown clientId is refused with the right status (401 or 403) and JSON {success: false, errorMsg: {code, message}}: `errorMsg` is there but is an object, not the text.',
  'activity-reply-malformed': 'The activity callback answers HTTP 200 with the body `OK` (not JSON).',
  'registration-wrong-api-key': 'The registration carries an API key that is not the one the user gave; the system refuses it.',
  'registration-json-body': 'The registration is sent as a JSON body `{"integrationModule": {...}}` (key in X-API-KEY) instead of form parameters; the system refuses it.',
  'registration-without-integration-module': 'The registration form names its field `module` instead of `integrationModule`; the system refuses it.',
  'registration-malformed-json': 'The `integrationModule` form field holds JSON cut short (its last brace missing); the system refuses it.',
  'registration-api-v4': 'The registration goes to `/api/v4/integration-modules/{code}/edit` (the legacy version) instead of `/api/v5`.',
  'registration-201-as-failure': 'The module takes HTTP 201 (telephony\'s success answer to edit) for a failure and registers again and again while its attempts last (at most 100 ms apart).',
  'tracking-wrong-api-key': 'Tracking requests carry an API key that is not the run\'s; the system refuses them.',
  'tracking-wrong-subcode': 'Tracking goes to `/api/v5/delivery/generic/{code}-desk/tracking`: a subcode that is not the module\'s code.',
  'system-calls-put': 'Tracking, calls upload and call events are sent with PUT instead of POST.',
  'tracking-truncated': 'Of the orders asked for, only the first 100 are pushed (one request); the rest are dropped.',
  'calculate-result-not-array': 'The calculate answer puts its tariffs in an object `{"tariffs": [...]}` under `result` instead of an array.',
  'calculate-tariff-type-unknown': 'The express tariff of the calculate answer has type `express`, not courier or selfDelivery.',
  'tariff-without-code': 'The express tariff of the calculate answer has no `code` (its name, type, cost and the rest are there): the tariff the user chooses cannot be sent back in save.',
  'calculate-cost-as-text-over-10kg': 'For more than 10 kg in all, the calculate answer gives each tariff\'s cost as a text (`"12.40"`): the shrunk counterexample is one package of 10,001 g.',
  'calculate-extra-data-available-unknown': 'The calculate answer\'s tariffs list `giftWrap` in extraDataAvailable, a code no data field of the registration has.',
  'non-ascii-city-500': 'calculate and save answer HTTP 500 (with the error body) to a delivery address whose city holds a letter outside ASCII (Cyrillic, diacritics).',
  'calculate-accepts-zero-weight': 'A package weight of zero or below is taken as no weight at all: calculate answers its tariffs instead of refusing.',
  'calculate-error-without-field': 'Every refusal of calculate says only "invalid request", naming no field.',
  'calculate-error-without-errormsg': 'Every refusal of calculate is `{"success": false}`, without errorMsg.',
  'save-result-without-delivery-id': 'The save answer is `{"success": true, "result": {trackNumber, cost, status}}`: no deliveryId (the wire profile requires it).',
  'accepts-past-delivery-date': 'calculate and save take a delivery date in the past as it comes: they price it and create (or edit) the delivery instead of refusing (document, Errors 7: "a past delivery date").',
  'get-dates-d-m-y': 'The get answer writes shipmentDate and deliveryDate `d.m.Y` (`05.03.2027`) where the wire profile gives Y-m-d.',
  'get-updatedat-ymd': 'The get answer\'s status.updatedAt is written `Y-m-d H:i:s` where the wire profile gives ISO 8601.',
  'get-cost-as-text': 'The get answer gives the delivery\'s cost as a text (`"7.40"`), not a number.',
  'get-unknown-id-success': 'get of a deliveryId the module never gave answers `{"success": true, "result": {}}` instead of an error.',
  'delete-refuses-saved': 'delete of a delivery just saved is refused (HTTP 400, errorMsg "deliveryId ... cannot be cancelled yet"), a well-formed error.',
  'calculate-resets-connection': 'A calculate of more than 10 kg in all is never answered: the module resets the connection.',
  'shipment-save-id-as-object': 'The shipmentSave answer gives the shipment id as an object (`{"shipmentId": {"id": "SH00001"}}`), not a text or a number.',
  'shipment-save-without-shipment-id': 'The shipmentSave answer is `{"success": true, "result": {"extraData": {...}}}` without the shipmentId, though the module declares shipmentDelete: the system can never edit or delete the shipment.',
  'shipment-delete-refuses-saved': 'shipmentDelete of a shipment just saved is refused (HTTP 400, errorMsg "shipmentId ... cannot be cancelled yet"), a well-formed error.',
  'get-after-edit-unknown': 'Once a delivery is edited (save with its deliveryId, answered success with the same id), get answers it as unknown (HTTP 404 and the error body).',
  'vat-none-refused': 'calculate and save refuse a vatRate of `none` (the delivery\'s or an item\'s) with "... vatRate must be a number of percent, not \"none\"" (HTTP 400 and the error body, calculate HTTP 200); the document says vatRate accepts none.',
  'delivery-get-actions-on-post': 'get, shipmentPointList, tariffList and the autocomplete address are served at POST only: the GET the platform sends is answered HTTP 405 with the error body.',
  'delivery-post-actions-on-get': 'calculate and print are served at GET only: the POST the platform sends is answered HTTP 405 with the error body.',
  'save-on-get': 'save is served at GET only: the POST the platform sends is answered HTTP 405 with the error body (no delivery is ever created).',
  'refused-delete-takes-effect': 'A delete with a missing or unknown clientId is refused (401 or 403), but only after the delivery was cancelled: an authorised get then shows it cancelled.',
  'print-pdf-without-xref':
    'Printed PDFs (alone, or inside the ZIP) have no cross-reference table and no `startxref`: `%PDF-` header and `%%EOF` trailer only, not a readable PDF.',
  'print-zip-content-type-pdf': 'Several printed documents are answered as a ZIP (well formed) but with Content-Type `application/pdf`.',
  'print-flat-ids-refused': 'print refuses `deliveryIds` given flat (`["id"]`) with HTTP 400 and the error body; only the nested form (`[["id"]]`) is printed (a SHOULD of the wire profile: accept both).',
  'print-refuses-nested-ids': 'print refuses `deliveryIds` given nested (`[["id"]]`, the form the platform sends) with HTTP 400 and the error body; only the flat form (`["id"]`) is printed (a SHOULD of the wire profile: accept both).',
  'print-error-200': 'A print error is answered with HTTP 200 and the error body, not HTTP 400 (document, Errors 3).',
  'tariff-list-result-not-array': 'The tariffList answer puts its tariffs in an object `{"tariffs": [...]}` under `result` instead of an array.',
  'points-result-not-array': 'The shipmentPointList answer gives its terminals as an object keyed by terminal code under `result` instead of an array.',
  'points-coordinates-as-text': 'The terminals of the shipmentPointList answer give `coordinates.latitude` and `longitude` as texts (`"52.5251"`), not numbers.',
  'autocomplete-result-as-labels': 'The autocomplete answer lists bare labels (`["Berlin Mitte terminal"]`) under `result`, not suggestions `{value, label, description}`.',
  'tracking-updatedat-ymd': 'Tracking history `updatedAt` is written `Y-m-d H:i:s` where the wire profile gives ISO 8601.',
  'tracking-trigger-fails': 'The delivery.tracking trigger answers HTTP 500 at once, without calling the system (the suite must skip the flow at once, not wait it out).',
  'tracking-drops-one-syncs-others':
    'Of the deliveries asked for, the first is never pushed; the status of one other delivery the module holds (registered at its carrier desk) is pushed in its place, so the number of orders pushed is the number asked for.',
  'tracking-track-number-as-id': 'Tracking items carry each delivery\'s track number in `deliveryId`, not the id the module answered to save.',
  'registration-missing-api-key':
    'The registration is sent without any `apiKey`; the system refuses it, so the module never registers.',
  'tracking-unchunked': 'Delivery statuses are pushed in one tracking request whatever their number (the limit is 100 orders a request).',
  'tracking-without-api-key': 'Tracking requests are sent without the apiKey (no parameter, no X-API-KEY header).',
  'tracking-ignored': 'The delivery.tracking trigger answers success but the module never calls the system.',
  'calls-upload-unchunked': 'Call history is uploaded in one request whatever its length (the limit is 50 calls a request).',
  'calls-upload-without-record-url': 'Uploaded calls carry no `recordUrl` (each call of an upload has the link to its recording); the recordings are still served.',
  'call-event-codes-not-strings': 'Call events carry the extension codes as numbers instead of strings.',
  'call-event-type-unknown':
    'Incoming-call events carry `type: "ringing"` instead of `in`. Breaks the wire profile only (type in, out or hangup); the document gives `in` and leaves other values not shown.',
  'call-event-json-body': 'Call events are sent as a JSON body instead of the form field `event`.',
  'calls-upload-drops-asked-call':
    'A calls upload asked for by the calls\' ids (`externalIds`) leaves the first asked call out and uploads a call of the PBX history in its place: as many calls as asked, one of them not asked for.',
  'call-event-in-out-swapped': 'Incoming calls are reported with `type: "out"` and outgoing calls with `type: "in"` (call ends stay `hangup`).',
  'long-phone-truncated': 'Call events carry the customer\'s number cut to its first 12 characters (a 13-digit `+` number or a longer one loses its end).',
  'call-event-phone-is-external': 'Call events carry the shop\'s external number as `phone`, where the customer\'s number belongs (`externalPhone` stays as it was).',
  'manager-lookup-by-post': 'The manager lookup is sent with POST and the number as a form field, not GET with the query (the system answers 405: no manager is found).',
  'manager-lookup-phone-param-renamed': 'The manager lookup gives the number as query parameter `number`, not `phone` (the system refuses it: no manager is found).',
  'manager-lookup-crashes-without-manager':
    'The manager lookup reads the manager\'s extension without asking whether the system found one: answered `{success: true}` without `manager`, the telephony.managerLookup trigger fails with HTTP 502 (a TypeError); with a manager it works.',
  'telephony-additional-codes-as-map': '`additionalCodes` is registered as a map `{"1": "101", "2": "102"}`, not an array of `{userId, code}`.',
  'telephony-external-phones-as-strings': '`externalPhones` is registered as the bare numbers `["+4930123456"]`, not an array of `{siteCode, externalPhone}`.',
  'make-call-201': 'A call the PBX starts is answered HTTP 201 (with `{success: true, result}`), not 200: the system reports it to the user as a call initiation error.',
  'make-call-no-number-200': 'A call to no number at all (an empty or blank `phone`) is answered HTTP 200, as if it had started.',
  'change-status-hangs': 'A user status change to `dinner` is taken but never answered: no byte, the connection left open until the system gives up (the other statuses are answered at once).',
  'record-wav-as-mpeg': 'Call recordings (WAV bytes, `RIFF....WAVE`) are served with Content-Type `audio/mpeg`.',
  'record-without-client-id': 'Call recordings are served to anyone: the recordUrl answers the audio without a clientId, or with one the module never gave.',
  // chat: gateway calls and webhooks (issue 25, items 1-2)
  'gw-calls-without-token':
    'Before activating its channel the transport lists its channels (`GET /api/transport/v1/channels`), and before registering its command the bot reads its own info (`GET /api/bot/v1/bots?self=true`), both without their token header (`X-Transport-Token`, `X-Bot-Token`): the gateway answers 401.',
  'gw-calls-unknown-token':
    'The same reads (transport channel list, bot info) carry a token the system never handed out (the registration\'s token reversed) in their header: the gateway answers 401.',
  'gw-wrong-api-prefix':
    'The same reads (transport channel list, bot info) go to `/api/transport/v2/...` and `/api/bot/v2/...` instead of `{endpointUrl}/api/transport/v1` and `/api/bot/v1`: the gateway answers 404.',
  'gw-channel-update-patch':
    'After activating its channel the transport updates it with `PATCH /api/transport/v1/channels/{id}` (the API updates a channel with PUT): the gateway answers 405.',
  'gw-channel-settings-bad-json':
    'After activating its channel the transport updates it (`PUT /channels/{id}`) with a body cut short, not JSON: the gateway answers 400.',
  'gw-channel-policy-unknown':
    'The channel is activated with `sending_policy: {new_customer: "always", after_reply_timeout: "text"}`, values outside the document\'s lists (new_customer: no, text, template; after_reply_timeout: no, template).',
  'gw-channel-feature-unknown': 'The channel is activated with `settings.text.deleting: "yes"`, not a feature value (none, receive, send, both).',
  'gw-channel-creation-string':
    'After activating its channel the transport updates it (`PUT /channels/{id}`) with `settings.template.creation` as the text `"true"`, not a boolean: the gateway answers 400.',
  'gw-channel-external-id-number':
    'After activating its channel the transport updates it (`PUT /channels/{id}`) with `external_id` as a number: the gateway answers 400 (the channel body\'s members are strings).',
  'transport-without-webhook-url': '`integrations.mgTransport` is registered as `{}`: no `webhookUrl`, so the gateway has nowhere to send webhooks.',
  'webhook-template-code-reused': 'Every `template_create` is answered with the same code (`tpl_shared`): templates of different names share one code in the channel.',
  'webhook-template-create-without-code': '`template_create` is answered `{verification_status: "pending"}` without `code` (the template is stored under a code of its own, never told).',
  'webhook-message-sent-error-code-unknown': '`message_sent` is answered with the error form under a code outside the profile\'s list: `{error: {code: "delivery_failed", message}}`.',
  'webhook-message-sent-without-id': '`message_sent` is answered `{}`: no `external_message_id`, no error, not async.',
  'webhook-without-client-id-accepted': 'Webhooks are taken and answered as usual whatever their `ClientId` header holds: none, or one the module never gave.',
  'webhook-refused-but-acted': 'A webhook with a missing or unknown `ClientId` is answered with the refusal, but acted on first: a refused `template_delete` deletes the template.',
  'tariff-list-accepts-any-client-id': '`tariffList` is answered with the tariffs whatever its `clientId`: none, or one the module never gave (every other callback refuses them).',
  'refused-shipment-save-takes-effect': 'A `shipmentSave` whose `clientId` is missing or unknown creates the shipment (its deliveries then belong to it), and only then is refused with 401 or 403.',
  'refused-make-call-takes-effect': 'The PBX reports each call it starts with an outgoing call event, and a `makeCallUrl` call whose `clientId` is missing or unknown starts the call (its event reaches the system) before it is refused with 401 or 403.',
  'transport-refuses-every-webhook': 'Every webhook is answered HTTP 403 with the refusal body, with the module\'s `ClientId` or without one: nothing the gateway sends is ever taken (a refusal of a probe then proves nothing).',
  'webhook-delete-500': '`template_delete` fails inside the transport: HTTP 500 `{errors: ["internal error"]}`, the template left as it was.',
  'webhook-template-update-refused': '`template_update` is refused with HTTP 400 `{errors: ["template cannot be edited"]}`: an edited template is never resubmitted.',
  'webhook-message-events-unhandled': '`message_updated`, `message_deleted` and `message_read` are answered HTTP 404 `{errors: ["unknown webhook type"]}`: the transport handles only message_sent and the template webhooks.',
  // chat: templates (issue 25, item 3)
  'template-verdict-status-unknown': 'A rejection by the provider is reported with `verification_status: "declined"`, not one of approved, pending, rejected: the gateway refuses it (400).',
  'template-rejection-reason-unknown': 'A rejection is reported with `rejection_reason: "spam"`, not one of abusive_content, incorrect_category, invalid_format, scam: the gateway refuses it (400).',
  'template-quality-unknown': 'A rejection is reported with `quality: "excellent"`, not one of the wire profile\'s pending, high, medium, low (the gateway records it).',
  'template-verdict-by-post': 'A rejection is sent with `POST /channels/{id}/templates/{code}`, not PUT: the gateway answers 405.',
  'template-approve-rejected': 'Right after reporting a rejection, the transport reports the same template approved (a second PUT) without the user resubmitting it: the table leads rejected only back to verifying; the gateway refuses it (400).',
  'template-verdict-not-sent': 'A rejection by the provider is never reported to the gateway (the trigger answers success).',
  'template-verdict-without-name': 'A rejection is reported without `name` (the update\'s fields: name, body, verification_status, ...).',
  'template-verdict-unknown-code': 'A rejection is reported for the template\'s code with `_x` appended, a template the gateway does not have: it answers 404.',
  'template-report-eleven-quick-replies': 'A template the provider created is reported (POST) with 11 quick-reply (plain) buttons, more than 10: the gateway refuses it (400).',
  'template-report-by-put': 'A template the provider created is reported with `PUT /channels/{id}/templates/{code}`, not POST: the gateway does not know it (404).',
  'template-report-without-code': 'A template the provider created is reported without its `code`: the gateway refuses it (400).',
  'template-attachment-type-unknown': 'A template the provider created is reported with the file header `attachments: {type: "audio"}`, not image, document or video: the gateway refuses it (400).',
  'template-button-type-unknown': 'A template the provider created is reported with a button of type `link`, not url, phone or plain: the gateway refuses it (400).',
  'template-url-button-without-url': 'A template the provider created is reported with a url button without its `url`: the gateway refuses it (400).',
  'template-header-and-attachments': 'A template the provider created is reported with a text `header` and a file header `attachments` both (attachments replaces header).',
  // chat: rate limit (issue 25, item 4)
  'rate-drops-on-429':
    'The transport does not resend a request the gateway answered 429: a customer message refused for the rate is lost (its own rate stays within 30 a second).',
  'rate-retry-new-external-id':
    'The transport resends a customer message the gateway answered 429 (after its backoff, within the rate) under a new `message.external_id`: the message the gateway gets is no longer tied to the messenger\'s.',
  'rate-no-backoff':
    'The transport\'s and the bot\'s gateway clients keep no rate of their own and resend a 429\'d request at once, again and again until it is accepted: while the gateway refuses, hundreds of requests a second on one token, for seconds.',
  'rate-bot-drops-on-429':
    'The bot does not resend an answer the gateway answered 429: the command it answers gets no answer (its own rate stays within 30 a second).',
  // chat: bot (issue 25, item 5)
  'bot-command-by-post': 'The bot registers its command with `POST /my/commands/{name}` instead of PUT (the gateway answers 405).',
  'bot-command-description-long': 'The bot registers its command with a description of 70 characters (the wire profile allows at most 64).',
  'bot-no-command-registration': 'The bot never registers its command (no `PUT /my/commands/{name}`), yet answers commands sent to it.',
  'bot-ws-without-token': 'The bot opens its WebSocket without the `X-Bot-Token` header (the gateway refuses it with 401; it retries after its timeout).',
  'bot-answers-other-chat': 'The bot answers a command with `chat_id` of another chat (the chat id plus 1000), not the chat the command came from.',
  'bot-reconnect-tight-loop': 'The bot reconnects at once when its socket closes or cannot be opened: no timeout between attempts.',
  'bot-no-reconnect-after-normal-close': 'The bot does not reconnect when the gateway closes its socket normally (1000); it still reconnects after an abnormal close.',
  'bot-command-body-array': 'The bot registers its command with the body `[{name, description}]`, a JSON array, not the object `{name, description}` (the gateway refuses it with 400).',
  'bot-ws-wrong-path': 'The bot opens its WebSocket at `{endpointUrl as ws/wss}/api/bot/v1/websocket?events=...`, not `/api/bot/v1/ws` (the gateway answers 404).',
  'bot-no-websocket': 'The bot never opens its WebSocket (it registers its command and nothing more).',
  'bot-message-without-scope': 'The bot answers commands with `POST /messages {chat_id, type, content}`, without `scope`.',
  'bot-no-reconnect-after-abnormal-close': 'The bot does not reconnect when its open socket is dropped (abnormal close, 1006); it still reconnects after a normal close.',
  'startup-tracking-without-api-key': 'Right after registering, the module pushes a delivery status on its own (no trigger), without the apiKey.',
  'module-ignores-sigterm':
    'The module\'s own process ignores SIGTERM (it logs it and goes on serving). Breaks no rule: the run kills it (SIGKILL) after the grace period and the report says so.',
  'child-ignores-sigterm':
    'The module starts a helper process (`node -e`) that ignores SIGTERM and runs for an hour, and leaves it running when it stops. Breaks no rule: the run kills the module\'s process group after the grace period.',
  'callbacks-refuse-all':
    'Every callback (system callbacks, telephony URLs, record URLs, autocomplete and gateway webhooks) answers 403: a module that recognises nobody.',
  'flood-system':
    'Once registered, the module checks its key (`GET /api/credentials`, a correct call) as fast as 64 connections allow for 5 s. Breaks no rule (the system API\'s rate limit is not shown): the suite\'s memory stays flat and the report counts the calls.',
  'flood-gateway':
    'Once registered, the transport lists its channels (`GET /api/transport/v1/channels`, a correct call) as fast as 64 connections allow for 5 s, whatever the 429s. Breaks the gateway\'s rate limit (Limits: 30 requests a second per token): its token stays above it for seconds (the chat rate-limit spec); the suite\'s memory stays flat and the report states the peak rate and what the module did after its 429s.',
  'body-64mb':
    'Once registered, the module posts a calls upload of 64 MB to the system, once with its length declared and once chunked. Breaks no rule: the suite refuses both with 413 without reading them and the report says so.',
  'slow-connections':
    'Once registered, the module opens 100 connections to the system that never finish their request (50 stall in the headers, 50 in the body), dripping a byte a second. Breaks no rule: the suite drops them at its timeouts and they do not delay the end of the run.',
  'deep-json':
    'Once registered, the module pushes a tracking request whose `statusUpdate` is 300,000 nested arrays, and sends the gateway a message nested as deep. Breaks the tracking payload rule (the payload is not a status list); the suite refuses both with 400 without a stack overflow.',
  'ws-huge-frames':
    'The bot sends an 8 MB text frame on each of its first 3 WebSocket connections. Breaks no rule: the gateway closes each with 1009 and the bot reconnects.',
  'calculate-never-answers':
    'A calculate of more than 60 kg in all is never answered: no byte, the connection left open. The suite gives up at its per-request timeout (setting callbacks.timeoutMs): the callback is not answered.',
  'calculate-answers-after-20s':
    'A calculate of more than 60 kg in all is answered correctly, but after 20 s: later than the per-request timeout, so the callback is not answered.',
  'calculate-drips':
    'A calculate of more than 60 kg in all gets its headers at once (Content-Length right) and then its correct body one byte every 2 s: not complete within the per-request timeout, so not answered.',
  'calculate-50mb':
    'A calculate of more than 60 kg in all is answered with 50 MB of well-formed JSON (its tariffs over and over, chunked): over the suite\'s body cap (setting callbacks.maxBodyBytes), read no further, so not answered.',
  'calculate-short-content-length':
    'A calculate of more than 60 kg in all is answered with a correct body whose Content-Length declares 100 bytes more than it sends; the connection is then closed: the reply is cut short, so not answered.',
  'calculate-invalid-utf8':
    'A calculate of more than 60 kg in all is answered with its tariffs\' descriptions in Latin-1 (`Haust\\xFCr, Gr\\xF6\\xDFe`) under `application/json; charset=utf-8`: not UTF-8, so not JSON (RFC 8259), neither the success nor the error form.',
  'calculate-redirect-loop':
    'A calculate of more than 60 kg in all is answered HTTP 302 to its own address (text body `Found. Redirecting to ...`): a client that follows redirects loops forever; the suite follows none, and a 302 with a text body is neither the success nor the error form.',
  'calculate-script-in-error':
    'Every refusal of calculate wraps its errorMsg (still naming the field) in markup: `<script>alert(1)</script>`, an `onmouseover`, an `<img onerror>`, closing tags. Breaks no rule (errorMsg is text): the report shows the text escaped, never live.',
} as const satisfies Record<string, string>;

/** The JSON object a success answer carries as `result`. */
type Result = Record<string, unknown>;

/**
 * Faults that change the success answer of one POST action and nothing else, each declared here
 * with what it breaks and the change itself (`rewrite`, applied to the answer's `result` by
 * `postCallback`, http.ts): such a fault is this one entry.
 */
export const REPLY_FAULTS = {
  'save-extra-data-unknown-key': {
    action: 'save',
    breaks: 'The save answer\'s `extraData` carries `labelFormat: "A6"` beside the data fields\' values: `labelFormat` is no code of `deliveryDataFieldList` (extraData is a map of data-field code to value).',
    rewrite: (result) => ({ ...result, extraData: { ...(typeof result.extraData === 'object' && result.extraData !== null ? result.extraData : {}), labelFormat: 'A6' } }),
  },
} as const satisfies Record<string, { action: string; breaks: string; rewrite(result: Result): Result }>;

/** The fault table: name -> what it breaks. */
export const FAULTS = {
  ...BEHAVIOUR_FAULTS,
  ...(Object.fromEntries(Object.entries(REPLY_FAULTS).map(([name, f]) => [name, (f as { breaks: string }).breaks])) as { [K in keyof typeof REPLY_FAULTS]: string }),
};

export type FaultName = keyof typeof FAULTS;

/** The change the active reply faults make to an action's success result (undefined: none). */
export function replyRewrite(faults: FaultSet, action: string): ((result: Result) => Result) | undefined {
  const active = Object.entries(REPLY_FAULTS as Record<string, { action: string; rewrite(result: Result): Result }>).filter(([name, f]) => f.action === action && faults.has(name as FaultName));
  return active.length === 0 ? undefined : (result) => active.reduce((r, [, f]) => f.rewrite(r), result);
}

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

export function isFaultName(name: string): name is FaultName {
  return Object.prototype.hasOwnProperty.call(FAULTS, name);
}

/** The active faults of one run. */
export class FaultSet extends NamedSet<FaultName> {}

/** Parses `FAULTS` (comma separated, blanks ignored). Unknown names are an error. */
export function parseFaults(raw: string | undefined): FaultSet {
  return new FaultSet(parseNames(raw, FAULTS, 'FAULTS', 'fault').list());
}
