/**
 * Queries of the delivery list callbacks (wire profile section 2): `tariffList` (only
 * `clientId`, which the sender adds), `shipmentPointList` filtered by country, region,
 * regionId, city, cityId and the store code (drawn from the cities of the generated addresses
 * and the run's stores), and the GET to a data field's `autocompleteUrl` with a typed text (the
 * parameter's name is not given by the contract: one of the usual ones).
 */
import fc from 'fast-check';
import { address, type DeliveryContext } from './common.ts';
import type { GeneratedCase } from '../../checks/case.ts';
import { matching } from '../matching.ts';

/** `tariffList`: no parameter but the clientId (the sender adds it). */
export function tariffListQuery(): fc.Arbitrary<GeneratedCase> {
  return fc.constant({ callback: 'delivery.tariffList', payload: {}, intent: { kind: 'valid' } });
}

/** `shipmentPointList`: each filter present or not, the place one of the generated addresses'. */
export function shipmentPointListQuery(ctx: DeliveryContext): fc.Arbitrary<GeneratedCase> {
  const storeCodes = ctx.stores.map((s) => s.code);
  return fc
    .record(
      {
        place: address(),
        country: fc.boolean(),
        region: fc.boolean(),
        regionId: fc.integer({ min: 1, max: 99 }).map(String),
        city: fc.boolean(),
        cityId: fc.integer({ min: 1, max: 9999 }).map(String),
        code: storeCodes.length > 0 ? fc.constantFrom(...storeCodes) : fc.constant(undefined),
      },
      { requiredKeys: ['place', 'country', 'region', 'city'] },
    )
    .map(({ place, country, region, regionId, city, cityId, code }) => {
      const q: Record<string, string> = {};
      if (country) q.country = String(place.countryIso);
      if (region) q.region = String(place.region);
      if (regionId !== undefined) q.regionId = regionId;
      if (city) q.city = String(place.city);
      if (cityId !== undefined) q.cityId = cityId;
      if (code !== undefined) q.code = code;
      return { callback: 'delivery.shipmentPointList' as const, payload: q, intent: { kind: 'valid' as const } };
    });
}

/** A data field of type autocomplete with the address it is called at. */
export interface AutocompleteField {
  code: string;
  url: string;
}

/** The autocomplete data fields of the registration (delivery and shipment lists) with an `autocompleteUrl`. */
export function autocompleteFields(module: Record<string, unknown>): AutocompleteField[] {
  const delivery = ((module.integrations ?? {}) as Record<string, Record<string, unknown> | undefined>).delivery ?? {};
  const lists = [delivery.deliveryDataFieldList, delivery.shipmentDataFieldList].filter(Array.isArray) as unknown[][];
  const out: AutocompleteField[] = [];
  for (const f of lists.flat()) {
    if (!f || typeof f !== 'object') continue;
    const { code, type, autocompleteUrl } = f as Record<string, unknown>;
    // Only an http(s) address can be called; a malformed one is the registration checks' to judge.
    if (type === 'autocomplete' && typeof code === 'string' && typeof autocompleteUrl === 'string' && /^https?:\/\/./i.test(autocompleteUrl) && !out.some((x) => x.url === autocompleteUrl)) out.push({ code, url: autocompleteUrl });
  }
  return out;
}

/** A case of the autocomplete property: the query, and the field's address it goes to (given with each request). */
export interface AutocompleteCase extends GeneratedCase {
  url: string;
  field: string;
}

/** A GET to one of the fields' `autocompleteUrl`, with a typed text (empty to a few letters). */
export function autocompleteQuery(fields: readonly AutocompleteField[]): fc.Arbitrary<AutocompleteCase> {
  return fc
    .record({
      field: fc.constantFrom(...fields),
      name: fc.constantFrom('query', 'q', 'term'),
      // What a user types: nothing yet, the start of a word in any of the scripts, or a few Latin letters.
      text: fc.oneof(fc.constantFrom('', 'Ber', 'Paris', 'term', 'MSK', 'Моск', 'Санкт', 'Łódź', 'Zür', 'São'), matching(/^[A-Za-z ]{1,8}$/)),
    })
    .map(({ field, name, text }) => ({ callback: 'delivery.autocomplete' as const, payload: { [name]: text }, intent: { kind: 'valid' as const }, url: field.url, field: field.code }));
}
