/**
 * `toSql`: a filter AST lowered to a parameterized boolean expression for one dialect.
 *
 * @module
 */
import type { FilterNode } from '../ast/nodes.js';
import type { ArrayStorage, ColumnMapping } from './columns.js';
import type { CompiledSql, SqlFragments } from './compiled-sql.js';
import type { FilterCompiler } from './compiler.js';
import type { Dialect, DialectName } from './dialect.js';
import { dialects } from './dialects/index.js';
import { invalidOption } from '../ast/shape.js';

/**
 * Options of {@link toSql}.
 *
 * @example
 * ```ts
 * const options: SqlOptions = { dialect: 'mysql', operation: 'matrix', array: { kind: 'columns', column: (n) => `counts_${n}` } };
 * ```
 */
export interface SqlOptions {
  /** A built-in dialect name, or a {@link Dialect} of your own. */
  dialect: DialectName | Dialect;
  /** Where each field lives; default: the field name as a quoted column. */
  columns?: ColumnMapping;
  /** How `backlinks_counts[n]` is stored; default: an array column named `backlinks_counts`. */
  array?: ArrayStorage;
  /** The operation the filter belongs to (`'links'`, ...): its record says which fields are integers. */
  operation?: string;
}

function compilerFor(dialect: DialectName | Dialect): FilterCompiler {
  if (typeof dialect === 'string') {
    if (!Object.hasOwn(dialects, dialect)) throw invalidOption('dialect', `Unknown dialect ${JSON.stringify(dialect)}`);
    return dialects[dialect].createCompiler();
  }
  return dialect.createCompiler();
}

function contextOf(options: SqlOptions): { columns?: ColumnMapping; array?: ArrayStorage; operation?: string } {
  const { columns, array, operation } = options;
  return { ...(columns && { columns }), ...(array && { array }), ...(operation !== undefined && { operation }) };
}

/**
 * Lowers a filter AST to a boolean SQL expression for a `WHERE` clause. Every literal is a bound
 * parameter; identifiers are quoted; text compares by code point and LIKE matches case-sensitively
 * with only `%` as a wildcard, on every dialect. Throws {@link UnsupportedError} when the dialect
 * cannot express the filter exactly.
 *
 * @example
 * ```ts
 * const filter = parseFilter("domain_score > 50 AND anchor LIKE '%seo%'", { operation: 'links' });
 * toSql(filter, { dialect: 'postgres' });
 * // { sql: '("domain_score" > $1 AND "anchor" COLLATE "C" LIKE $2)', parameters: [50, '%seo%'] }
 * ```
 */
export function toSql(filter: FilterNode, options: SqlOptions): CompiledSql {
  return compilerFor(options.dialect).compile(filter, contextOf(options));
}

/**
 * Like {@link toSql}, but split at the parameters, for query builders with their own placeholders.
 *
 * @internal
 */
export function toSqlFragments(filter: FilterNode, options: SqlOptions): SqlFragments {
  return compilerFor(options.dialect).compileFragments(filter, contextOf(options));
}
