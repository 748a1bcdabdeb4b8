/**
 * An aligned text table for people: a header, a rule, one line per row; numbers right-aligned,
 * long cells cut with an ellipsis.
 *
 * @module
 * @internal
 */

const MAX_CELL = 60;

/** A cell as text: arrays comma-joined, booleans and numbers as written. @internal */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

function cut(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/**
 * Renders rows as an aligned table with the given columns.
 *
 * @internal
 */
export function renderTable(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cells = rows.map((row) => columns.map((c) => cut(cellText(row[c]))));
  const numeric = columns.map((c) => rows.length > 0 && rows.every((row) => typeof row[c] === 'number'));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
  const pad = (text: string, i: number): string => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (texts: readonly string[]): string => texts.map(pad).join('  ').trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n') + '\n';
}

/**
 * Renders one record as a two-column table, field by field (overview, keyword metrics).
 *
 * @internal
 */
export function renderRecord(record: Record<string, unknown>): string {
  const names = Object.keys(record);
  const width = Math.max(5, ...names.map((n) => n.length));
  return `${names.map((n) => `${n.padEnd(width)}  ${cut(cellText(record[n]))}`.trimEnd()).join('\n')}\n`;
}
