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

test('a clientId equal to the module code is replaced where it stands whole (a value, a path segment), never in words that merely contain it', () => {
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
  // A path segment equal to the secret is the secret (evidence cannot tell it from the code); the API key in the query is replaced.
  expect(x.request.url).toBe('http://127.0.0.1:4000/api/v5/integration-modules/<redacted:clientId>/edit?apiKey=<redacted:apiKey>');
  expect(x.request.headers.referer).toBe(`https://${HOST}/<redacted:clientId>/`);
  const sent = JSON.parse(new URLSearchParams(x.request.body!).get('integrationModule')!);
  expect(sent).toEqual({
    code: '<redacted:clientId>', // equal to the secret: a value cannot be told apart
    integrationCode: `${CODE}-v2`,
    name: 'reference-modules demo',
    clientId: '<redacted:clientId>',
    baseUrl: `https://${HOST}/<redacted:clientId>`,
    accountUrl: `https://${HOST}/<redacted:clientId>/account?clientId=<redacted:clientId>`,
    script: `${CODE}.js`,
  });
  expect(JSON.parse(x.response!.body!)).toEqual({ success: true, info: { code: `my-${CODE}` } });
  expect(x.curl).toContain(`'http://127.0.0.1:4000/api/v5/integration-modules/'"$CLIENT_ID"'/edit?apiKey='"$API_KEY"`);
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
  expect(x.request.url!.startsWith(`https://${HOST}:8443/<redacted:clientId>/activity?`)).toBe(true);
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

// ---- item 8: the clientId in URL paths, innocent text a secret contains, short secrets ----

const CID = 'e4b27c9a1f3d5608b2c7e9a4d1f6038b';

test('a clientId in a URL path (accountUrl .../settings/<clientId>) is redacted in the body, the URL and the curl line', () => {
  const log = new EvidenceLog(redactor(CID), 't');
  const module = { code: CODE, clientId: CID, baseUrl: `https://${HOST}`, accountUrl: `https://${HOST}/settings/${CID}` };
  const edit = log.record({
    direction: 'module->system', label: 'edit', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: `http://127.0.0.1:4000/api/v5/integration-modules/${CODE}/edit`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form({ integrationModule: JSON.stringify(module) }) },
  });
  const sent = JSON.parse(new URLSearchParams(edit.request.body!).get('integrationModule')!);
  expect(sent.accountUrl).toBe(`https://${HOST}/settings/<redacted:clientId>`);
  expect(sent.clientId).toBe('<redacted:clientId>');
  expect(edit.request.url).toBe(`http://127.0.0.1:4000/api/v5/integration-modules/${CODE}/edit`);
  // A callback to an address that holds the clientId in its path, and a percent-encoded one.
  const cb = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: { method: 'POST', url: `http://127.0.0.1:5000/hooks/${CID}/activity?clientId=${CID}`, headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `https://${HOST}/settings/${CID}` }, body: form({ clientId: CID, activity: '{"active":true}' }) },
  });
  expect(cb.request.url).toBe('http://127.0.0.1:5000/hooks/<redacted:clientId>/activity?clientId=<redacted:clientId>');
  expect(cb.request.headers.referer).toBe(`https://${HOST}/settings/<redacted:clientId>`);
  expect(cb.curl).toContain(`'http://127.0.0.1:5000/hooks/'"$CLIENT_ID"'/activity?clientId='"$CLIENT_ID"`);
  expect(cb.curl).toContain(`--data-urlencode 'clientId='"$CLIENT_ID"`);
  for (const x of [edit, cb]) expect(JSON.stringify(x)).not.toContain(CID);
});

test('a host or word that a secret contains or begins with is never blacked out, not even at the cut of a capped body', () => {
  const r = new Redactor();
  r.add('clientId', '127.0.0.1-account-7f3a9c');
  r.add('apiKey', 'localhost:8080/key-9d2e41');
  r.add('botToken', 'localhostx9f2k1');
  const line = 'GET http://127.0.0.1:4000/x from localhost (127.0.0.1, localhost:8080)';
  expect(r.text(line)).toBe(line);
  expect(r.url('http://127.0.0.1:4000/127.0.0.1/localhost?h=127.0.0.1&l=localhost')).toBe('http://127.0.0.1:4000/127.0.0.1/localhost?h=127.0.0.1&l=localhost');
  // A capped body whose last word is the host, which the secret begins with: kept.
  const log = new EvidenceLog(r, 't');
  for (const end of [' http://127.0.0.1', ' from localhost', ' at localhost:8080']) {
    const pad = 'x'.repeat(RECORDED_BODY_LIMIT - end.length);
    const x = log.record({
      direction: 'module->system', label: 'x', startedAt: new Date(), durationMs: 1,
      request: { method: 'POST', url: 'http://127.0.0.1:1/', headers: { 'content-type': 'text/plain' }, body: `${pad}${end} and more` },
    });
    expect(x.request.truncated).toBe(true);
    expect(x.request.body!.endsWith(end), end).toBe(true);
  }
  // The whole secret is still replaced, in text and in a URL.
  expect(r.text('id 127.0.0.1-account-7f3a9c used')).toBe('id <redacted:clientId> used');
  expect(r.url('http://127.0.0.1:1/x?clientId=127.0.0.1-account-7f3a9c')).toBe('http://127.0.0.1:1/x?clientId=<redacted:clientId>');
});

test('short secrets are redacted by the name of the field that carries them, never by value anywhere', () => {
  const r = new Redactor();
  r.add('clientId', 'c7');
  r.add('apiKey', 'test');
  const log = new EvidenceLog(r, 't');
  const boundary = 'B0undary';
  const x = log.record({
    direction: 'system->module', label: 'activity', startedAt: new Date(), durationMs: 1,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/c7/activity?clientId=c7&apiKey=test&page=c7&q=test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ clientId: 'c7', activity: JSON.stringify({ active: true, clientId: 'c7', code: 'c7', note: 'a test' }), other: 'c7' }),
    },
    response: { status: 200, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: [`--${boundary}`, 'Content-Disposition: form-data; name="clientId"', '', 'c7', `--${boundary}`, 'Content-Disposition: form-data; name="code"', '', 'c7', `--${boundary}--`, ''].join('\r\n') },
  });
  expect(x.request.url).toBe('http://127.0.0.1:1/c7/activity?clientId=<redacted:clientId>&apiKey=<redacted:apiKey>&page=c7&q=test');
  const f = new URLSearchParams(x.request.body!);
  expect(f.get('clientId')).toBe('<redacted:clientId>');
  expect(f.get('other')).toBe('c7');
  expect(JSON.parse(f.get('activity')!)).toEqual({ active: true, clientId: '<redacted:clientId>', code: 'c7', note: 'a test' });
  expect(x.response!.body).toContain('name="clientId"\r\n\r\n<redacted:clientId>\r\n');
  expect(x.response!.body).toContain('name="code"\r\n\r\nc7\r\n');
  expect(x.curl).toContain(`--data-urlencode 'clientId='"$CLIENT_ID"`);
  // Free text keeps short words: a 2-character clientId or a 4-character key would black out half a report.
  expect(r.text('test c7 abc7 "c7" clientId=c7 a test run')).toBe('test c7 abc7 "c7" clientId=c7 a test run');
  // A value of a secret field that is no known secret (a probe's unknown clientId) stays readable.
  expect(r.form('clientId=unknown-1a2b')).toBe('clientId=unknown-1a2b');
});
