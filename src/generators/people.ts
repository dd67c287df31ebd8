/**
 * What the platform's users type, as they type it: names, places, streets, comments, item and
 * shop names, in the scripts the platform's users write (Latin, Cyrillic, Latin with diacritics,
 * and the two mixed in one value), and phone numbers of every length and country a real number
 * has (E.164: a country code and at most 15 digits in all), written with `+` or without, and
 * with the spaces, dashes and parentheses users type where the phone is free text. Real,
 * plausible values: each drawn by fast-check from the run's seed (issue 31, item 8).
 */
import fc from 'fast-check';

/** The scripts a text is drawn in. */
export type Script = 'latin' | 'cyrillic' | 'diacritics' | 'mixed';
export const SCRIPTS: readonly Script[] = ['latin', 'cyrillic', 'diacritics', 'mixed'];

/** Cyrillic letters. */
export const CYRILLIC = /[\u0400-\u04ff]/;
/** Latin letters with diacritics (Latin-1 Supplement and Latin Extended-A/B letters). */
export const DIACRITIC = /[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]/;
/** One value of each script's pool, the four scripts equally likely. */
function byScript(pools: Record<Script, readonly string[]>): fc.Arbitrary<string> {
  return fc.oneof(...SCRIPTS.filter((s) => pools[s].length > 0).map((s) => fc.constantFrom(...pools[s])));
}

/** A place: a city with its country, region, postal index and streets of that city, as its people write them. */
export interface Place {
  countryIso: string;
  city: string;
  region: string;
  index: string;
  streets: readonly string[];
}

/** Cities of the platform's users, by the script their name is written in. */
export const PLACES: Record<Script, readonly Place[]> = {
  latin: [
    { countryIso: 'ES', city: 'Madrid', region: 'Madrid', index: '28013', streets: ['Calle Mayor', 'Gran Via'] },
    { countryIso: 'DE', city: 'Berlin', region: 'Berlin', index: '10117', streets: ['Friedrichstrasse', 'Unter den Linden'] },
    { countryIso: 'FR', city: 'Lyon', region: 'Auvergne-Rhone-Alpes', index: '69002', streets: ['Rue de la Republique'] },
    { countryIso: 'GB', city: 'London', region: 'Greater London', index: 'SW1A 1AA', streets: ['Baker Street', 'Oxford Street'] },
    { countryIso: 'RU', city: 'Moscow', region: 'Moscow', index: '125009', streets: ['Tverskaya street'] },
  ],
  cyrillic: [
    { countryIso: 'RU', city: 'Москва', region: 'Москва', index: '125009', streets: ['ул. Тверская', 'Ленинский проспект'] },
    { countryIso: 'RU', city: 'Санкт-Петербург', region: 'Санкт-Петербург', index: '191186', streets: ['Невский проспект', 'ул. Садовая'] },
    { countryIso: 'RU', city: 'Новосибирск', region: 'Новосибирская область', index: '630099', streets: ['Красный проспект'] },
    { countryIso: 'RU', city: 'Ростов-на-Дону', region: 'Ростовская область', index: '344002', streets: ['ул. Большая Садовая'] },
    { countryIso: 'KZ', city: 'Алматы', region: 'Алматы', index: '050000', streets: ['пр. Абая'] },
    { countryIso: 'BY', city: 'Минск', region: 'Минская область', index: '220030', streets: ['пр. Независимости'] },
    { countryIso: 'UA', city: 'Київ', region: 'Київ', index: '01001', streets: ['вул. Хрещатик'] },
  ],
  diacritics: [
    { countryIso: 'PL', city: 'Łódź', region: 'łódzkie', index: '90-001', streets: ['ulica Piotrkowska', 'Aleja Kościuszki'] },
    { countryIso: 'BR', city: 'São Paulo', region: 'São Paulo', index: '01310-100', streets: ['Avenida Paulista', 'Rua Augusta'] },
    { countryIso: 'DE', city: 'München', region: 'Bayern', index: '80331', streets: ['Königsstraße', 'Maximilianstraße'] },
    { countryIso: 'CH', city: 'Zürich', region: 'Zürich', index: '8001', streets: ['Bahnhofstrasse', 'Rämistrasse'] },
    { countryIso: 'ES', city: 'Málaga', region: 'Andalucía', index: '29015', streets: ['Calle Marqués de Larios'] },
    { countryIso: 'FR', city: 'Besançon', region: 'Bourgogne-Franche-Comté', index: '25000', streets: ['Grande Rue', 'Rue de la Préfecture'] },
    { countryIso: 'CZ', city: 'Plzeň', region: 'Plzeňský kraj', index: '30100', streets: ['Americká třída'] },
    { countryIso: 'SE', city: 'Göteborg', region: 'Västra Götaland', index: '41101', streets: ['Kungsgatan', 'Östra Hamngatan'] },
    { countryIso: 'TR', city: 'İstanbul', region: 'İstanbul', index: '34430', streets: ['İstiklal Caddesi'] },
  ],
  // A value in two scripts: a Cyrillic city with its Latin district or street, as users type them.
  mixed: [
    { countryIso: 'RU', city: 'Москва (Moscow)', region: 'Москва', index: '123112', streets: ['Пресненская наб., Moscow City Tower', 'ул. Арбат / Arbat street'] },
    { countryIso: 'RU', city: 'Санкт-Петербург / St. Petersburg', region: 'Санкт-Петербург', index: '190000', streets: ['Nevsky prospekt (Невский пр.)'] },
    { countryIso: 'KZ', city: 'Almaty (Алматы)', region: 'Алматы', index: '050040', streets: ['пр. Аль-Фараби, Esentai Mall'] },
  ],
};

/** A place of one of the four scripts, the scripts equally likely. */
export const place: fc.Arbitrary<Place> = fc.oneof(...SCRIPTS.map((s) => fc.constantFrom(...PLACES[s])));

/** First names. */
export const firstName = byScript({
  latin: ['Ana', 'Jonas', 'Marie', 'Luis', 'John', 'Emma'],
  cyrillic: ['Иван', 'Мария', 'Алексей', 'Ольга', 'Дмитрий', 'Наталья', 'Пётр'],
  diacritics: ['José', 'Zoë', 'Łukasz', 'Søren', 'Björn', 'François', 'Žaneta', 'Çağla'],
  mixed: ['Анна Maria', 'Ivan (Иван)'],
});

/** Last names (hyphens and apostrophes as they are written). */
export const lastName = byScript({
  latin: ['Garcia', 'Schmidt', 'Martin', 'Rossi', "O'Brien"],
  cyrillic: ['Иванов', 'Смирнова', 'Кузнецов', 'Римский-Корсаков', 'Шевчук'],
  diacritics: ['Müller', 'Łukasiewicz', 'Gonçalves', 'Dvořák', 'Núñez', 'Ødegaard', 'Érdi'],
  mixed: ['Petrov-Петров', 'Смит (Smith)'],
});

/** Patronymics (the platform's requiredFields hold `patronymic`). */
export const patronymic = byScript({
  latin: ['Ivanovich', 'Petrovna', 'Sergeevich'],
  cyrillic: ['Иванович', 'Петровна', 'Сергеевич', 'Алексеевна'],
  diacritics: ['Ivanovič', 'Petrovná'],
  mixed: ['Ivanovich (Иванович)'],
});

/** Comments users leave on a delivery or a shipment. */
export const comment = byScript({
  latin: ['Call before arrival', 'Ramp 2', 'Fragile goods', 'Leave at the reception'],
  cyrillic: ['Позвоните за час до приезда', 'Домофон 25#, 3 этаж', 'Хрупкий груз', 'Пропуск на КПП'],
  diacritics: ['Bitte beim Nachbarn abgeben', 'Entregar después de las 18:00', 'Zadzwonić przed przyjazdem', 'Fragile, ne pas empiler'],
  mixed: ['Домофон 25, code 1234#', 'Call Ивану before 18:00', 'Ворота B, Gate 3'],
});

/** Names of goods. */
export const itemName = byScript({
  latin: ['Chair', 'Lamp', 'Desk', 'Book', 'Kettle', 'Rug'],
  cyrillic: ['Стул', 'Чайник электрический', 'Настольная лампа', 'Книга «Война и мир»', 'Ковёр'],
  diacritics: ['Kühlschrank', 'Café moulu 500 g', 'Lampe de chevet', 'Żarówka LED', 'Açúcar mascavo'],
  mixed: ['Смартфон Galaxy S24', 'Кофе Lavazza 1 кг', 'Кроссовки Nike Air'],
});

/** Names of shops and sites. */
export const shopName = byScript({
  latin: ['Main shop', 'Home & Garden', 'Outlet'],
  cyrillic: ['Магазин «Ромашка»', 'Интернет-магазин Уют', 'Склад на Садовой'],
  diacritics: ['Bäckerei Müller', 'Librería Ñandú', 'Sklep Łąka'],
  mixed: ['Shop «Уют»', 'Магазин Home&Co'],
});

// ---------------------------------------------------------------- phones

/**
 * Countries with their calling code and the lengths of their national significant numbers, so
 * that every total length of E.164 from 8 to 15 digits is a real one: the Falklands (500, 5
 * digits: 8 in all), the Faroes (298, 6: 9), Norway (47, 8: 10), Spain (34, 9: 11), Ukraine
 * (380, 9: 12), China (86, 11: 13), Indonesia (62, 9 to 12: up to 14), Austria (43, 4 to 13: up
 * to 15); and the countries of the platform's users (Russia and Kazakhstan 7, Belarus 375,
 * Germany 49 with 7 to 11, Poland 48, Brazil 55, the United States 1, the UK 44).
 */
export const COUNTRIES: ReadonlyArray<{ iso: string; code: string; lengths: readonly number[] }> = [
  { iso: 'FK', code: '500', lengths: [5] },
  { iso: 'FO', code: '298', lengths: [6] },
  { iso: 'NO', code: '47', lengths: [8] },
  { iso: 'ES', code: '34', lengths: [9] },
  { iso: 'UA', code: '380', lengths: [9] },
  { iso: 'CN', code: '86', lengths: [11] },
  { iso: 'ID', code: '62', lengths: [9, 10, 11, 12] },
  { iso: 'AT', code: '43', lengths: [6, 8, 10, 11, 12, 13] },
  { iso: 'RU', code: '7', lengths: [10] },
  { iso: 'BY', code: '375', lengths: [9] },
  { iso: 'DE', code: '49', lengths: [7, 9, 10, 11] },
  { iso: 'PL', code: '48', lengths: [9] },
  { iso: 'BR', code: '55', lengths: [10, 11] },
  { iso: 'US', code: '1', lengths: [10] },
  { iso: 'GB', code: '44', lengths: [10] },
];

/** A number as its country code and national significant number (digits). */
export interface E164 {
  code: string;
  national: string;
}

/** The E.164 digits of a number. */
export const e164Digits = (n: E164): string => `${n.code}${n.national}`;

/** A national significant number of `length` digits for this code, the first digit not 0. */
const nationalOf = (code: string, length: number): fc.Arbitrary<E164> =>
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 })).map(([d, rest]) => ({ code, national: `${d}${rest.join('')}` }));

/** A real number: a country and a national number of one of its lengths. */
export const e164: fc.Arbitrary<E164> = fc.constantFrom(...COUNTRIES).chain((c) => fc.constantFrom(...c.lengths).chain((len) => nationalOf(c.code, len)));

/** The total lengths (country code and national number) real numbers have: 8 to 15 digits. */
export const E164_LENGTHS: readonly number[] = [...new Set(COUNTRIES.flatMap((c) => c.lengths.map((l) => c.code.length + l)))].sort((a, b) => a - b);

/** A number of `min` to `max` digits in all, of a country that has such numbers, each length equally likely. */
export function e164Between(min: number, max: number): fc.Arbitrary<E164> {
  const lengths = E164_LENGTHS.filter((l) => l >= min && l <= max);
  if (lengths.length === 0) throw new Error(`no country has numbers of ${min} to ${max} digits`);
  return fc.constantFrom(...lengths).chain((total) => fc.constantFrom(...COUNTRIES.filter((c) => c.lengths.includes(total - c.code.length))).chain((c) => nationalOf(c.code, total - c.code.length)));
}

/** The national number in groups (of 3 then 2s, as a number is read out). */
function groups(national: string): string[] {
  const out: string[] = [];
  let rest = national;
  if (rest.length > 7) {
    out.push(rest.slice(0, 3));
    rest = rest.slice(3);
  }
  while (rest.length > 4) {
    out.push(rest.slice(0, 3));
    rest = rest.slice(3);
  }
  if (rest.length === 4) out.push(rest.slice(0, 2), rest.slice(2));
  else if (rest.length > 0) out.push(rest);
  return out;
}

/** How a number is written: E.164 (`+` and the digits), the digits alone, or as users type it. */
export type PhoneForm = 'e164' | 'digits' | 'spaced' | 'dashed' | 'parenthesised';
export const PHONE_FORMS: readonly PhoneForm[] = ['e164', 'digits', 'spaced', 'dashed', 'parenthesised'];

/** A number written in a form; every form keeps the country code, so its digits are the E.164 digits. */
export function writePhone(n: E164, form: PhoneForm): string {
  const g = groups(n.national);
  switch (form) {
    case 'e164':
      return `+${e164Digits(n)}`;
    case 'digits':
      return e164Digits(n);
    case 'spaced':
      return `+${n.code} ${g.join(' ')}`;
    case 'dashed':
      return `+${n.code} ${g[0]}${g.length > 1 ? ` ${g.slice(1).join('-')}` : ''}`;
    case 'parenthesised':
      return g.length > 1 ? `+${n.code} (${g[0]}) ${g.slice(1).join('-')}` : `+${n.code} ${g[0]}`;
  }
}

/**
 * A phone as users type it where the phone is free text (a customer's phones): any length from
 * 8 to 15 digits, any of the forms; the digits are always the E.164 digits.
 */
export const typedPhone: fc.Arbitrary<string> = fc.tuple(e164Between(8, 15), fc.constantFrom(...PHONE_FORMS)).map(([n, form]) => writePhone(n, form));

