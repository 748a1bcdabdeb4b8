/**
 * SQLite: BINARY collation on UTF-8 text is code-point order, but its LIKE ignores ASCII case and
 * treats `_` as a wildcard, so LIKE becomes GLOB (case-sensitive, index-friendly on a BINARY column).
 *
 * @module
 */
import { FilterCompiler } from '../compiler.js';
import { globPattern } from '../like-pattern.js';
import type { Dialect } from '../dialect.js';

/** SQLite's default SQLITE_MAX_LIKE_PATTERN_LENGTH, in UTF-8 bytes. */
const SQLITE_MAX_PATTERN_BYTES = 50_000;

/** @internal */
export class SqliteCompiler extends FilterCompiler {
  // COLLATE BINARY makes a NOCASE column compare exactly too; on a BINARY column SQLite still uses
  // the index (EXPLAIN QUERY PLAN: SEARCH ... USING INDEX).
  protected override compareText(left: string, operator: string, right: string): string {
    return `${left} COLLATE BINARY ${operator} ${right}`;
  }

  // SQLite has no boolean type: true and false are stored as 1 and 0.
  protected override bindBoolean(value: boolean): unknown {
    return value ? 1 : 0;
  }

  protected override likePattern(pattern: string): string {
    const glob = globPattern(pattern);
    // SQLite refuses longer patterns at run time ("LIKE or GLOB pattern too complex").
    if (new TextEncoder().encode(glob).length > SQLITE_MAX_PATTERN_BYTES) {
      this.unsupported(`a LIKE pattern longer than ${SQLITE_MAX_PATTERN_BYTES} bytes as GLOB (SQLITE_MAX_LIKE_PATTERN_LENGTH)`);
    }
    return glob;
  }

  protected override like(left: string, pattern: string, negated: boolean): string {
    return `${left} ${negated ? 'NOT GLOB' : 'GLOB'} ${pattern}`;
  }

  // Arrays are JSON text (`[3,0,7]`); JSON paths count from 0.
  protected override arrayElement(array: string, position: number): string {
    return `json_extract(${array}, '$[${position - 1}]')`;
  }

  // GLOB reads its operands as NUL-terminated text, so a NUL would cut the pattern short; and it
  // decodes U+FFFE and U+FFFF as U+FFFD, so a pattern holding one of the three matches all three.
  protected override checkText(value: string, use: 'compare' | 'like'): void {
    if (use !== 'like') return;
    if (value.includes('\u0000')) this.unsupported('a LIKE pattern cannot contain U+0000');
    if (/[\ufffd-\uffff]/.test(value)) this.unsupported('GLOB cannot tell U+FFFD, U+FFFE and U+FFFF apart in a LIKE pattern');
  }
}

/**
 * The SQLite dialect.
 *
 * @example
 * ```ts
 * toSql(filter, { dialect: sqliteDialect });
 * ```
 */
export const sqliteDialect: Dialect = Object.freeze({ name: 'sqlite', createCompiler: () => new SqliteCompiler('sqlite') });
