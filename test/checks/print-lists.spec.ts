/** The print and list rules of delivery on canned replies: what each passes, fails and leaves to another rule. */
import { test, expect } from '@playwright/test';
import type { Reply } from '../../src/client/callback-client.ts';
import type { Exchange } from '../../src/evidence/exchange.ts';
import type { CaseOutcome } from '../../src/checks/case.ts';
import type { CallbackName } from '../../src/callbacks/table.ts';
import { ensurePrintAcceptsFlatDeliveryIds, ensurePrintAcceptsNestedDeliveryIds, ensurePrintAnswersPdfOrZip, ensurePrintContentTypeMatches, ensurePrintErrorIs400, pdfProblem, zipProblem } from '../../src/checks/delivery/print-reply.ts';
import { ensureAutocompleteAnswersSuggestions, ensureShipmentPointListAnswersTerminals, ensureTariffListAnswersTariffs, ensureTerminalsMatchTerminalShape } from '../../src/checks/delivery/lists-reply.ts';
import { buildPdf, buildZip } from '../../examples/reference-module/documents.ts';
import { propertyChecks } from '../../src/properties/registry.ts';
import { PRINT } from '../../src/checks/delivery/applications.ts';

const run = async (check: { run(o: CaseOutcome): unknown }, o: CaseOutcome) => (await check.run(o)) as { outcome: string; received?: string };

function bytes(callback: CallbackName, status: number, contentType: string, body: Buffer): CaseOutcome {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  const reply: Reply = { exchange: { id: 'x1' } as Exchange, status, headers: { 'content-type': contentType }, body, ...(json !== undefined ? { json } : {}) };
  return { case: { callback, payload: {}, intent: { kind: 'valid' } }, reply, module: {}, profile: true };
}
const json = (callback: CallbackName, status: number, body: unknown): CaseOutcome => bytes(callback, status, 'application/json', Buffer.from(JSON.stringify(body)));

const PDF = buildPdf([{ title: 'Label', lines: ['D-1'] }]);
const ZIP = buildZip([{ name: 'a.pdf', data: PDF }, { name: 'b.pdf', data: PDF }]);
const noXref = (pdf: Buffer): Buffer => {
  const t = pdf.toString('latin1');
  return Buffer.from(t.slice(0, t.lastIndexOf('xref\n0 ')) + t.slice(t.lastIndexOf('trailer\n')).replace(/startxref\n\d+\n/, ''), 'latin1');
};

test('a PDF is judged by its structure: header, startxref at a cross-reference, %%EOF', () => {
  expect(pdfProblem(PDF)).toBeUndefined();
  expect(pdfProblem(noXref(PDF))).toContain('startxref');
  expect(pdfProblem(Buffer.from('%PDF-1.4\nnothing else'))).toContain('%%EOF');
  expect(pdfProblem(Buffer.from('%PDF-1.4\nstartxref\n3\n%%EOF\n'))).toContain('not at a cross-reference');
  expect(pdfProblem(Buffer.from('PK\x03\x04'))).toContain('%PDF-');
});

test('a ZIP is judged by its central directory and its entries, each a PDF', () => {
  expect(zipProblem(ZIP)).toEqual({ entries: 2 });
  expect(zipProblem(buildZip([{ name: 'a.txt', data: Buffer.from('hello') }])).problem).toContain('not a PDF');
  expect(zipProblem(ZIP.subarray(0, ZIP.length - 22)).problem).toContain('end-of-central-directory');
  expect(zipProblem(buildZip([{ name: 'a.pdf', data: noXref(PDF) }])).problem).toContain('startxref');
});

test('the print document rule and the Content-Type rule', async () => {
  expect((await run(ensurePrintAnswersPdfOrZip, bytes('delivery.print', 200, 'application/pdf', PDF))).outcome).toBe('pass');
  expect((await run(ensurePrintAnswersPdfOrZip, bytes('delivery.print', 200, 'application/zip', ZIP))).outcome).toBe('pass');
  expect((await run(ensurePrintAnswersPdfOrZip, bytes('delivery.print', 200, 'application/pdf', noXref(PDF)))).outcome).toBe('fail');
  expect((await run(ensurePrintAnswersPdfOrZip, json('delivery.print', 200, { success: true }))).outcome).toBe('fail');
  expect((await run(ensurePrintContentTypeMatches, bytes('delivery.print', 200, 'application/pdf; charset=binary', PDF))).outcome).toBe('pass');
  expect((await run(ensurePrintContentTypeMatches, bytes('delivery.print', 200, 'application/pdf', ZIP))).outcome).toBe('fail');
  expect((await run(ensurePrintContentTypeMatches, bytes('delivery.print', 200, 'application/octet-stream', PDF))).outcome).toBe('fail');
  // Neither document: the document rule's, not the Content-Type rule's.
  expect((await run(ensurePrintContentTypeMatches, bytes('delivery.print', 200, 'text/plain', Buffer.from('hello')))).outcome).toBe('notApplicable');
  // An error is not a document to judge.
  expect((await run(ensurePrintAnswersPdfOrZip, json('delivery.print', 400, { success: false, errorMsg: 'unknown' }))).outcome).toBe('notApplicable');
});

test('a print error is HTTP 400; the error-form rules of print leave a document answer alone', async () => {
  expect((await run(ensurePrintErrorIs400, json('delivery.print', 400, { success: false, errorMsg: 'deliveryIds: unknown' }))).outcome).toBe('pass');
  expect((await run(ensurePrintErrorIs400, json('delivery.print', 200, { success: false, errorMsg: 'deliveryIds: unknown' }))).outcome).toBe('fail');
  expect((await run(ensurePrintErrorIs400, json('delivery.print', 404, { success: false, errorMsg: 'x' }))).outcome).toBe('fail');
  expect((await run(ensurePrintErrorIs400, bytes('delivery.print', 200, 'application/pdf', PDF))).outcome).toBe('notApplicable');
  for (const c of propertyChecks(PRINT, true).filter((c) => c.check !== ensurePrintAnswersPdfOrZip && c.check !== ensurePrintContentTypeMatches && c.check !== ensurePrintAcceptsFlatDeliveryIds && c.check.name !== 'ensureCallbackIsAnswered' && c.check.name !== 'ensureActionServedAtItsMethod')) {
    expect((await run(c.check, bytes('delivery.print', 200, 'application/pdf', PDF))).outcome, c.check.name).toBe('notApplicable');
  }
});

test('tariffList: an array of {code, name, description, type}', async () => {
  const t = { code: 'std', name: 'Standard', description: 'two days', type: 'courier' };
  expect((await run(ensureTariffListAnswersTariffs, json('delivery.tariffList', 200, { success: true, result: [t] }))).outcome).toBe('pass');
  expect((await run(ensureTariffListAnswersTariffs, json('delivery.tariffList', 200, { success: true, result: { tariffs: [t] } }))).outcome).toBe('fail');
  expect((await run(ensureTariffListAnswersTariffs, json('delivery.tariffList', 200, { success: true, result: [{ name: 'no code' }] }))).outcome).toBe('fail');
  expect((await run(ensureTariffListAnswersTariffs, json('delivery.tariffList', 400, { success: false, errorMsg: 'x' }))).outcome).toBe('notApplicable');
});

test('shipmentPointList: the list rule and the terminal rule, one cause one failure', async () => {
  const terminal = { code: 'B1', name: 'Berlin', address: 'Street 1', coordinates: { latitude: 52.5, longitude: 13.4 }, extraData: [] };
  const ok = json('delivery.shipmentPointList', 200, { success: true, result: [terminal] });
  expect((await run(ensureShipmentPointListAnswersTerminals, ok)).outcome).toBe('pass');
  expect((await run(ensureTerminalsMatchTerminalShape, ok)).outcome).toBe('pass');
  const keyed = json('delivery.shipmentPointList', 200, { success: true, result: { B1: terminal } });
  expect((await run(ensureShipmentPointListAnswersTerminals, keyed)).outcome).toBe('fail');
  expect((await run(ensureTerminalsMatchTerminalShape, keyed)).outcome).toBe('notApplicable');
  const text = json('delivery.shipmentPointList', 200, { success: true, result: [{ ...terminal, coordinates: { latitude: '52.5', longitude: '13.4' } }] });
  expect((await run(ensureShipmentPointListAnswersTerminals, text)).outcome).toBe('pass');
  expect((await run(ensureTerminalsMatchTerminalShape, text)).outcome).toBe('fail');
  expect((await run(ensureTerminalsMatchTerminalShape, json('delivery.shipmentPointList', 200, { success: true, result: [] }))).outcome).toBe('notApplicable');
});

test('autocomplete: suggestions {value, label, description}, one suggestion accepted too', async () => {
  expect((await run(ensureAutocompleteAnswersSuggestions, json('delivery.autocomplete', 200, { success: true, result: [{ value: 'B1', label: 'Berlin' }] }))).outcome).toBe('pass');
  expect((await run(ensureAutocompleteAnswersSuggestions, json('delivery.autocomplete', 200, { success: true, result: { value: 1, label: 'one' } }))).outcome).toBe('pass');
  expect((await run(ensureAutocompleteAnswersSuggestions, json('delivery.autocomplete', 200, { success: true, result: ['Berlin'] }))).outcome).toBe('fail');
});

test('flat deliveryIds: a valid print asked flat is printed; nested or wrong cases are not this rule\'s', async () => {
  const asked = (o: CaseOutcome, deliveryIds: unknown, kind: 'valid' | 'wrong' = 'valid'): CaseOutcome => ({ ...o, case: { callback: 'delivery.print', payload: { entityType: 'order', type: 'label', deliveryIds }, intent: kind === 'valid' ? { kind } : { kind, field: 'deliveryIds', why: 'unknown' } } });
  const refused = json('delivery.print', 400, { success: false, errorMsg: 'deliveryIds[0] must be an array' });
  expect((await run(ensurePrintAcceptsFlatDeliveryIds, asked(bytes('delivery.print', 200, 'application/pdf', PDF), ['D1']))).outcome).toBe('pass');
  expect((await run(ensurePrintAcceptsFlatDeliveryIds, asked(refused, ['D1']))).outcome).toBe('fail');
  expect((await run(ensurePrintAcceptsFlatDeliveryIds, asked(refused, [['D1']]))).outcome).toBe('notApplicable');
  expect((await run(ensurePrintAcceptsFlatDeliveryIds, asked(refused, ['NO-SUCH'], 'wrong'))).outcome).toBe('notApplicable');
});

test('nested deliveryIds (the platform\'s form): a valid print asked nested and refused fails the nested rule (SHOULD), and no print error rule credits the refusal; the flat form is judged on its own', async () => {
  const asked = (o: CaseOutcome, deliveryIds: unknown, kind: 'valid' | 'wrong' = 'valid'): CaseOutcome => ({ ...o, case: { callback: 'delivery.print', payload: { entityType: 'order', type: 'label', deliveryIds }, intent: kind === 'valid' ? { kind } : { kind, field: 'deliveryIds', why: 'unknown' } } });
  const refused = json('delivery.print', 400, { success: false, errorMsg: 'deliveryIds[0] must be a string' });
  const printed = bytes('delivery.print', 200, 'application/pdf', PDF);
  expect((await run(ensurePrintAcceptsNestedDeliveryIds, asked(printed, [['D1']]))).outcome).toBe('pass');
  expect((await run(ensurePrintAcceptsNestedDeliveryIds, asked(refused, [['D1']]))).outcome).toBe('fail');
  expect((await run(ensurePrintAcceptsNestedDeliveryIds, asked(refused, ['D1']))).outcome).toBe('notApplicable');
  expect((await run(ensurePrintAcceptsNestedDeliveryIds, asked(refused, [['NO-SUCH']], 'wrong'))).outcome).toBe('notApplicable');
  // A module that refuses nested and prints flat: the flat rule passes on its own.
  expect((await run(ensurePrintAcceptsFlatDeliveryIds, asked(printed, ['D1']))).outcome).toBe('pass');
  const checks = propertyChecks(PRINT, true);
  const severity = (name: string) => checks.find((c) => c.check.name === name)?.app.severity;
  expect(severity('ensurePrintAcceptsNestedDeliveryIds')).toBe('SHOULD');
  // The print error rules: the refusal of existing deliveries is credited by none (not applicable), a wrong case's refusal is.
  for (const c of checks.filter((c) => c.app.requirements.includes('DLV-PRINT-ERROR-400') || c.check.name.startsWith('ensureError'))) {
    expect((await run(c.check, asked(refused, [['D1']]))).outcome, `${c.check.name} on a refused nested print of existing deliveries`).toBe('notApplicable');
    expect((await run(c.check, asked(refused, ['D1']))).outcome, `${c.check.name} on a refused flat print of existing deliveries`).toBe('notApplicable');
    expect((await run(c.check, asked(refused, [['NO-SUCH']], 'wrong'))).outcome, `${c.check.name} on a refused print of an unknown delivery`).toBe('pass');
  }
  // What the error rules find wrong in such a refusal still fails: a 5xx, an error answered 200.
  const is400 = checks.find((c) => c.check.name === 'ensurePrintErrorIs400')!.check;
  const not5xx = checks.find((c) => c.check.name === 'ensureErrorStatusIsNot5xx')!.check;
  expect((await run(is400, asked(json('delivery.print', 200, { success: false, errorMsg: 'x' }), [['D1']]))).outcome).toBe('fail');
  expect((await run(not5xx, asked(json('delivery.print', 500, { success: false, errorMsg: 'x' }), [['D1']]))).outcome).toBe('fail');
});
