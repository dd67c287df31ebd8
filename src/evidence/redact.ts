/**
 * Secrets never appear in reports unredacted. The redactor knows the secret values of a run
 * (API key, gateway tokens, the module's clientId, which is the only credential of a callback)
 * and replaces every occurrence in any text; header and parameter names that always carry a
 * secret are masked whatever their value.
 */
const SECRET_NAMES = new Set(['apikey', 'x-api-key', 'x-transport-token', 'x-bot-token', 'authorization', 'token', 'clientid']);

export class Redactor {
  private readonly secrets = new Map<string, string>();

  /** Registers a secret value under a label (`apiKey`, `transportToken`, ...). Short values are ignored. */
  add(label: string, value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.set(value, label);
  }

  /** True when a header or parameter of this name always carries a secret. */
  isSecretName(name: string): boolean {
    return SECRET_NAMES.has(name.toLowerCase());
  }

  /** Replaces every known secret value in a text by `<redacted:label>`. */
  text(input: string): string {
    let out = input;
    // Longest first, so that a secret containing another is replaced whole.
    for (const [value, label] of [...this.secrets].sort((a, b) => b[0].length - a[0].length)) {
      out = out.split(value).join(`<redacted:${label}>`);
      const encoded = encodeURIComponent(value);
      if (encoded !== value) out = out.split(encoded).join(`<redacted:${label}>`);
    }
    return out;
  }

  /** Headers with secret-bearing names masked and known secret values replaced. */
  headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, this.isSecretName(k) ? `<redacted:${k}>` : this.text(v)]),
    );
  }
}
