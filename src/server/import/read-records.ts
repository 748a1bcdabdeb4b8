/**
 * Reading import files chunk by chunk in constant memory: NDJSON (one JSON object per line) or CSV
 * (RFC 4180 quoting, CRLF or LF line ends, `;`, `,` or tab between cells, UTF-8 or UTF-16).
 *
 * The service's own record (the exact inverse of `toCsv` in `../csv.ts`) has the fields and types
 * of the catalogue's `links` record: `source_url` and `target_url` are required, every other field
 * absent gets its unknown value ({@link unknownValues}), `is_new` is ignored (it depends on the
 * clock), any other field rejects the record. CSV exports of other tools and
 * domains files are read through the table of `formats.ts`. A bad record is reported with the
 * physical line it starts on and never stops the read; only a CSV file whose header is missing,
 * broken or names the wrong columns fails as a whole ({@link ImportFileError}).
 *
 * @module
 */
import { operations } from '../../catalogue/operations.js';
import { isTimestampLiteral } from '../../validate/timestamp.js';
import type { DomainInput, LinkInput } from '../store/inputs.js';
import { splitHostPath } from '../target.js';
import { CsvTokenizer, MAX_RECORD_CHARS } from './csv-tokenizer.js';
import {
  closestFormat, compileFormat, EXPORT_FORMATS, exportFormatColumns, formatsOfHeader, SHOWN_CELL, shownCell, type CompiledFormat, type ExportFormat, type ExportFormatName,
  type FieldReport, type FormatColumns,
} from './formats.js';
import { ImportFileError } from './import-error.js';

export { ImportFileError, isImportFileError, type ImportFileErrorCode } from './import-error.js';

export type { ExportFormatName, FieldKind, FieldReport } from './formats.js';

/**
 * The syntax of an import file.
 *
 * @example
 * ```ts
 * const format: ImportFormat = formatOfFile(path) ?? 'ndjson';
 * ```
 */
export type ImportFormat = 'ndjson' | 'csv';

/**
 * What a file was read as: its format, and per field of the record where the value comes from
 * (a column as it is, a value derived from columns, or a default, with the columns the file lacks
 * for it when it got its unknown value so), and the columns no field reads.
 *
 * @example
 * ```ts
 * { format: 'semrush', title: 'Semrush backlinks export', produces: 'links', headerLine: 1, delimiter: ',', encoding: 'utf-8',
 *   fields: [{ field: 'source_url', kind: 'mapped', columns: ['Source url'], note: 'a URL with a host', absent: [] }, ...,
 *     { field: 'is_form', kind: 'default', columns: [], note: 'its column is not in this file: false', absent: ['Form'] }, ...], ignored: ['Text', 'New link'] }
 * ```
 */
export interface FormatReport {
  /** `service` for the service's own record. */
  readonly format: 'service' | ExportFormatName;
  readonly title: string;
  readonly produces: 'links' | 'domains';
  /** The header's line (CSV only). */
  readonly headerLine: number | undefined;
  /** The delimiter found (CSV only). */
  readonly delimiter: string | undefined;
  readonly encoding: string;
  readonly fields: readonly FieldReport[];
  readonly ignored: readonly string[];
}

/**
 * A batch of valid records of one kind.
 *
 * @example
 * ```ts
 * { kind: 'links', rows: [{ source_url: 'https://blog.example.org/post', ... }] }
 * ```
 */
export type ImportBatch = { readonly kind: 'links'; readonly rows: LinkInput[] } | { readonly kind: 'domains'; readonly rows: DomainInput[] };

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
 * How {@link readLinkRecords} reads (and {@link readImportFile}, with {@link ReadImportOptions}).
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
  /** For a CSV file: the format to read it as, instead of the one its header fits. */
  readonly shape?: 'service' | ExportFormatName;
}

/**
 * How {@link readImportFile} reads: {@link ReadOptions}, and what a tool's export needs.
 *
 * @example
 * ```ts
 * { format: 'csv', onReject, onSkip: (s) => skipped++, onFormat: (report) => print(report), domainOf: (host) => tldts.getDomain(host) ?? host, seenAt: '2026-06-01T00:00:00' }
 * ```
 */
export interface ReadImportOptions extends ReadOptions {
  /** Called once the file's format is known, before its first record. */
  readonly onFormat?: (report: FormatReport) => void;
  /** Called for each row a format skips (not a link: Screaming Frog's images, CSS, scripts). */
  readonly onSkip?: (skipped: RejectedLine) => void;
  /** The registrable domain of a host, for a `source_domain` derived from a URL (default: the host). */
  readonly domainOf?: (host: string) => string;
  /** The `first_seen_at` and `last_seen_at` of files without dates, `YYYY-MM-DDTHH:MM:SS` (default: now). */
  readonly seenAt?: string;
  /**
   * Called once at the end of an NDJSON file of links, when some of its imported records lack
   * fields: per such field, how many (they got its unknown value).
   */
  readonly onAbsent?: (counts: Readonly<Record<string, number>>) => void;
  /**
   * Called for each link of an NDJSON file imported without a `domain_score`: its score is
   * unknown (0), and gives its referring domain none.
   */
  readonly onUnscored?: (link: LinkInput) => void;
}

const DEFAULT_BATCH_SIZE = 5000;
const BOM = 0xfeff;

/** Files people hand an import by mistake, by their first bytes. */
const SIGNATURES: readonly (readonly [string, readonly number[]])[] = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['a ZIP archive (an Excel .xlsx is one: save the sheet as CSV)', [0x50, 0x4b, 0x03, 0x04]],
  ['a gzip file (unpack it first)', [0x1f, 0x8b]],
  ['an Excel .xls file (save the sheet as CSV)', [0xd0, 0xcf, 0x11, 0xe0]],
  ['a SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66]],
];

/** Bytes read to tell text from not text. */
const SNIFFED_BYTES = 4096;

/**
 * Why a file whose first bytes are `data` (no UTF-16 byte order mark) is not text, or `undefined`:
 * a known file signature, a NUL byte, or bytes that are not UTF-8.
 */
function notText(data: Uint8Array): string | undefined {
  const head = data.subarray(0, SNIFFED_BYTES);
  const signature = SIGNATURES.find(([, magic]) => magic.every((byte, i) => head[i] === byte));
  if (signature) return `it starts with the bytes of ${signature[0]}`;
  if (head.includes(0)) {
    // ASCII in UTF-16: every other byte is NUL.
    const pairs = Math.floor(Math.min(head.length, 64) / 2);
    const at = (odd: number) => pairs > 0 && Array.from({ length: pairs }, (_, i) => head[2 * i + odd] === 0 && head[2 * i + 1 - odd] !== 0).every(Boolean);
    if (at(0) || at(1)) return 'it looks like UTF-16 without a byte order mark: save it as UTF-8, or as UTF-16 with one';
    return 'it holds NUL bytes, which no text file has';
  }
  try {
    // A sequence cut at the end of the bytes read is held back, not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return 'its first bytes are not UTF-8 (nor UTF-16 with a byte order mark): save it as UTF-8';
  }
  return undefined;
}
const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const COMMA = 0x2c;
const TAB = 0x09;
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

/**
 * The value a field of the service's record gets when its file does not give it: its type's
 * unknown value (empty, 0, false), but a time is the record's other time, else the file's
 * (`seenAt`), `response_code` is 200 (a listed link was found on a page that answered), and
 * `source_domain` the registrable domain of `source_url`'s host (worked out per record).
 */
const UNKNOWN: Readonly<Record<Exclude<LinkFieldType, 'timestamp'>, unknown>> = { string: '', integer: 0, boolean: false };
const REQUIRED: ReadonlySet<string> = new Set(['source_url', 'target_url']);

/** Every field's value when absent, `source_domain` left to work out. */
function unknownValues(seenAt: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(TEMPLATE).map((name) => {
      const type = record[name as LinkField].type;
      return [name, name === 'source_domain' ? undefined : name === 'response_code' ? 200 : type === 'timestamp' ? seenAt : UNKNOWN[type]];
    }),
  );
}

/** How the report says what an absent field got. */
function unknownNote(name: LinkField): string {
  if (name === 'source_domain') return "its column is not in this file: the registrable domain of source_url's host";
  if (name === 'response_code') return 'its column is not in this file: 200, the page was fetched and held the link';
  const type = record[name].type;
  return `its column is not in this file: ${type === 'timestamp' ? "the record's other date, else --seen-at, else the file's modification time" : type === 'string' ? 'empty' : type === 'integer' ? '0' : 'false'}`;
}

/** A JSON value as a row error quotes it: a string as a cell, anything else as JSON, shortened the same way. */
const shownJson = (value: unknown): string => {
  if (typeof value === 'string') return shownCell(value);
  const json = JSON.stringify(value) ?? String(value);
  return json.length > SHOWN_CELL ? `${json.slice(0, SHOWN_CELL - 1)}…` : json;
};

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

/** A field of the service's record, with what a record's value must be. */
interface FieldCheck {
  readonly name: LinkField;
  readonly converter: Converter;
  /** `<field> must be ...` (the value shown is added after it). */
  readonly invalid: string;
  /** An extra check on a valid value: whether it fails (the reason is `invalid`). */
  readonly extra?: (value: unknown) => boolean;
}

const EXTRA_CHECKS: Partial<Record<LinkField, (value: unknown) => boolean>> = {
  target_url: (value) => splitHostPath(value as string) === undefined,
};
const EXTRA_EXPECTED: Partial<Record<LinkField, string>> = { target_url: 'a URL with a host' };

/** The fields the import reads, in the links record's CSV column order (`is_new` is not read). */
export const IMPORT_FIELDS: readonly LinkField[] = (Object.keys(record) as (keyof typeof record)[]).filter((name): name is LinkField => name !== IGNORED_FIELD);

const FIELDS: readonly FieldCheck[] = IMPORT_FIELDS.map((name) => ({
    name,
    converter: CONVERTERS[record[name].type],
    invalid: `${name} must be ${EXTRA_EXPECTED[name] ?? CONVERTERS[record[name].type].expected}`,
    extra: EXTRA_CHECKS[name],
  }));
const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(record));
/** The service's record as {@link closestFormat} compares a header with it. */
const SERVICE_COLUMNS: FormatColumns = { title: "the service's own record", required: [...REQUIRED], known: Object.keys(record), strict: true };
/**
 * Every field, in catalogue order: records are clones of it, filled in. (Adding the properties one
 * by one to `{}` reallocates the object's property store several times, which makes holding a
 * batch of records slower through garbage collection: docs/design-import.md, section "Speed".)
 */
const TEMPLATE: Readonly<Record<string, unknown>> = Object.fromEntries(FIELDS.map((field) => [field.name, undefined]));

/** Collects valid records into batches of `size`. */
class Batches<T> {
  readonly ready: T[][] = [];
  private current: T[] = [];
  constructor(private readonly size: number) {}

  add(link: T): void {
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

/** A parser of one syntax: text in, records to the sink's batches, bad records to `onReject`. */
interface Parser {
  feed(text: string): void;
  end(): void;
}

/** `missing field a` or `missing fields a, b`. */
const listed = (what: string, names: readonly string[]) => `${what} field${names.length > 1 ? 's' : ''} ${names.join(', ')}`;

/** The registrable domain of a URL's host, or empty. */
const domainOfUrl = (url: unknown, domainOf: (host: string) => string): string => {
  const parts = typeof url === 'string' ? splitHostPath(url) : undefined;
  return parts === undefined ? '' : domainOf(parts.host);
};

/**
 * Checks a parsed NDJSON object: the record, or the reason it is rejected. A field absent gets
 * its value of `unknown`, and is added to `absent`.
 */
function linkOfObject(object: Record<string, unknown>, unknown: Readonly<Record<string, unknown>>, domainOf: (host: string) => string, absent: string[]): LinkInput | string {
  const link: Record<string, unknown> = { ...unknown };
  let missing: string[] | undefined;
  let invalid: string[] | undefined;
  let known = 0;
  absent.length = 0;
  for (const field of FIELDS) {
    const value = object[field.name];
    if (value === undefined && !Object.hasOwn(object, field.name)) {
      if (REQUIRED.has(field.name)) (missing ??= []).push(field.name);
      else absent.push(field.name);
      continue;
    }
    known++;
    if (field.converter.json(value) && !field.extra?.(value)) link[field.name] = value;
    else (invalid ??= []).push(`${field.invalid}, not ${shownJson(value)}`);
  }
  if (Object.hasOwn(object, IGNORED_FIELD)) known++;
  const unknownKeys = Object.keys(object).length === known ? undefined : Object.keys(object).filter((key) => !KNOWN_FIELDS.has(key));
  if (missing === undefined && unknownKeys === undefined && invalid === undefined) {
    if (link['source_domain'] === undefined) link['source_domain'] = domainOfUrl(link['source_url'], domainOf);
    // A date absent: the record's other date, when it has one.
    const first = Object.hasOwn(object, 'first_seen_at');
    if (first !== Object.hasOwn(object, 'last_seen_at')) link[first ? 'last_seen_at' : 'first_seen_at'] = link[first ? 'first_seen_at' : 'last_seen_at'];
    return link as LinkInput;
  }
  const problems: string[] = [];
  if (missing !== undefined) problems.push(listed('missing', missing));
  if (unknownKeys !== undefined) problems.push(listed('unknown', unknownKeys));
  if (invalid !== undefined) problems.push(...invalid);
  return problems.join('; ');
}

const DOMAIN_FIELDS = ['domain', 'domain_score', 'ip_address', 'country'];

/** The report of an NDJSON domains file. */
const DOMAINS_NDJSON_REPORT = (encoding: string): FormatReport => ({
  format: 'domains', title: EXPORT_FORMATS.domains.title, produces: 'domains', headerLine: undefined, delimiter: undefined, encoding, ignored: [],
  fields: DOMAIN_FIELDS.map((field) => ({ field, kind: 'mapped', columns: [field], note: field === 'domain_score' ? 'an integer 0-100' : field === 'domain' ? 'a host name, in lower case' : 'a string; empty when missing', absent: [] })),
});

/** Checks an NDJSON domain record: `domain` and `domain_score` required, `ip_address` and `country` strings or missing. */
function domainOfObject(object: Record<string, unknown>): DomainInput | string {
  const problems: string[] = [];
  const { domain, domain_score: score, ip_address: ip = '', country = '' } = object;
  if (typeof domain !== 'string' || domain.trim() === '') problems.push(domain === undefined ? 'missing field domain' : 'domain must be a non-empty string');
  if (!(Number.isInteger(score) && (score as number) >= 0 && (score as number) <= 100)) problems.push(score === undefined ? 'missing field domain_score' : 'domain_score must be an integer from 0 to 100');
  if (typeof ip !== 'string') problems.push('ip_address must be a string');
  if (typeof country !== 'string') problems.push('country must be a string');
  const unknown = Object.keys(object).filter((key) => !DOMAIN_FIELDS.includes(key));
  if (unknown.length > 0) problems.push(listed('unknown', unknown));
  if (problems.length > 0) return problems.join('; ');
  return { domain: (domain as string).trim().toLowerCase(), domain_score: score as number, ip_address: ip as string, country: country as string };
}

class NdjsonParser implements Parser {
  private pending = '';
  private tooLong = false;
  private line = 1;

  private kind: 'links' | 'domains' | undefined;
  private readonly unknown: Readonly<Record<string, unknown>>;
  private readonly domainOf: (host: string) => string;
  /** The fields absent from the record just read. */
  private readonly absent: string[] = [];
  /** Per field, the records imported without it. */
  private readonly absentCounts: Record<string, number> = {};

  constructor(private readonly sink: Sink) {
    this.unknown = unknownValues(sink.seenAt);
    this.domainOf = sink.options.domainOf ?? ((host) => host);
  }

  private onReject(rejected: RejectedLine): void {
    this.sink.options.onReject(rejected);
  }

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
    if (Object.keys(this.absentCounts).length > 0) this.sink.options.onAbsent?.(this.absentCounts);
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
    const object = value as Record<string, unknown>;
    if (this.kind === undefined) {
      // The first record tells a domains file from a links file.
      this.kind = Object.hasOwn(object, 'domain') && !Object.hasOwn(object, 'source_url') ? 'domains' : 'links';
      this.sink.options.onFormat?.(this.kind === 'links' ? serviceReport(undefined, undefined, this.sink.encoding, []) : DOMAINS_NDJSON_REPORT(this.sink.encoding));
    }
    if (this.kind === 'domains') {
      const domain = domainOfObject(object);
      if (typeof domain === 'string') this.onReject({ line, reason: domain });
      else this.sink.domains.add(domain);
      return;
    }
    const link = linkOfObject(object, this.unknown, this.domainOf, this.absent);
    if (typeof link === 'string') return this.onReject({ line, reason: link });
    this.sink.links.add(link);
    for (const field of this.absent) {
      this.absentCounts[field] = (this.absentCounts[field] ?? 0) + 1;
      if (field === 'domain_score') this.sink.options.onUnscored?.(link);
    }
  }
}

const PLAIN_NAME = /^\w+$/;
/** A column name in a message: quoted when empty or holding spaces or other characters. */
const shown = (name: string) => (PLAIN_NAME.test(name) ? name : JSON.stringify(name));
const plural = (count: number, word: string) => `${word}${count > 1 ? 's' : ''}`;

/** The delimiters a CSV file may use, by character code. */
const DELIMITERS = { [SEMICOLON]: ';', [COMMA]: ',', [TAB]: '\t' } as const;
type Delimiter = (typeof DELIMITERS)[keyof typeof DELIMITERS];

/**
 * The delimiter of a CSV text: the one of `;`, `,` and tab found most often outside quotes in its
 * first line holding any, among its first two lines (a title line above the header holds none);
 * `;` when neither does (one column). `undefined` while the text has not shown enough.
 */
function sniffDelimiter(text: string, final: boolean): Delimiter | undefined {
  const counts = { [SEMICOLON]: 0, [COMMA]: 0, [TAB]: 0 };
  let quoted = false;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted && (c === SEMICOLON || c === COMMA || c === TAB)) counts[c]++;
    else if (!quoted && c === LF && (counts[SEMICOLON] + counts[COMMA] + counts[TAB] > 0 || ++lines === 2)) break;
  }
  const best = ([SEMICOLON, TAB, COMMA] as const).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  if (counts[best] > 0 && (final || text.includes('\n'))) return DELIMITERS[best];
  return final || lines === 2 ? ';' : undefined;
}

/**
 * Why a header fits no format, for a file whose header is not the service's record either: the
 * format it is closest to and how its columns differ, one line per column, or the formats import
 * knows when no column is close to any of theirs.
 */
function noFormat(names: readonly string[], line: number, forcedService: boolean): ImportFileError {
  const closest = closestFormat(names, forcedService ? [SERVICE_COLUMNS] : [SERVICE_COLUMNS, ...exportFormatColumns()]);
  if (closest !== undefined && closest.lines.length > 0) {
    return new ImportFileError('wrong_columns', `CSV header (line ${line}) fits no format; the closest is ${closest.title}, whose columns differ:\n  ${closest.lines.join('\n  ')}`, line);
  }
  return new ImportFileError(
    'wrong_columns',
    `CSV header (line ${line}) fits no format import reads: the service's own record (columns source_url, target_url, ...), ${KNOWN_FORMATS}; see docs/importing.md, or name one with --format`,
    line,
  );
}

/** The service's own CSV record: its header checked strictly (names in any case), its rows converted fast. */
class ServiceShape {
  /** The fields the header has, and the cell of each. */
  private readonly present: readonly FieldCheck[];
  private readonly columns: readonly number[];
  private readonly unknown: Readonly<Record<string, unknown>>;
  private readonly sourceDomain: boolean;
  private readonly domainOf: (host: string) => string;
  /** The date the header lacks, and the one it has, which gives it. */
  private readonly otherDate: readonly [string, string] | undefined;
  readonly report: FormatReport;

  constructor(names: readonly string[], line: number, delimiter: Delimiter, sink: Sink, forced: boolean) {
    const lower = names.map((name) => name.trim().toLowerCase());
    const missing = [...REQUIRED].filter((name) => !lower.includes(name));
    const unknown = lower.filter((name) => !KNOWN_FIELDS.has(name));
    if (missing.length > 0 || unknown.length > 0) throw noFormat(names, line, forced);
    const duplicate = names.filter((_, index) => lower.indexOf(lower[index]!) !== index).map((name) => shown(name.trim()));
    if (duplicate.length > 0) throw new ImportFileError('wrong_columns', `CSV header (line ${line}): duplicate ${plural(duplicate.length, 'column')} ${duplicate.join(', ')}`, line);
    this.present = FIELDS.filter((field) => lower.includes(field.name));
    this.columns = this.present.map((field) => lower.indexOf(field.name));
    this.unknown = unknownValues(sink.seenAt);
    this.sourceDomain = lower.includes('source_domain');
    const first = lower.includes('first_seen_at');
    const last = lower.includes('last_seen_at');
    this.otherDate = first === last ? undefined : first ? ['last_seen_at', 'first_seen_at'] : ['first_seen_at', 'last_seen_at'];
    this.domainOf = sink.options.domainOf ?? ((host: string) => host);
    const spelled = (name: string) => names[lower.indexOf(name)]!.trim();
    this.report = {
      ...serviceReport(line, delimiter, sink.encoding, names.filter((_, at) => lower[at] === IGNORED_FIELD).map((name) => name.trim())),
      fields: FIELDS.map((field) =>
        lower.includes(field.name)
          ? { field: field.name, kind: 'mapped', columns: [spelled(field.name)], note: 'as written', absent: [] }
          : { field: field.name, kind: 'default', columns: [], note: unknownNote(field.name), absent: [field.name] },
      ),
    };
  }

  /** A row: the link, or the reason it is rejected. */
  row(cells: readonly string[]): LinkInput | string {
    const { columns, present } = this;
    const link: Record<string, unknown> = { ...this.unknown };
    let problems: string[] | undefined;
    for (let f = 0; f < present.length; f++) {
      const field = present[f]!;
      const cell = cells[columns[f]!]!;
      const value = field.converter.csv(cell);
      if (value === undefined || field.extra?.(value)) (problems ??= []).push(`${field.invalid}, not ${shownCell(cell)}`);
      else link[field.name] = value;
    }
    if (problems !== undefined) return problems.join('; ');
    if (!this.sourceDomain) link['source_domain'] = domainOfUrl(link['source_url'], this.domainOf);
    if (this.otherDate !== undefined) link[this.otherDate[0]] = link[this.otherDate[1]];
    return link as LinkInput;
  }
}

const KNOWN_FORMATS = Object.values(EXPORT_FORMATS).map((format) => `${format.title} (${format.name})`).join(', ');

/** What the CSV reader needs from {@link readImportFile}. */
interface Sink {
  readonly links: Batches<LinkInput>;
  readonly domains: Batches<DomainInput>;
  readonly options: ReadImportOptions;
  readonly encoding: string;
  /** The time of the records of a file that gives none. */
  readonly seenAt: string;
}

/**
 * A CSV file: finds the delimiter and the header (and a title line above it), picks the format
 * the header names (or the one forced), then turns each row into a record, a skip or a rejection.
 */
class CsvReader implements Parser {
  private buffered = '';
  private tokenizer: CsvTokenizer | undefined;
  private delimiter: Delimiter = ';';
  private width = 0;
  private service: ServiceShape | undefined;
  private foreign: { readonly format: ExportFormat<LinkInput> | ExportFormat<DomainInput>; readonly compiled: CompiledFormat<LinkInput | DomainInput> } | undefined;
  private titleLine: string | undefined;
  /** Whether line 1 is a spreadsheet's `sep=;` line, which names the delimiter. */
  private sepLine = false;

  constructor(private readonly sink: Sink) {}

  feed(text: string): void {
    if (this.tokenizer) return this.tokenizer.feed(text);
    this.buffered += text;
    // Only a line end can decide (a header line is read whole first).
    if (!text.includes('\n') && this.buffered.length <= MAX_RECORD_CHARS) return;
    const delimiter = this.buffered.length > MAX_RECORD_CHARS ? ';' : (this.named() ?? sniffDelimiter(this.buffered, false));
    if (delimiter !== undefined) this.start(delimiter);
  }

  /** The delimiter a first line `sep=;` (`sep=,`, `sep=` and a tab) names, as Excel writes and reads it. */
  private named(): Delimiter | undefined {
    const match = /^sep=([;,\t])\r?\n/i.exec(this.buffered);
    this.sepLine = match !== null;
    return match ? (match[1] as Delimiter) : undefined;
  }

  end(): void {
    if (!this.tokenizer) this.start(this.named() ?? sniffDelimiter(this.buffered, true)!);
    this.tokenizer!.end();
    if (!this.service && !this.foreign) throw new ImportFileError('no_header', 'CSV file has no header line');
  }

  private start(delimiter: Delimiter): void {
    this.delimiter = delimiter;
    this.tokenizer = new CsvTokenizer(delimiter.charCodeAt(0), (cells, count, line, error) => this.record(cells, count, line, error));
    const text = this.buffered;
    this.buffered = '';
    this.tokenizer.feed(text);
  }

  private record(cells: readonly string[], count: number, line: number, error: string | undefined): void {
    if (this.service) {
      if (error !== undefined) return this.reject(line, error);
      if (count !== this.width) return this.reject(line, `expected ${this.width} cells, found ${count}`);
      const link = this.service.row(cells);
      if (typeof link === 'string') this.reject(line, link);
      else this.sink.links.add(link);
    } else if (this.foreign) {
      if (error !== undefined) return this.reject(line, error);
      // A row shorter than the header may still be one to skip (old Screaming Frog files).
      if (count > this.width) return this.reject(line, `expected ${this.width} cells, found ${count}`);
      const result = this.foreign.compiled.read(cells, count);
      if ('skip' in result) this.sink.options.onSkip?.({ line, reason: result.skip });
      else if (count !== this.width) this.reject(line, `expected ${this.width} cells, found ${count}`);
      else if ('problems' in result) this.reject(line, result.problems.join('; '));
      else if (this.foreign.format.produces === 'domains') this.sink.domains.add(result.record as DomainInput);
      else this.sink.links.add(result.record as LinkInput);
    } else if (!(this.sepLine && line === 1)) {
      this.header(cells.slice(0, count), line, error);
    }
  }

  private reject(line: number, reason: string): void {
    this.sink.options.onReject({ line, reason });
  }

  private header(names: string[], line: number, error: string | undefined): void {
    if (error !== undefined) throw new ImportFileError('invalid_header', `CSV header (line ${line}): ${error}`, line);
    const forced = this.sink.options.shape;
    const found = forced === undefined ? formatsOfHeader(names) : forced === 'service' ? [] : [forced];
    if (found.length > 1) {
      throw new ImportFileError('ambiguous_format', `CSV header (line ${line}) fits several formats: ${found.join(', ')}; name one with --format`, line);
    }
    const name = found[0];
    // Old Screaming Frog files put the export's name on a line of its own above the header.
    const title = names.length === 1 && this.titleLine === undefined && !KNOWN_FIELDS.has(names[0]!.trim().toLowerCase());
    if (name === undefined) {
      if (forced === undefined && title) return void (this.titleLine = names[0]);
      this.service = new ServiceShape(names, line, this.delimiter, this.sink, forced === 'service');
      this.width = names.length;
      return this.sink.options.onFormat?.(this.service.report);
    }
    const format = EXPORT_FORMATS[name] as ExportFormat<LinkInput> | ExportFormat<DomainInput>;
    const compiled = compileFormat<LinkInput | DomainInput>(format as ExportFormat<LinkInput | DomainInput>, names, {
      domainOf: this.sink.options.domainOf ?? ((host) => host),
      seenAt: this.sink.seenAt,
    });
    if ('missing' in compiled) {
      if (title) return void (this.titleLine = names[0]);
      const [columns] = exportFormatColumns().filter((candidate) => candidate.title.endsWith(`(${name})`));
      const differ = closestFormat(names, [columns!])?.lines ?? compiled.missing.map((column) => `${JSON.stringify(column)} is missing`);
      throw new ImportFileError('wrong_columns', `CSV header (line ${line}) is not a ${format.title} (named with --format): its columns differ:\n  ${differ.join('\n  ')}`, line);
    }
    if (format.strict && compiled.ignored.length > 0) {
      throw new ImportFileError('wrong_columns', `CSV header (line ${line}): unknown ${plural(compiled.ignored.length, 'column')} ${compiled.ignored.map(shown).join(', ')} in a ${format.title}`, line);
    }
    this.foreign = { format, compiled };
    this.width = names.length;
    this.sink.options.onFormat?.({
      format: name, title: format.title, produces: format.produces, headerLine: line, delimiter: this.delimiter, encoding: this.sink.encoding,
      fields: compiled.report, ignored: compiled.ignored,
    });
  }
}

/** The report of the service's own record: every field read as it is. */
function serviceReport(headerLine: number | undefined, delimiter: Delimiter | undefined, encoding: string, ignored: readonly string[]): FormatReport {
  return {
    format: 'service', title: "the service's own record", produces: 'links', headerLine, delimiter, encoding,
    fields: FIELDS.map((field) => ({ field: field.name, kind: 'mapped', columns: [field.name], note: 'as written', absent: [] })), ignored,
  };
}

/** Formats a date as a timestamp `YYYY-MM-DDTHH:MM:SS` (UTC, whole seconds). */
const formatTimestamp = (date: Date): string => date.toISOString().slice(0, 19);

/**
 * Reads an import file from a byte stream (e.g. `fs.createReadStream`) and yields batches of its
 * valid records, in file order; memory stays constant whatever the file's size.
 *
 * - NDJSON: the service's own link records, or domain records (`domain`, `domain_score`, and
 *   optionally `ip_address` and `country`), told apart by the file's first record.
 * - CSV: the delimiter (`;`, `,` or tab) and the format are found from the header: the service's
 *   own record, a domains file, or an export of Semrush, Ahrefs, Majestic or Screaming Frog
 *   ({@link ReadImportOptions.shape} names one instead). A file starting with a UTF-16 byte order
 *   mark (as Ahrefs writes them) is read as UTF-16.
 *
 * A record that is not valid goes to `onReject` with the physical line it starts on and the
 * reason; a row a format skips (not a link) goes to `onSkip`. Besides the errors of `input`
 * itself, it throws only for a CSV file that cannot be read at all, before yielding any of its
 * records, and for a bad `batchSize`.
 *
 * @throws ImportFileError (a rejection) when a file's first bytes are not text (`not_text`), a CSV
 * file has no header line (`no_header`), a header
 *   line that is not valid CSV (`invalid_header`), a header that fits several formats
 *   (`ambiguous_format`), or one that lacks a column its format needs, or for the service's record
 *   names an unknown one or one twice (`wrong_columns`)
 * @throws RangeError (a rejection) when `batchSize` is not a positive integer
 *
 * @example
 * ```ts
 * for await (const batch of readImportFile(createReadStream('site-backlinks.csv'), { format: 'csv', onReject, onFormat: (r) => console.log(r.title) })) {
 *   if (batch.kind === 'links') await writer.links(batch.rows); // 'Semrush backlinks export'
 *   else await writer.domains(batch.rows);
 * }
 * ```
 */
export async function* readImportFile(input: AsyncIterable<Uint8Array | string>, options: ReadImportOptions): AsyncGenerator<ImportBatch> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, not ${batchSize}`);
  const links = new Batches<LinkInput>(batchSize);
  const domains = new Batches<DomainInput>(batchSize);
  let parser: Parser | undefined;
  let decoder: TextDecoder | undefined;
  /** The first bytes, while fewer than a byte order mark's two. */
  let head: Uint8Array | undefined;
  let atStart = true;
  let bytes = 0;
  const open = (encoding: string): Parser => {
    const sink = { links, domains, options, encoding, seenAt: options.seenAt ?? formatTimestamp(new Date()) };
    return options.format === 'csv' ? new CsvReader(sink) : new NdjsonParser(sink);
  };
  const feed = (text: string) => {
    if (atStart && text.length > 0) {
      atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    if (text.length > 0) parser!.feed(text);
  };
  const ready = function* (): Generator<ImportBatch> {
    while (links.ready.length > 0) yield { kind: 'links', rows: links.ready.shift()! };
    while (domains.ready.length > 0) yield { kind: 'domains', rows: domains.ready.shift()! };
  };

  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      parser ??= open('utf-8');
      // Bytes left over from a previous binary chunk cannot continue in a string.
      feed((decoder?.decode() ?? '') + chunk);
      bytes += Buffer.byteLength(chunk, 'utf8');
    } else {
      bytes += chunk.byteLength;
      let data = chunk;
      if (!decoder) {
        data = head ? Buffer.concat([head, chunk]) : chunk;
        if (data.byteLength < 2) {
          head = data;
          continue;
        }
        const encoding = data[0] === 0xff && data[1] === 0xfe ? 'utf-16le' : data[0] === 0xfe && data[1] === 0xff ? 'utf-16be' : 'utf-8';
        const why = encoding === 'utf-8' ? notText(data) : undefined;
        if (why !== undefined) throw new ImportFileError('not_text', `not a text file: ${why}`);
        decoder = new TextDecoder(encoding, { ignoreBOM: true });
        parser ??= open(encoding);
      }
      feed(decoder.decode(data, { stream: true }));
    }
    options.onBytes?.(bytes);
    yield* ready();
  }
  if (!decoder && head) {
    decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    parser ??= open('utf-8');
    feed(decoder.decode(head, { stream: true }));
  }
  parser ??= open('utf-8');
  if (decoder) feed(decoder.decode());
  parser.end();
  links.finish();
  domains.finish();
  yield* ready();
}

/**
 * Reads backlink records (NDJSON, or CSV in any format {@link readImportFile} knows) and yields
 * batches of the valid ones: {@link readImportFile} for links alone.
 *
 * @throws ImportFileError (a rejection) as {@link readImportFile} does, and `wrong_columns` for a
 *   domains file, which holds no links
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
  for await (const batch of readImportFile(input, options)) {
    if (batch.kind === 'domains') throw new ImportFileError('wrong_columns', 'a domains file holds no links');
    yield batch.rows;
  }
}

const FORMATS: Readonly<Record<string, ImportFormat>> = { csv: 'csv', tsv: 'csv', ndjson: 'ndjson', jsonl: 'ndjson', json: 'ndjson' };

/**
 * The format of a file by its name's extension (any case): `'csv'` for `.csv` and `.tsv`, `'ndjson'` for
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
