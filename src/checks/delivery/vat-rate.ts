/**
 * The document: "`vatRate` accepts the value `none` (no VAT)". A valid request whose items or
 * delivery carry `vatRate: "none"` is not refused for it: a success passes; a refusal whose
 * message speaks of the VAT rate fails; a refusal for another reason says nothing of it (not
 * applicable), nor does a request without `none`.
 */
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { claimsSuccess, describeReply } from '../callbacks/reply.ts';
import type { CaseOutcome } from '../case.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a request carries `vatRate: "none"`: the delivery's, and each package item's (`packages[i].items[j]`). */
export function vatNonePaths(payload: unknown): string[] {
  if (!isObj(payload)) return [];
  const out: string[] = [];
  if (isObj(payload.delivery) && payload.delivery.vatRate === 'none') out.push('delivery.vatRate');
  (Array.isArray(payload.packages) ? payload.packages : []).forEach((p, i) =>
    (isObj(p) && Array.isArray(p.items) ? p.items : []).forEach((item, j) => {
      if (isObj(item) && item.vatRate === 'none') out.push(`packages[${i}].items[${j}].vatRate`);
    }),
  );
  return out;
}

export const ensureVatRateNoneIsAccepted = defineCheck<CaseOutcome>({
  name: 'ensureVatRateNoneIsAccepted',
  checks: 'a valid request with vatRate "none" is not refused for it',
  run(o) {
    if (o.case.intent.kind !== 'valid') return notApplicable('not a valid request');
    const where = vatNonePaths(o.case.payload);
    if (where.length === 0) return notApplicable('no vatRate "none" in the request');
    if (o.reply.status === undefined) return notApplicable(`no answer (ensureCallbackIsAnswered's): ${describeReply(o.reply)}`);
    const evidence = [o.reply.exchange.id];
    if (claimsSuccess(o.reply)) return pass(`${where[0]} "none" accepted`, evidence);
    const msg = (o.reply.json as { errorMsg?: unknown } | undefined)?.errorMsg;
    if (typeof msg === 'string' && /vat/i.test(msg)) return fail(`${where.join(', ')} "none": refused, ${describeReply(o.reply)}`, 'vatRate "none" (no VAT) accepted (document)', evidence);
    return notApplicable('refused for another reason than the VAT rate');
  },
});
