import { test, expect } from '@playwright/test';
import { EvidenceLog, RECORDED_BODY_LIMIT } from '../../src/evidence/exchange.ts';
import { Redactor } from '../../src/evidence/redact.ts';

const CODE = 'reference-module';
const HOST = 'shop.example.com';
const API_KEY = 'Ak9+zQ/x7LmN2pRt';

function redactor(clientId: string): Redactor {
  const r = new Redactor();
  r.add('apiKey', API_KEY);
  r.add('clientId', clientId);
  return r;
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

test('a clientId equal to the module code does not black out URL paths or values that merely contain it', () => {
  const log = new EvidenceLog(redactor(CODE), 't');
  const module = { code: CODE, integrationCode: `${CODE}-v2`, name: 'reference-modules demo', clientId: CODE, baseUrl: `https://${HOST}/${CODE}`, accountUrl: `https://${HOST}/${CODE}/account?clientId=${CODE}`, script: `${CODE}.js` };
  const x = log.record({
    direction: 'module->system', label: 'edit', startedAt: new Date(), durationMs: 1,
    request: {
      method: 'POST',
      url: `http://127.0.0.1:4000/api/v5/integration-modules/${CODE}/edit?apiKey=${encodeURIComponent(API_KEY)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `https://${HOST}/${CODE}/` },
      body: form({ integrationModule: JSON.stringify(module) }),
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: true, info: { code: `my-${CODE}` } }) },
  });
  // The path keeps the module code; the API key in the query is replaced.
  expect(x.request.url).toBe(`http://127.0.0.1:4000/api/v5/integration-modules/${CODE}/edit?apiKey=<redacted:apiKey>`);
  expect(x.request.headers.referer).toBe(`https://${HOST}/${CODE}/`);
  const sent = JSON.parse(new URLSearchParams(x.request.body!).get('integrationModule')!);
  expect(sent).toEqual({
    code: '<redacted:clientId>', // equal to the secret: a value cannot be told apart
    integrationCode: `${CODE}-v2`,
    name: 'reference-modules demo',
    clientId: '<redacted:clientId>',
    baseUrl: `https://${HOST}/${CODE}`,
    accountUrl: `https://${HOST}/${CODE}/account?clientId=<redacted:clientId>`,
    script: `${CODE}.js`,
  });
  expect(JSON.parse(x.response!.body!)).toEqual({ success: true, info: { code: `my-${CODE}` } });
  expect(x.curl).toContain(`'http://127.0.0.1:4000/api/v5/integration-modules/${CODE}/edit?apiKey='"$API_KEY"`);
  expect(x.curl).toContain(`"clientId":"'"$CLIENT_ID"'"`);
  expect(JSON.stringify(x)).not.toContain('Ak9');
});

test('a clientId equal to a host name does not black out hosts, but is replaced as a value everywhere', () => {
  const log = new EvidenceLog(redactor(HOST), 't');
  const boundary = 'XyZ123';
  const multipart = [
    `--${boundary}`, 'Content-Disposition: form-data; name="clientId"', '', HOST,
    `--${boundary}`, 'Content-Disposition: form-data; name="activity"', '', JSON.stringify({ active: true, freeze: false, meta: { owner: HOST, site: `www.${HOST}` } }),
    `--${boundary}`, 'Content-Disposition: form-data; name="callback"', '', `https://${HOST}/hook?clientId=${HOST}`,
    `--${boundary}--`, '',
  ].join('\r\n');
  const x = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: {
      method: 'POST',
      url: `https://${HOST}:8443/${HOST}/activity?clientId=${HOST}&site=www.${HOST}&next=${encodeURIComponent(`https://${HOST}/x?clientId=${HOST}`)}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, host: `${HOST}:8443`, 'x-client-id': HOST, cookie: `sid=abc; client=${HOST}`, 'x-origin': `www.${HOST}` },
      body: multipart,
    },
    response: { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ success: false, errorMsg: `unknown clientId ${HOST}`, details: [{ clientId: HOST }] }) },
  });
  const url = new URL(x.request.url!);
  expect(url.host).toBe(`${HOST}:8443`);
  expect(url.pathname).toBe(`/${HOST}/activity`);
  expect(url.searchParams.get('clientId')).toBe('<redacted:clientId>');
  expect(url.searchParams.get('site')).toBe(`www.${HOST}`);
  expect(url.searchParams.get('next')).toBe(`https://${HOST}/x?clientId=<redacted:clientId>`);
  // Header values: an exact value replaced, a cookie value as a whole token; Host is an address.
  expect(x.request.headers['x-client-id']).toBe('<redacted:clientId>');
  expect(x.request.headers.cookie).toBe('sid=abc; client=<redacted:clientId>');
  expect(x.request.headers['x-origin']).toBe(`www.${HOST}`);
  expect(x.request.headers.host).toBe(`${HOST}:8443`);
  // Multipart parts.
  const body = x.request.body!;
  expect(body).toContain('name="clientId"\r\n\r\n<redacted:clientId>\r\n');
  expect(body).toContain(JSON.stringify({ active: true, freeze: false, meta: { owner: '<redacted:clientId>', site: `www.${HOST}` } }));
  expect(body).toContain(`https://${HOST}/hook?clientId=<redacted:clientId>`);
  // A free-text message has the secret as a whole token.
  expect(JSON.parse(x.response!.body!)).toEqual({ success: false, errorMsg: 'unknown clientId <redacted:clientId>', details: [{ clientId: '<redacted:clientId>' }] });
});

test('the secret as a form, query, header and nested JSON value (JSON in a form field) is replaced', () => {
  const secret = 'c1ient-5ecret-42';
  const r = redactor(secret);
  const log = new EvidenceLog(r, 't');
  const x = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: {
      method: 'POST',
      url: `http://127.0.0.1:1/activity?clientId=${secret}&other=${secret}-x`,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', 'x-client': secret, 'x-clientId-bearer': `Bearer ${secret}` },
      body: form({ clientId: secret, activity: JSON.stringify({ active: true, deep: [{ a: { b: secret } }, `${secret}suffix`], json: JSON.stringify({ inner: secret }) }), note: `prefix${secret}` }),
    },
  });
  expect(x.request.url).toBe(`http://127.0.0.1:1/activity?clientId=<redacted:clientId>&other=${secret}-x`);
  expect(x.request.headers['x-client']).toBe('<redacted:clientId>');
  expect(x.request.headers['x-clientId-bearer']).toBe('Bearer <redacted:clientId>');
  const f = new URLSearchParams(x.request.body!);
  expect(f.get('clientId')).toBe('<redacted:clientId>');
  expect(f.get('note')).toBe(`prefix${secret}`);
  const activity = JSON.parse(f.get('activity')!);
  expect(activity.deep).toEqual([{ a: { b: '<redacted:clientId>' } }, `${secret}suffix`]);
  expect(JSON.parse(activity.json)).toEqual({ inner: '<redacted:clientId>' });
  expect(x.request.body).toMatch(/^clientId=<redacted:clientId>&activity=/);
  // Unchanged fields stay as sent, byte for byte.
  expect(x.request.body).toContain(`&note=prefix${secret}`);
});

test('the API key never appears anywhere in a recorded exchange, in any encoding or place', () => {
  const r = redactor(CODE);
  const log = new EvidenceLog(r, 't');
  const enc = encodeURIComponent(API_KEY);
  const x = log.record({
    direction: 'module->system', label: 'edit', startedAt: new Date(), durationMs: 1,
    request: {
      method: 'POST',
      url: `http://user:${enc}@127.0.0.1:1/api/v5/x?apiKey=${enc}&k=${enc.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}#${enc}`,
      headers: { 'x-api-key': API_KEY, 'x-other': API_KEY, authorization: `Bearer ${API_KEY}`, 'x-note': `key ${API_KEY} used` },
      body: `apiKey=${enc}&json=${encodeURIComponent(JSON.stringify({ k: API_KEY }))}&raw=${API_KEY}`,
    },
    response: { status: 200, headers: { 'content-type': 'text/plain' }, body: `your key: ${API_KEY}; escaped ${JSON.stringify(API_KEY)}` },
    error: `request to http://127.0.0.1:1/?apiKey=${enc} failed`,
  });
  const all = JSON.stringify(x);
  expect(all).not.toContain('Ak9');
  expect(all).not.toContain('zQ/x7');
  expect(all).not.toContain('zQ%2Fx7');
  expect(all).not.toContain('zQ\\\\/x7');
  expect(x.request.headers['x-api-key']).toBe('<redacted:x-api-key>');
  expect(x.request.headers['x-other']).toBe('<redacted:apiKey>');
  expect(x.request.url).toBe('http://user:<redacted:password>@127.0.0.1:1/api/v5/x?apiKey=<redacted:apiKey>&k=<redacted:apiKey>#<redacted:apiKey>');
});

test('a capped body does not leak the first part of a secret cut at its end', () => {
  const log = new EvidenceLog(redactor(CODE), 't');
  const pad = 'x'.repeat(RECORDED_BODY_LIMIT - 'apiKey='.length - 8);
  const x = log.record({
    direction: 'module->system', label: 'edit', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: { 'content-type': 'text/plain' }, body: `${pad} apiKey=${API_KEY} and more` },
  });
  expect(x.request.truncated).toBe(true);
  expect(x.request.body!.endsWith('apiKey=<redacted:apiKey>')).toBe(true);
  expect(x.request.body).not.toContain(API_KEY.slice(0, 6));
});

test('free text: a secret is replaced as a whole token, never inside a longer word', () => {
  const r = redactor(HOST);
  r.add('transportToken', 'tok-abcdef');
  const cases: [string, string][] = [
    [`listening for ${HOST}`, 'listening for <redacted:clientId>'],
    [`clientId=${HOST}&x=1`, 'clientId=<redacted:clientId>&x=1'],
    [`"${HOST}"`, '"<redacted:clientId>"'],
    [`GET https://${HOST}/x`, 'GET https://<redacted:clientId>/x'],
    [`unknown clientId ${HOST}.`, 'unknown clientId <redacted:clientId>.'],
    [`(${HOST}:443)`, '(<redacted:clientId>:443)'],
    [`${HOST}`, '<redacted:clientId>'],
    [`c=${encodeURIComponent(`a ${HOST}`)}`, 'c=a%20<redacted:clientId>'],
    [`token tok-abcdef\ntok-abcdef-2 xtok-abcdef`, 'token <redacted:transportToken>\ntok-abcdef-2 xtok-abcdef'],
    // Inside a longer word: kept.
    [`www.${HOST}`, `www.${HOST}`],
    [`${HOST}.evil.net`, `${HOST}.evil.net`],
    [`my-${HOST}-mirror`, `my-${HOST}-mirror`],
    [`shop.example.community`, `shop.example.community`],
    [`api_key=tok-abcdefgh`, `api_key=tok-abcdefgh`],
  ];
  for (const [input, expected] of cases) expect(r.text(input), input).toBe(expected);
  // With the module code as clientId, a launched module's log line keeps other words whole.
  const code = redactor(CODE);
  expect(code.text(`[${CODE}] started reference-modules worker; clientId=${CODE}; serving /${CODE}-assets`)).toBe(`[<redacted:clientId>] started reference-modules worker; clientId=<redacted:clientId>; serving /${CODE}-assets`);
});

test('without secrets, everything is recorded as received', () => {
  const log = new EvidenceLog();
  const body = 'a=%7B%22x%22%3A1%7D&b=+c';
  const x = log.record({
    direction: 'system->module', label: 'x', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/p?q=1#f', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
  });
  expect(x.request.body).toBe(body);
  expect(x.request.url).toBe('http://127.0.0.1:1/p?q=1#f');
});
