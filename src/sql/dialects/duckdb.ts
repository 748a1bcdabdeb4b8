/**
 * DuckDB: text compares as binary by default, but `default_collation` can change that, so text
 * comparisons name the binary collation. LIKE is case-sensitive but has no default escape.
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
