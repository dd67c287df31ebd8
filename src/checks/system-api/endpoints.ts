/**
 * How each module-to-system call is judged: the requirement ids of its payload (form field and
 * shape) and the limit rule of the endpoint, if any. Registration (`edit`) has its own checks.
 */
import type { Check } from '../check.ts';
import type { SchemaSubject } from '../schema-rule.ts';
import type { SystemEndpoint } from '../../simulators/system.ts';
import { ensureCallsUploadHoldsAtMost50, ensureTrackingHoldsAtMost100 } from './limits.ts';
import { ensureUploadedCallsHaveRecordUrl } from './record-url.ts';
import { ensureInvoiceStatusIsKnown } from './invoice-status.ts';

export interface EndpointJudgement {
  payloadIds: string[];
  /** The requirement that the endpoint is called with its method (the document's endpoint table). */
  methodIds: string[];
  limit?: { check: Check<SchemaSubject>; requirements: string[] };
  /** Rules over the decoded payload beyond the schema, each with its ids. */
  rules?: Array<{ check: Check<SchemaSubject>; requirements: string[] }>;
}

export const ENDPOINT_JUDGEMENTS: Partial<Record<SystemEndpoint, EndpointJudgement>> = {
  tracking: {
    payloadIds: ['WIRE-DLV-TRACKING-STATUSUPDATE-FIELD', 'WIRE-DLV-TRACKING-UPDATEDAT-ISO8601'],
    methodIds: ['GEN-METHOD-TRACKING-POST'],
    // The profile restates the document's limit ("at most 100 items" of statusUpdate): one rule, both ids.
    limit: { check: ensureTrackingHoldsAtMost100, requirements: ['DLV-TRACKING-MAX-100', 'WIRE-DLV-TRACKING-MAX-100-ITEMS'] },
  },
  'calls.upload': {
    payloadIds: ['WIRE-TEL-UPLOAD-CALLS-FIELD'],
    methodIds: ['GEN-METHOD-CALLS-UPLOAD-POST'],
    limit: { check: ensureCallsUploadHoldsAtMost50, requirements: ['TEL-UPLOAD-MAX-50'] },
    // The upload row says "each has `recordUrl`" too, so TEL-UPLOAD-MAX-50 holds only with it.
    rules: [{ check: ensureUploadedCallsHaveRecordUrl, requirements: ['TEL-CALL-HAS-RECORDURL', 'TEL-UPLOAD-MAX-50'] }],
  },
  'call.event': { payloadIds: ['TEL-EVENT-PARAM-JSON', 'TEL-EVENT-PHONE', 'TEL-EVENT-CODES-STRINGS', 'WIRE-TEL-EVENT-FIELD', 'WIRE-TEL-EVENT-TYPE-VALUES'], methodIds: ['GEN-METHOD-CALL-EVENT-POST'] },
  manager: { payloadIds: ['WIRE-TEL-MANAGER-PHONE-QUERY'], methodIds: ['GEN-METHOD-MANAGER-GET'] },
  'update-invoice': {
    payloadIds: ['WIRE-PAY-UPDATE-INVOICE-FIELD'],
    methodIds: ['GEN-METHOD-UPDATE-INVOICE-POST'],
    rules: [{ check: ensureInvoiceStatusIsKnown, requirements: ['PAY-INVOICE-STATUS-VALUES', 'WIRE-PAY-UPDATE-INVOICE-STATUS'] }],
  },
  'payment.check': { payloadIds: ['WIRE-PAY-CHECK-FIELD'], methodIds: ['GEN-METHOD-PAYMENT-CHECK-POST'] },
};
