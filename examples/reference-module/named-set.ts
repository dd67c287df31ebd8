/** A set of names chosen from a table (faults, variations), parsed from a comma-separated variable. */
export class NamedSet<N extends string> {
  private readonly names: ReadonlySet<N>;

  constructor(names: Iterable<N> = []) {
    this.names = new Set(names);
  }

  has(name: N): boolean {
    return this.names.has(name);
  }

  list(): N[] {
    return [...this.names];
  }

  get size(): number {
    return this.names.size;
  }
}

/** Parses `VAR=a,b` (blanks ignored) against a table; unknown names are an error naming `variable`. */
export function parseNames<N extends string>(raw: string | undefined, table: Record<N, string>, variable: string, what: string): NamedSet<N> {
  const names = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const unknown = names.filter((n) => !Object.prototype.hasOwnProperty.call(table, n));
  if (unknown.length > 0) throw new Error(`unknown ${what}(s) in ${variable}: ${unknown.join(', ')}; known: ${Object.keys(table).join(', ')}`);
  return new NamedSet(names as N[]);
}
