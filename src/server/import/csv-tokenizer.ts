/**
 * The CSV tokenizer of the import: RFC 4180 records out of text chunks, any delimiter, each with
 * the physical line it starts on.
 *
 * @module
 * @internal
 */

/** The longest record kept in memory (UTF-16 code units); a longer one is rejected unread. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

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
 * What the tokenizer hands over at the end of each record: its cells (the first `count` of
 * `cells`, an array reused from record to record), the physical line it starts on, and the first
 * syntax error found in it, if any.
 */
export type CsvRecordHandler = (cells: readonly string[], count: number, line: number, error: string | undefined) => void;

/**
 * The records of a CSV text fed chunk by chunk: an RFC 4180 state machine with the delimiter as a
 * parameter, that keeps the physical line each record starts on and holds at most one record in
 * memory. What the cells mean is the caller's business.
 *
 * Not csv-parse (tried for issue 23, with csv-parse 7): after a bad closing quote it stays inside
 * the quotes and swallows the next lines; it has no error for a CR outside quotes; with
 * `skip_records_with_error` its `max_record_size` silently drops every later record, so an
 * unterminated quote makes it hold the rest of the file in memory; it gives no record's first
 * line; and it takes more CPU than this reader (docs/design-import.md, section "Speed").
 *
 * @example
 * ```ts
 * const tokenizer = new CsvTokenizer(0x2c, (cells, count, line, error) => console.log(line, cells.slice(0, count), error));
 * tokenizer.feed('a,"b\nc"\r\n');
 * tokenizer.end(); // 1 [ 'a', 'b\nc' ] undefined
 * ```
 */
export class CsvTokenizer {
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

  /** `delimiter`: the character code between cells (`;`, `,` or tab). */
  constructor(
    private readonly delimiter: number,
    private readonly onRecord: CsvRecordHandler,
  ) {}

  feed(text: string): void {
    const { delimiter } = this;
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
            else if (c === delimiter) this.endCell('');
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
            if (c === delimiter || c === LF || c === CR || c === QUOTE) break;
          }
          if (j === n) {
            i = n; // the rest of the chunk is kept below
          } else if (c === QUOTE) {
            this.fail('quote inside an unquoted cell');
            i = j + 1;
          } else {
            const cell = this.pending === '' ? text.slice(cellStart, j) : this.pending + text.slice(cellStart, j);
            if (c === delimiter) {
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
          } else if (c === delimiter) {
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
    this.onRecord(this.cells, cellCount, line, error);
  }
}

