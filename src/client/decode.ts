/**
 * Turning a body into rows: the JSON envelope with a shape check against the catalogue's record,
 * and the semicolon CSV decoded with papaparse and typed by the record's field types.
 *
 * @module
 */
import Papa from 'papaparse';
import { operations, type OperationName } from '../catalogue/operations.js';
import type { FieldType, RecordSpec } from '../catalogue/records.js';
import type { ResponseMeta } from './types.js';

/** A decoding failure; the request layer turns it into `ResponseShapeError` with the URL. @internal */
export class ShapeProblem extends Error {}

type Row = Record<string, unknown>;

/** Checks a JS value against a field type (JSON form). */
const JSON_CHECKS: Readonly<Record<FieldType, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  timestamp: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  'integer[]': (v) => Array.isArray(v) && v.every((x) => Number.isInteger(x)),
  'string[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
};

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkRow(record: RecordSpec, row: unknown, where: string): void {
  if (!isObject(row)) throw new ShapeProblem(`${where} is not an object`);
  for (const [name, value] of Object.entries(row)) {
    const spec = record[name];
    // Fields the catalogue does not know are kept: a newer service may add some.
    if (spec && !JSON_CHECKS[spec.type](value)) throw new ShapeProblem(`${where}.${name} is not of type ${spec.type}`);
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
  const data = parsed['data'];
  if (spec.shape === 'list') {
    if (!Array.isArray(data)) throw new ShapeProblem('data is not an array');
    data.forEach((row, i) => checkRow(spec.record, row, `data[${i}]`));
  } else {
    checkRow(spec.record, data, 'data');
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
  const parsed = Papa.parse<string[]>(text, { delimiter: ';', header: false, skipEmptyLines: true });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes' || e.code === 'TooManyFields' || e.code === 'TooFewFields');
  if (fatal) throw new ShapeProblem(`CSV ${fatal.message.toLowerCase()} at row ${(fatal.row ?? 0) + 1}`);
  const [header, ...lines] = parsed.data;
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
