/**
 * "Did you mean": the closest known name by edit distance (optimal string alignment, so a swap
 * of two neighbours counts once), case differences counting as half an edit.
 *
 * @module
 * @internal
 */

function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const cost = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The `_`-separated words of a name, sorted: the same for `source_url` and `url_source`. */
const wordsOf = (name: string): string => name.split('_').sort().join('_');

/** Options of {@link suggest}. */
export interface SuggestOptions {
  /**
   * Case counts for nothing: for values the CLI forgives the case of (`--scope root_domin` is
   * one edit from ROOT_DOMAIN), where names that differ in case alone are never two different ones.
   */
  readonly anyCase?: boolean;
}

/**
 * The candidate closest to `name`, if it is close enough to be a likely typo. Between equally close
 * candidates, one with the same first letter wins (`dsc` is DESC, not ASC), else the first listed.
 */
export function suggest(name: string, candidates: readonly string[], { anyCase = false }: SuggestOptions = {}): string | undefined {
  if (name.length > 64) return undefined;
  // A name that differs only in case (`DOMAIN_SCORE`) is always that name, however long.
  const lower = name.toLowerCase();
  const sameLetters = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  // The same words in another order (`url_source`, `score_domain`) are that name, however far apart.
  const words = wordsOf(lower);
  const sameWords = words.includes('_') ? candidates.find((candidate) => wordsOf(candidate.toLowerCase()) === words) : undefined;
  if (sameWords !== undefined) return sameWords;
  const first = lower.charAt(0);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = anyCase ? distance(lower, candidate.toLowerCase()) : distance(name, candidate);
    const better = d < bestDistance || (d === bestDistance && best !== undefined && best.charAt(0).toLowerCase() !== first && candidate.charAt(0).toLowerCase() === first);
    if (better) {
      best = candidate;
      bestDistance = d;
    }
  }
  const threshold = Math.max(2, Math.ceil(name.length / 3));
  return bestDistance <= threshold ? best : undefined;
}

export { didYouMean } from './did-you-mean.js';
