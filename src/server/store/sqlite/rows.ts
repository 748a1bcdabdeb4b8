/**
 * Database rows to records: booleans stored as 0/1 become true/false, hidden columns are dropped,
 * and fields come out in the catalogue's order.
 *
 * @module
 * @internal
 */
import type { RecordSpec } from '../../../catalogue/records.js';

/**
 * Converts one row of a relation named as the record's fields.
 *
 * @example
 * ```ts
 * toRecord({ _key: 1, anchor: 'a', is_lost: 0 }, { anchor: {...}, is_lost: { type: 'boolean' } });
 * // { anchor: 'a', is_lost: false }
 * ```
 */
export function toRecord<Row>(row: Record<string, unknown>, record: RecordSpec): Row {
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(record)) {
    const value = row[field];
    out[field] = spec.type === 'boolean' ? value === 1 || value === true : value;
  }
  return out as Row;
}
