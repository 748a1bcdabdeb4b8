/**
 * The filter, lowered by the package's SQL compiler (`toSqlFragments`, in the store's filter
 * dialect) over a relation whose columns are named as the record's fields, so no column mapping
 * is needed; in matrix, `backlinks_counts[n]` is the column `bc_<n>`. The compiled pieces become a
 * {@link Fragment} with `?` placeholders, so the filter nests inside the store's own SQL. A filter
 * the dialect cannot express exactly throws the compiler's `UnsupportedError`; the app answers it.
 *
 * @module
 * @internal
 */
import type { FilterNode } from '../../../ast/nodes.js';
import { toSqlFragments } from '../../../sql/to-sql.js';
import type { StoreDialect } from '../connection.js';
import type { Fragment } from '../fragment.js';

/** The column holding `backlinks_counts[n]` in the matrix relation. @internal */
export const matrixCountColumn = (n: number): string => `bc_${n}`;

/** The WHERE condition for a filter; `null` when there is none. */
export function filterCondition(filter: FilterNode | null, operation: string, dialect: StoreDialect): Fragment | null {
  if (filter === null) return null;
  const { fragments, parameters } = toSqlFragments(filter, {
    dialect: dialect.filter,
    operation,
    ...(operation === 'matrix' ? { array: { kind: 'columns' as const, column: matrixCountColumn } } : {}),
  });
  return { sql: `(${fragments.join('?')})`, params: parameters };
}
