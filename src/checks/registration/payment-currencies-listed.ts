import { contract } from '../../contract/schemas.ts';
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import type { SchemaSubject } from '../schema-rule.ts';

/** The ISO 4217 form; codes not of this form are `ensureCurrenciesAreIso4217`'s failures. */
const ISO_FORM = /^[A-Z]{3}$/;

/**
 * Payment currencies of the ISO 4217 form are codes that ISO 4217 lists: with the wire profile,
 * current or withdrawn (official modules list withdrawn ones: section 9); by the document
 * alone, current. A code outside the list warns (SHOULD: the document says "ISO 4217 codes";
 * the form is the MUST of `ensureCurrenciesAreIso4217`).
 */
export const ensureCurrenciesAreListedIso4217 = defineCheck<SchemaSubject>({
  name: 'ensureCurrenciesAreListedIso4217',
  checks: 'payment currencies are codes that ISO 4217 lists (current or withdrawn)',
  run(s) {
    if (!(s.kinds ?? []).includes('payment')) return notApplicable('the module declares no payment integration');
    const currencies = ((s.message as { integrations?: { payment?: { currencies?: unknown } } }).integrations?.payment?.currencies);
    if (!Array.isArray(currencies)) return notApplicable('the payment integration lists no currencies');
    const judged = currencies.filter((c): c is string => typeof c === 'string' && ISO_FORM.test(c));
    if (judged.length === 0) return notApplicable('no currency of the ISO 4217 form to look up');
    const unlisted = judged.filter((c) => !contract({ profile: s.profile ?? true }).validate('registration/currency-iso4217-listed.json', c).valid);
    if (unlisted.length > 0) {
      return fail(`currencies ${unlisted.map((c) => JSON.stringify(c)).join(', ')}: in no ISO 4217 list`, 'codes of the ISO 4217 lists (current, or withdrawn as official modules still list)', s.evidence);
    }
    return pass(`${judged.length} currencies, each listed by ISO 4217`, s.evidence);
  },
});
