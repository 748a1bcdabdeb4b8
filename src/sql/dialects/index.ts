/**
 * The built-in dialects by name.
 *
 * @module
 */
import type { Dialect, DialectName } from '../dialect.js';
import { clickhouseDialect, clickhouseLiteralsDialect } from './clickhouse.js';
import { duckdbDialect } from './duckdb.js';
import { mysqlDialect } from './mysql.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';

/**
 * The built-in dialects.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: dialects.postgres });
 * ```
 */
export const dialects: Readonly<Record<DialectName, Dialect>> = Object.freeze({
  sqlite: sqliteDialect,
  postgres: postgresDialect,
  mysql: mysqlDialect,
  duckdb: duckdbDialect,
  clickhouse: clickhouseDialect,
  'clickhouse-literals': clickhouseLiteralsDialect,
});
