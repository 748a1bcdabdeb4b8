/**
 * Reading crawl exports of backlink records, chunk by chunk in constant memory: NDJSON (one JSON
 * object per line) or CSV as the service writes it (the exact inverse of `toCsv` in `../csv.ts`:
 * a header line of field names, `;` between cells, RFC 4180 quoting, CRLF or LF line ends).
 *
 * The fields and their types are those of the `links` record of the catalogue: every field but
 * `is_new` is required, `is_new` is ignored (it depends on the clock), any other field rejects the
 * record. A bad record is reported with the physical line it starts on and never stops the read;
 * only a CSV file whose header is missing, broken or names the wrong columns fails as a whole
 * ({@link ImportFileError}).
 *
 * @module
 */
import { operations } from '../../catalogue/operations.js';
import { isTimestampLiteral } from '../../validate/timestamp.js';
import type { LinkInput } from '../sample/dataset.js';
import { splitHostPath } from '../target.js';
import { ImportFileError } from './import-error.js';

export { ImportFileError, isImportFileError, type ImportFileErrorCode } from './import-error.js';

/**
 * The format of an export file.
 *
 * @example
 * ```ts
 * const format: ImportFormat = formatOfFile(path) ?? 'ndjson';
 * ```
 */
export type ImportFormat = 'ndjson' | 'csv';

/**
 * A record that was not imported.
 *
 * @example
 * ```ts
 * { line: 12, reason: 'missing field anchor; unknown field anchr' }
 * ```
 */
export interface RejectedLine {
  /** 1-based physical line the record starts on. */
  readonly line: number;
  readonly reason: string;
}

/**
 * How {@link readLinkRecords} reads.
 *
 * @example
 * ```ts
 * { format: 'csv', batchSize: 1000, onReject: (r) => log(`line ${r.line}: ${r.reason}`), onBytes: (n) => bar.update(n) }
 * ```
 */
export interface ReadOptions {
  readonly format: ImportFormat;
  /** Records per yielded batch; 5000 by default. */
  readonly batchSize?: number;
  /** Called once for each record that is not imported, in file order. */
  readonly onReject: (rejected: RejectedLine) => void;
  /** Called after each chunk with the number of bytes read so far (for a progress bar). */
  readonly onBytes?: (bytesSoFar: number) => void;
}

const DEFAULT_BATCH_SIZE = 5000;
/** The longest record kept in memory (UTF-16 code units); a longer one is rejected unread. */
const MAX_RECORD_CHARS = 16 * 1024 * 1024;
const BOM = 0xfeff;
const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const LF = 0x0a;
const CR = 0x0d;

const record = operations.links.record;
type LinkField = keyof LinkInput;
type LinkFieldType = (typeof record)[keyof typeof record]['type'];
const IGNORED_FIELD = 'is_new';

/** How the values of one field type are checked in each format. */
interface Converter {
  /** Whether a JSON value is valid as it is. */
  readonly json: (value: unknown) => boolean;
  /** The value of a CSV cell, `undefined` when invalid. */
  readonly csv: (text: string) => unknown;
  /** The end of the reason `<field> must be ...`. */
  readonly expected: string;
}

const DIGITS = /^\d+$/;

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;
const isTimestamp = (value: unknown): boolean => typeof value === 'string' && value.length === 19 && isTimestampLiteral(value);

/** One converter per type the links record uses: a new type in the catalogue fails to compile here. */
const CONVERTERS: Readonly<Record<LinkFieldType, Converter>> = {
  string: { json: (value) => typeof value === 'string', csv: (text) => text, expected: 'a string' },
  integer: {
    json: isCount,
    csv: (text) => {
      if (!DIGITS.test(text)) return undefined;
      const value = Number(text);
      return Number.isSafeInteger(value) ? value : undefined;
    },
    expected: `an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
  },
  boolean: {
    json: (value) => typeof value === 'boolean',
    csv: (text) => (text === 'true' ? true : text === 'false' ? false : undefined),
    expected: 'true or false',
  },
  timestamp: { json: isTimestamp, csv: (text) => (isTimestamp(text) ? text : undefined), expected: 'a timestamp YYYY-MM-DDTHH:MM:SS' },
};

/** A required field, with what a record's value must be. */
interface FieldCheck {
  readonly name: LinkField;
  readonly converter: Converter;
  /** `<field> must be ...` */
  readonly invalid: string;
  /** An extra check on a valid value: the reason it fails, or `undefined`. */
  readonly extra?: (value: unknown) => string | undefined;
}

const EXTRA_CHECKS: Partial<Record<LinkField, (value: unknown) => string | undefined>> = {
  target_url: (value) => (splitHostPath(value as string) === undefined ? 'target_url has no host' : undefined),
};

/** The fields the import reads, in the links record's CSV column order (`is_new` is not read). */
export const IMPORT_FIELDS: readonly LinkField[] = (Object.keys(record) as (keyof typeof record)[]).filter((name): name is LinkField => name !== IGNORED_FIELD);

const FIELDS: readonly FieldCheck[] = IMPORT_FIELDS.map((name) => ({
    name,
    converter: CONVERTERS[record[name].type],
    invalid: `${name} must be ${CONVERTERS[record[name].type].expected}`,
    extra: EXTRA_CHECKS[name],
  }));
const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(record));
/**
 * Every field, in catalogue order: records are clones of it, filled in. (Adding 27 properties one
 * by one to `{}` reallocates the object's property store several times, which makes holding a
 * batch of 5000 records several times slower through garbage collection.)
 */
const TEMPLATE: Readonly<Record<string, unknown>> = Object.fromEntries(FIELDS.map((field) => [field.name, undefined]));

/** Collects valid records into batches of `size`. */
class Batches {
  readonly ready: LinkInput[][] = [];
  private current: LinkInput[] = [];
  constructor(private readonly size: number) {}

  add(link: LinkInput): void {
    this.current.push(link);
    if (this.current.length >= this.size) {
      this.ready.push(this.current);
      this.current = [];
    }
  }

  /** The last, partial batch. */
  finish(): void {
    if (this.current.length > 0) this.ready.push(this.current);
    this.current = [];
  }
}

/** A parser of one format: text in, records to `batches`, bad records to `onReject`. */
interface Parser {
  feed(text: string): void;
  end(): void;
}

/** `missing field a` or `missing fields a, b`. */
const listed = (what: string, names: readonly string[]) => `${what} field${names.length > 1 ? 's' : ''} ${names.join(', ')}`;

/** Checks a parsed NDJSON object: the record, or the reason it is rejected. */
function linkOfObject(object: Record<string, unknown>): LinkInput | string {
  const link: Record<string, unknown> = { ...TEMPLATE };
  let missing: string[] | undefined;
  let invalid: string[] | undefined;
  let known = 0;
  for (const field of FIELDS) {
    const value = object[field.name];
    if (value === undefined && !Object.hasOwn(object, field.name)) {
      (missing ??= []).push(field.name);
      continue;
    }
    known++;
    const problem = field.converter.json(value) ? field.extra?.(value) : field.invalid;
    if (problem !== undefined) (invalid ??= []).push(problem);
    else link[field.name] = value;
  }
  if (Object.hasOwn(object, IGNORED_FIELD)) known++;
  const unknown = Object.keys(object).length === known ? undefined : Object.keys(object).filter((key) => !KNOWN_FIELDS.has(key));
  if (missing === undefined && unknown === undefined && invalid === undefined) return link as LinkInput;
  const problems: string[] = [];
  if (missing !== undefined) problems.push(listed('missing', missing));
  if (unknown !== undefined) problems.push(listed('unknown', unknown));
  if (invalid !== undefined) problems.push(...invalid);
  return problems.join('; ');
}

class NdjsonParser implements Parser {
  private pending = '';
  private tooLong = false;
  private line = 1;

  constructor(
    private readonly batches: Batches,
    private readonly onReject: (rejected: RejectedLine) => void,
  ) {}

  feed(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const piece = text.slice(start, newline);
      this.lineEnded(this.pending === '' ? piece : this.pending + piece);
      start = newline + 1;
    }
    if (this.tooLong) return;
    this.pending += text.slice(start);
    if (this.pending.length > MAX_RECORD_CHARS) {
      this.pending = '';
      this.tooLong = true;
    }
  }

  end(): void {
    if (this.pending !== '' || this.tooLong) this.lineEnded(this.pending);
  }

  private lineEnded(text: string): void {
    const line = this.line++;
    this.pending = '';
    if (this.tooLong) {
      this.tooLong = false;
      this.onReject({ line, reason: `line longer than ${MAX_RECORD_CHARS} characters` });
      return;
    }
    this.parseLine(text, line);
  }

  private parseLine(text: string, line: number): void {
    if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
    // JSON lines start with `{`: only other lines can be blank.
    if (text.charCodeAt(0) !== 0x7b && text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.onReject({ line, reason: `invalid JSON: ${(error as Error).message}` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.onReject({ line, reason: 'not a JSON object' });
      return;
    }
    const link = linkOfObject(value as Record<string, unknown>);
    if (typeof link === 'string') this.onReject({ line, reason: link });
    else this.batches.add(link);
  }
}

const PLAIN_NAME = /^\w+$/;
/** A column name in a message: quoted when empty or holding spaces or other characters. */
const shown = (name: string) => (PLAIN_NAME.test(name) ? name : JSON.stringify(name));

/** The states of the CSV parser. */
const CsvState = {
  /** Before the first character of a cell (or of a record). */
  CellStart: 0,
  Unquoted: 1,
  Quoted: 2,
  /** In a quoted cell, right after a `"`: a doubled quote or the closing one. */
  QuoteSeen: 3,
  /** After a CR outside quotes: a line end if LF follows. */
  AfterCr: 4,
} as const;
type CsvState = (typeof CsvState)[keyof typeof CsvState];

/**
 * The CSV records of a text: an RFC 4180 state machine that keeps the physical line each record
 * starts on, and turns cells into link records after checking the header.
 *
 * Not csv-parse (tried for issue 23, with csv-parse 7): after a bad closing quote it stays inside
 * the quotes and swallows the next lines; it has no error for a CR outside quotes; with
 * `skip_records_with_error` its `max_record_size` silently drops every later record, so an
 * unterminated quote makes it hold the rest of the file in memory; it gives no record's first
 * line; and it takes about twice the CPU of this reader (50,000 against 100,000 records a second).
 */
class CsvParser implements Parser {
  private state: CsvState = CsvState.CellStart;
  private line = 1;
  private inRecord = false;
  private recordLine = 1;
  /** The cells of the current record: the first `cellCount` (the array is reused from record to record). */
  private readonly cells: string[] = [];
  private cellCount = 0;
  /** The current cell's text read so far, outside the current chunk's unread part. */
  private pending = '';
  private error: string | undefined;
  private recordChars = 0;
  private tooLong = false;
  /** For each required field, its column; `undefined` until the header is read. */
  private columns: number[] | undefined;
  private width = 0;

  constructor(
    private readonly batches: Batches,
    private readonly onReject: (rejected: RejectedLine) => void,
  ) {}

  feed(text: string): void {
    const n = text.length;
    let i = 0;
    /** Start of the current unquoted cell's text in `text`. */
    let cellStart = 0;
    while (i < n) {
      switch (this.state) {
        case CsvState.CellStart: {
          const c = text.charCodeAt(i);
          if (c === LF) {
            if (this.inRecord) this.endRecord('');
            this.line++;
          } else if (c === CR) {
            this.state = CsvState.AfterCr;
          } else {
            this.startRecord();
            if (c === QUOTE) this.state = CsvState.Quoted;
            else if (c === SEMICOLON) this.endCell('');
            else {
              this.state = CsvState.Unquoted;
              cellStart = i;
            }
          }
          i++;
          break;
        }
        case CsvState.Unquoted: {
          let j = i;
          let c = 0;
          for (; j < n; j++) {
            c = text.charCodeAt(j);
            if (c === SEMICOLON || c === LF || c === CR || c === QUOTE) break;
          }
          if (j === n) {
            i = n; // the rest of the chunk is kept below
          } else if (c === QUOTE) {
            this.fail('quote inside an unquoted cell');
            i = j + 1;
          } else {
            const cell = this.pending === '' ? text.slice(cellStart, j) : this.pending + text.slice(cellStart, j);
            if (c === SEMICOLON) {
              this.endCell(cell);
              this.state = CsvState.CellStart;
            } else if (c === LF) {
              this.endRecord(cell);
              this.line++;
              this.state = CsvState.CellStart;
            } else {
              this.pending = cell;
              this.state = CsvState.AfterCr;
            }
            i = j + 1;
          }
          break;
        }
        case CsvState.Quoted: {
          const quote = text.indexOf('"', i);
          const end = quote === -1 ? n : quote;
          for (let newline = text.indexOf('\n', i); newline !== -1 && newline < end; newline = text.indexOf('\n', newline + 1)) this.line++;
          this.pending += text.slice(i, end);
          if (quote !== -1) this.state = CsvState.QuoteSeen;
          i = end + 1;
          break;
        }
        case CsvState.QuoteSeen: {
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            this.pending += '"';
            this.state = CsvState.Quoted;
          } else if (c === SEMICOLON) {
            this.endCell(this.pending);
            this.state = CsvState.CellStart;
          } else if (c === LF) {
            this.endRecord(this.pending);
            this.line++;
            this.state = CsvState.CellStart;
          } else if (c === CR) {
            this.state = CsvState.AfterCr;
          } else {
            this.fail('text after a closing quote');
            this.state = CsvState.Unquoted;
            cellStart = i;
            continue;
          }
          i++;
          break;
        }
        case CsvState.AfterCr: {
          if (text.charCodeAt(i) === LF) {
            if (this.inRecord) this.endRecord(this.pending);
            this.line++;
            this.state = CsvState.CellStart;
            i++;
          } else {
            // A CR that ends no line: kept in the cell, and the record is rejected.
            this.startRecord();
            this.fail('CR outside quotes not followed by LF');
            this.pending += '\r';
            this.state = CsvState.Unquoted;
            cellStart = i;
          }
          break;
        }
      }
    }
    if (this.state === CsvState.Unquoted) this.pending += text.slice(cellStart, n);
    if (this.inRecord && !this.tooLong && this.recordChars + this.pending.length > MAX_RECORD_CHARS) this.overflow();
    if (this.tooLong) this.pending = '';
  }

  end(): void {
    switch (this.state) {
      case CsvState.CellStart:
        // After a `;` at end of file: the last cell is empty.
        if (this.inRecord) this.endRecord('');
        break;
      case CsvState.Quoted:
        this.fail('unterminated quoted cell at end of file');
        this.endRecord(this.pending);
        break;
      case CsvState.Unquoted:
      case CsvState.QuoteSeen:
        this.endRecord(this.pending);
        break;
      case CsvState.AfterCr:
        if (this.inRecord) this.endRecord(this.pending);
        break;
    }
    this.state = CsvState.CellStart;
    if (this.columns === undefined) throw new ImportFileError('no_header', 'CSV file has no header line');
  }

  private startRecord(): void {
    if (this.inRecord) return;
    this.inRecord = true;
    this.recordLine = this.line;
  }

  private fail(reason: string): void {
    this.error ??= reason;
  }

  private overflow(): void {
    this.tooLong = true;
    this.cellCount = 0;
    this.pending = '';
  }

  private endCell(cell: string): void {
    this.pending = '';
    if (this.tooLong) return;
    this.recordChars += cell.length + 1;
    if (this.recordChars > MAX_RECORD_CHARS) this.overflow();
    else this.cells[this.cellCount++] = cell;
  }

  private endRecord(lastCell: string): void {
    this.endCell(lastCell);
    const { cellCount, recordLine: line, tooLong } = this;
    const error = tooLong ? `record longer than ${MAX_RECORD_CHARS} characters` : this.error;
    this.cellCount = 0;
    this.inRecord = false;
    this.error = undefined;
    this.recordChars = 0;
    this.tooLong = false;
    if (this.columns === undefined) this.header(this.cells.slice(0, cellCount), line, error);
    else if (error !== undefined) this.onReject({ line, reason: error });
    else if (cellCount !== this.width) this.onReject({ line, reason: `expected ${this.width} cells, found ${cellCount}` });
    else this.row(this.cells, line);
  }

  private header(names: string[], line: number, error: string | undefined): void {
    if (error !== undefined) throw new ImportFileError('invalid_header', `CSV header (line ${line}): ${error}`, line);
    const problems: string[] = [];
    const missing = FIELDS.filter((field) => !names.includes(field.name)).map((field) => field.name);
    const unknown = names.filter((name) => !KNOWN_FIELDS.has(name)).map(shown);
    const duplicate = names.filter((name, index) => names.indexOf(name) !== index).map(shown);
    if (missing.length > 0) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    if (unknown.length > 0) problems.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
    if (duplicate.length > 0) problems.push(`duplicate column${duplicate.length > 1 ? 's' : ''} ${duplicate.join(', ')}`);
    if (problems.length > 0) throw new ImportFileError('wrong_columns', `CSV header (line ${line}): ${problems.join('; ')}`, line);
    this.columns = FIELDS.map((field) => names.indexOf(field.name));
    this.width = names.length;
  }

  private row(cells: readonly string[], line: number): void {
    const columns = this.columns!;
    const link: Record<string, unknown> = { ...TEMPLATE };
    let problems: string[] | undefined;
    for (let f = 0; f < FIELDS.length; f++) {
      const field = FIELDS[f]!;
      const value = field.converter.csv(cells[columns[f]!]!);
      const problem = value === undefined ? field.invalid : field.extra?.(value);
      if (problem !== undefined) (problems ??= []).push(problem);
      else link[field.name] = value;
    }
    if (problems !== undefined) this.onReject({ line, reason: problems.join('; ') });
    else this.batches.add(link as LinkInput);
  }
}

/**
 * Reads backlink records from a byte stream (e.g. `fs.createReadStream`) and yields batches of the
 * valid ones, in file order; memory stays constant whatever the file's size. A record that is not
 * valid goes to `onReject` with the physical line it starts on and the reason. Besides the errors of
 * `input` itself, it throws only for a CSV file that cannot be read at all, before yielding any of
 * its records, and for a bad `batchSize`.
 *
 * @throws ImportFileError (a rejection) when a CSV file has no header line (`no_header`), a header
 *   line that is not valid CSV (`invalid_header`), or a header that misses a column of the record,
 *   names an unknown one or names one twice (`wrong_columns`)
 * @throws RangeError (a rejection) when `batchSize` is not a positive integer
 *
 * @example
 * ```ts
 * const rejected: RejectedLine[] = [];
 * for await (const links of readLinkRecords(createReadStream('links.csv'), { format: 'csv', onReject: (r) => rejected.push(r) })) {
 *   store.insertLinks(links); // up to 5000 at a time
 * }
 * rejected; // [{ line: 7, reason: 'page_score must be an integer from 0 to 9007199254740991' }]
 * ```
 */
export async function* readLinkRecords(input: AsyncIterable<Uint8Array | string>, options: ReadOptions): AsyncGenerator<LinkInput[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, not ${batchSize}`);
  const batches = new Batches(batchSize);
  const parser: Parser = options.format === 'csv' ? new CsvParser(batches, options.onReject) : new NdjsonParser(batches, options.onReject);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let atStart = true;
  let bytes = 0;
  const feed = (text: string) => {
    if (atStart && text.length > 0) {
      atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    if (text.length > 0) parser.feed(text);
  };

  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      // Bytes left over from a previous binary chunk cannot continue in a string.
      feed(decoder.decode() + chunk);
      bytes += Buffer.byteLength(chunk, 'utf8');
    } else {
      feed(decoder.decode(chunk, { stream: true }));
      bytes += chunk.byteLength;
    }
    options.onBytes?.(bytes);
    while (batches.ready.length > 0) yield batches.ready.shift()!;
  }
  feed(decoder.decode());
  parser.end();
  batches.finish();
  while (batches.ready.length > 0) yield batches.ready.shift()!;
}

const FORMATS: Readonly<Record<string, ImportFormat>> = { csv: 'csv', ndjson: 'ndjson', jsonl: 'ndjson', json: 'ndjson' };

/**
 * The format of a file by its name's extension (any case): `'csv'` for `.csv`, `'ndjson'` for
 * `.ndjson`, `.jsonl` and `.json`, `undefined` otherwise.
 *
 * @example
 * ```ts
 * formatOfFile('exports/links.CSV'); // 'csv'
 * formatOfFile('links.jsonl'); // 'ndjson'
 * formatOfFile('links.csv.gz'); // undefined
 * ```
 */
export function formatOfFile(path: string): ImportFormat | undefined {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(FORMATS, extension) ? FORMATS[extension] : undefined;
}
