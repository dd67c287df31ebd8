/**
 * Secrets never appear in reports unredacted. The redactor knows the secret values of a run
 * (API key, gateway tokens, the module's clientId, which is the only credential of a callback)
 * and replaces them by `<redacted:label>` where they REALLY occur: the whole value, or the whole
 * secret as a token, in any of its written forms (raw, percent-encoded, form-encoded,
 * JSON-escaped). Never a part of a secret: text that a secret contains or begins with (the
 * system's host `127.0.0.1` inside a clientId `127.0.0.1-account-7f3a9c`, `localhost` at the
 * start of a key) stays readable. And never as a mere substring: a clientId chosen equal to a
 * host name (`shop.example.com`) must not black out hosts or longer words that contain it.
 *
 * Short secrets. A secret of fewer than `MIN_SECRET_BY_VALUE` (8) characters (a clientId `c7`,
 * an API key `test`) cannot be told from ordinary words: it is redacted only in the fields that
 * carry a secret by name (`clientId`, `apiKey`, `token`... as a form or query parameter, a JSON
 * member, a multipart part, and the secret-bearing headers), where it equals the field's value.
 * Elsewhere (free text, other values, URL paths) it stays as it is. A secret at least that long
 * is redacted by value everywhere, by the rules below.
 *
 * The rule, by place (for secrets long enough; see above for short ones):
 *
 * - URL (`url`): scheme, host and port are addresses and are never redacted by value. Each path
 *   segment is a value: replaced whole when it equals a secret (decoded), else free text, so an
 *   `accountUrl` `https://host/settings/<clientId>` reads `.../settings/<redacted:clientId>`. A
 *   password in the user-info part is always masked; a user name equal to a secret is replaced.
 *   Each query parameter is a value (see "value" below); a fragment is free text.
 * - Form (urlencoded body, query string): each parameter value, decoded, is a value. A parameter
 *   name equal to a secret is replaced too.
 * - Multipart body: each part's content is a value; the part headers are free text.
 * - JSON (a JSON body, or a value that looks like JSON: `integrationModule={...}`, `activity={...}`,
 *   JSON held in a JSON string): every string literal, decoded, is a value, at any depth; the text
 *   between literals (numbers, punctuation) is free text.
 * - Header (`headers`): a header whose name always carries a secret (`X-API-KEY`, `Authorization`...)
 *   is masked whatever its value; `Host` is an address and is kept; any other header value is a
 *   value (so `Referer`, `Origin`, `Location` follow the URL rule). Cookie and authorization-style
 *   values (`a=tok; b=c`, `Bearer tok`) are covered by the whole-token rule, `=`, `;` and spaces
 *   being boundaries.
 * - A value is replaced whole when it equals a secret exactly. Otherwise: a value that looks like
 *   JSON follows the JSON rule, an absolute URL the URL rule, and anything else is free text.
 * - Free text (`text`: log lines of the launched module, error messages, a JSON string such as
 *   `errorMsg: "unknown clientId abc123"`, bodies of any other content type): a secret is replaced
 *   only where it stands as a WHOLE TOKEN, that is, not inside a longer word. Word characters are
 *   letters, digits, `_`, `-`, and a `.` between two word characters (so `shop.example.com` is not
 *   redacted inside `www.shop.example.com` nor `reference-module` inside `reference-module-v2`,
 *   `reference-modules` or `reference-module.js`, but both are in `clientId=shop.example.com`,
 *   `"reference-module"`, `/reference-module/`, `host: shop.example.com.` or at start/end). A
 *   percent escape (`%2F`) next to the secret counts as a boundary. Where the secret's own first
 *   (last) character is not a word character, no boundary is needed on that side. The secret is
 *   also found percent-encoded (URI and form encoding) and JSON-escaped. A placeholder already
 *   written (`<redacted:label>`) is never redacted again, so that a report can be redacted anew
 *   once a secret becomes known (see `EvidenceLog.forReport`).
 * - A truncated body whose cap cut a secret in two has the part it kept replaced, so that the cap
 *   cannot leak the first part of a secret. Only a secret really cut: the recorder knows what
 *   followed the cut (`rest`), and the tail is replaced only when the secret stands whole (as a
 *   whole token) across it. A tail that merely looks like the beginning of a secret
 *   (`http://127.0.0.1` at the cut, the secret being `127.0.0.1-account-7f3a9c`) is kept. When
 *   what followed is unknown (a body refused unread: only its beginning was received), a tail of
 *   at least 4 characters that is a beginning of a secret is replaced only when the cut falls
 *   inside a run of letters and digits of the secret (`...apiKey=Ak9+zQ/x` of `Ak9+zQ/x7Lm...`),
 *   never where a word of the secret ends (`127.0.0.1` of `127.0.0.1-account...`).
 *
 * Consequence: a value EQUAL to a secret is always redacted, even if it is also something public
 * (a module code equal to the clientId reads `"code":"<redacted:clientId>"` in a JSON body, and
 * `/integration-modules/<redacted:clientId>/edit` in a path) -- evidence cannot tell them apart --
 * but the same name inside a host or a longer word stays readable.
 */
const SECRET_NAMES = new Set(['apikey', 'x-api-key', 'x-transport-token', 'x-bot-token', 'authorization', 'proxy-authorization', 'token', 'clientid']);

/** Headers that hold an address (host and port), never a secret: kept as they are. */
const ADDRESS_HEADERS = new Set(['host', ':authority', 'x-forwarded-host']);

/** Shortest secret redacted by value anywhere; a shorter one only in the fields that carry secrets (see the rule above). */
export const MIN_SECRET_BY_VALUE = 8;

/** A placeholder already written: never redacted again. */
const PLACEHOLDER = /<redacted:[^<>]*>/g;

/** How deep JSON held in a string (in a string...) is looked into. */
const MAX_DEPTH = 6;

const WORD = /^[\p{L}\p{N}_-]$/u;
const PERCENT = /^%[0-9A-Fa-f]{2}$/;
const ALNUM = /^[\p{L}\p{N}]$/u;

function isWord(ch: string | undefined): boolean {
  return ch !== undefined && WORD.test(ch);
}

/** True when a token starting at `i` is not the continuation of a longer word. */
function boundaryBefore(s: string, i: number): boolean {
  if (i === 0) return true;
  if (i >= 3 && PERCENT.test(s.slice(i - 3, i))) return true;
  const prev = s[i - 1];
  if (isWord(prev)) return false;
  if (prev === '.' && isWord(s[i - 2])) return false;
  return true;
}

/** True when a token ending before `j` is not followed by more of the same word. */
function boundaryAfter(s: string, j: number): boolean {
  if (j >= s.length) return true;
  if (PERCENT.test(s.slice(j, j + 3))) return true;
  const next = s[j];
  if (isWord(next)) return false;
  if (next === '.' && isWord(s[j + 1])) return false;
  return true;
}

function decodeForm(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Percent-encodes a value for a form or query, leaving the `<redacted:label>` placeholders readable. */
function encodeForm(s: string): string {
  return encodeURIComponent(s).replace(/%3C|%3E|%3A/g, (m) => decodeURIComponent(m));
}

function looksLikeJson(s: string): boolean {
  const t = s.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

function looksLikeUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(s);
}

interface Form {
  text: string;
  label: string;
}

export class Redactor {
  /** Every secret, whatever its length: value -> label. */
  private readonly secrets = new Map<string, string>();
  /** The secrets long enough to be redacted by value anywhere. */
  private readonly long = new Map<string, string>();
  private forms: Form[] | undefined;
  /** Grows whenever a new secret value is added: text redacted at an older version may hold it. */
  version = 0;

  /**
   * Registers a secret value under a label (`apiKey`, `transportToken`, ...); true when the value
   * is new. A short value (under `MIN_SECRET_BY_VALUE`) is redacted only in secret fields.
   */
  add(label: string, value: string | undefined): boolean {
    if (!value) return false;
    const known = this.secrets.has(value);
    this.secrets.set(value, label);
    if (value.length >= MIN_SECRET_BY_VALUE) this.long.set(value, label);
    this.forms = undefined;
    if (!known) this.version++;
    return !known;
  }

  /** True when a header or parameter of this name always carries a secret. */
  isSecretName(name: string): boolean {
    return SECRET_NAMES.has(name.toLowerCase());
  }

  /** The placeholder of a value equal to a secret long enough to be redacted by value, else undefined. */
  exact(value: string): string | undefined {
    const label = this.long.get(value);
    return label === undefined ? undefined : `<redacted:${label}>`;
  }

  /**
   * The placeholder of the value of a field named `name` (a form or query parameter, a JSON
   * member, a multipart part) when the name carries secrets and the value is a known secret of
   * any length; else undefined.
   */
  named(name: string, value: string): string | undefined {
    if (!this.isSecretName(name)) return undefined;
    const label = this.secrets.get(value);
    return label === undefined ? undefined : `<redacted:${label}>`;
  }

  /** Every written form of every secret (raw, percent-encoded, form-encoded, JSON-escaped), longest first. */
  private allForms(): Form[] {
    if (!this.forms) {
      const forms = new Map<string, string>();
      for (const [value, label] of this.long) {
        const variants = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)];
        for (const v of variants) if (!forms.has(v) || forms.get(v) === label) forms.set(v, label);
      }
      this.forms = [...forms].map(([text, label]) => ({ text, label })).sort((a, b) => b.text.length - a.text.length);
    }
    return this.forms;
  }

  /**
   * Free text (log lines, messages, bodies of unknown type): replaces a known secret where it
   * stands as a whole token, not inside a longer word (see the rule at the top of this file).
   */
  text(input: string): string {
    if (this.long.size === 0 || input === '') return input;
    const hits: { start: number; end: number; label: string }[] = [];
    // Placeholders already written stand as hits of their own: nothing inside them is replaced.
    if (input.includes('<redacted:')) for (const m of input.matchAll(PLACEHOLDER)) hits.push({ start: m.index, end: m.index + m[0].length, label: '' });
    for (const f of this.allForms()) {
      const needBefore = isWord(f.text[0]);
      const needAfter = isWord(f.text[f.text.length - 1]);
      for (let i = input.indexOf(f.text); i >= 0; i = input.indexOf(f.text, i + 1)) {
        const end = i + f.text.length;
        if ((!needBefore || boundaryBefore(input, i)) && (!needAfter || boundaryAfter(input, end))) hits.push({ start: i, end, label: f.label });
      }
    }
    if (hits.length === 0) return input;
    // Leftmost first, the longest of those starting at the same place; overlapping hits are dropped.
    hits.sort((a, b) => a.start - b.start || b.end - a.end);
    let out = '';
    let at = 0;
    for (const h of hits) {
      if (h.start < at) continue;
      out += input.slice(at, h.start) + (h.label === '' ? input.slice(h.start, h.end) : `<redacted:${h.label}>`);
      at = h.end;
    }
    return out + input.slice(at);
  }

  /**
   * One value (a form or query parameter, a header, a JSON string, a multipart part): replaced
   * whole when it equals a secret; else read as JSON, as a URL or as free text.
   */
  value(input: string, depth = 0): string {
    const exact = this.exact(input);
    if (exact !== undefined) return exact;
    if (this.secrets.size === 0) return input;
    if (looksLikeJson(input) && depth < MAX_DEPTH) return this.json(input, depth + 1);
    if (looksLikeUrl(input)) return this.url(input, depth);
    return this.text(input);
  }

  /**
   * A URL: scheme, host and port stay as they are; each path segment is a value (replaced whole
   * when it equals a secret, else free text); a user-info password is masked; query parameters
   * are redacted as values, the fragment as free text.
   */
  url(input: string, depth = 0): string {
    if (this.secrets.size === 0 && !input.includes('@')) return input;
    const hash = input.indexOf('#');
    const beforeHash = hash < 0 ? input : input.slice(0, hash);
    const fragment = hash < 0 ? undefined : input.slice(hash + 1);
    const q = beforeHash.indexOf('?');
    let base = q < 0 ? beforeHash : beforeHash.slice(0, q);
    const query = q < 0 ? undefined : beforeHash.slice(q + 1);
    base = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i, (_m, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      const user = colon < 0 ? userinfo : userinfo.slice(0, colon);
      const decoded = decodeForm(user);
      const shownUser = (decoded !== undefined ? this.exact(decoded) : undefined) ?? user;
      return `${scheme}${shownUser}${colon < 0 ? '' : ':<redacted:password>'}@`;
    });
    if (this.long.size > 0) {
      const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(base)?.[0] ?? '';
      const path = base.slice(authority.length);
      if (path.length > 1) base = authority + path.split('/').map((segment) => this.segment(segment)).join('/');
    }
    return base + (query !== undefined ? `?${this.form(query, depth)}` : '') + (fragment !== undefined ? `#${this.text(fragment)}` : '');
  }

  /** A URL path segment: replaced whole when it equals a secret (decoded), else free text. */
  private segment(raw: string): string {
    if (raw === '') return raw;
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      decoded = undefined;
    }
    return (decoded !== undefined ? this.exact(decoded) : undefined) ?? this.text(raw);
  }

  /** An urlencoded form or a query string: each parameter value (and name) redacted as a value. */
  form(input: string, depth = 0): string {
    if (this.secrets.size === 0 || input === '') return input;
    return input
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const rawName = eq < 0 ? pair : pair.slice(0, eq);
        const decodedName = decodeForm(rawName);
        const name = decodedName === undefined ? this.text(rawName) : (this.exact(decodedName) ?? rawName);
        if (eq < 0) return name;
        const rawValue = pair.slice(eq + 1);
        const decoded = decodeForm(rawValue);
        if (decoded === undefined) return `${name}=${this.text(rawValue)}`;
        const exact = this.exact(decoded) ?? (decodedName !== undefined ? this.named(decodedName, decoded) : undefined);
        if (exact !== undefined) return `${name}=${exact}`;
        const redacted = this.value(decoded, depth);
        // Re-encoded only when something was replaced: otherwise the value stays as sent.
        return `${name}=${redacted === decoded ? rawValue : encodeForm(redacted)}`;
      })
      .join('&');
  }

  /**
   * JSON text (whole or truncated, valid or not): every string literal is a value, the text
   * between literals free text. Formatting is kept; only a redacted literal is rewritten.
   */
  json(input: string, depth = 0): string {
    if (this.secrets.size === 0) return input;
    let out = '';
    let segment = 0;
    /** The name of the member whose value the next literal may be (a literal followed by `:`). */
    let key: string | undefined;
    for (let i = input.indexOf('"'); i >= 0; i = input.indexOf('"', segment)) {
      let j = i + 1;
      while (j < input.length && input[j] !== '"') j += input[j] === '\\' ? 2 : 1;
      if (j >= input.length) break; // an unterminated literal (truncated body): free text below
      out += this.text(input.slice(segment, i));
      const literal = input.slice(i, j + 1);
      let decoded: unknown;
      try {
        decoded = JSON.parse(literal);
      } catch {
        decoded = undefined;
      }
      const member = key !== undefined && /^\s*:\s*$/.test(input.slice(segment, i)) ? key : undefined;
      if (typeof decoded === 'string') {
        const redacted = (member !== undefined ? this.named(member, decoded) : undefined) ?? this.value(decoded, depth);
        out += redacted === decoded ? literal : JSON.stringify(redacted);
      } else {
        out += this.text(literal);
      }
      key = typeof decoded === 'string' && member === undefined && /^\s*:/.test(input.slice(j + 1, j + 65)) ? decoded : undefined;
      segment = j + 1;
    }
    return out + this.text(input.slice(segment));
  }

  /** A multipart body: each part's content redacted as a value, its headers as free text. */
  multipart(input: string, boundary: string, depth = 0): string {
    if (this.secrets.size === 0) return input;
    const delimiter = `--${boundary}`;
    const chunks = input.split(delimiter);
    return chunks
      .map((chunk, n) => {
        if (n === 0 || chunk.startsWith('--')) return this.text(chunk); // preamble, epilogue
        const sep = chunk.indexOf('\r\n\r\n') >= 0 ? '\r\n\r\n' : chunk.indexOf('\n\n') >= 0 ? '\n\n' : undefined;
        if (sep === undefined) return this.text(chunk); // a part cut by the cap
        const at = chunk.indexOf(sep);
        const head = chunk.slice(0, at);
        let content = chunk.slice(at + sep.length);
        const trailer = content.endsWith('\r\n') ? '\r\n' : content.endsWith('\n') ? '\n' : '';
        content = content.slice(0, content.length - trailer.length);
        const name = /\bname="([^"]*)"/i.exec(head)?.[1];
        return `${this.text(head)}${sep}${(name !== undefined ? this.named(name, content) : undefined) ?? this.value(content, depth)}${trailer}`;
      })
      .join(delimiter);
  }

  /**
   * A recorded body, read by its content type: urlencoded form, multipart, JSON (also sniffed
   * when the type says nothing better), else free text. `truncated`: the body was capped, and a
   * secret cut at its end is replaced too; `rest`: what followed the cut, when known.
   */
  body(input: string, contentType = '', truncated = false, rest?: string): string {
    if (this.secrets.size === 0 || input === '') return input;
    const type = contentType.toLowerCase();
    let out: string;
    if (type.startsWith('application/x-www-form-urlencoded')) out = this.form(input);
    else if (type.startsWith('multipart/')) {
      const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
      out = boundary ? this.multipart(input, (boundary[1] ?? boundary[2])!) : this.text(input);
    } else if (type.includes('json') || looksLikeJson(input)) out = this.json(input);
    else out = this.text(input);
    return truncated ? this.tail(out, rest) : out;
  }

  /**
   * Replaces the part of a secret a capped text ends with: with `rest` (what followed the cut),
   * only a secret standing whole across the cut; without, a beginning of at least 4 characters
   * cut inside a run of letters and digits of the secret (see the rule at the top).
   */
  private tail(input: string, rest?: string): string {
    for (const f of this.allForms()) {
      for (let k = f.text.length - 1; k >= (rest === undefined ? 4 : 1); k--) {
        const start = input.length - k;
        if (start < 0 || !input.endsWith(f.text.slice(0, k))) continue;
        if (isWord(f.text[0]) && !boundaryBefore(input, start)) continue;
        if (rest !== undefined) {
          const remainder = f.text.slice(k);
          if (!rest.startsWith(remainder)) continue;
          if (isWord(f.text[f.text.length - 1]) && !boundaryAfter(rest, remainder.length)) continue;
        } else if (!ALNUM.test(f.text[k - 1]!) || !ALNUM.test(f.text[k]!)) continue;
        return `${input.slice(0, start)}<redacted:${f.label}>`;
      }
    }
    return input;
  }

  /** Headers with secret-bearing names masked and the other values redacted as values. */
  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, this.isSecretName(k) ? `<redacted:${k}>` : ADDRESS_HEADERS.has(k.toLowerCase()) ? v : this.value(v)]),
    );
  }
}
