/**
 * A server's store over a SQLite file that loads in other processes write (the embedded store, the
 * SQLite store): each call is answered from one generation of the data. Every load adds one to the
 * file's generation in its transaction (`sqliteLoad`); a generation's reader threads check it in
 * the read transaction of each statement (`WorkerConnectionOptions.generation`), and fail with
 * `GENERATION_MOVED` once a load has committed another.
 *
 * Before each call (and every {@link FOLLOW_EVERY_MS} ms between calls) the store looks whether
 * another connection has committed (SQLite's `data_version`), then whether the generation moved;
 * if so, the call (and those after it) waits for the new generation's store to open: the first
 * call after a load's commit sees all of it, with an empty read-cache. A call whose read meets a
 * newer generation than its own (the load committed while it ran) is answered again from the new
 * one. The old generation's store closes when its last call ends. Keys and balances are read and
 * written on a connection of their own (`own`), which sees every commit.
 *
 * @module
 * @internal
 */
import { StoreUnavailableError } from '../../connection.js';
import { isStoreQueryError, StoreError } from '../../errors.js';
import { sqlLedger } from '../../ledger.js';
import { raw } from '../../fragment.js';
import type { Store } from '../../store.js';
import type { Database } from 'better-sqlite3';
import type { SqlConnection } from '../../connection.js';

/** The generation of a file's data: a counter every load adds one to in its transaction (`store_meta`). */
export const dataGeneration = (db: Database): string =>
  (db.prepare(`SELECT value FROM store_meta WHERE key = 'columns_generation'`).pluck().get() as string | undefined) ?? '0';

/** How often a server's store looks for a load committed by another process, between calls. */
const FOLLOW_EVERY_MS = 200;

/** Whether an error is a read that found a newer generation of the data than its store serves. */
export const movedOn = (error: unknown): boolean => isStoreQueryError(error) && error.code === 'GENERATION_MOVED';

/** The server's own connections to the file (a `SqliteFile`): it follows commits on `db`, and keeps keys and balances on `connection`. */
export interface OwnFile {
  readonly file: string;
  readonly db: Database;
  readonly connection: SqlConnection;
  close(): Promise<void>;
}

/** The store of one generation of the data, opened by the caller. */
export interface GenerationStore<S extends Store> {
  readonly generation: string;
  readonly store: S;
}

/** One generation and the calls answering from it. */
interface Generation<S extends Store> extends GenerationStore<S> {
  users: number;
  retired: boolean;
  closed?: Promise<void>;
}

/**
 * Opens the store of the current generation with `open`, again when a load committed while it
 * opened (its reader threads found another generation at once).
 */
export async function openCurrentGeneration<S extends Store>(open: () => Promise<GenerationStore<S>>): Promise<GenerationStore<S>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (!movedOn(error) || attempt >= 5) throw error;
    }
  }
}

/**
 * A store that answers each call from the current generation's store, opened by `open`, and
 * follows the generations that loads commit; `current()` is the generation's store answering now.
 */
export async function followGenerations<S extends Store>(own: OwnFile, open: () => Promise<GenerationStore<S>>): Promise<Store & { current(): S }> {
  let current: Generation<S>;
  try {
    current = { ...(await openCurrentGeneration(open)), users: 0, retired: false };
  } catch (error) {
    await own.close();
    throw error;
  }
  const generations = new Set<Generation<S>>([current]);
  const dataVersion = own.db.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  let switching: Promise<void> | undefined;
  const close = (generation: Generation<S>) => (generation.closed ??= generation.store.close());
  const retire = (generation: Generation<S>) => {
    generation.retired = true;
    if (generation.users === 0) close(generation);
  };
  const follow = async (): Promise<Generation<S>> => {
    const version = dataVersion.get();
    if (version !== seen && switching === undefined) {
      if (dataGeneration(own.db) === current.generation) seen = version;
      else {
        // Until it opens, every call waits for it; one that fails to open is tried again by the next call.
        switching = openCurrentGeneration(open)
          .then((next) => {
            retire(current);
            generations.add((current = { ...next, users: 0, retired: false }));
            seen = version;
          })
          .finally(() => (switching = undefined));
      }
    }
    if (switching) await switching;
    return current;
  };
  // Between calls too, so that the call after a load seldom waits for the new generation to open.
  const watch = setInterval(() => void follow().catch(() => {}), FOLLOW_EVERY_MS).unref();
  const call = async <T>(work: (store: S) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const generation = await follow();
      generation.users++;
      try {
        return await work(generation.store);
      } catch (error) {
        if (!movedOn(error)) throw error;
        if (attempt >= 3) throw new StoreUnavailableError('Loads committed new data three times while this call ran; retry it.', { cause: error });
      } finally {
        if (--generation.users === 0 && generation.retired) close(generation);
      }
    }
  };
  return {
    kind: current.store.kind,
    ledger: sqlLedger(own.connection, { closeConnection: false }),
    current: () => current.store,
    ping: async () => {
      await own.connection.all(raw('SELECT 1 AS one'));
      await call((store) => store.ping());
    },
    overview: (target, clock) => call((store) => store.overview(target, clock)),
    summary: (query) => call((store) => store.summary(query)),
    grouped: (operation, query) => call((store) => store.grouped(operation, query)),
    scoreProfile: (target) => call((store) => store.scoreProfile(target)),
    competitors: (query) => call((store) => store.competitors(query)),
    matrix: (query) => call((store) => store.matrix(query)),
    keywordMetrics: (query) => call((store) => store.keywordMetrics(query)),
    hasLinks: () => call((store) => store.hasLinks()),
    topTarget: () => call(async (store) => store.topTarget?.()),
    writer: () =>
      Promise.reject(new StoreError('read_only', `${own.file} is open for serving: load it through a store opened for loading (the import command), which may run beside this one.`)),
    close: async () => {
      clearInterval(watch);
      await switching?.catch(() => {});
      retire(current);
      // Each generation closes once its last call has ended.
      while ([...generations].some((generation) => generation.closed === undefined)) await new Promise((resolve) => setTimeout(resolve, 10));
      await Promise.all([...generations].map((generation) => generation.closed));
      await own.close();
    },
  };
}
