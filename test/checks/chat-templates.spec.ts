/**
 * The template checks on canned template calls and steps: each breach owned by exactly one
 * check, what a correct module sends passes, and a call nothing exercised is not applicable.
 */
import { test, expect } from '@playwright/test';
import type { TemplateCallView, TemplateStepView, TemplateSubject } from '../../src/checks/chat/template-views.ts';
import { offRouteCallOf } from '../../src/checks/chat/template-views.ts';
import { TEMPLATE_CALL_ROWS, TEMPLATE_STEP_USES } from '../../src/checks/chat/applications.ts';
import { judgeReport, judgeUpdate, type TemplateState, type VerificationStatus } from '../../src/contract/template-machine.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';

const ALL = [...TEMPLATE_STEP_USES, ...TEMPLATE_CALL_ROWS].map((c) => c.check);
let n = 0;

/** A PUT of a template in `from`, judged (and refused) as the gateway does. */
function put(from: VerificationStatus, payload: Record<string, unknown>, code = 'tpl_1'): TemplateCallView {
  const j = judgeUpdate(from, payload);
  const refused = j.breaches.some((b) => b.refuse);
  return { exchange: `x${++n}`, method: 'PUT', path: `/channels/1/templates/${code}`, kind: 'update', channelId: 1, code, status: refused ? 400 : 200, accepted: !refused, payload, schemaErrors: [], judgement: { kind: 'update', channelId: 1, code, from, ...(j.to ? { to: j.to } : {}), breaches: j.breaches } };
}
function post(payload: Record<string, unknown>, schemaErrors: TemplateCallView['schemaErrors'] = []): TemplateCallView {
  const j = judgeReport(payload);
  const refused = j.breaches.some((b) => b.refuse);
  const code = typeof payload.code === 'string' ? payload.code : undefined;
  return { exchange: `x${++n}`, method: 'POST', path: '/channels/1/templates', kind: 'report', channelId: 1, ...(code ? { code } : {}), status: refused ? 400 : 200, accepted: !refused, payload, schemaErrors, judgement: { kind: 'report', channelId: 1, code: code ?? '', from: 'new', ...(j.to ? { to: j.to } : {}), breaches: j.breaches } };
}
const verdictStep = (verdict: 'approved' | 'rejected', calls: TemplateCallView[], before: TemplateState = 'pending'): TemplateSubject => {
  const step: TemplateStepView = { op: 'verdict', channelId: 1, code: 'tpl_1', before, asked: { verdict }, trigger: { exchange: 't1', status: 200 }, calls, waitedMs: 5 };
  return { calls, step };
};
const reportStep = (calls: TemplateCallView[], code = 'prov_1'): TemplateSubject => ({ calls, step: { op: 'report', channelId: 1, code, before: 'new', report: { code, status: 'approved' }, trigger: { exchange: 't2', status: 200 }, calls, waitedMs: 5 } });
const verdicts = async (s: TemplateSubject): Promise<Record<string, string>> => Object.fromEntries(await Promise.all(ALL.map(async (c) => [c.name, (await c.run(s)).outcome])));
const failing = async (s: TemplateSubject): Promise<string[]> => Object.entries(await verdicts(s)).filter(([, v]) => v === 'fail').map(([k]) => k);
const body = (status: string, extra: Record<string, unknown> = {}) => ({ name: 'order_ready', body: 'Hi {{1}}', verification_status: status, ...extra });

test('a correct verdict passes the table, the report and the values; nothing fails', async () => {
  const s = verdictStep('rejected', [put('pending', body('rejected', { rejection_reason: 'scam', buttons: { items: [{ type: 'url', label: 'Go', url: 'https://x/{{1}}' }] } }))]);
  expect(await failing(s)).toEqual([]);
  const v = await verdicts(s);
  for (const name of ['ensureTemplateVerdictFollowsTable', 'ensureTemplateVerdictIsReported', 'ensureTemplateVerificationStatusIsKnown', 'ensureTemplateRejectionReasonIsKnown', 'ensureTemplateUpdateCarriesFields', 'ensureTemplateUrlButtonsHaveUrl', 'ensureTemplateCallsAreAccepted']) expect(v[name], name).toBe('pass');
  expect(v.ensureTemplateQualityIsKnown).toBe('notApplicable');
  expect(v.ensureTemplateReportIsPosted).toBe('notApplicable');
});

test('each breach of a verdict fails its own check alone', async () => {
  expect(await failing(verdictStep('rejected', [put('pending', body('declined'))]))).toEqual(['ensureTemplateVerificationStatusIsKnown']);
  expect(await failing(verdictStep('rejected', [put('pending', body('rejected', { rejection_reason: 'spam' }))]))).toEqual(['ensureTemplateRejectionReasonIsKnown']);
  expect(await failing(verdictStep('rejected', [put('pending', body('rejected', { quality: 'excellent' }))]))).toEqual(['ensureTemplateQualityIsKnown']);
  expect(await failing(verdictStep('rejected', [put('pending', { body: 'b', verification_status: 'rejected' })]))).toEqual(['ensureTemplateUpdateCarriesFields']);
  // Rejected, then approved without resubmission: the second PUT is refused for the table.
  expect(await failing(verdictStep('rejected', [put('pending', body('rejected')), put('rejected', body('approved'))]))).toEqual(['ensureTemplateVerdictFollowsTable']);
  // The other verdict than the provider's.
  expect(await failing(verdictStep('rejected', [put('pending', body('approved'))]))).toEqual(['ensureTemplateVerdictFollowsTable']);
  // Nothing reported.
  expect(await failing(verdictStep('rejected', []))).toEqual(['ensureTemplateVerdictIsReported']);
  // An unknown template (404): the refusal's, not the report's.
  const unknown: TemplateCallView = { exchange: 'x404', method: 'PUT', path: '/channels/1/templates/tpl_1_x', kind: 'update', channelId: 1, code: 'tpl_1_x', status: 404, accepted: false, payload: body('rejected'), schemaErrors: [], judgement: { kind: 'update', channelId: 1, code: 'tpl_1_x', from: 'new', breaches: [] } };
  expect(await failing(verdictStep('rejected', [unknown]))).toEqual(['ensureTemplateCallsAreAccepted']);
});

test('a verdict by POST (405, an unknown endpoint) fails the table alone; approved templates may be reported in any state', async () => {
  const x = { id: 'x405', direction: 'module->gateway', label: 'unknown endpoint', startedAt: new Date().toISOString(), durationMs: 1, request: { method: 'POST', url: 'http://127.0.0.1:1/api/transport/v1/channels/1/templates/tpl_1', headers: {}, body: JSON.stringify(body('rejected')), bytes: 10 }, response: { status: 405, headers: {}, bytes: 10 } } as Exchange;
  const off = offRouteCallOf(x)!;
  expect(off).toMatchObject({ kind: 'offRoute', code: 'tpl_1', channelId: 1, status: 405 });
  expect(await failing(verdictStep('rejected', [off]))).toEqual(['ensureTemplateVerdictFollowsTable']);
  expect(offRouteCallOf({ ...x, request: { ...x.request, url: 'http://127.0.0.1:1/api/transport/v1/channels' } })).toBeUndefined();
  // Transition from approved: not shown, never a failure (outside a step: nothing asked).
  expect(await failing({ calls: [put('approved', body('rejected', { rejection_reason: 'scam' }))] })).toEqual([]);
});

test("a provider's template: reported by POST passes; by PUT, with 11 quick replies, an unknown button or attachment type, a url button without url, without code, with header and attachments each fail their own check", async () => {
  const ok = { code: 'prov_1', name: 'n', type: 'text', body: 'b', verification_status: 'approved' };
  expect(await failing(reportStep([post(ok)]))).toEqual([]);
  expect((await verdicts(reportStep([post(ok)]))).ensureTemplateReportIsPosted).toBe('pass');
  const byPut: TemplateCallView = { exchange: 'xp', method: 'PUT', path: '/channels/1/templates/prov_1', kind: 'update', channelId: 1, code: 'prov_1', status: 404, accepted: false, payload: ok, schemaErrors: [], judgement: { kind: 'update', channelId: 1, code: 'prov_1', from: 'new', breaches: [] } };
  expect(await failing(reportStep([byPut]))).toEqual(['ensureTemplateReportIsPosted']);
  expect(await failing(reportStep([]))).toEqual(['ensureTemplateReportIsPosted']);
  const plain = Array.from({ length: 11 }, (_, i) => ({ type: 'plain', label: `r${i}` }));
  expect(await failing(reportStep([post({ ...ok, buttons: { items: plain } }, [{ instancePath: '/buttons/items', keyword: 'contains', params: { maxContains: 10 } }])]))).toEqual(['ensureTemplateQuickRepliesWithinLimit']);
  expect(await failing(reportStep([post({ ...ok, buttons: { items: [{ type: 'link', label: 'l' }] } }, [{ instancePath: '/buttons/items/0/type', keyword: 'enum', params: {} }])]))).toEqual(['ensureTemplateButtonTypesAreKnown']);
  expect(await failing(reportStep([post({ ...ok, buttons: { items: [{ type: 'url', label: 'l' }] } }, [{ instancePath: '/buttons/items/0', keyword: 'required', params: { missingProperty: 'url' } }, { instancePath: '/buttons/items/0', keyword: 'if', params: {} }])]))).toEqual(['ensureTemplateUrlButtonsHaveUrl']);
  expect(await failing(reportStep([post({ ...ok, attachments: { type: 'audio' } }, [{ instancePath: '/attachments/type', keyword: 'enum', params: {} }])]))).toEqual(['ensureTemplateAttachmentTypesAreKnown']);
  const { code: _c, ...noCode } = ok;
  expect(await failing(reportStep([post(noCode)]))).toEqual(['ensureTemplateReportCarriesFields']);
  expect(await failing(reportStep([post({ ...ok, header: { content: { type: 'text', body: 'h' } }, attachments: { type: 'image' } }, [{ instancePath: '', keyword: 'not', params: {} }])]))).toEqual(['ensureTemplateCallMatchesSchema']);
});

test('no template call at all: every check not applicable (session judgement of a module without templates)', async () => {
  const v = await verdicts({ calls: [] });
  expect(Object.values(v).every((o) => o === 'notApplicable')).toBe(true);
});
