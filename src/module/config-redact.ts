/**
 * A run's configuration file with its secrets redacted, for the certification bundle
 * (`conformance bundle`): what a vendor can hand to a reviewer without the keys it ran with.
 *
 * The file is read as written (JSON, comments allowed: jsonc.ts), never filled: a placeholder
 * (`{apiKey}`, `{env:MODULE_TOKEN}`, `{env:NAME:-default}`) stays the placeholder, never the value
 * it had. Redacted, each as `<redacted:NAME>` (NAME: the member's name):
 *
 * - the value of a member whose name carries a secret (`SECRET_NAME`: `apiKey`, `X-API-KEY`,
 *   `Authorization`, `MODULE_TOKEN`, `clientSecret`, `password`, `clientId`...), at any depth (a
 *   trigger's headers and body, `launch.env`, `remote.registration`), every string or number
 *   below it when it is an object or an array. Kept when it is placeholders alone, with at most an
 *   authorization scheme (`Bearer {env:TOKEN}`);
 * - a `launch.env` value or a `launch.args` element that looks like a key (`looksSecret`: 16 or
 *   more letters, digits and `+/=_-.~`, both letters and digits, not a path), whatever its name;
 * - in `launch.args`, the element after an option whose name carries a secret (`--api-key K`),
 *   and the value of `--api-key=K` (or of any `--option=V` whose V looks like a key); an option
 *   itself (`--max-old-space-size=4096`) is kept;
 * - in a URL, the password of its user information and the value of a query parameter whose
 *   name carries a secret;
 * - then anywhere in the file, every value redacted above where it occurs again: equal to it, or
 *   (8 characters and more) as a whole token of a longer text, by the suite's own redaction
 *   (src/evidence/redact.ts).
 *
 * What is not a string (numbers, booleans) is kept unless its member's name carries a secret. The
 * result is the configuration re-written as JSON (two spaces), its comments left out: a comment
 * can hold anything.
 */
import { Redactor } from '../evidence/redact.ts';
import { stripJsonComments } from './jsonc.ts';

/** Member names that carry a secret (case-insensitive, anywhere in the name). */
const SECRET_NAME = /key|token|secret|passw|pwd|credential|auth|cookie|signature|client[-_.]?id|session/i;

/** A placeholder as the configuration writes it (placeholders.ts), with or without a default. */
const PLACEHOLDER = /\{(?:env:)?[A-Za-z_][\w.]*(?::-[^{}]*)?\}/g;

/** An authorization scheme that may stand before a placeholder. */
const SCHEME = /\b(?:Bearer|Basic|Token|Bot|Digest)\b/gi;

export interface RedactedConfig {
  /** The configuration as JSON, secrets redacted. */
  text: string;
  /** Where something was redacted (`apiKey`, `launch.env.MODULE_TOKEN`, `triggers.payment.notify.headers.Authorization`). */
  redacted: string[];
  /** Knows every value redacted: for what else is bundled (a secret found there is redacted too). */
  redactor: Redactor;
}

/** True when a value is placeholders alone (with at most an authorization scheme): nothing of a secret is written in it. */
function onlyPlaceholders(value: string): boolean {
  return !/[\p{L}\p{N}]/u.test(value.replace(PLACEHOLDER, '').replace(SCHEME, ''));
}

/** A value that looks like a key or a token whatever its name: long, letters and digits, no spaces, not a path or an address. */
export function looksSecret(value: string): boolean {
  return /^[A-Za-z0-9+/=_.~-]{16,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value) && !/^[./~]/.test(value) && !value.includes('//') && !/\.(m?[jt]s|json|c?js|py|rb|go|sh)$/i.test(value);
}

class Walk {
  readonly redacted: string[] = [];
  readonly redactor = new Redactor();
  /** Each value redacted by the first pass: its label. */
  private readonly secrets = new Map<string, string>();

  private mark(at: string, label: string, value: string | number | boolean): string {
    this.redacted.push(at);
    if (typeof value === 'string' && value !== '') {
      this.secrets.set(value, label);
      this.redactor.add(label, value);
    }
    return `<redacted:${label}>`;
  }

  /** Every string and number below a member whose name carries a secret. */
  secret(value: unknown, at: string, label: string): unknown {
    if (typeof value === 'string') return onlyPlaceholders(value) ? value : this.mark(at, label, value);
    if (typeof value === 'number') return this.mark(at, label, value);
    if (Array.isArray(value)) return value.map((v, i) => this.secret(v, `${at}[${i}]`, label));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.secret(v, `${at}.${k}`, label)]));
    return value;
  }

  /** A URL's user-information password and the values of its secret-named query parameters (`{moduleUrl}/hook?token=...` too). */
  url(value: string, at: string): string {
    if (!value.includes('@') && !value.includes('?')) return value;
    let out = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):([^/?#@]+)@/i, (whole, before: string, password: string) =>
      onlyPlaceholders(password) ? whole : `${before}:${this.mark(`${at} (password)`, 'password', password)}@`,
    );
    out = out.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, name: string, v: string) =>
      SECRET_NAME.test(name) && v !== '' && !onlyPlaceholders(v) ? `${sep}${name}=${this.mark(`${at} (${name})`, name, v)}` : whole,
    );
    return out;
  }

  /** `launch.args`: secret-looking elements, the value after a secret-named option, `--option=value`. */
  args(args: unknown[], at: string): unknown[] {
    return args.map((arg, i) => {
      if (typeof arg !== 'string') return arg;
      const before = args[i - 1];
      const option = typeof before === 'string' ? /^--?([\w.-]+)$/.exec(before)?.[1] : undefined;
      if (option !== undefined && SECRET_NAME.test(option) && !onlyPlaceholders(arg)) return this.mark(`${at}[${i}]`, option, arg);
      const inline = /^(--?[\w.-]+)=(.*)$/s.exec(arg);
      if (inline) {
        const [, name, v] = inline as unknown as [string, string, string];
        const secret = (SECRET_NAME.test(name) && !onlyPlaceholders(v)) || looksSecret(v);
        return secret ? `${name}=${this.mark(`${at}[${i}]`, name.replace(/^-+/, ''), v)}` : `${name}=${this.url(v, `${at}[${i}]`)}`;
      }
      if (arg.startsWith('-')) return arg;
      if (looksSecret(arg)) return this.mark(`${at}[${i}]`, 'arg', arg);
      return this.url(arg, `${at}[${i}]`);
    });
  }

  /** The first pass: by name, by look, in URLs. */
  value(value: unknown, at: string, name: string | undefined): unknown {
    if (name !== undefined && SECRET_NAME.test(name)) return this.secret(value, at, name);
    if (typeof value === 'string') {
      if (/^launch\.env\./.test(at) && looksSecret(value)) return this.mark(at, name ?? 'env', value);
      return this.url(value, at);
    }
    if (Array.isArray(value)) return at === 'launch.args' ? this.args(value, at) : value.map((v, i) => this.value(v, `${at}[${i}]`, undefined));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, at ? `${at}.${k}` : k, k)]));
    return value;
  }

  /** The second pass: a value redacted once is redacted wherever else it stands. */
  again(value: unknown): unknown {
    if (typeof value === 'string') {
      const label = this.secrets.get(value);
      return label !== undefined ? `<redacted:${label}>` : this.redactor.text(value);
    }
    if (Array.isArray(value)) return value.map((v) => this.again(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.again(v)]));
    return value;
  }
}

/** The configuration file's text with its secrets redacted (see the rules above). Throws when it is not JSON. */
export function redactConfig(text: string): RedactedConfig {
  const parsed = JSON.parse(stripJsonComments(text)) as unknown;
  const walk = new Walk();
  const once = walk.value(parsed, '', undefined);
  const twice = walk.again(once);
  return { text: `${JSON.stringify(twice, null, 2)}\n`, redacted: walk.redacted, redactor: walk.redactor };
}
