/**
 * The error for a filter that a dialect cannot express exactly. Raised instead of emitting a query
 * that would select different rows than the evaluator (sqlglot's `Generator.unsupported`).
 *
 * @module
 */

const UNSUPPORTED_ERROR = Symbol.for('backlink-query.UnsupportedError');

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
  readonly [UNSUPPORTED_ERROR] = true;

  constructor(dialect: string, message: string) {
    super(`${dialect}: ${message}`);
    this.dialect = dialect;
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
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[UNSUPPORTED_ERROR] === true;
}
