/**
 * A configuration that cannot run (exit 2, a one-line reason), and how its messages name what a
 * misspelled name was meant to be: the nearest known name (configuration keys, trigger names,
 * command-line options, areas, requirement ids).
 */

export class ConfigError extends Error {}

/**
 * Edit distance (optimal string alignment: insertions, deletions, substitutions and swaps of
 * two neighbours each cost 1), case-insensitive.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The known name nearest to a misspelled one, when it is near enough to be what was meant: at
 * most a third of the known name's length apart (at least 1, at most 3 edits). Ties go to the
 * first of `known`.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    if (k === name) continue;
    const distance = editDistance(name, k);
    const limit = Math.min(3, Math.max(1, Math.floor(k.length / 3)));
    if (distance <= limit && distance < bestDistance) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
}
