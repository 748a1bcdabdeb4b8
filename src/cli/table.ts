/**
 * An aligned text table for people: a header, a rule, one line per row; numbers right-aligned,
 * long cells cut with an ellipsis, fractions (the columns of type `number`, such as a
 * competitor's similarity, 0 to 1) rounded to {@link TABLE_DECIMALS} decimals. With colour, the header is bold and the rule dim; widths are
 * measured on the plain text, so the styles never shift a column.
 *
 * @module
 * @internal
 */
import type { Paint } from './style.js';

const MAX_CELL = 60;

/**
 * Decimals of a fraction in the table: the interface's only `number` field, similarity (0 to 1,
 * 0.5 means 50%), to a tenth of a percent. json, ndjson and csv keep the service's value whole.
 *
 * @internal
 */
export const TABLE_DECIMALS = 3;

/** The columns the table rounds (of type `number` in the record), by name. @internal */
export type Fractions = ReadonlySet<string>;

const unstyled: Paint = (_style, text) => text;

/** A cell as text: arrays comma-joined, booleans and numbers as written. @internal */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

const NONE: Fractions = new Set();

/** How {@link renderTable} writes some columns. @internal */
export interface TableOptions {
  /** Columns whose cells are never cut (a field's meaning). */
  readonly whole?: readonly string[];
  /** Columns rounded to {@link TABLE_DECIMALS} decimals. */
  readonly fractions?: Fractions;
}

/** A cell of the table: a fraction rounded, anything else as {@link cellText} writes it. */
function tableCell(value: unknown, fraction: boolean): string {
  return fraction && typeof value === 'number' && Number.isFinite(value) ? value.toFixed(TABLE_DECIMALS) : cellText(value);
}

function cut(text: string, whole = false): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  return !whole && flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/**
 * Renders rows as an aligned table with the given columns; the `whole` columns are never cut
 * (text of our own, such as a field's meaning, rather than data of unknown length).
 *
 * @internal
 */
export function renderTable(columns: readonly string[], rows: readonly Record<string, unknown>[], paint: Paint = unstyled, options: TableOptions = {}): string {
  const { whole = [], fractions = NONE } = options;
  const cells = rows.map((row) => columns.map((c) => cut(tableCell(row[c], fractions.has(c)), whole.includes(c))));
  const numeric = columns.map((c) => rows.length > 0 && rows.every((row) => typeof row[c] === 'number'));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
  const pad = (text: string, i: number): string => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (texts: readonly string[]): string => texts.map(pad).join('  ').trimEnd();
  return [paint('bold', line(columns)), paint('dim', widths.map((w) => '-'.repeat(w)).join('  ')), ...cells.map(line)].join('\n') + '\n';
}

/**
 * Renders one record as a two-column table, field by field (overview, keyword metrics).
 *
 * @internal
 */
export function renderRecord(record: Record<string, unknown>, paint: Paint = unstyled, fractions: Fractions = NONE): string {
  const names = Object.keys(record);
  const width = Math.max(5, ...names.map((n) => n.length));
  const line = (name: string) => {
    const text = `${name.padEnd(width)}  ${cut(tableCell(record[name], fractions.has(name)))}`.trimEnd();
    // The field names are this table's header column.
    return `${paint('bold', name)}${text.slice(name.length)}`;
  };
  return `${names.map(line).join('\n')}\n`;
}
