/**
 * The store's errors besides {@link StoreUnavailableError} (the database cannot answer now, a
 * retryable 503) and {@link QueryCancelledError} (the call was abandoned): a failure that the
 * same request meets again. Each has a guard that tests its brand (`src/shared/brand.ts`).
 *
 * @module
 */
import { errorBrand } from '../../shared/brand.js';
import type { QueryCancelledError } from './call-signal.js';
import type { StoreUnavailableError } from './connection.js';

const STORE_ERROR = /* @__PURE__ */ errorBrand<StoreError>('StoreError');
const STORE_QUERY_ERROR = /* @__PURE__ */ errorBrand<StoreQueryError>('StoreQueryError');

/**
 * What a {@link StoreError} is about:
 * - `schema_too_new`: the database was migrated by a newer version of the package;
 * - `wrong_layout`: the file is the row file of an embedded store, opened as a plain SQLite store;
 * - `read_only`: a load into a store opened for serving;
 * - `invalid_record`: a record handed to the store cannot be stored (a URL without a host);
 * - `out_of_memory`: a load's work on the embedded store's column file needed more than DuckDB's
 *   memory limit (nothing of the load was written; a larger limit lets it through).
 */
export type StoreErrorCode = 'schema_too_new' | 'wrong_layout' | 'read_only' | 'invalid_record' | 'out_of_memory';

/**
 * The store cannot do what was asked, and will not be able to later: unlike
 * {@link StoreUnavailableError}, retrying does not help. `code` says why.
 *
 * @example
 * ```ts
 * throw new StoreError('schema_too_new', 'The database schema (version 9) is newer than this server knows (8).');
 * ```
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  /** Why, for programs. */
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    STORE_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link StoreError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isStoreError(error) && error.code === 'schema_too_new') console.error(error.message);
 * ```
 */
export function isStoreError(value: unknown): value is StoreError {
  return STORE_ERROR.is(value);
}

/**
 * The database refused a statement or answered it with an error (a ClickHouse exception, an error
 * of a SQLite worker thread), or with an answer that is not what the store asked for. `code` is the
 * engine's own code where it gave one: SQLite's (`SQLITE_CONSTRAINT_UNIQUE`, as better-sqlite3's
 * errors carry it on the calling thread), ClickHouse's exception number (`'62'`); from a SQLite
 * worker also `CANCELLED` (interrupted for an abandoned call) and `SQLITE_BUSY_DEADLINE` (waited in
 * line past its time bound).
 *
 * @example
 * ```ts
 * throw new StoreQueryError('ClickHouse at http://127.0.0.1:8123: Code: 62. Syntax error', '62');
 * ```
 */
export class StoreQueryError extends Error {
  override readonly name = 'StoreQueryError';
  /** The engine's code for the failure, when it gave one. */
  readonly code: string | undefined;
  constructor(message: string, code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    STORE_QUERY_ERROR.mark(this);
  }
}

/**
 * Whether `value` is a {@link StoreQueryError}, across realms and package copies.
 *
 * @example
 * ```ts
 * if (isStoreQueryError(error)) console.error(error.code, error.message);
 * ```
 */
export function isStoreQueryError(value: unknown): value is StoreQueryError {
  return STORE_QUERY_ERROR.is(value);
}
