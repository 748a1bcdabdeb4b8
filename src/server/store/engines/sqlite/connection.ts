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
 *   retryable 503. A read of an abandoned call is skipped while queued and interrupted while
 *   running (`interrupt.ts`).
 *
 * @module
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { callSignal, QueryCancelledError } from '../../call-signal.js';
import { StoreQueryError } from '../../errors.js';
import { StoreUnavailableError, type SqlConnection, type StoreDialect, NO_COUNT_BEFORE_LIMIT } from '../../connection.js';
import type { Fragment } from '../../fragment.js';
import { interruptExtension, INTERRUPT_SLOTS } from './interrupt.js';

/** The dialect facts of SQLite. */
export const sqliteStoreDialect: StoreDialect = Object.freeze({ filter: 'sqlite' });

/** better-sqlite3 binds no booleans: true and false are stored as 1 and 0. */
const bind = (params: readonly unknown[]): any[] => params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));

const isBusy = (error: unknown): boolean => typeof (error as { code?: unknown })?.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test((error as { code: string }).code);

const unavailable = (error: unknown): Error => {
  // A statement still waiting in its thread's line when its time bound passed: nothing was locked.
  if ((error as { code?: unknown })?.code === 'SQLITE_BUSY_DEADLINE') {
    return new StoreUnavailableError('The database is busy: this statement waited in line past its time bound without starting; retry shortly.', { cause: error });
  }
  return isBusy(error) ? new StoreUnavailableError('The database is locked by another connection or process; retry shortly.', { cause: error }) : (error as Error);
};

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
    ...NO_COUNT_BEFORE_LIMIT,
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
  /**
   * Serving one generation of an embedded store's data (`store_meta`'s `columns_generation`): every
   * read checks it first and fails with code `GENERATION_MOVED` once a load has committed another.
   * @internal
   */
  readonly generation?: string;
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
// WAL with synchronous=NORMAL: a commit (a charge) appends to the WAL without an fsync; the
// database stays consistent after a crash, and only the last commits before a power loss can be lost.
db.pragma('synchronous = NORMAL');
// The interrupt extension (interrupt.ts), when it could be built: this connection in its slot.
if (workerData.extension) {
  db.loadExtension(workerData.extension, 'sqlite3_bqinterrupt_init');
  db.prepare('SELECT bq_interrupt_register(?)').get(workerData.slot);
}
const close = () => {
  if (workerData.extension) db.prepare('SELECT bq_interrupt_unregister(?)').get(workerData.slot);
  db.close();
};
const cache = new Map();
// A reader's rows go back as arrays with its column names (the main thread makes them objects):
// objects would carry every name again in every row across the thread.
const names = new WeakMap();
const prepare = (text) => {
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    if (statement.reader) {
      statement.raw(true);
      names.set(statement, statement.columns().map((column) => column.name));
    }
    if (cache.size >= 1000) cache.delete(cache.keys().next().value);
    cache.set(text, statement);
  }
  return statement;
};
const bind = (params) => params.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
// A serving generation's reader (workerData.generation): each read is a read transaction that
// first checks the file still holds that generation; one committed by a load since fails it with
// GENERATION_MOVED, and the embedded store answers the call again from the new generation.
const generationNow = workerData.generation === undefined ? undefined : db.prepare("SELECT coalesce((SELECT value FROM store_meta WHERE key = 'columns_generation'), '0')").pluck();
const begin = db.prepare('BEGIN');
const commit = db.prepare('COMMIT');
const readAt = (statement, params) => {
  begin.run();
  try {
    if (generationNow.get() !== workerData.generation) {
      const moved = new Error('A load has committed a new generation of the data since this read began.');
      moved.code = 'GENERATION_MOVED';
      throw moved;
    }
    return statement.all(params);
  } finally {
    commit.run();
  }
};
const run = (query) => {
  const statement = prepare(query.sql);
  if (statement.reader) return { columns: names.get(statement), rows: generationNow ? readAt(statement, bind(query.params)) : statement.all(bind(query.params)) };
  statement.run(bind(query.params));
  return { columns: [], rows: [] };
};
// Set by the main thread when it gives up on this thread: finish nothing more, close, exit.
const retired = new Int32Array(workerData.retired);
let busyTimeout = workerData.lockTimeoutMs;
// A failed task is answered with its message and code; the main thread makes it a StoreQueryError.
const fail = (task, message, code) => parentPort.postMessage({ id: task.id, error: { message, code } });
parentPort.on('message', (task) => {
  if (Atomics.load(retired, 0) === 1) {
    close();
    process.exit(0);
  }
  try {
    // A task whose call was abandoned while it waited is not run (0 queued, 1 started, 2 cancelled
    // before it started, 3 interrupted while it ran, 4 ended).
    if (task.state && Atomics.compareExchange(new Int32Array(task.state), 0, 0, 1) !== 0) return fail(task, 'cancelled', 'CANCELLED');
    // A task past its deadline is not run at all (its caller was answered already); a lock is
    // waited for only as long as the task's deadline leaves.
    const left = task.deadline - Date.now();
    if (left <= 0) return fail(task, 'The database was busy past the time bound.', 'SQLITE_BUSY_DEADLINE');
    const wait = Math.min(workerData.lockTimeoutMs, left);
    if (wait !== busyTimeout) db.pragma('busy_timeout = ' + (busyTimeout = wait));
    let rows = { columns: [], rows: [] };
    const attempt = () => {
      if (task.kind === 'transaction') db.transaction(() => { for (const s of task.statements) prepare(s.sql).run(...bind(s.params)); })();
      else rows = run(task.query);
    };
    const flags = task.state && new Int32Array(task.state);
    for (;;) {
      try {
        attempt();
        break;
      } catch (error) {
        if (error.code !== 'SQLITE_INTERRUPT') throw error;
        // 3: the main thread interrupted this task, whose call was abandoned. Otherwise the
        // interrupt was meant for a statement that had just ended (each such interrupt is one
        // abandoned call, so this ends): this one runs again.
        if (flags && Atomics.load(flags, 0) === 3) return fail(task, 'cancelled', 'CANCELLED');
      }
    }
    // 4: ended. A call abandoned from now on has no statement here to interrupt (one interrupted
    // anyway hits the next task's statement, which runs again).
    if (flags) Atomics.compareExchange(flags, 0, 1, 4);
    parentPort.postMessage({ id: task.id, rows });
  } catch (error) {
    fail(task, error.message, error.code);
  }
});
`;

type Task = { kind: 'query'; query: Fragment } | { kind: 'transaction'; statements: readonly Fragment[] };

/** A reader's rows as the worker sends them: arrays of values, and the column names once. */
interface RawRows {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/** The rows of {@link RawRows} as objects by column name (a later column of the same name wins, as in better-sqlite3's objects). */
function rowObjects({ columns, rows }: RawRows): Record<string, unknown>[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row;
  });
}

interface Pending {
  readonly resolve: (rows: unknown[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One worker thread with its in-flight tasks. Every task has a deadline: a write's is the lock
 * bound after it was queued (so callers queued behind a locked write each wait at most the bound,
 * not one bound per caller ahead of them), a read's the statement bound. The thread waits for a
 * lock only until the deadline and skips tasks already past it, so a caller answered 503 is never
 * charged afterwards. A task still unanswered past its statement bound means the thread is stuck in
 * one long statement (stopping a thread inside a native call can abort the process, and the
 * interrupt extension may be missing): the thread is retired (it exits after that statement,
 * running nothing else) and a fresh one takes its place. The statement of an abandoned call is
 * interrupted instead, when the extension is there (see {@link SqliteWorker.run}).
 */
class SqliteWorker {
  #worker!: Worker;
  #retired!: Int32Array;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  #slot = -1;

  constructor(
    private readonly data: { file: string; driver: string; lockTimeoutMs: number; mmapBytes: number; cacheKib: number; extension: string | undefined; generation: string | undefined },
    private readonly statementTimeoutMs: number,
    private readonly writes: boolean,
    /** Interrupts the statement of the connection in a slot (the interrupt extension), when it could be built. */
    private readonly interrupt: ((slot: number) => void) | undefined,
  ) {
    this.#spawn();
  }

  get load(): number {
    return this.#pending.size;
  }

  #spawn(): void {
    const retired = new SharedArrayBuffer(4);
    const slot = takeSlot();
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...this.data, retired, slot } });
    worker.once('exit', () => FREE_SLOTS.push(slot));
    const pending = this.#pending;
    worker.on('message', (message: { id: number; rows?: RawRows; error?: { message: string; code?: string } }) => {
      const task = pending.get(message.id);
      if (!task) return;
      pending.delete(message.id);
      clearTimeout(task.timer);
      if (message.error) {
        task.reject(unavailable(new StoreQueryError(message.error.message, message.error.code)));
      } else task.resolve(message.rows ? rowObjects(message.rows) : []);
    });
    worker.on('error', (error) => {
      if (worker === this.#worker) this.#failAll(new StoreUnavailableError(`A database worker failed: ${error.message}`, { cause: error }));
    });
    worker.unref();
    this.#worker = worker;
    this.#retired = new Int32Array(retired);
    this.#slot = slot;
  }

  #failAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
  }

  /**
   * Runs a task. With `signal` (a read for a call), a task still queued when the call is abandoned
   * is taken off the line (the thread skips it) and rejects at once with {@link QueryCancelledError};
   * one already running is interrupted through the interrupt extension (interrupt.ts), and without
   * it runs to its end. Either way its caller waits for the statement to end, so the call's slot is
   * held as long as its work runs.
   */
  run(task: Task, signal?: AbortSignal): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('The store is closed.'));
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    const id = this.#nextId++;
    const deadline = Date.now() + (this.writes ? this.data.lockTimeoutMs : this.statementTimeoutMs);
    const state = signal ? new SharedArrayBuffer(4) : undefined;
    const done = new Promise<unknown[]>((resolve, reject) => {
      // The worker answers by the deadline unless it is stuck in one statement; a second's grace.
      const timer = setTimeout(() => this.#stuck(), Math.max(this.statementTimeoutMs, deadline - Date.now()) + 1_000);
      this.#pending.set(id, { resolve, reject, timer });
      this.#worker.postMessage({ id, deadline, state, ...task });
    });
    if (!signal || !state) return done;
    return new Promise((resolve, reject) => {
      const retired = this.#retired;
      const slot = this.#slot;
      const cancel = () => {
        const flags = new Int32Array(state);
        if (Atomics.compareExchange(flags, 0, 0, 2) !== 0) {
          // Running: interrupted (the thread answers it as cancelled), and waited for. A retired
          // thread may be closing its connection: it is never interrupted.
          if (this.interrupt && Atomics.compareExchange(flags, 0, 1, 3) === 1 && Atomics.load(retired, 0) === 0) this.interrupt(slot);
          return;
        }
        const pending = this.#pending.get(id);
        if (pending) {
          clearTimeout(pending.timer);
          this.#pending.delete(id);
        }
        reject(new QueryCancelledError());
      };
      signal.addEventListener('abort', cancel, { once: true });
      done.then(
        (rows) => (signal.removeEventListener('abort', cancel), signal.aborted ? reject(new QueryCancelledError()) : resolve(rows)),
        (error: unknown) => (signal.removeEventListener('abort', cancel), reject(signal.aborted ? new QueryCancelledError(undefined, { cause: error }) : error)),
      );
    });
  }

  /** A statement ran too long: answer every caller of this thread, retire it, start another. */
  #stuck(): void {
    Atomics.store(this.#retired, 0, 1);
    this.#worker.postMessage({ id: -1, deadline: 0, kind: 'query', query: { sql: 'SELECT 1', params: [] } }); // wakes it to exit after the statement
    this.#failAll(new StoreUnavailableError(`A database statement ran longer than ${this.statementTimeoutMs} ms; retry later.`));
    if (!this.#closed) this.#spawn();
  }

  /** Answers every caller, then lets the thread finish its statement, close its database and exit. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(new StoreUnavailableError('The store is closed.'));
    const worker = this.#worker;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    Atomics.store(this.#retired, 0, 1);
    worker.postMessage({ id: -1, deadline: 0, kind: 'query', query: { sql: 'SELECT 1', params: [] } });
    // A thread stuck in a long statement is waited for only so long: it is unref'd and exits after it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, this.data.lockTimeoutMs + 1_000)))]);
    clearTimeout(timer);
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
  const require = createRequire(import.meta.url);
  const driver = require.resolve('better-sqlite3');
  const extension = await interruptExtension();
  const data = { file, driver, lockTimeoutMs: options.lockTimeoutMs ?? 2_000, mmapBytes: 4 * 1024 ** 3, cacheKib: 128 * 1024, extension, generation: options.generation };
  const timeout = options.statementTimeoutMs ?? 10_000;
  // The main thread's own connection to the extension, through which it interrupts the threads'.
  let interrupter: Database | undefined;
  let interrupt: ((slot: number) => void) | undefined;
  if (extension) {
    const Driver = require('better-sqlite3') as new (file: string) => Database;
    const own = new Driver(':memory:');
    // better-sqlite3 takes the entry point as a second argument (its typings name only the path).
    (own.loadExtension as (path: string, entryPoint: string) => Database)(extension, 'sqlite3_bqinterrupt_init');
    const statement = own.prepare('SELECT bq_interrupt(?)');
    interrupter = own;
    interrupt = (slot) => void statement.get(slot);
  }
  const readers = Array.from({ length: Math.max(1, options.readers ?? availableParallelism()) }, () => new SqliteWorker(data, timeout, false, interrupt));
  const writer = new SqliteWorker(data, timeout, true, undefined);
  const leastBusy = () => readers.reduce((best, worker) => (worker.load < best.load ? worker : best));
  // Fail fast on a file the workers cannot open, rather than on the first request.
  await leastBusy().run({ kind: 'query', query: { sql: 'SELECT 1', params: [] } });
  return {
    dialect: sqliteStoreDialect,
    ...NO_COUNT_BEFORE_LIMIT,
    all: async <Row>(query: Fragment) => (await leastBusy().run({ kind: 'query', query: { sql: query.sql, params: bind(query.params) } }, callSignal())) as Row[],
    write: async <Row>(query: Fragment) => (await writer.run({ kind: 'query', query: { sql: query.sql, params: bind(query.params) } })) as Row[],
    transaction: async (statements) => {
      await writer.run({ kind: 'transaction', statements: statements.map((s) => ({ sql: s.sql, params: bind(s.params) })) });
    },
    close: async () => {
      await Promise.all([...readers, writer].map((worker) => worker.close()));
      interrupter?.close();
    },
  };
}

/** Slots of the interrupt extension free for a new thread's connection. */
const FREE_SLOTS: number[] = [];
let nextSlot = 0;

function takeSlot(): number {
  const slot = FREE_SLOTS.pop() ?? nextSlot++;
  if (slot >= INTERRUPT_SLOTS) throw new StoreUnavailableError(`More than ${INTERRUPT_SLOTS} SQLite threads at once.`);
  return slot;
}
