import { defineSchemaRule } from '../schema-rule.ts';

/**
 * An update-invoice reports a status of the document's five values (integration-interface.md,
 * Invoice status: "Values: pending, waitingForCapture, succeeded, canceled, refundSucceeded";
 * wire profile section 3: `status` is one of them). The rest of the payload is the schema check's.
 */
export const ensureInvoiceStatusIsKnown = defineSchemaRule({
  schema: 'payment/update-invoice.request.json',
  name: 'ensureInvoiceStatusIsKnown',
  checks: "an update-invoice's status is one of the document's five values",
  owns: [{ path: /^\/status$/ }],
});
