/**
 * CSV output: a header line, then one line per row; `;` between cells; booleans `true`/`false`;
 * arrays comma-joined in one cell; RFC 4180 quoting (a cell holding `;`, `"`, CR or LF is quoted
 * and its quotes doubled) so that any standard reader gets the values back; lines end in CRLF.
 *
 * @module
 */
import type { RecordSpec } from './records.js';

/**
 * The delimiter between cells.
 *
 * @example
 * ```ts
 * Papa.parse(text, { header: true, delimiter: CSV_DELIMITER });
 * ```
 */
export const CSV_DELIMITER = ';';

const NEEDS_QUOTES = /[;"\r\n]/;

function cell(value: unknown): string {
  let text: string;
  if (Array.isArray(value)) text = value.map((item) => String(item)).join(',');
  else if (value === null || value === undefined) text = '';
  else text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The CSV columns of a record restricted to the returned fields, in the record's order.
 *
 * @example
 * ```ts
 * csvColumns(historicalRecord, ['url', 'score', 'scope']); // ['score', 'url'] (scope has no column)
 * ```
 */
export function csvColumns(record: RecordSpec, fields: readonly string[]): string[] {
  return Object.keys(record).filter((field) => fields.includes(field) && record[field]?.csv !== false);
}

/**
 * Writes rows as CSV.
 *
 * @example
 * ```ts
 * toCsv([{ anchor: 'a;b', backlinks_count: 2 }], ['anchor', 'backlinks_count']);
 * // 'anchor;backlinks_count\r\n"a;b";2\r\n'
 * ```
 */
export function toCsv(rows: readonly Readonly<Record<string, unknown>>[], columns: readonly string[]): string {
  const lines = [columns.map(cell).join(CSV_DELIMITER)];
  for (const row of rows) lines.push(columns.map((column) => cell(row[column])).join(CSV_DELIMITER));
  return `${lines.join('\r\n')}\r\n`;
}
