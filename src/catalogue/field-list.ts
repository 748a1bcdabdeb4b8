/**
 * The fields of an operation as a person looks them up: name, type, whether a filter may name it
 * and whether `order_by` may sort by it, and its meaning. Read from the operation's record, its
 * parameters and the field docs; `backlink-query fields <operation>` and each operation's `--help`
 * print it.
 *
 * @module
 * @internal
 */
import { fieldDoc } from './field-docs.js';
import { filterFieldsOf } from './filter-fields.js';
import { operations, type OperationName } from './operations.js';
import { isSortableType, type FieldType, type RecordSpec } from './records.js';

/** One field of an operation's record. @internal */
export interface FieldListEntry {
  readonly name: string;
  readonly type: FieldType;
  /**
   * How a filter names the field: the name, `backlinks_counts[n]` for an array a filter indexes,
   * `null` where no filter may name it (an operation without `filter`, a list of strings).
   */
  readonly filter: string | null;
  /** Whether `order_by` takes it: the operation sorts, and the field is not an array. */
  readonly sort: boolean;
  readonly doc: string;
}

/**
 * The fields of `operation`, in record order (the CSV column order).
 *
 * @example
 * ```ts
 * fieldListOf('matrix').find((f) => f.name === 'backlinks_counts');
 * // { name: 'backlinks_counts', type: 'integer[]', filter: 'backlinks_counts[n]', sort: false, doc: '...' }
 * ```
 * @internal
 */
export function fieldListOf(operation: OperationName): readonly FieldListEntry[] {
  const spec = operations[operation];
  const record: RecordSpec = spec.record;
  const sorts = 'order_by' in spec.params;
  const filterable = new Map(filterFieldsOf(operation, 1).map((field) => [field.name, field.index === null ? field.name : `${field.name}[n]`]));
  return Object.entries(record).map(([name, { type }]) => ({
    name,
    type,
    filter: filterable.get(name) ?? null,
    sort: sorts && isSortableType(type),
    doc: fieldDoc(record, name) ?? '',
  }));
}
