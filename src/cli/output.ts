/**
 * The output formats of operation commands: `table` (aligned, for people), `json`, `ndjson` and
 * `csv` (the service's own dialect, written by the service's own writer: semicolons, a header row,
 * booleans true/false, arrays comma-joined in the cell, RFC 4180 quoting, lines ending in CRLF).
 * ndjson and csv stream row by row; table and json need every row.
 *
 * @module
 * @internal
 */
import { toCsv } from '../server/csv.js';
import type { TextSink } from './command.js';
import { cellText, renderRecord, renderTable } from './table.js';

/** The output formats. @internal */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
/** An output format. @internal */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type Row = Record<string, unknown>;

/** Writes rows as they come, and whatever is left at the end. @internal */
export interface RowWriter {
  row(row: Row): void;
  end(): void;
}

/**
 * One CSV line, byte for byte as the service writes it: `toCsv` with no rows is exactly its header
 * line, so any list of cells goes through the service's quoting and its CRLF line end.
 */
function csvLine(cells: readonly string[]): string {
  return toCsv([], cells);
}

/**
 * A writer for a list of rows. `columns` gives the order (a `--fields` list, else the record's
 * order of the fields present).
 *
 * @internal
 */
export function listWriter(format: OutputFormat, out: TextSink, columnsOf: (rows: readonly Row[]) => readonly string[]): RowWriter {
  const rows: Row[] = [];
  let columns: readonly string[] | undefined;
  switch (format) {
    case 'ndjson':
      return { row: (row) => out.write(`${JSON.stringify(row)}\n`), end: () => {} };
    case 'csv':
      return {
        row(row) {
          if (!columns) {
            columns = columnsOf([row]);
            out.write(csvLine(columns));
          }
          out.write(csvLine(columns.map((c) => cellText(row[c]))));
        },
        end() {
          if (!columns) out.write(csvLine(columnsOf([])));
        },
      };
    case 'json':
      return { row: (row) => void rows.push(row), end: () => out.write(`${JSON.stringify(rows, null, 2)}\n`) };
    case 'table':
      return {
        row: (row) => void rows.push(row),
        end: () => out.write(rows.length === 0 ? '(no rows)\n' : renderTable(columnsOf(rows), rows)),
      };
  }
}

/** Writes one record (overview, keyword metrics) in a format. @internal */
export function writeRecord(format: OutputFormat, out: TextSink, record: Row, columns: readonly string[]): void {
  if (format === 'table') out.write(renderRecord(record));
  else if (format === 'json') out.write(`${JSON.stringify(record, null, 2)}\n`);
  else if (format === 'ndjson') out.write(`${JSON.stringify(record)}\n`);
  else out.write(csvLine(columns) + csvLine(columns.map((c) => cellText(record[c]))));
}
