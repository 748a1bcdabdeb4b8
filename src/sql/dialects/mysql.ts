/**
 * MySQL and MariaDB: default collations ignore case (and, in MariaDB, trailing spaces), so the
 * bound side of every text comparison and LIKE is a binary string, which makes the whole
 * comparison binary: UTF-8 bytes, that is code-point order. `ESCAPE '!'` keeps the statement the
 * same under `NO_BACKSLASH_ESCAPES`.
 *
 * @module
 */
import { FilterCompiler } from '../compiler.js';
import type { Dialect } from '../dialect.js';

/** @internal */
export class MysqlCompiler extends FilterCompiler {
  protected override quoteIdentifier(name: string): string {
    return `\`${name.replaceAll('`', '``')}\``;
  }

  // Casting the parameter, not the column, leaves an index on the column usable for `=`.
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} ${operator} CAST(${right} AS BINARY)`;
  }

  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT LIKE' : 'LIKE'} CAST(${pattern} AS BINARY) ESCAPE '${this.likeEscape}'`;
  }

  protected override bindBoolean(value: boolean): unknown {
    return value ? 1 : 0;
  }

  // Arrays are JSON (`[3,0,7]`); JSON paths count from 0.
  protected override arrayElement(array: string, position: number): string {
    return `CAST(JSON_EXTRACT(${array}, '$[${position - 1}]') AS SIGNED)`;
  }
}

/**
 * The MySQL / MariaDB dialect.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: mysqlDialect }).sql; // '`anchor` LIKE CAST(? AS BINARY) ESCAPE \'!\''
 * ```
 */
export const mysqlDialect: Dialect = Object.freeze({ name: 'mysql', createCompiler: () => new MysqlCompiler('mysql') });
