/**
 * Rewrites of a filter-language LIKE pattern (only `%` is a wildcard) into the pattern a SQL
 * operator expects, like sqlglot's `no_ilike_sql` and Kysely's transformers: separate, small, pure.
 *
 * @module
 */

/**
 * A LIKE pattern for a SQL `LIKE ... ESCAPE` with the given escape character: `_` and the escape
 * character itself are escaped, `%` stays the one wildcard.
 *
 * @example
 * ```ts
 * escapeLikePattern('50%_off!', '!'); // '50%!_off!!'
 * ```
 *
 * @internal
 */
export function escapeLikePattern(pattern: string, escape: string): string {
  let out = '';
  for (const char of pattern) {
    out += char === '_' || char === escape ? escape + char : char;
  }
  return out;
}

const GLOB_SPECIAL: Readonly<Record<string, string>> = { '*': '[*]', '?': '[?]', '[': '[[]', '%': '*' };

/**
 * A pattern for SQLite's `GLOB`, which is case-sensitive and compares code points: `%` becomes `*`,
 * and `*`, `?`, `[` become one-character classes (`]` alone is an ordinary character).
 *
 * @example
 * ```ts
 * globPattern('%[seo]?%'); // '*[[]seo][?]*'
 * ```
 *
 * @internal
 */
export function globPattern(pattern: string): string {
  let out = '';
  for (const char of pattern) out += GLOB_SPECIAL[char] ?? char;
  return out;
}
