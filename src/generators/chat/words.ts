/**
 * The text the platform's users write, for the chat generators (issue 31, item 8: "The
 * platform's users write in Russian and other languages: names ... and messages come in Cyrillic
 * and with diacritics"): every value class below is drawn for message contents, quotes, captions
 * and the names of customers and managers in webhooks and bot events. Emoji include those of more
 * than one code point (a skin tone, a joined family, a variation selector), as messengers send them.
 */
import fc from 'fast-check';

/** Words by value class. */
export const WORD_CLASSES = {
  latin: ['hello', 'order', 'ready', 'thanks', 'today', 'delivery', 'see', 'you', 'status'],
  cyrillic: ['Привет', 'статус', 'заказ', 'доставка', 'спасибо', 'Здравствуйте', 'ёлка'],
  diacritics: ['pedido', 'café', 'número', 'Grüße', 'déjà', 'Łódź', 'señor', 'ça', 'Ærø', 'Nguyễn'],
  emoji: ['🙂', '👍🏽', '❤️', '📦', '👨‍👩‍👧', '🇷🇺'],
} as const;

const ALL_WORDS: string[] = Object.values(WORD_CLASSES).flat();

/** Words of every class, `min` to `max` of them, separated by spaces. */
export const words = (min: number, max: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...ALL_WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));

/** First names by value class (Latin, Cyrillic, with diacritics, with an emoji as messenger names have). */
export const FIRST_NAMES = {
  latin: ['Anna', 'Lee', 'John'],
  cyrillic: ['Иван', 'Мария', 'Алёна'],
  diacritics: ['José', 'Zoë', 'Łukasz', 'Ólafur', 'Renée'],
  emoji: ['Kate 🌸', 'Лена ✨'],
} as const;

/** Last names by value class; empty too (a customer known by a first name only). */
export const LAST_NAMES = {
  latin: ['Smith', 'Brown'],
  cyrillic: ['Петров', 'Смирнова'],
  diacritics: ['García', 'Müller', 'Østergård', 'Nguyễn'],
  empty: [''],
} as const;

export const firstName: fc.Arbitrary<string> = fc.constantFrom(...Object.values(FIRST_NAMES).flat());
export const lastName: fc.Arbitrary<string> = fc.constantFrom(...Object.values(LAST_NAMES).flat());

