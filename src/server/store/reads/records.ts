/**
 * Database rows to records: booleans (0/1 on SQLite, BOOLEAN on PostgreSQL) become true/false,
 * counts (numeric text from PostgreSQL's bigint, numbers elsewhere) become numbers, hidden columns
 * are dropped, and fields come out in the catalogue's order.
 *
 * @module
 * @internal
 */
import type { RecordSpec } from '../../../catalogue/records.js';

/** Converts one row of a relation named as the record's fields. */
export function toRecord<Row>(row: Readonly<Record<string, unknown>>, record: RecordSpec): Row {
  const out: Record<string, unknown> = {};
  for (const [field, kind] of planOf(record)) {
    const value = row[field];
    if (kind === 'boolean') out[field] = value === 1 || value === true;
    else if (kind === 'number' && typeof value !== 'number' && value !== undefined) out[field] = Number(value);
    else out[field] = value;
  }
  return out as Row;
}

/** Each field and what its value needs, worked out once per record (a page converts many rows). */
const PLANS = new WeakMap<RecordSpec, readonly (readonly [string, 'boolean' | 'number' | 'as is'])[]>();
function planOf(record: RecordSpec) {
  let plan = PLANS.get(record);
  if (!plan) {
    plan = Object.entries(record).map(([field, { type }]) => [field, type === 'boolean' ? 'boolean' : type === 'integer' || type === 'number' ? 'number' : 'as is'] as const);
    PLANS.set(record, plan);
  }
  return plan;
}
