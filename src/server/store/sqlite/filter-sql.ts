/**
 * The filter, lowered by the package's SQL compiler (`toSql`, sqlite dialect) over a relation
 * whose columns are named as the record's fields, so no column mapping is needed; in matrix,
 * `backlinks_counts[n]` is the column `bc_<n>`. Booleans are 0/1 in every relation, as the
 * sqlite dialect binds them.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../../ast/nodes.js';
import { toSql } from '../../../sql/to-sql.js';
import { isUnsupportedError } from '../../../sql/unsupported-error.js';
import { ApiError } from '../../errors.js';
import { raw, type Fragment } from './fragment.js';

/** The column holding `backlinks_counts[n]` in the matrix relation. @internal */
export const matrixCountColumn = (n: number): string => `bc_${n}`;

/**
 * The WHERE condition for a filter; `1` (true) when there is none.
 *
 * @example
 * ```ts
 * filterCondition(parseFilter('domain_score > 50', { operation: 'links' }), 'links');
 * // { sql: '"domain_score" > ?', params: [50] }
 * ```
 */
export function filterCondition(filter: FilterNode | null, operation: string): Fragment {
  if (filter === null) return raw('1');
  let compiled;
  try {
    compiled = toSql(filter, {
      dialect: 'sqlite',
      operation,
      ...(operation === 'matrix' ? { array: { kind: 'columns' as const, column: matrixCountColumn } } : {}),
    });
  } catch (error) {
    // A valid filter this store's SQL cannot express exactly is refused, never answered wrongly.
    if (isUnsupportedError(error)) throw new ApiError(400, `The filter cannot be run here: ${error.message}.`, [{ parameter: 'filter', code: 'unsupported_filter', message: error.message }]);
    throw error;
  }
  return { sql: `(${compiled.sql})`, params: compiled.parameters };
}
