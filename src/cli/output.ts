/**
 * The output formats of operation commands: `table` (aligned, for people), `json`, `ndjson` and
 * `csv` (the service's own dialect, written by the service's own writer: semicolons, a header row,
 * booleans true/false, arrays comma-joined in the cell, RFC 4180 quoting, lines ending in CRLF;
 * `--delimiter` changes only the semicolon). ndjson, csv and json stream row by row (json as the
 * same indented array it would print at once); the table needs every row for its widths.
 *
 * Without `--format`, a terminal gets the table and anything else (a pipe, a file) gets NDJSON:
 * one complete JSON record per line, which `jq`, `grep` and line-based tools read as it streams,
 * with no dialect to agree on (CSV would flatten arrays and lose the types).
 *
 * @module
 * @internal
 */
import { CSV_DELIMITER, toCsv } from '../catalogue/csv.js';
import { UsageError } from './args.js';
import type { TextSink } from './command.js';
import type { Paint } from './style.js';
import { cellText, renderRecord, renderTable, type Fractions } from './table.js';

/** The output formats. @internal */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
/** An output format. @internal */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * The format when `--format` is not given: `table` for a person at a terminal, `ndjson` for a
 * program (stdout a pipe or a file).
 *
 * @internal
 */
export const defaultFormat = (stdout: Pick<TextSink, 'isTTY'>): OutputFormat => (stdout.isTTY === true ? 'table' : 'ndjson');

/** How rows are written, beside the format: the CSV delimiter and the styles of the table. @internal */
export interface OutputStyle {
  /** The CSV delimiter (default `;`, the service's). */
  readonly delimiter?: string;
  /** Styles for the table's header (text unchanged when stdout gets no colour). */
  readonly paint?: Paint;
  /** The columns the table rounds: those of type `number` in the operation's record. */
  readonly fractions?: Fractions;
}

/**
 * Reads `--delimiter`: one character that is not a double quote, CR or LF (those are CSV's own
 * syntax, so no reader could split the cells back). `undefined` when absent.
 *
 * @internal
 */
export function delimiterOption(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if ([...raw].length !== 1 || raw === '"' || raw === '\r' || raw === '\n') {
    const tab = raw === '\\t' ? "; for a tab, pass $'\\t' (bash, zsh) or a literal tab" : '';
    throw new UsageError(`--delimiter must be one character other than a double quote or a line break, not ${JSON.stringify(raw)}${tab}.`);
  }
  return raw;
}

type Row = Record<string, unknown>;

/** Writes rows as they come, and whatever is left at the end. @internal */
export interface RowWriter {
  row(row: Row): void;
  end(): void;
}

/**
 * One CSV line. With the service's `;`, byte for byte as the service writes it: `toCsv` with no
 * rows is exactly its header line, so any list of cells goes through the service's quoting and its
 * CRLF line end. With another delimiter, the same rules around that delimiter: a cell is quoted
 * (its quotes doubled) only when it holds the delimiter, a quote, CR or LF.
 */
function csvLine(cells: readonly string[], delimiter: string = CSV_DELIMITER): string {
  if (delimiter === CSV_DELIMITER) return toCsv([], cells);
  const quoted = (text: string) => (text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return `${cells.map(quoted).join(delimiter)}\r\n`;
}

/**
 * A writer for a list of rows. `columns` gives the order (a `--fields` list, else the record's
 * order of the fields present).
 *
 * @internal
 */
export function listWriter(format: OutputFormat, out: TextSink, columnsOf: (rows: readonly Row[]) => readonly string[], style: OutputStyle = {}): RowWriter {
  const rows: Row[] = [];
  const { delimiter } = style;
  let columns: readonly string[] | undefined;
  switch (format) {
    case 'ndjson':
      return { row: (row) => out.write(`${JSON.stringify(row)}\n`), end: () => {} };
    case 'csv':
      return {
        row(row) {
          if (!columns) {
            columns = columnsOf([row]);
            out.write(csvLine(columns, delimiter));
          }
          out.write(csvLine(columns.map((c) => cellText(row[c])), delimiter));
        },
        end() {
          if (!columns) out.write(csvLine(columnsOf([]), delimiter));
        },
      };
    case 'json': {
      // Streamed, row by row, as the same text `JSON.stringify(rows, null, 2)` writes at once:
      // a reader that stops early (`| head`) is seen at the next write, before the next page.
      let written = 0;
      const indented = (row: Row) => JSON.stringify(row, null, 2).replace(/\n/g, '\n  ');
      return {
        row: (row) => void out.write(`${written++ === 0 ? '[\n' : ',\n'}  ${indented(row)}`),
        end: () => void out.write(written === 0 ? '[]\n' : '\n]\n'),
      };
    }
    case 'table':
      return {
        row: (row) => void rows.push(row),
        end: () => out.write(rows.length === 0 ? '(no rows)\n' : renderTable(columnsOf(rows), rows, style.paint, { fractions: style.fractions })),
      };
  }
}

/** Writes one record (overview, keyword metrics) in a format. @internal */
export function writeRecord(format: OutputFormat, out: TextSink, record: Row, columns: readonly string[], style: OutputStyle = {}): void {
  if (format === 'table') out.write(renderRecord(record, style.paint, style.fractions));
  else if (format === 'json') out.write(`${JSON.stringify(record, null, 2)}\n`);
  else if (format === 'ndjson') out.write(`${JSON.stringify(record)}\n`);
  else out.write(csvLine(columns, style.delimiter) + csvLine(columns.map((c) => cellText(record[c])), style.delimiter));
}
