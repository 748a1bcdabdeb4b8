/**
 * The error of an import file that cannot be read at all, as opposed to a bad record, which is
 * reported with its line and skipped (`onReject` of {@link readLinkRecords}).
 *
 * @module
 */

import { errorBrand } from '../../shared/brand.js';

const IMPORT_FILE_ERROR = /* @__PURE__ */ errorBrand<ImportFileError>('ImportFileError');

/**
 * Why a whole import file is refused:
 * - `not_text`: a file whose first bytes are not text (an image, an archive, a spreadsheet, binary);
 * - `no_header`: a CSV file without a header line (empty, or blank lines only);
 * - `invalid_header`: a CSV header line that is not valid CSV (a stray or unterminated quote, a CR
 *   not followed by LF, longer than the longest record read);
 * - `wrong_columns`: a CSV header that fits no format (the message names the closest one and the
 *   columns that differ, one a line), misses a column of the format named, or names a column
 *   twice;
 * - `ambiguous_format`: a CSV header that fits several export formats (name one with `--format`).
 */
export type ImportFileErrorCode = 'not_text' | 'no_header' | 'invalid_header' | 'wrong_columns' | 'ambiguous_format';

/**
 * An import file that cannot be read at all: thrown by {@link readLinkRecords} before it yields
 * any record of the file. `code` says why, for programs; the message names the line and the
 * columns at fault.
 *
 * @example
 * ```ts
 * try {
 *   for await (const links of readLinkRecords(createReadStream('links.csv'), { format: 'csv', onReject })) await save(links);
 * } catch (error) {
 *   if (isImportFileError(error)) console.error(error.code, error.message); // wrong_columns CSV header (line 1): unknown column anchr
 *   else throw error;
 * }
 * ```
 */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
  /** Why, for programs. */
  readonly code: ImportFileErrorCode;
  /** The 1-based line of the header at fault; `undefined` for `no_header` and `not_text`. */
  readonly line: number | undefined;
  constructor(code: ImportFileErrorCode, message: string, line?: number) {
    super(message);
    this.code = code;
    this.line = line;
    IMPORT_FILE_ERROR.mark(this);
  }
}

/**
 * Whether `value` is an {@link ImportFileError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isImportFileError(new ImportFileError('no_header', 'CSV file has no header line')); // true
 * ```
 */
export const isImportFileError = IMPORT_FILE_ERROR.is;
