import { defineCheck, fail, notApplicable, pass, show } from '../check.ts';
import type { SchemaSubject } from '../schema-rule.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every call of a calls upload (`POST /api/v5/telephony/calls/upload`, form field `calls`)
 * has its `recordUrl` (document: "`calls[]`, at most 50 per request; each has `recordUrl`";
 * "Call history record: has `recordUrl`"). JSON null counts as absent (wire profile section 9).
 * Its form (an absolute URL) is the schema check's; the payload's shape too.
 */
export const ensureUploadedCallsHaveRecordUrl = defineCheck<SchemaSubject>({
  name: 'ensureUploadedCallsHaveRecordUrl',
  checks: 'every call of a calls upload has its recordUrl',
  run(s) {
    if (!Array.isArray(s.message)) return notApplicable('the upload holds no list of calls (its shape is judged by the schema check)');
    const calls = s.message.map((call, i) => ({ call, i })).filter((c): c is { call: Obj; i: number } => isObj(c.call));
    if (calls.length === 0) return notApplicable('the upload holds no call');
    const missing = calls.filter((c) => c.call.recordUrl === undefined || c.call.recordUrl === null);
    if (missing.length > 0) {
      const which = missing.slice(0, 3).map((c) => `calls[${c.i}]${typeof c.call.externalId === 'string' ? ` (externalId ${show(c.call.externalId)})` : ''}`);
      return fail(`${missing.length} of ${calls.length} calls without recordUrl: ${which.join(', ')}${missing.length > 3 ? ', ...' : ''}`, 'each uploaded call has recordUrl, the link to its recording', s.evidence);
    }
    return pass(`${calls.length} calls, each with recordUrl`, s.evidence);
  },
});
