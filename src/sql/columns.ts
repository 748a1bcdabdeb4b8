/**
 * Where each field lives in the caller's table, and the rewrite of `backlinks_counts[n]` to its
 * column or array element.
 *
 * @module
 */
import type { Field } from '../ast/nodes.js';
import { invalidOption, malformedAst } from '../ast/shape.js';

/**
 * Maps filter fields to columns. A string is a column name; `{ column, table }` qualifies it; both
 * are quoted by the dialect. `{ sql }` is a trusted expression written by the caller, inserted as it
 * is (in parentheses) and never built from user input. Unmapped fields use their own name as column.
 *
 * @example
 * ```ts
 * const columns: ColumnMapping = {
 *   domain_score: 'score',
 *   anchor: { table: 'l', column: 'anchor_text' },
 *   first_seen_at: { sql: "strftime('%Y-%m-%dT%H:%M:%S', first_seen, 'unixepoch')" },
 * };
 * ```
 */
export interface ColumnMapping {
  [field: string]: string | { column: string; table?: string } | { sql: string };
}

/**
 * How `backlinks_counts[n]` is stored. `array`: one array column (`column`, default the mapping of
 * `backlinks_counts` or its name), read at the dialect's position for target n (see docs/sql.md).
 * `columns`: one column per target; `column(n)` names the column of target n (n counts from 1).
 *
 * @example
 * ```ts
 * const array: ArrayStorage = { kind: 'columns', column: (n) => `backlinks_count_${n}` };
 * ```
 */
export type ArrayStorage = { kind: 'array'; column?: string } | { kind: 'columns'; column: (n: number) => string };

/** A resolved field: a column, a trusted expression, or an element of an array column. @internal */
export type ColumnRef =
  | { readonly kind: 'column'; readonly column: string; readonly table?: string }
  | { readonly kind: 'sql'; readonly sql: string }
  | { readonly kind: 'element'; readonly array: ColumnRef; readonly position: number };

function mapped(name: string, columns: ColumnMapping | undefined): ColumnRef {
  const entry = columns !== undefined && Object.hasOwn(columns, name) ? columns[name] : undefined;
  if (entry === undefined) return { kind: 'column', column: name };
  if (typeof entry === 'string') return { kind: 'column', column: entry };
  if ('sql' in entry && typeof entry.sql === 'string') return { kind: 'sql', sql: entry.sql };
  if ('column' in entry && typeof entry.column === 'string') {
    return entry.table === undefined
      ? { kind: 'column', column: entry.column }
      : { kind: 'column', column: entry.column, table: entry.table };
  }
  throw invalidOption('columns', `Invalid column mapping for field ${name}`);
}

function withColumn(base: ColumnRef, column: string): ColumnRef {
  if (typeof column !== 'string' || column === '') throw invalidOption('array', 'An array storage column must be a non-empty string');
  return base.kind === 'column' && base.table !== undefined ? { kind: 'column', column, table: base.table } : { kind: 'column', column };
}

/**
 * Resolves a field to its column. `name[n]` (n from 1) becomes element n of the array column, or
 * the column that `array.column(n)` names; a table given in the mapping of the array field is kept.
 *
 * @internal
 */
export function resolveField(field: Field, columns?: ColumnMapping, array?: ArrayStorage): ColumnRef {
  const base = mapped(field.name, columns);
  if (field.index === null) return base;
  const position = field.index;
  if (!Number.isSafeInteger(position) || position < 1) {
    throw malformedAst(`index ${String(position)} on field ${field.name} (indexes count from 1)`);
  }
  if (array?.kind === 'columns') return withColumn(base, array.column(position));
  const arrayColumn = array?.column === undefined ? base : withColumn(base, array.column);
  return { kind: 'element', array: arrayColumn, position };
}
