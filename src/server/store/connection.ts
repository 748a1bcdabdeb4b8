/**
 * What the store's SQL needs from a database: a connection that runs {@link Fragment}s and the
 * few facts that differ between engines. The queries are written once over this port (`reads/`,
 * `loads/`); each engine supplies a connection, its schema and its differences (`engine.ts`).
 *
 * @module
 */
import { errorBrand } from '../../shared/brand.js';
import type { DialectName } from '../../sql/dialect.js';
import type { Fragment } from './fragment.js';

/** The engine facts the shared SQL depends on. */
export interface StoreDialect {
  /** The filter dialect the filter is lowered with (`toSql`). */
  readonly filter: DialectName;
}

/**
 * A connection (or pool) to one database. Reads may run in parallel; writes are serialized by the
 * engine. A read or write that cannot run within the connection's time bound (a lock held by
 * another process, a statement past its timeout, a database that is down) rejects with
 * {@link StoreUnavailableError}.
 */
export interface SqlConnection {
  readonly dialect: StoreDialect;
  /** The rows of a query. */
  all<Row>(query: Fragment): Promise<Row[]>;
  /**
   * Whether the engine reports how many rows a query had before its `LIMIT` and `OFFSET`
   * ({@link SqlConnection.allBeforeLimit}): a list's page and its total in one statement
   * (ClickHouse). Otherwise a list counts in a second statement.
   */
  readonly countsBeforeLimit: boolean;
  /** The rows of a query that sorts and ends in `LIMIT`, and how many it had before them (where {@link SqlConnection.countsBeforeLimit}). */
  allBeforeLimit<Row>(query: Fragment): Promise<{ rows: Row[]; beforeLimit: number }>;
  /** The rows of a statement that writes (`UPDATE ... RETURNING`, `INSERT ... ON CONFLICT`). */
  write<Row>(query: Fragment): Promise<Row[]>;
  /** Runs statements in order in one transaction. */
  transaction(statements: readonly Fragment[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The members of a connection whose engine does not count the rows before a `LIMIT`.
 *
 * @example
 * ```ts
 * const connection: SqlConnection = { dialect, ...NO_COUNT_BEFORE_LIMIT, all, write, transaction, close };
 * ```
 */
export const NO_COUNT_BEFORE_LIMIT = {
  countsBeforeLimit: false,
  allBeforeLimit: () => Promise.reject(new TypeError('This engine does not count the rows before a LIMIT (countsBeforeLimit is false).')),
} as const satisfies Pick<SqlConnection, 'countsBeforeLimit' | 'allBeforeLimit'>;

const STORE_UNAVAILABLE = /* @__PURE__ */ errorBrand<StoreUnavailableError>('StoreUnavailableError');

/**
 * The database cannot answer now (locked, timed out, unreachable); the same request may succeed
 * later. The server answers it with a retryable 503.
 *
 * @example
 * ```ts
 * throw new StoreUnavailableError('The database is locked by another process.');
 * ```
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** Seconds after which a retry makes sense. */
  readonly retryAfterSeconds: number;
  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    STORE_UNAVAILABLE.mark(this);
  }
}

/**
 * Whether an error is a {@link StoreUnavailableError}, across realms and package copies (by its
 * brand: an error that is merely named alike is not one).
 *
 * @example
 * ```ts
 * if (isStoreUnavailable(error)) reply.code(503);
 * ```
 */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return STORE_UNAVAILABLE.is(error);
}
