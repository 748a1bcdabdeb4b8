/**
 * What the playground shows for one filter text, computed by the package itself: the issues
 * (`safeParseFilter`), the canonical text (`printFilter`), the SQL of every built-in dialect
 * (`toSql`, each dialect of `dialects`) and the filter's verdict on the sample rows (the evaluator).
 * No DOM here, so the same code runs in the page and in Node.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../ast/nodes.js';
import type { FilterableOperation } from '../catalogue/operations.js';
import type { FilterIssue } from '../errors/issue.js';
import { compilePredicate } from '../evaluate/compile-predicate.js';
import type { Row } from '../evaluate/row.js';
import { printFilter } from '../print/printer.js';
import type { DialectName } from '../sql/dialect.js';
import { dialects } from '../sql/dialects/index.js';
import { toSql } from '../sql/to-sql.js';
import { safeParseFilter } from '../syntax/parse.js';

/** The SQL of one dialect, or why the dialect cannot express the filter. @internal */
export type DialectSql =
  | { readonly dialect: DialectName; readonly ok: true; readonly sql: string; readonly parameters: readonly unknown[] }
  | { readonly dialect: DialectName; readonly ok: false; readonly message: string };

/** Everything the page shows for one filter text. @internal */
export type Analysis =
  /** An empty (or blank) editor: no filter, every row. */
  | { readonly state: 'empty' }
  | { readonly state: 'invalid'; readonly issues: readonly FilterIssue[] }
  | {
      readonly state: 'valid';
      readonly filter: FilterNode;
      readonly canonical: string;
      readonly sql: readonly DialectSql[];
      /** One verdict per sample row, in order. */
      readonly matches: readonly boolean[];
    };

/** The built-in dialect names, in the order `dialects` lists them. @internal */
export const DIALECT_NAMES = Object.keys(dialects) as DialectName[];

/**
 * Analyses a filter text for an operation (and, for matrix, its number of targets).
 *
 * @example
 * ```ts
 * const a = analyse('domain_score>50', { operation: 'links' }, rows);
 * a.state === 'valid' && a.canonical; // 'domain_score > 50'
 * ```
 * @internal
 */
export function analyse(text: string, options: { readonly operation: FilterableOperation; readonly targets?: number }, rows: readonly Row[]): Analysis {
  if (text.trim() === '') return { state: 'empty' };
  const result = safeParseFilter(text, options);
  if (!result.ok) return { state: 'invalid', issues: result.issues };
  const filter = result.filter;
  const sql = DIALECT_NAMES.map((dialect): DialectSql => {
    try {
      const compiled = toSql(filter, { dialect, operation: options.operation });
      return { dialect, ok: true, sql: compiled.sql, parameters: compiled.parameters };
    } catch (error) {
      return { dialect, ok: false, message: (error as Error).message };
    }
  });
  const keep = compilePredicate(filter);
  return { state: 'valid', filter, canonical: printFilter(filter), sql, matches: rows.map((row) => keep(row)) };
}
