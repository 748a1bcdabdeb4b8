/**
 * What a dialect is: a name and a factory for its compiler.
 *
 * @module
 */
import type { FilterCompiler } from './compiler.js';

/**
 * The built-in dialects.
 *
 * @example
 * ```ts
 * const name: DialectName = 'duckdb';
 * ```
 */
export type DialectName = 'sqlite' | 'postgres' | 'mysql' | 'duckdb' | 'clickhouse' | 'clickhouse-literals';

/**
 * A SQL dialect: a fresh {@link FilterCompiler} subclass per compilation. Write one to support an
 * engine the package does not know, overriding only the hooks that differ.
 *
 * @example
 * ```ts
 * const citus: Dialect = { name: 'citus', createCompiler: () => dialects.postgres.createCompiler() };
 * toSql(filter, { dialect: citus });
 * ```
 */
export interface Dialect {
  readonly name: string;
  createCompiler(): FilterCompiler;
}
