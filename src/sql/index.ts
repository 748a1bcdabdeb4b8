/**
 * Parameterized SQL for a filter, in the dialects SQLite, PostgreSQL, MySQL/MariaDB, DuckDB and
 * ClickHouse.
 *
 * @example
 * ```ts
 * import { toSql } from 'backlink-query';
 * const { sql, parameters } = toSql(filter, { dialect: 'sqlite' });
 * db.prepare(`SELECT * FROM links WHERE ${sql}`).all(...parameters);
 * ```
 *
 * @module
 */
export { toSql, type SqlOptions } from './to-sql.js';
export type { CompiledSql } from './compiled-sql.js';
export type { ArrayStorage, ColumnMapping, ColumnRef } from './columns.js';
export type { NumericKind } from './numeric-kind.js';
export type { Dialect, DialectName } from './dialect.js';
export { FilterCompiler, type CompileContext } from './compiler.js';
export { dialects } from './dialects/index.js';
export { UnsupportedError, isUnsupportedError } from './unsupported-error.js';
