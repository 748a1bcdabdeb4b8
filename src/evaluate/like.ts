/**
 * LIKE matching: the whole value, `%` matches any run of zero or more characters, everything else
 * matches only itself, case-sensitively. Never a regular expression over user input: the pattern
 * is split on `%` and its pieces are found greedily from left to right, which is exact for a
 * pattern whose only wildcard is `%` and takes linear-ish time (one `indexOf` per piece).
 *
 * @module
 */
import { internalize } from './intern.js';

/**
 * The shape of a LIKE pattern, chosen once when a filter is compiled so that the common cases run
 * as one string method.
 *
 * @internal
 */
export type LikePlan =
  | { readonly shape: 'equals'; readonly text: string }
  | { readonly shape: 'prefix'; readonly text: string }
  | { readonly shape: 'suffix'; readonly text: string }
  | { readonly shape: 'contains'; readonly text: string }
  | { readonly shape: 'any' }
  | { readonly shape: 'general'; readonly first: string; readonly middle: readonly string[]; readonly last: string };

/**
 * Classifies a LIKE pattern. Empty pieces between two `%` are dropped (`a%%b` is `a%b`).
 *
 * @internal
 */
export function planLike(pattern: string): LikePlan {
  const pieces = pattern.split('%').map(internalize);
  if (pieces.length === 1) return { shape: 'equals', text: pattern };
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  if (middle.length === 0) {
    if (first === '' && last === '') return { shape: 'any' };
    if (last === '') return { shape: 'prefix', text: first };
    if (first === '') return { shape: 'suffix', text: last };
  } else if (middle.length === 1 && first === '' && last === '') {
    return { shape: 'contains', text: middle[0]! };
  }
  return { shape: 'general', first, middle, last };
}

/**
 * Whether `value` starts with `first`, ends with `last` (without overlapping it) and holds the
 * `middle` pieces in order between them. Greedy leftmost matching of each middle piece is exact:
 * taking the earliest place for a piece never leaves less room for the ones after it.
 *
 * @internal
 */
export function matchPieces(value: string, first: string, middle: readonly string[], last: string): boolean {
  const end = value.length - last.length;
  if (end < first.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  let position = first.length;
  for (const piece of middle) {
    const at = value.indexOf(piece, position);
    if (at < 0 || at + piece.length > end) return false;
    position = at + piece.length;
  }
  return true;
}

/**
 * A matcher for one planned pattern.
 *
 * @internal
 */
export function likeMatcher(plan: LikePlan): (value: string) => boolean {
  switch (plan.shape) {
    case 'equals': {
      const text = plan.text;
      return (value) => value === text;
    }
    case 'prefix': {
      const text = plan.text;
      return (value) => value.startsWith(text);
    }
    case 'suffix': {
      const text = plan.text;
      return (value) => value.endsWith(text);
    }
    case 'contains': {
      const text = plan.text;
      return (value) => value.includes(text);
    }
    case 'any':
      return () => true;
    case 'general': {
      const { first, middle, last } = plan;
      return (value) => matchPieces(value, first, middle, last);
    }
  }
}

/**
 * Whether `value` matches the LIKE `pattern` of the filter language: the whole value, only `%` is
 * a wildcard (`_` is an ordinary character), case-sensitive.
 *
 * @example
 * ```ts
 * likeMatches('best seo tips', '%seo%'); // true
 * likeMatches('a_b', 'a_b'); // true
 * likeMatches('axb', 'a_b'); // false: `_` matches only itself
 * likeMatches('SEO', 'seo'); // false: case-sensitive
 * ```
 */
export function likeMatches(value: string, pattern: string): boolean {
  return likeMatcher(planLike(pattern))(value);
}
