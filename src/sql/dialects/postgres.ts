/**
 * PostgreSQL (and engines that speak it, such as Citus): text needs `COLLATE "C"` for code-point
 * order; LIKE keeps its default escape, the backslash, which the planner understands for prefixes.
 *
 * @module
 */
import { FilterCompiler } from '../compiler.js';
import type { Dialect } from '../dialect.js';

/** @internal */
export class PostgresCompiler extends FilterCompiler {
  protected override readonly likeEscape = '\\';

  protected override placeholder(index: number): string {
    return `$${index}`;
  }

  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} COLLATE "C" ${operator} ${right}`;
  }

  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} COLLATE "C" ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`;
  }

  // An untyped parameter takes the column's type; 2.5 is not a valid bigint.
  protected override numberParameter(placeholder: string, value: number): string {
    return Number.isInteger(value) ? placeholder : `CAST(${placeholder} AS double precision)`;
  }

  // PostgreSQL text cannot hold U+0000 at all: binding one is an error.
  protected override checkText(value: string): void {
    if (value.includes('\u0000')) this.unsupported('text cannot contain U+0000');
  }
}

/**
 * The PostgreSQL dialect.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: postgresDialect }).sql; // '"domain_score" > $1'
 * ```
 */
export const postgresDialect: Dialect = Object.freeze({ name: 'postgres', createCompiler: () => new PostgresCompiler('postgres') });
