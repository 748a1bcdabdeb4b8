/**
 * The error for a filter that a dialect cannot express exactly. Raised instead of emitting a query
 * that would select different rows than the evaluator (sqlglot's `Generator.unsupported`).
 *
 * @module
 */

import { errorBrand } from '../shared/brand.js';

const UNSUPPORTED_ERROR = /* @__PURE__ */ errorBrand<UnsupportedError>('UnsupportedError');

/**
 * Thrown by {@link toSql} when a dialect cannot express a filter exactly (a NUL character in a
 * PostgreSQL string, a NUL in an SQLite LIKE pattern, a NUL in an identifier).
 *
 * @example
 * ```ts
 * try {
 *   toSql(filter, { dialect: 'postgres' });
 * } catch (error) {
 *   if (isUnsupportedError(error)) console.log(error.dialect, error.message);
 * }
 * ```
 */
export class UnsupportedError extends Error {
  override readonly name = 'UnsupportedError';
  /** Always `'unsupported'`. */
  readonly code = 'unsupported' as const;
  /** The dialect that cannot express the filter. */
  readonly dialect: string;

  constructor(dialect: string, message: string) {
    super(`${dialect}: ${message}`);
    this.dialect = dialect;
    UNSUPPORTED_ERROR.mark(this);
  }
}

/**
 * Whether `value` is an {@link UnsupportedError}, across realms and package copies.
 *
 * @example
 * ```ts
 * isUnsupportedError(new UnsupportedError('sqlite', 'NUL in a LIKE pattern')); // true
 * ```
 */
export function isUnsupportedError(value: unknown): value is UnsupportedError {
  return UNSUPPORTED_ERROR.is(value);
}
