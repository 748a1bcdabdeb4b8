/**
 * Turning a body into rows: the JSON envelope with a shape check against the catalogue's record,
 * and the semicolon CSV split into cells ({@link splitCsv}) and typed by the record's field types.
 *
 * @module
 */
import { operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType, RecordSpec } from '../catalogue/records.js';
import type { ResponseMeta } from './types.js';

/**
 * A decoding failure; the request layer (`call.ts`) turns it into `ResponseShapeError` with the
 * URL. Internal: it never leaves the client's own modules, so unlike the package's errors it has
 * no brand (the client's first chunk has no bytes to spare), and `call.ts` recognises it with
 * `instanceof`. @internal
 */
export class ShapeProblem extends Error {}

type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a JSON value has a field type. One function for every type, so the check of a row is one call site that stays fast. */
function fits(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
    case 'timestamp':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer[]':
      return Array.isArray(value) && value.every((x) => Number.isInteger(x));
    case 'string[]':
      return Array.isArray(value) && value.every((x) => typeof x === 'string');
  }
}

/** Each field's type, by name, built once per record: a row's check is then one lookup per field. */
const FIELD_TYPES = new WeakMap<RecordSpec, ReadonlyMap<string, FieldType>>();

function typesOf(record: RecordSpec): ReadonlyMap<string, FieldType> {
  let types = FIELD_TYPES.get(record);
  if (types === undefined) {
    types = new Map(Object.keys(record).map((name) => [name, record[name]!.type]));
    FIELD_TYPES.set(record, types);
  }
  return types;
}

/** Where a row is: `data`, or `data[3]` in a list; built only to report a problem. */
const rowPlace = (index: number | undefined) => (index === undefined ? 'data' : `data[${index}]`);

/** Checks one row (`index`: its place in a list). */
function checkRow(types: ReadonlyMap<string, FieldType>, row: unknown, index: number | undefined): void {
  if (!isObject(row)) throw new ShapeProblem(`${rowPlace(index)} is not an object`);
  for (const name in row) {
    if (!Object.prototype.hasOwnProperty.call(row, name)) continue;
    const type = types.get(name);
    // Fields the catalogue does not know are kept: a newer service may add some.
    if (type !== undefined && !fits(type, row[name])) throw new ShapeProblem(`${rowPlace(index)}.${name} is not of type ${type}`);
  }
}

/**
 * Parses and checks a JSON body: `{ meta, data }` with `data` one record or an array of records
 * whose known fields have the catalogue's types.
 *
 * @internal
 */
export function decodeJson(operation: OperationName, body: string): { meta: ResponseMeta; data: Row | Row[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ShapeProblem('the body is not JSON');
  }
  if (!isObject(parsed)) throw new ShapeProblem('the body is not an object');
  if (!isObject(parsed['meta'])) throw new ShapeProblem('meta is missing or not an object');
  const spec = operations[operation];
  const types = typesOf(spec.record);
  const data = parsed['data'];
  if (spec.shape === 'list') {
    if (!Array.isArray(data)) throw new ShapeProblem('data is not an array');
    for (let i = 0; i < data.length; i++) checkRow(types, data[i], i);
  } else {
    checkRow(types, data, undefined);
  }
  return { meta: parsed['meta'] as unknown as ResponseMeta, data: data as Row | Row[] };
}

const splitList = (cell: string): string[] => (cell === '' ? [] : cell.split(','));

/** Column kinds as small integers, so the hot loop is one `switch` and no call per cell. */
const KIND = { text: 0, integer: 1, number: 2, boolean: 3, integers: 4, strings: 5 } as const;
const KIND_OF: Readonly<Record<FieldType, number>> = {
  string: KIND.text,
  timestamp: KIND.text,
  integer: KIND.integer,
  number: KIND.number,
  boolean: KIND.boolean,
  'integer[]': KIND.integers,
  'string[]': KIND.strings,
};

/** Why a cell does not fit its column, or `undefined` when it does. */
function badCell(kind: number, cell: string): string | undefined {
  if (kind === KIND.boolean) return cell === 'true' || cell === 'false' ? undefined : 'is not true or false';
  if (kind === KIND.integers) return splitList(cell).every((x) => x !== '' && Number.isInteger(Number(x))) ? undefined : 'is not a list of integers';
  const value = Number(cell);
  if (cell.trim() === '' || !(kind === KIND.integer ? Number.isInteger(value) : Number.isFinite(value))) return kind === KIND.integer ? 'is not an integer' : 'is not a number';
  return undefined;
}

/** Decodes one cell; `undefined` means it does not fit (the caller then asks {@link badCell} why). */
function decodeCell(kind: number, cell: string): unknown {
  switch (kind) {
    case KIND.text:
      return cell;
    case KIND.integer: {
      const value = +cell;
      return cell !== '' && Number.isInteger(value) ? value : undefined;
    }
    case KIND.number: {
      const value = +cell;
      return cell.trim() !== '' && Number.isFinite(value) ? value : undefined;
    }
    case KIND.boolean:
      return cell === 'true' ? true : cell === 'false' ? false : undefined;
    case KIND.integers: {
      const values = splitList(cell).map(Number);
      return values.every(Number.isInteger) ? values : undefined;
    }
    default:
      return splitList(cell);
  }
}

const QUOTE = 34;
const SEMICOLON = 59;
const LF = 10;
const CR = 13;

/** The error of a quoted cell that is not closed properly, with its row (1-based, every line counted). */
const badQuotes = (problem: string, row: number) => new ShapeProblem(`CSV ${problem} at row ${row}`);

/** Whether a row holds something: Papa Parse's `skipEmptyLines: true` drops a row of one empty cell. */
const hasCells = (row: readonly string[]) => row.length > 1 || row[0] !== '';

/**
 * Splits the service's CSV into rows of cells: `;` between cells, lines ending in CRLF or LF,
 * RFC 4180 quoting (a cell in double quotes may hold `;`, line breaks and doubled quotes; spaces
 * may follow its closing quote). Lines with nothing on them are skipped. A quoted cell that never
 * closes, or has text after its closing quote, is a {@link ShapeProblem}. This reads what Papa
 * Parse reads with `{ delimiter: ';', skipEmptyLines: true }` and reports the same two quote errors
 * at the same rows (a property test compares them); it is a few dozen lines rather than a CSV
 * library because the client must stay small.
 *
 * @example
 * ```ts
 * splitCsv('a;b\r\n"x;1";"say ""hi"""\r\n'); // [['a', 'b'], ['x;1', 'say "hi"']]
 * ```
 * @internal
 */
export function splitCsv(text: string): string[][] {
  const rows: string[][] = [];
  if (!text.includes('"')) {
    for (const line of text.split('\n')) {
      const cells = line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line;
      if (cells !== '') rows.push(cells.split(';'));
    }
    return rows;
  }
  const end = text.length;
  let row: string[] = [];
  let read = 0; // rows read so far, empty ones included
  let at = 0;
  for (;;) {
    let cell = '';
    if (text.charCodeAt(at) === QUOTE) {
      let from = at + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) throw badQuotes('quoted field unterminated', read + 1);
        if (text.charCodeAt(quote + 1) === QUOTE) {
          cell += text.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        cell += text.slice(from, quote);
        at = quote + 1;
        break;
      }
      let next = at;
      while (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9) next++;
      const c = text.charCodeAt(next);
      const closed = next === end ? next === at : c === SEMICOLON || c === LF || (c === CR && text.charCodeAt(next + 1) === LF);
      if (!closed) throw badQuotes('trailing quote on quoted field is malformed', read + 1);
      at = next;
    } else {
      const semicolon = text.indexOf(';', at);
      const newline = text.indexOf('\n', at);
      const stop = newline === -1 || (semicolon !== -1 && semicolon < newline) ? (semicolon === -1 ? end : semicolon) : newline;
      cell = text.slice(at, stop === newline && stop > at && text.charCodeAt(stop - 1) === CR ? stop - 1 : stop);
      at = stop;
    }
    row.push(cell);
    if (at >= end) break;
    const c = text.charCodeAt(at);
    if (c === SEMICOLON) {
      at++;
      continue;
    }
    at += c === CR ? 2 : 1;
    read++;
    if (hasCells(row)) rows.push(row);
    row = [];
  }
  if (hasCells(row)) rows.push(row);
  return rows;
}

/**
 * Decodes the service's CSV (semicolon-delimited, header row, quoted fields) into typed rows.
 * Columns the catalogue does not know stay strings.
 *
 * @example
 * ```ts
 * decodeCsv('ref-ips', 'ip_address;country;backlinks_count\n1.2.3.4;DE;7\n');
 * // [{ ip_address: '1.2.3.4', country: 'DE', backlinks_count: 7 }]
 * ```
 */
export function decodeCsv(operation: OperationName, text: string): Record<string, unknown>[] {
  const [header, ...lines] = splitCsv(text);
  if (!header || header.length === 0 || header[0] === '') throw new ShapeProblem('the CSV has no header row');
  const record: RecordSpec = operations[operation].record;
  // Columns the catalogue does not know stay text.
  const kinds = header.map((name) => (record[name] ? KIND_OF[record[name]!.type] : KIND.text));
  const rows: Row[] = new Array(lines.length);
  for (let r = 0; r < lines.length; r++) {
    const cells = lines[r]!;
    if (cells.length !== header.length) throw new ShapeProblem(`CSV row ${r + 2} has ${cells.length} cells, the header ${header.length}`);
    const row: Row = {};
    for (let c = 0; c < kinds.length; c++) {
      const cell = cells[c]!;
      const kind = kinds[c]!;
      // Text is most columns: skip the call for it.
      const value = kind === KIND.text ? cell : decodeCell(kind, cell);
      if (value === undefined) throw new ShapeProblem(`CSV row ${r + 2}, column ${header[c]}: ${JSON.stringify(cell)} ${badCell(kind, cell)}`);
      row[header[c]!] = value;
    }
    rows[r] = row;
  }
  return rows;
}
