/**
 * What the suite sends is what the platform's readers read back: for arbitrary payloads and
 * clientIds, an action form (`encodeActionForm`) and a query (`encodeQuery`) decoded by the
 * system simulator's own reader (`decodeBody`, `param`, `formJson`), and a webhook of the gateway
 * simulator (`sendWebhook`: `encodeWebhook`, `webhookHeaders`) received over HTTP by a server of
 * the simulators, give the same clientId and the same JSON. Fixed seed: a failure replays.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { CallbackClient } from '../../src/client/callback-client.ts';
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { WEBHOOK_TYPES } from '../../src/callbacks/table.ts';
import { json, type InboundRequest } from '../../src/simulators/http.ts';
import { decodeBody, formJson, param } from '../../src/simulators/http-decode.ts';
import { RecordingServer } from '../../src/simulators/http-server.ts';
import { GatewayState } from '../../src/simulators/gateway-state.ts';
import { sendWebhook } from '../../src/simulators/gateway-webhooks.ts';
import { encodeActionForm, encodeQuery, FORM_CONTENT_TYPE, isRawField } from '../../src/wire/forms.ts';

const SEED = 2121;

/** Characters that forms, queries and JSON treat specially, and any code point. */
const special = fc.constantFrom('&', '=', '+', '%', '%2', '%zz', ' ', '?', '#', '[]', '"', '\\', '\n', '\r', '\t', '\0', '\u00e9', '\u{1F600}', '\uFEFF');
const anyChar = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
/** A text as a module or the platform may write it (well-formed Unicode: a form carries UTF-8). */
const text = fc.string({ unit: fc.oneof(special, anyChar), maxLength: 24 });
/** JSON payloads; their strings may even hold lone surrogates (JSON escapes them). */
const payload = fc.jsonValue({ stringUnit: fc.oneof(special, anyChar, fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))) })
  // `{raw: "..."}` alone is the marker of a deliberately malformed field (`RawField`), not a payload.
  .filter((p) => !isRawField(p));

/** JSON equality: same structure and values (JSON has one zero: `-0` is written `0`). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A request as the system simulator has it before it decodes the body. */
function inbound(url: string, body = '', contentType?: string): InboundRequest {
  const u = new URL(url);
  return { method: body ? 'POST' : 'GET', path: u.pathname, url: u, headers: contentType ? { 'content-type': contentType } : {}, body: Buffer.from(body, 'utf8'), encoding: 'none', params: {} };
}

function verdict<T>(out: fc.RunDetails<T>): void {
  expect(out.failed, fc.defaultReportMessage(out)).toBe(false);
}

test('an action form reads back as it was written: clientId, plain fields, the action field as JSON', async () => {
  const cases = fc
    .record({ clientId: fc.option(text, { nil: undefined }), field: text, payload, extra: fc.dictionary(text, text, { maxKeys: 3 }) })
    .filter(({ field, extra }) => field !== 'clientId' && !('clientId' in extra) && !(field in extra));
  const out = await fc.check(
    fc.asyncProperty(cases, async ({ clientId, field, payload, extra }) => {
      const req = inbound('http://system.invalid/cb', encodeActionForm({ clientId, field, payload, extra }), FORM_CONTENT_TYPE);
      await decodeBody(req);
      const read = formJson(req, field);
      return (
        req.encoding === 'urlencoded' &&
        req.invalidUtf8 === undefined &&
        req.duplicated === undefined &&
        param(req, 'clientId') === clientId &&
        Object.entries(extra).every(([k, v]) => param(req, k) === v) &&
        read.present &&
        read.error === undefined &&
        sameJson(read.value, payload)
      );
    }),
    { seed: SEED, numRuns: 300 },
  );
  verdict(out);
});

test('a query reads back as it was written: clientId, scalars, arrays as name[], objects as JSON', async () => {
  const name = text.filter((k) => k !== 'clientId' && k !== 'fixed' && !k.endsWith('[]'));
  const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.integer(), fc.boolean(), fc.dictionary(text, payload, { maxKeys: 3 }));
  const cases = fc.record({
    base: fc.constantFrom('http://module.example/cb', 'https://module.example:8443/a/b/?fixed=1', 'http://127.0.0.1:9/r.mp3?fixed=x%20y'),
    clientId: fc.option(text, { nil: undefined }),
    params: fc.dictionary(name, value, { maxKeys: 5 }),
  });
  const out = await fc.check(
    fc.asyncProperty(cases, async ({ base, clientId, params }) => {
      const req = inbound(encodeQuery(base, clientId, params));
      await decodeBody(req);
      const fixed = new URL(base).searchParams.get('fixed');
      return (
        req.invalidUtf8 === undefined &&
        param(req, 'clientId') === clientId &&
        (fixed === null || param(req, 'fixed') === fixed) &&
        Object.entries(params).every(([k, v]) => {
          if (Array.isArray(v)) return sameJson(req.url.searchParams.getAll(`${k}[]`), v) && param(req, k) === undefined;
          if (typeof v === 'object') return sameJson(formJson(req, k).value, v);
          return param(req, k) === String(v);
        })
      );
    }),
    { seed: SEED, numRuns: 300 },
  );
  verdict(out);
});

test('a webhook of the gateway reads back as it was written: the ClientId header and the envelope', async () => {
  const received: InboundRequest[] = [];
  const module = new RecordingServer({ log: new EvidenceLog(), direction: 'gateway->module', bind: '127.0.0.1', port: 0 });
  module.route('POST /hook', 'webhook', (req) => (received.push(req), json(200, {})));
  const port = await module.listen();
  const client = new CallbackClient({ log: new EvidenceLog() });
  // A header carries latin-1 text, its ends trimmed: the clientIds a header can carry.
  const headerChar = fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c));
  const clientId = fc.tuple(headerChar, fc.string({ unit: fc.oneof(headerChar, fc.constantFrom(' ', '\t')), maxLength: 30 }), headerChar).map(([a, b, c]) => a + b + c);
  try {
    const out = await fc.check(
      fc.asyncProperty(fc.constantFrom(...WEBHOOK_TYPES), clientId, payload, async (type, clientId, data) => {
        const state = new GatewayState();
        state.addTransport({ token: 'transport-token', clientId, webhookUrl: `http://127.0.0.1:${port}/hook` });
        received.length = 0;
        const before = Math.floor(Date.now() / 1000);
        const reply = await sendWebhook(state, client, 'transport-token', type, data);
        const req = received[0];
        if (reply.status !== 200 || !req) return false;
        const body = req.json as { type: unknown; meta: { timestamp: unknown }; data: unknown };
        return (
          req.encoding === 'json' &&
          req.headers.clientid === clientId &&
          Object.keys(body).sort().join() === 'data,meta,type' &&
          body.type === type &&
          Number.isInteger(body.meta.timestamp) &&
          (body.meta.timestamp as number) >= before &&
          (body.meta.timestamp as number) <= Math.floor(Date.now() / 1000) &&
          sameJson(body.data, data)
        );
      }),
      { seed: SEED, numRuns: 100 },
    );
    verdict(out);
  } finally {
    await client.close();
    await module.close();
  }
});
