/**
 * The fields a filter may name, per operation, read from the operation's record: every scalar
 * field, and each element `backlinks_counts[n]` of matrix's count array. Completion lists them;
 * the testing arbitraries draw conditions from them.
 *
 * @module
 * @internal
 */
import { fieldDoc } from './field-docs.js';
import { MAX_MATRIX_TARGETS, operations, type OperationName } from './operations.js';
import type { FieldType, RecordSpec } from './records.js';

/** The type a filter compares a field as: an array's element type for `name[n]`. */
export type FilterFieldType = Exclude<FieldType, 'integer[]' | 'string[]'>;

/** One field as a filter names it. */
export interface FilterField {
  /** The record field: `domain_score`, `backlinks_counts`. */
  readonly name: string;
  /** `n` of `backlinks_counts[n]`, `null` for a scalar field. */
  readonly index: number | null;
  /** What the filter text says: `domain_score`, `backlinks_counts[2]`. */
  readonly label: string;
  readonly type: FilterFieldType;
  /** The field's meaning (`fieldDoc`). */
  readonly doc: string;
}

const CACHE = new Map<string, readonly FilterField[]>();

/**
 * The fields a filter of `operation` may name, in record order; `backlinks_counts[n]` for n from 1
 * to `targets` (6 when unknown). Empty for an operation that takes no filter.
 *
 * @example
 * ```ts
 * filterFieldsOf('matrix', 2).map((f) => f.label);
 * // ['domain', 'domain_score', 'ip_address', 'country', 'matches_count', 'backlinks_counts[1]', 'backlinks_counts[2]'] (in record order)
 * ```
 */
export function filterFieldsOf(operation: OperationName, targets?: number): readonly FilterField[] {
  const key = `${operation}\u0000${targets ?? ''}`;
  let fields = CACHE.get(key);
  if (fields === undefined) {
    const out: FilterField[] = [];
    const spec = operations[operation];
    if (spec.filter) {
      for (const [name, { type }] of Object.entries(spec.record as RecordSpec)) {
        const doc = fieldDoc(spec.record, name) ?? '';
        if (type === 'integer[]') {
          for (let n = 1; n <= (targets ?? MAX_MATRIX_TARGETS); n++) {
            out.push(Object.freeze({ name, index: n, label: `${name}[${n}]`, type: 'integer', doc: `${doc} (target ${n})` }));
          }
        } else if (type !== 'string[]') {
          out.push(Object.freeze({ name, index: null, label: name, type, doc }));
        }
      }
    }
    fields = Object.freeze(out);
    CACHE.set(key, fields);
  }
  return fields;
}
