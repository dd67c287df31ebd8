import { defineSchemaRule } from '../schema-rule.ts';

/** A calls upload holds at most 50 calls. */
export const ensureCallsUploadHoldsAtMost50 = defineSchemaRule({
  schema: 'telephony/calls-upload.request.json',
  name: 'ensureCallsUploadHoldsAtMost50',
  checks: 'a calls upload holds at most 50 calls',
  owns: [{ path: /^$/, keyword: 'maxItems' }],
});

/** A tracking request holds at most 100 orders. */
export const ensureTrackingHoldsAtMost100 = defineSchemaRule({
  schema: 'delivery/tracking.request.json',
  name: 'ensureTrackingHoldsAtMost100',
  checks: 'a tracking request holds at most 100 orders',
  owns: [{ path: /^$/, keyword: 'maxItems' }],
});
