/**
 * SQLite connections for the store port.
 *
 * - {@link inThreadConnection}: one better-sqlite3 handle on the calling thread. For bulk loads,
 *   the CLI, and in-memory databases (which another thread cannot open).
 * - {@link workerConnection}: the server's. Reads run on a pool of worker threads (one per core by
 *   default), each with its own connection over WAL, so a slow query delays only itself and never
 *   the event loop; writes (charges, keys) run on one more worker. A statement that waits on a lock
 *   past `lockTimeoutMs` (SQLite's busy timeout) or runs past `statementTimeoutMs` (its worker is
 *   stopped and replaced) rejects with {@link StoreUnavailableError}, which the app answers as a
 *   retryable 503.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { StoreUnavailableError, type SqlConnection, type StoreDialect } from '../sql/connection.js';
import type { Fragment } from '../sql/fragment.js';

/** The dialect facts of SQLite. */
export const sqliteStoreDialect: StoreDialect = Object.freeze({ filter: 'sqlite' });

/** better-sqlite3 binds no booleans: true and false are stored as 1 and 0. */
const bind = (params: readonly unknown[]): any[] => params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));

const isBusy = (error: unknown): boolean => typeof (error as { code?: unknown })?.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test((error as { code: string }).code);

const unavailable = (error: unknown): Error =>
  isBusy(error) ? new StoreUnavailableError('The database is locked by another writer; retry shortly.', { cause: error }) : (error as Error);

/**
 * A connection on the calling thread.
 *
 * @example
 * ```ts
 * const connection = inThreadConnection(db);
 * await connection.all(sql`SELECT count(*) AS n FROM links`);
 * ```
 */
export function inThreadConnection(db: Database): SqlConnection {
  const cache = new Map<string, ReturnType<Database['prepare']>>(); // eslint-disable-line
  const prepare = (text: string) => {
    let statement = cache.get(text);
    if (!statement) {
      statement = db.prepare(text);
      if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
      cache.set(text, statement);
    }
    return statement;
  };
  const rows = <Row>(query: Fragment): Row[] => {
    const statement = prepare(query.sql);
    if (statement.reader) return statement.all(bind(query.params)) as Row[];
    statement.run(bind(query.params));
    return [];
  };
  return {
    dialect: sqliteStoreDialect,
    all: async (query) => {
      try {
        return rows(query);
      } catch (error) {
        throw unavailable(error);
      }
    },
    write: async (query) => {
      try {
        return rows(query);
      } catch (error) {
        throw unavailable(error);
      }
    },
    transaction: async (statements) => {
      try {
        db.transaction(() => {
          for (const statement of statements) prepare(statement.sql).run(bind(statement.params));
        })();
      } catch (error) {
        throw unavailable(error);
      }
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}

/** Options of {@link workerConnection}. */
export interface WorkerConnectionOptions {
  /** Reader threads (default: one per core). */
  readonly readers?: number;
  /** How long a statement waits for a lock held by another connection or process (default 2,000 ms). */
  readonly lockTimeoutMs?: number;
  /** How long a statement may run before its worker is replaced and the call answered 503 (default 10,000 ms). */
  readonly statementTimeoutMs?: number;
}

// The worker is plain CommonJS evaluated from this string, so it runs the same from the sources
// (tsx, vitest) and from the bundle, with no second entry point to ship.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.lockTimeoutMs });
// Pages read through the OS's mapping and a larger cache per reader: a target's rows are scattered
// over the file, and page reads through syscalls dominated the scans.
db.pragma('mmap_size = ' + workerData.mmapBytes);
db.pragma('cache_size = -' + workerData.cacheKib);
const cache = new Map();
const prepare = (text) => {
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    if (cache.size >= 1000) cache.delete(cache.keys().next().value);
    cache.set(text, statement);
  }
  return statement;
};
const bind = (params) => params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
const run = (query) => {
  const statement = prepare(query.sql);
  if (statement.reader) return statement.all(bind(query.params));
  statement.run(bind(query.params));
  return [];
};
parentPort.on('message', (task) => {
  try {
    let rows = [];
    if (task.kind === 'transaction') db.transaction(() => { for (const s of task.statements) prepare(s.sql).run(...bind(s.params)); })();
    else rows = run(task.query);
    parentPort.postMessage({ id: task.id, rows });
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: { message: error.message, code: error.code } });
  }
});
`;

type Task = { kind: 'query'; query: Fragment } | { kind: 'transaction'; statements: readonly Fragment[] };

interface Pending {
  readonly resolve: (rows: unknown[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** One worker thread with its in-flight tasks; replaced when a task times out. */
class SqliteWorker {
  #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  constructor(
    private readonly data: { file: string; driver: string; lockTimeoutMs: number; mmapBytes: number; cacheKib: number },
    private readonly statementTimeoutMs: number,
  ) {
    this.#worker = this.#spawn();
  }

  get load(): number {
    return this.#pending.size;
  }

  #spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.data });
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) {
        const error = Object.assign(new Error(message.error.message), { code: message.error.code });
        pending.reject(unavailable(error));
      } else pending.resolve(message.rows ?? []);
    });
    worker.on('error', (error) => this.#failAll(new StoreUnavailableError(`A database worker failed: ${error.message}`, { cause: error })));
    worker.unref();
    return worker;
  }

  #failAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
  }

  run(task: Task): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('The store is closed.'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#timeout(), this.statementTimeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#worker.postMessage({ id, ...task });
    });
  }

  /** A statement ran too long: stop the thread (SQLite cannot be interrupted from outside it) and start another. */
  #timeout(): void {
    const old = this.#worker;
    this.#failAll(new StoreUnavailableError(`A database statement ran longer than ${this.statementTimeoutMs} ms; retry later.`));
    void old.terminate();
    if (!this.#closed) this.#worker = this.#spawn();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(new StoreUnavailableError('The store is closed.'));
    await this.#worker.terminate();
  }
}

/**
 * The server's connection: reader threads plus one writer thread over a WAL database file.
 *
 * @example
 * ```ts
 * const connection = await workerConnection('links.db', { readers: 2 });
 * ```
 */
export async function workerConnection(file: string, options: WorkerConnectionOptions = {}): Promise<SqlConnection> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const data = { file, driver, lockTimeoutMs: options.lockTimeoutMs ?? 2_000, mmapBytes: 4 * 1024 ** 3, cacheKib: 128 * 1024 };
  const timeout = options.statementTimeoutMs ?? 10_000;
  const readers = Array.from({ length: Math.max(1, options.readers ?? availableParallelism()) }, () => new SqliteWorker(data, timeout));
  const writer = new SqliteWorker(data, timeout);
  const leastBusy = () => readers.reduce((best, worker) => (worker.load < best.load ? worker : best));
  // Fail fast on a file the workers cannot open, rather than on the first request.
  await leastBusy().run({ kind: 'query', query: { sql: 'SELECT 1', params: [] } });
  return {
    dialect: sqliteStoreDialect,
    all: async <Row>(query: Fragment) => (await leastBusy().run({ kind: 'query', query: { sql: query.sql, params: bind(query.params) } })) as Row[],
    write: async <Row>(query: Fragment) => (await writer.run({ kind: 'query', query: { sql: query.sql, params: bind(query.params) } })) as Row[],
    transaction: async (statements) => {
      await writer.run({ kind: 'transaction', statements: statements.map((s) => ({ sql: s.sql, params: bind(s.params) })) });
    },
    close: async () => {
      await Promise.all([...readers, writer].map((worker) => worker.close()));
    },
  };
}
