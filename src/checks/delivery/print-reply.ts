/**
 * The answer of a delivery module to `print` (document, Calls from the system to a delivery
 * module: "Module returns a pdf as bytes, or a zip with Content-Type `application/zip`"; Errors
 * 3: "A print callback that must show a message answers HTTP 400 with the standard error body";
 * wire profile section 1: `application/pdf`, or `application/zip` for several files).
 *
 * A document is judged by its structure, not its first bytes: a PDF has the `%PDF-` header, a
 * `startxref` whose offset points at a cross-reference table (`xref`) or stream (`n g obj`), and
 * the `%%EOF` trailer; a ZIP has its end-of-central-directory record, a central directory whose
 * entries each point at a local file header, and every entry (stored or deflated) is a PDF.
 *
 * `deliveryIds` comes nested (`[["id", ...]]`, the form the platform sends) or flat (`["id"]`);
 * "modules should *accept* both" (wire profile section 2), so each form is judged on its own
 * (ensurePrintAcceptsNestedDeliveryIds, ensurePrintAcceptsFlatDeliveryIds; SHOULD, by the
 * word). A print of existing deliveries refused is a failure to accept its form, not a print
 * error: the error rules keep what they find wrong in such a refusal, but never credit it
 * (`creditsCalledForErrorsOnly`).
 */
import { refusesTheMethod } from '../callbacks/method.ts';
import zlib from 'node:zlib';
import type { Reply } from '../../client/callback-client.ts';
import { defineCheck, fail, notApplicable, pass, show, type Check, type Verdict } from '../check.ts';
import { describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

/** A print answer that is an error: a status of 300 and above, or a JSON body `{success: false}`. */
export function isPrintError(reply: Reply): boolean {
  if (reply.status === undefined) return false;
  if (reply.status >= 300) return true;
  const j = reply.json;
  return !!j && typeof j === 'object' && !Array.isArray(j) && (j as { success?: unknown }).success === false;
}

/** A print answer that claims to be the document: 2xx and not an error body. */
export const isPrintDocument = (reply: Reply): boolean => reply.status !== undefined && reply.status >= 200 && reply.status < 300 && !isPrintError(reply);

/** What is wrong with a PDF's structure, or undefined when it holds. */
export function pdfProblem(b: Buffer): string | undefined {
  if (b.subarray(0, 5).toString('latin1') !== '%PDF-') return `it does not begin with %PDF- (${show(b.subarray(0, 8).toString('latin1'))})`;
  const tail = b.subarray(Math.max(0, b.length - 1024)).toString('latin1');
  if (!/%%EOF\s*$/.test(tail)) return 'no %%EOF trailer at its end';
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) return 'no startxref (with the offset of its cross-reference) before %%EOF';
  const offset = Number(m[1]);
  if (!(offset > 0 && offset < b.length)) return `startxref ${offset} is outside the file (${b.length} bytes)`;
  const at = b.subarray(offset, offset + 40).toString('latin1');
  if (!/^xref\s/.test(at) && !/^\d+\s+\d+\s+obj\b/.test(at)) return `startxref ${offset} points at ${show(at.slice(0, 20))}, not at a cross-reference table (xref) or stream`;
  return undefined;
}

/** What is wrong with a ZIP of PDFs, or undefined when it holds; `entries`: how many it has. */
export function zipProblem(b: Buffer): { problem?: string; entries: number } {
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > b.length) return { problem: 'no end-of-central-directory record', entries: 0 };
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  if (count === 0) return { problem: 'its central directory lists no document', entries: 0 };
  let documents = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== 0x02014b50) return { problem: `central directory entry ${i} is missing (no header at ${at})`, entries: i };
    const method = b.readUInt16LE(at + 10);
    const size = b.readUInt32LE(at + 20);
    const nameLength = b.readUInt16LE(at + 28);
    const extraLength = b.readUInt16LE(at + 30);
    const commentLength = b.readUInt16LE(at + 32);
    const local = b.readUInt32LE(at + 42);
    const name = b.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (local + 30 > b.length || b.readUInt32LE(local) !== 0x04034b50) return { problem: `entry ${show(name)} has no local file header at ${local}`, entries: i };
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + size);
    let data: Buffer;
    try {
      if (method === 0) data = raw;
      else if (method === 8) data = zlib.inflateRawSync(raw);
      else return { problem: `entry ${show(name)} uses compression method ${method} (stored or deflated expected)`, entries: i };
    } catch (e) {
      return { problem: `entry ${show(name)} does not inflate: ${(e as Error).message}`, entries: i };
    }
    const p = pdfProblem(data);
    if (p) return { problem: `entry ${show(name)} is not a PDF: ${p}`, entries: i };
    documents += 1;
  }
  if (documents === 0) return { problem: 'it holds no document, only folders', entries: 0 };
  return { entries: documents };
}

/** Which document the bytes claim to be, by their first bytes. */
export const documentKind = (b: Buffer): 'pdf' | 'zip' | undefined => (b.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : b.length >= 4 && b.readUInt32LE(0) === 0x04034b50 ? 'zip' : undefined);

const mediaType = (reply: Reply): string => (reply.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

function notADocument(o: CaseOutcome): Verdict | undefined {
  if (!isPrintDocument(o.reply)) return notApplicable(`the module did not answer with a document (${describeReply(o.reply)})`);
  return undefined;
}

/** A print answers the document: a PDF, or a ZIP of PDFs, whole in their structure. */
export const ensurePrintAnswersPdfOrZip = defineCheck<CaseOutcome>({
  name: 'ensurePrintAnswersPdfOrZip',
  checks: 'print answers a PDF (header, cross-reference, startxref, %%EOF) or a ZIP whose entries are PDFs',
  run(o) {
    const na = notADocument(o);
    if (na) return na;
    const evidence = [o.reply.exchange.id];
    const body = o.reply.body;
    const kind = documentKind(body);
    const expected = 'a PDF, or a ZIP of PDFs (document: "a pdf as bytes, or a zip"), whole in its structure';
    if (kind === 'pdf') {
      const p = pdfProblem(body);
      return p ? fail(`a PDF of ${body.length} bytes: ${p}`, expected, evidence) : pass(`a PDF of ${body.length} bytes`, evidence);
    }
    if (kind === 'zip') {
      const z = zipProblem(body);
      return z.problem ? fail(`a ZIP of ${body.length} bytes: ${z.problem}`, expected, evidence) : pass(`a ZIP of ${z.entries} PDF(s)`, evidence);
    }
    return fail(`${describeReply(o.reply)}: neither a PDF nor a ZIP`, expected, evidence);
  },
});

/** The Content-Type of a printed document says what it is: `application/pdf` or `application/zip`. */
export const ensurePrintContentTypeMatches = defineCheck<CaseOutcome>({
  name: 'ensurePrintContentTypeMatches',
  checks: 'the Content-Type of a printed document is application/pdf for a PDF, application/zip for a ZIP',
  run(o) {
    const na = notADocument(o);
    if (na) return na;
    const kind = documentKind(o.reply.body);
    if (!kind) return notApplicable('the body is neither a PDF nor a ZIP (the document rule judges it)');
    const want = kind === 'pdf' ? 'application/pdf' : 'application/zip';
    const got = mediaType(o.reply);
    if (got !== want) return fail(`a ${kind.toUpperCase()} sent as ${show(o.reply.headers['content-type'] ?? 'no Content-Type')}`, `Content-Type ${want} (wire profile section 1)`, [o.reply.exchange.id]);
    return pass(`a ${kind.toUpperCase()} as ${want}`, [o.reply.exchange.id]);
  },
});

/** An error of print is HTTP 400 (with the error body, judged by the error rules). */
export const ensurePrintErrorIs400 = defineCheck<CaseOutcome>({
  name: 'ensurePrintErrorIs400',
  checks: 'an error of print is answered with HTTP 400',
  run(o) {
    if (!isPrintError(o.reply)) return notApplicable(`no error answer (${describeReply(o.reply)})`);
    if (refusesTheMethod(o.reply)) return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
    const evidence = [o.reply.exchange.id];
    if (o.reply.status !== 400) return fail(describeReply(o.reply), 'HTTP 400 with the error body (document, Errors 3)', evidence);
    return pass(describeReply(o.reply), evidence);
  },
});

/** True when the case asks with `deliveryIds` flat (`["id", ...]`), not nested. */
const flatIds = (o: CaseOutcome): boolean => {
  const ids = (o.case.payload as { deliveryIds?: unknown } | undefined)?.deliveryIds;
  return Array.isArray(ids) && ids.length > 0 && ids.every((x) => typeof x === 'string');
};

/** True when the case asks with `deliveryIds` nested (`[["id", ...]]`), as the platform sends them. */
const nestedIds = (o: CaseOutcome): boolean => {
  const ids = (o.case.payload as { deliveryIds?: unknown } | undefined)?.deliveryIds;
  return Array.isArray(ids) && ids.length > 0 && ids.every((x) => Array.isArray(x) && x.length > 0 && x.every((y) => typeof y === 'string'));
};

/**
 * A valid print of existing deliveries with `deliveryIds` in one form is answered with the
 * document (wire profile section 2: the platform *sends* them nested; modules should *accept* both).
 */
function ensurePrintAccepts(form: 'Nested' | 'Flat', inForm: (o: CaseOutcome) => boolean, expected: string): Check<CaseOutcome> {
  const other = form === 'Nested' ? 'flat' : 'nested';
  return defineCheck<CaseOutcome>({
    name: `ensurePrintAccepts${form}DeliveryIds`,
    checks: `print of existing deliveries with deliveryIds ${form === 'Nested' ? 'nested ([["id"]], the form the platform sends)' : 'flat (["id"])'} is answered with the document${form === 'Flat' ? ', as with nested ids' : ''}`,
    run(o) {
      if (o.case.intent.kind !== 'valid' || !inForm(o)) return notApplicable(`deliveryIds ${other}, or not existing deliveries`);
      if (o.reply.status === undefined) return notApplicable(`no answer (${describeReply(o.reply)})`);
      if (refusesTheMethod(o.reply)) return notApplicable(`the method is not served (${describeReply(o.reply)}): ensureActionServedAtItsMethod's`);
      const evidence = [o.reply.exchange.id];
      const ids = show((o.case.payload as { deliveryIds: unknown }).deliveryIds);
      if (!isPrintDocument(o.reply)) return fail(`deliveryIds ${ids}${form === 'Nested' ? ' (nested, as the platform sends them)' : ''}: ${describeReply(o.reply)}`, expected, evidence);
      return pass(`${form === 'Nested' ? 'nested' : 'flat'} deliveryIds printed`, evidence);
    },
  });
}

/** Nested, the form the platform sends. */
export const ensurePrintAcceptsNestedDeliveryIds = ensurePrintAccepts('Nested', (o) => nestedIds(o), 'the document: the platform sends deliveryIds nested, and modules should accept both forms (wire profile section 2)');

/**
 * An error rule of print that credits only the errors the documents call for: on a print of
 * existing deliveries (a valid case) an error answer is a refusal of its form (the accept rules'),
 * so a pass there becomes not applicable; what the rule finds wrong in it still fails.
 */
export function creditsCalledForErrorsOnly(check: Check<CaseOutcome>): Check<CaseOutcome> {
  return {
    ...check,
    async run(o) {
      const v = await check.run(o);
      if (v.outcome !== 'pass' || o.case.intent.kind !== 'valid' || isPrintDocument(o.reply)) return v;
      return notApplicable(`a print of existing deliveries (deliveryIds ${nestedIds(o) ? 'nested' : flatIds(o) ? 'flat' : 'of another form'}) was refused (${describeReply(o.reply)}): no error was called for, so it is no print error to credit; ensurePrintAccepts${nestedIds(o) ? 'Nested' : 'Flat'}DeliveryIds judges it`);
    },
  };
}

/** Flat, the form the client library types (wire profile section 2: accept both). */
export const ensurePrintAcceptsFlatDeliveryIds = ensurePrintAccepts('Flat', (o) => flatIds(o), 'the document: modules should accept deliveryIds flat and nested (wire profile section 2)');
