/**
 * Fixture rows generated from the catalogue (so no field is listed by hand), with text that
 * exercises CSV quoting: semicolons, quotes, commas, newlines and non-ASCII characters.
 */
import { operations, type OperationName } from '../../../src/catalogue/operations.js';
import type { FieldType, RecordSpec } from '../../../src/catalogue/records.js';

const TRICKY = ['plain', 'semi;colon', 'say "hi"', 'comma, inside', 'two\nlines', 'café ✓ 𝄞'];

const VALUES: Readonly<Record<FieldType, (field: string, i: number, targets: number) => unknown>> = {
  string: (field, i) => `${field}-${i}-${TRICKY[i % TRICKY.length]}`,
  timestamp: (_, i) => `2024-${String((i % 12) + 1).padStart(2, '0')}-01T10:${String(i % 60).padStart(2, '0')}:00`,
  integer: (_, i) => i % 101,
  number: (_, i) => (i % 100) / 100,
  boolean: (_, i) => i % 2 === 0,
  'integer[]': (_, i, targets) => Array.from({ length: targets }, (__, t) => i + t),
  'string[]': (_, i) => ['COMMERCIAL', 'INFORMATIONAL', 'SITELINKS'].slice(0, i % 4),
};

/** Row `i` of an operation, with every field of its record. */
export function sampleRow(operation: OperationName, i: number, targets = 12): Record<string, unknown> {
  const record: RecordSpec = operations[operation].record;
  return Object.fromEntries(Object.entries(record).map(([name, spec]) => [name, VALUES[spec.type](name, i, targets)]));
}

/** Keeps only `fields` (in record order), or every field. */
export function project(row: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields) return row;
  return Object.fromEntries(Object.entries(row).filter(([name]) => fields.includes(name)));
}

function csvCell(value: unknown): string {
  const text = Array.isArray(value) ? value.join(',') : String(value);
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The service's CSV: semicolons, a header row, quoted cells where needed (written by hand, on purpose). */
export function toCsv(operation: OperationName, rows: readonly Record<string, unknown>[], fields?: readonly string[]): string {
  const record: RecordSpec = operations[operation].record;
  const columns = Object.keys(record).filter((name) => record[name]!.csv !== false && (!fields || fields.includes(name)));
  const lines = [columns.join(';'), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(';'))];
  return `${lines.join('\n')}\n`;
}
