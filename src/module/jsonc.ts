/**
 * The configuration file is JSON with comments (JSONC, as `tsconfig.json`): `// to the end of the
 * line` and `/* ... *\/` outside strings are ignored, so that `conformance init` can explain what it
 * writes next to it. A `//` inside a string (a URL) is text. Each comment is replaced by spaces
 * (its line breaks kept), so that JSON.parse's positions are those of the file. Nothing else of
 * JSON5 is taken (no trailing commas, no single quotes).
 */

/** The text with its comments blanked out; a comment not closed is left as it is (JSON.parse then says where). */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop).replace(/[^\r]/g, ' ');
      i = stop;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, end + 2).replace(/[^\r\n]/g, ' ');
      i = end + 2;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
