/**
 * DuckDB connections for the store port: the column side of the embedded store.
 *
 * - `@duckdb/node-api` is an optional dependency, loaded with dynamic `import()`; when it is missing the
 *   server's `MissingDependencyError` (src/peers.ts) names it.
 * - Reads run on a small pool of connections to one database instance; DuckDB runs each query on
 *   its own threads, off the event loop, and every reader sees the last committed state (MVCC).
 * - Writes run on one more connection, one at a time (DuckDB would abort a second concurrent
 *   writer of the same rows), each transaction whole.
 * - A read past `statementTimeoutMs`, counted from the call (waiting for a free connection
 *   included), is interrupted and rejects with {@link StoreUnavailableError} (a retryable 503), as
 *   does a read on a closed database.
 * - Counts and sums come back as BIGINT or HUGEINT (JS `bigint`): every `bigint` in a row is turned
 *   into a JS number (the store's counts stay far below 2^53).
 *
 * @module
 * @internal
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { totalmem } from 'node:os';
import { importPeer, loadOnce } from '../../../../peers.js';
import { SERVER } from '../../../deps.js';
import { callSignal, cancelledAlready, onCallAbort, QueryCancelledError } from '../../call-signal.js';
import { StoreUnavailableError, type SqlConnection, type StoreDialect, NO_COUNT_BEFORE_LIMIT } from '../../connection.js';
import type { Fragment } from '../../fragment.js';

/** The module `@duckdb/node-api`. @internal */
export type DuckdbModule = typeof import('@duckdb/node-api');

/**
 * Loads `@duckdb/node-api` once; throws `MissingDependencyError` (src/peers.ts) when it is not installed.
 */
export const loadDuckdb: () => Promise<DuckdbModule> = loadOnce(() => importPeer(SERVER, '@duckdb/node-api', () => import('@duckdb/node-api')));

/** The dialect facts of DuckDB. */
export const duckdbStoreDialect: StoreDialect = Object.freeze({ filter: 'duckdb' });

/** Options of the DuckDB connections of the embedded store's column side. */
export interface DuckdbConnectionOptions {
  /** Reader connections (default 4: the size of libuv's thread pool, on which they run). */
  readonly readers?: number;
  /** How long a read may run before it is interrupted and answered 503 (default 10,000 ms). */
  readonly statementTimeoutMs?: number;
  /** DuckDB's own worker threads for one query (default: DuckDB's, one per core). */
  readonly threads?: number;
  /**
   * DuckDB's memory limit, such as `'4GB'` (default: half the machine's memory, leaving the rest to
   * Node and SQLite; past it DuckDB spills to temporary files). The embedded store opened for
   * writing has a smaller default: 512 MiB, and 2 GiB once for a group of domains that needs more
   * (each at most a quarter of the machine's memory), see `loadMemoryLimits`.
   */
  readonly memoryLimit?: string;
  /** Open the file for reading only (no writes; other processes may read it too). */
  readonly readOnly?: boolean;
}

/** A typed column of an append: how each value is handed to DuckDB's appender. */
export type AppendType = 'varchar' | 'integer' | 'bigint' | 'double' | 'boolean';

/** The column side's connection: the store port, plus bulk appends and the instance's lifetime. */
export interface DuckdbConnection extends SqlConnection {
  /**
   * Runs `work` alone on the writer connection inside one transaction: statements through `run`,
   * rows through `append` (DuckDB's appender: no SQL text per row). Commits when `work` resolves,
   * rolls back when it throws.
   */
  writeTransaction<T>(work: (tx: DuckdbWriter) => Promise<T>): Promise<T>;
  /** A query's result by column (each column an array of JS values), for bulk reads of millions of small values. */
  columnsOf(query: Fragment): Promise<unknown[][]>;
  /**
   * `values` as one bound `VARCHAR[]`, for `x IN (SELECT unnest(list))`: DuckDB plans it faster than
   * an `IN` of one parameter per key, which it also turns into a join after reading every row of
   * the range (docs/design-store.md, "Measurements behind the store's code").
   */
  textList(values: readonly string[]): Fragment;
  /** Writes what the write-ahead log holds into the file (after a bulk load), on the writer, outside a transaction. */
  checkpoint(): Promise<void>;
}

/** What a write transaction can do. */
export interface DuckdbWriter {
  run(query: Fragment): Promise<void>;
  /** Appends rows (values in `types` order) to `table` (`temp.NAME` for a temporary table), whose columns are exactly those, in that order. */
  append(table: string, types: readonly AppendType[], rows: Iterable<readonly unknown[]>): Promise<void>;
  /**
   * An appender of rows to `table`, written synchronously (a chunk of DuckDB's vector size at a
   * time), for rows that come from a synchronous source such as an open SQLite iterator, which no
   * `await` may interrupt. `close` writes what is left; the transaction commits what was added.
   */
  appender(table: string, types: readonly AppendType[]): Promise<RowAppender>;
  /**
   * A query's result, read in the transaction (its temporary tables are the writer's own), a chunk
   * of rows at a time, each chunk's values by column: a large result is never held whole, and
   * columns convert faster than rows.
   */
  chunksOf(query: Fragment): AsyncIterable<readonly (readonly unknown[])[]>;
}

/** Rows appended synchronously to a table in a write transaction (see {@link DuckdbWriter.appender}). */
export interface RowAppender {
  add(row: readonly unknown[]): void;
  close(): void;
}

/** `bigint`s (counts, sums) as numbers; other values as DuckDB's JS conversion gives them. */
function toNumbers(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (typeof value === 'bigint') row[key] = Number(value);
    }
  }
  return rows;
}

const isInterrupt = (error: unknown): boolean => /INTERRUPT/i.test(String((error as { message?: unknown })?.message));

/** One connection with its prepared statements (a statement is prepared once per text). */
class Session {
  readonly #prepared = new Map<string, DuckDBPreparedStatement>();
  constructor(readonly connection: DuckDBConnection) {}

  async run(query: Fragment): Promise<Record<string, unknown>[]> {
    return toNumbers((await this.#read(query)).getRowObjectsJS() as Record<string, unknown>[]);
  }

  async columns(query: Fragment): Promise<unknown[][]> {
    const reader = await this.#read(query);
    // No rows: no chunk, and no column arrays either; one empty array per column.
    return reader.currentRowCount === 0 ? Array.from({ length: reader.columnCount }, () => []) : (reader.getColumnsJS() as unknown[][]);
  }

  async #read(query: Fragment) {
    // A statement without parameters (DDL among them, which a kept prepared statement would re-run
    // against the catalog it was bound to) runs as it is.
    if (query.params.length === 0) return this.connection.runAndReadAll(query.sql);
    let statement = this.#prepared.get(query.sql);
    if (!statement) {
      statement = await this.connection.prepare(query.sql);
      if (this.#prepared.size >= 500) {
        const [oldest] = this.#prepared.entries().next().value!;
        this.#prepared.delete(oldest);
      }
      this.#prepared.set(query.sql, statement);
    }
    statement.bind(query.params as DuckDBValue[]);
    return statement.runAndReadAll();
  }

  close(): void {
    this.#prepared.clear();
    this.connection.closeSync();
  }
}

/** Hands out sessions one caller at a time, in arrival order. */
class SessionPool {
  readonly #idle: Session[];
  readonly #waiting: ((session: Session) => void)[] = [];
  constructor(readonly all: readonly Session[]) {
    this.#idle = [...all];
  }

  /** A free session; waiting in line unless `signal` (an abandoned call) aborts first. */
  acquire(signal?: AbortSignal): Promise<Session> {
    const session = this.#idle.pop();
    if (session) return Promise.resolve(session);
    return new Promise((resolve, reject) => {
      const waiter = (session: Session) => {
        signal?.removeEventListener('abort', leave);
        resolve(session);
      };
      const leave = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(new QueryCancelledError());
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.#waiting.push(waiter);
    });
  }

  release(session: Session): void {
    const next = this.#waiting.shift();
    if (next) next(session);
    else this.#idle.push(session);
  }
}

/** Rows per appended chunk: DuckDB's vector size. */
const CHUNK_ROWS = 2048;

/** The DuckDB type of each kind of appended column, by the name `@duckdb/node-api` exports it under. */
const CHUNK_TYPE = { varchar: 'VARCHAR', integer: 'INTEGER', bigint: 'BIGINT', double: 'DOUBLE', boolean: 'BOOLEAN' } as const satisfies Record<AppendType, string>;

/** A value as its chunk column takes it (SQLite gives booleans as 0/1, BIGINT wants a bigint). */
const TO_CHUNK: Readonly<Record<AppendType, (value: unknown) => DuckDBValue>> = {
  varchar: (v) => String(v),
  integer: (v) => Number(v),
  bigint: (v) => BigInt(v as number),
  double: (v) => Number(v),
  boolean: (v) => v === true || v === 1,
};

/**
 * DuckDB's memory limits for loads (the embedded store's column files, when a load does not name
 * one): `first` 512 MiB, and `most`, which a group of domains that needs more than `first` is given
 * once, 2 GiB; each at most a quarter of the machine's memory. A load's working tables grow with
 * its file; past the limit they spill to temporary files beside the column file, so that a load's
 * memory is bounded whatever the size of its file (the peaks: docs/importing.md, "Memory").
 * @internal
 */
export const loadMemoryLimits = (): { readonly first: string; readonly most: string } => {
  const quarter = Math.floor(totalmem() / 4 / 2 ** 20);
  return { first: `${Math.max(64, Math.min(512, quarter))}MiB`, most: `${Math.max(64, Math.min(2048, quarter))}MiB` };
};

/** Opens (creating when needed) a DuckDB database file and the connections the store uses. */
export async function openDuckdbConnection(file: string, options: DuckdbConnectionOptions = {}): Promise<DuckdbConnection> {
  const duck = await loadDuckdb();
  const { DuckDBInstance } = duck;
  const config: Record<string, string> = {};
  if (options.threads !== undefined) config['threads'] = String(options.threads);
  config['memory_limit'] = options.memoryLimit ?? `${Math.max(1, Math.floor(totalmem() / 2 ** 21))}MiB`;
  if (options.readOnly) config['access_mode'] = 'READ_ONLY';
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, config);
  } catch (error) {
    const message = String((error as Error).message);
    if (/lock/i.test(message)) {
      throw new StoreUnavailableError(
        `The column file ${file} is open in another process (a running server?); DuckDB lets a file have one writer, or readers only. Stop that process to load data.`,
        { cause: error },
      );
    }
    throw error;
  }
  const sessions: Session[] = [];
  const open = async () => {
    const session = new Session(await instance.connect());
    sessions.push(session);
    return session;
  };
  const readers = new SessionPool(await Promise.all(Array.from({ length: Math.max(1, options.readers ?? 4) }, open)));
  const writer = await open();
  const timeoutMs = options.statementTimeoutMs ?? 10_000;
  let closed = false;
  // Writes one at a time: each waits for the one before it.
  let writes: Promise<unknown> = Promise.resolve();

  const inFlight = new Set<Promise<unknown>>();
  const read = async <T>(query: Fragment, how: (session: Session) => Promise<T>, limitMs = timeoutMs): Promise<T> => {
    if (closed) throw new StoreUnavailableError('The store is closed.');
    cancelledAlready();
    const queued = Date.now();
    const session = await readers.acquire(callSignal());
    // The bound counts from the call, queue included: a call that waited it out runs nothing (one
    // abandoned meanwhile has left the line).
    const left = limitMs > 0 ? limitMs - (Date.now() - queued) : Infinity;
    if (left <= 0 || closed) {
      readers.release(session);
      throw new StoreUnavailableError(closed ? 'The store is closed.' : `The database was busy for ${limitMs} ms; retry later.`);
    }
    let stopped: 'timeout' | 'cancel' | undefined;
    // An interrupt that comes before DuckDB has begun the statement is lost: it is repeated until the statement ends.
    let repeat: NodeJS.Timeout | undefined;
    const stop = (why: 'timeout' | 'cancel') => {
      stopped ??= why;
      session.connection.interrupt();
      repeat ??= setInterval(() => session.connection.interrupt(), 20);
    };
    const timer = left !== Infinity ? setTimeout(() => stop('timeout'), left) : undefined;
    const done = onCallAbort(() => stop('cancel'));
    const running = how(session);
    inFlight.add(running);
    try {
      return await running;
    } catch (error) {
      if (stopped === 'cancel') throw new QueryCancelledError(undefined, { cause: error });
      if (stopped === 'timeout' || isInterrupt(error)) throw new StoreUnavailableError(`A database statement ran longer than ${limitMs} ms; retry later.`, { cause: error });
      if (closed) throw new StoreUnavailableError('The store is closed.', { cause: error });
      throw error;
    } finally {
      done();
      inFlight.delete(running);
      clearTimeout(timer);
      clearInterval(repeat);
      readers.release(session);
    }
  };

  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = writes.then(work, work);
    writes = next.catch(() => undefined);
    return next;
  };

  const writeTransaction = <T>(work: (tx: DuckdbWriter) => Promise<T>): Promise<T> =>
    serialized(async () => {
      if (closed) throw new StoreUnavailableError('The store is closed.');
      await writer.run({ sql: 'BEGIN TRANSACTION', params: [] });
      try {
        const openAppender = async (table: string, types: readonly AppendType[]): Promise<RowAppender> => {
          const [catalog, name] = table.includes('.') ? (table.split('.') as [string, string]) : [null, table];
          const appender = await writer.connection.createAppender(name, null, catalog);
          // A column at a time, in chunks of DuckDB's vector size: one call per column, not per value.
          const chunkTypes = types.map((type) => duck[CHUNK_TYPE[type]]);
          const convert = types.map((type) => TO_CHUNK[type]);
          let batch: (readonly unknown[])[] = [];
          // One chunk, emptied before each batch: a chunk's memory is DuckDB's, freed only when V8
          // collects its wrapper, which a small heap rarely does (docs/design-store.md, "Measurements
          // behind the store's code").
          const chunk = duck.DuckDBDataChunk.create(chunkTypes);
          const send = () => {
            chunk.reset();
            chunk.rowCount = batch.length;
            for (let c = 0; c < types.length; c++) chunk.setColumnValues(c, batch.map((row) => convert[c]!(row[c])));
            appender.appendDataChunk(chunk);
            batch = [];
          };
          let closed = false;
          return {
            add: (row) => {
              batch.push(row);
              if (batch.length === CHUNK_ROWS) send();
            },
            close: () => {
              if (closed) return;
              closed = true;
              try {
                if (batch.length > 0) send();
                appender.flushSync();
              } finally {
                appender.closeSync();
              }
            },
          };
        };
        const result = await work({
          run: async (query) => void (await writer.run(query)),
          chunksOf: async function* (query) {
            for await (const chunk of await writer.connection.stream(query.sql, query.params as DuckDBValue[])) yield chunk.getColumns();
          },
          append: async (table, types, rows) => {
            const appender = await openAppender(table, types);
            try {
              for (const row of rows) appender.add(row);
            } finally {
              appender.close();
            }
          },
          appender: openAppender,
        });
        await writer.run({ sql: 'COMMIT', params: [] });
        return result;
      } catch (error) {
        await writer.run({ sql: 'ROLLBACK', params: [] }).catch(() => undefined);
        throw error;
      }
    });

  return {
    dialect: duckdbStoreDialect,
    ...NO_COUNT_BEFORE_LIMIT,
    all: async <Row>(query: Fragment) => (await read(query, (session) => session.run(query))) as Row[],
    textList: (values) => ({ sql: 'CAST(? AS VARCHAR[])', params: [duck.listValue([...values])] }),
    // A bulk read of a load: no time bound.
    columnsOf: (query) => read(query, (session) => session.columns(query), 0),
    write: <Row>(query: Fragment) => writeTransaction(async () => (await writer.run(query)) as Row[]),
    transaction: (statements) =>
      writeTransaction(async (tx) => {
        for (const statement of statements) await tx.run(statement);
      }),
    writeTransaction,
    checkpoint: () =>
      serialized(async () => {
        if (!closed) await writer.run({ sql: 'CHECKPOINT', params: [] });
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await writes;
      // Reads still running are stopped, and waited for before their connections close.
      for (const session of sessions) session.connection.interrupt();
      await Promise.allSettled([...inFlight]);
      for (const session of sessions) session.close();
      instance.closeSync();
    },
  };
}
