/**
 * Blanks: the values `conformance init` (src/cli/init.ts) cannot know and the vendor must give
 * (`"<FILL IN: the program that starts your module, e.g. node>"`). A configuration that still
 * holds one does not run: each blank is a configuration problem naming its path and what to
 * give, in place of whatever the schema or the placeholder check would say of the text.
 */
import { escapePointer } from './placeholders.ts';

/** A blank as written: `<FILL IN: what to give>`. */
export function blank(what: string): string {
  return `<FILL IN: ${what}>`;
}

const BLANK = /^<FILL IN: ([\s\S]*)>$/;

/** One blank left in a configuration: its JSON pointer and what it asks for. */
export interface Blank {
  pointer: string;
  what: string;
}

/** Every blank of a configuration, in the order of the file. */
export function blanksOf(data: unknown): Blank[] {
  const out: Blank[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node === 'string') {
      const m = BLANK.exec(node);
      if (m) out.push({ pointer, what: m[1]! });
    } else if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${pointer}/${i}`));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escapePointer(k)}`);
  };
  walk(data, '');
  return out;
}

/** The problem of one blank, as configProblems says it. */
export function blankText(b: Blank): string {
  return `fill in ${b.pointer || '/'}: ${b.what}`;
}
