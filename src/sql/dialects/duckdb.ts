/**
 * DuckDB: text compares as binary by default, but `default_collation` can change that, so text
 * comparisons name the binary collation. LIKE is case-sensitive but has no default escape; a
 * pattern of a simple shape is matched by a string function instead (`contains`, ...).
 *
 * @module
 */
import { FilterCompiler } from '../compiler.js';
import type { Dialect } from '../dialect.js';

/** @internal */
export class DuckdbCompiler extends FilterCompiler {
  protected override placeholder(index: number): string {
    return `$${index}`;
  }

  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} COLLATE "binary" ${operator} ${right}`;
  }

  /**
   * A pattern of a simple shape as the string function that matches it exactly, which DuckDB runs
   * without a general LIKE matcher (a bound pattern is not known when the statement is planned):
   * `%text%` as `contains`, `text%` as `starts_with`, `%text` as `suffix`, `text` as `=`; other
   * patterns as LIKE. The timings: docs/design-store.md, "Text conditions on the column side".
   */
  protected override likeMatch(left: string, pattern: string, negated: boolean): string {
    const match = simpleLike(pattern);
    if (match === undefined) return super.likeMatch(left, pattern, negated);
    const text = this.parameter(match.text);
    const test = match.shape === 'equals' ? this.compareText(left, '=', text) : `${SIMPLE_LIKE_FUNCTIONS[match.shape]}(${left}, ${text})`;
    return negated ? `NOT (${test})` : test;
  }
}

/** The string function of each simple pattern shape but the whole value. */
const SIMPLE_LIKE_FUNCTIONS = { contains: 'contains', prefix: 'starts_with', suffix: 'suffix' } as const;

/**
 * The shape of a pattern whose only `%`s are at its ends, around a non-empty text (`undefined`
 * otherwise): `%text%` contains the text, `text%` starts with it, `%text` ends with it, and `text`
 * (no `%`) is the whole value. @internal
 */
export function simpleLike(pattern: string): { readonly shape: 'contains' | 'prefix' | 'suffix' | 'equals'; readonly text: string } | undefined {
  const leading = pattern.startsWith('%');
  const trailing = pattern.length > 1 && pattern.endsWith('%');
  const text = pattern.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  if (text.includes('%') || (text === '' && (leading || trailing))) return undefined;
  if (leading && trailing) return { shape: 'contains', text };
  if (leading) return { shape: 'suffix', text };
  if (trailing) return { shape: 'prefix', text };
  return { shape: 'equals', text };
}

/**
 * The DuckDB dialect.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: duckdbDialect }).sql; // '"domain" COLLATE "binary" = $1'
 * ```
 */
export const duckdbDialect: Dialect = Object.freeze({ name: 'duckdb', createCompiler: () => new DuckdbCompiler('duckdb') });
