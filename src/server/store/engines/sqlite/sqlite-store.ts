/**
 * The SQLite store (better-sqlite3): the embedded default. Keeps only what is SQLite's own: opening
 * the file (WAL), migrations, the connection (worker threads for a file, the calling thread for
 * `:memory:`) and a fast bulk path; every query is the shared one (`reads/`, `loads/`).
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { loadStoreDeps, type DomainParser } from '../../../deps.js';
import { StoreError } from '../../errors.js';
import { LINK_COLUMNS, type LinkRow } from '../../inputs.js';
import { linkKey } from '../../inputs.js';
import type { SqlConnection } from '../../connection.js';
import { createStore } from '../../create-store.js';
import { dataGeneration, followGenerations } from './generations.js';
import { sqlLedger } from '../../ledger.js';
import type { Engine, LoadSink } from '../../engine.js';
import { sqlRefresh } from '../../loads/rollups.js';
import { refreshRollups } from '../../loads/refresh.js';
import { KEYWORD_COLUMNS, KEYWORD_KEY, upsertSink, type KeywordSink, type LinkSink } from '../../loads/writer.js';
import { SQL_SOURCES, type ReadPlace } from '../../reads/relations.js';
import type { Store } from '../../store.js';
import { sqlEngine } from '../sql-engine.js';
import { inThreadConnection, workerConnection, type WorkerConnectionOptions } from './connection.js';
import { migrate } from './schema.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions extends SqliteFileOptions {
  /** Answer from the rollups (default true); `false` groups the links on every call (tests). */
  readonly rollups?: boolean;
  /** The public-suffix parser (default: tldts). */
  readonly parser?: DomainParser;
  /**
   * A server's store: each call answers from one generation of the data, and a load another
   * process commits (`import`) is followed at the next call. Such a store has no writer.
   */
  readonly serving?: boolean;
}

/** Options of {@link openSqliteFile}. */
export interface SqliteFileOptions extends WorkerConnectionOptions {
  /** Database file; `:memory:` (the default) for a throwaway database. */
  readonly file?: string;
  /**
   * Answer queries on worker threads (default: true for a file, always false for `:memory:`).
   * Without workers every query runs on the calling thread.
   */
  readonly workers?: boolean;
  /**
   * The worker threads read the generation of the data current when the file is opened, and no
   * other (see `WorkerConnectionOptions.generation`): an embedded store's server. @internal
   */
  readonly oneGeneration?: boolean;
}

/** A {@link Store} on SQLite, with its database handle for bulk work and tests. */
export interface SqliteStore extends Store {
  /** The handle on the calling thread (migrations, bulk loads). */
  readonly db: Database;
  /** The connection queries run on. */
  readonly connection: SqlConnection;
}

/** A SQLite file opened and migrated: its handle, a connection on this thread, and the connection queries run on. */
export interface SqliteFile {
  readonly file: string;
  readonly db: Database;
  /** On the calling thread: loads write through it (no copying rows to a worker). */
  readonly local: SqlConnection;
  /** Worker threads for a file, else `local`. */
  readonly connection: SqlConnection;
  /** What `store_meta` says of the file's layout (`embedded`: the row file of an embedded store). */
  readonly layout: string | undefined;
  /** The generation of the data the worker threads read, with `oneGeneration`. */
  readonly generation: string | undefined;
  close(): Promise<void>;
}

/** Opens (creating when needed) a SQLite file in WAL mode and migrates it to the current schema. */
export async function openSqliteFile(options: SqliteFileOptions = {}): Promise<SqliteFile> {
  const { Database: open } = await loadStoreDeps();
  const file = options.file ?? ':memory:';
  const db = new open(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${options.lockTimeoutMs ?? 5_000}`);
  const before = migrate(db);
  const layout = (db.prepare(`SELECT value FROM store_meta WHERE key = 'layout'`).get() as { value: string } | undefined)?.value;
  const local = inThreadConnection(db);
  if (before === 1 && db.prepare('SELECT 1 FROM links LIMIT 1').get() !== undefined) await upgradeFromVersion1(db, local);
  const useWorkers = file !== ':memory:' && options.workers !== false;
  const generation = options.oneGeneration ? dataGeneration(db) : undefined;
  const connection = useWorkers ? await workerConnection(file, { ...options, generation }) : local;
  return {
    file,
    db,
    local,
    connection,
    layout,
    generation,
    close: async () => {
      await connection.close();
      if (db.open) db.close();
    },
  };
}

/**
 * Opens (creating when needed) a SQLite database and migrates it to the current schema.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ file: 'sample.db' });
 * await store.close();
 * ```
 */
export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<SqliteStore> {
  const parser = options.parser ?? (await loadStoreDeps()).tldts;
  const serving = options.serving === true && (options.file ?? ':memory:') !== ':memory:';
  const opened = await openSqliteFile(serving ? { ...options, readers: 1 } : options);
  if (opened.layout === 'embedded') {
    await opened.close();
    throw new StoreError(
      'wrong_layout',
      `${opened.file} is the row file of an embedded store (its list rollups live in ${opened.file}.duckdb): open it as an embedded store, not as a plain SQLite database.`,
    );
  }
  if (!serving) return assembleSqlite(opened, options, parser);
  // A server: `opened` keeps the keys and balances; each call reads one generation of the data.
  const store = await followGenerations(opened, async () => {
    const generation = await openSqliteFile({ ...options, oneGeneration: true });
    return { generation: generation.generation!, store: assembleSqlite(generation, options, parser) };
  });
  return Object.defineProperties(store, {
    db: { get: () => store.current().db },
    connection: { get: () => store.current().connection },
  }) as typeof store & Pick<SqliteStore, 'db' | 'connection'>;
}

const assembleSqlite = (opened: SqliteFile, options: SqliteStoreOptions, parser: DomainParser): SqliteStore =>
  createStore(sqliteEngine(opened, { rollups: options.rollups !== false }), { parser, ledger: sqlLedger(opened.connection, { closeConnection: false }) }, { db: opened.db, connection: opened.connection });

/**
 * SQLite's differences from the SQL engine: its file closes with the engine, and a load writes on
 * this thread in one transaction (see {@link sqliteLoad}).
 */
function sqliteEngine(opened: SqliteFile, options: { readonly rollups: boolean }): Engine {
  const base = sqlEngine(opened.connection, { kind: 'sqlite', rollups: options.rollups });
  const local: ReadPlace = { connection: opened.local, sources: SQL_SOURCES };
  return {
    ...base,
    load: { begin: () => sqliteLoad(opened.db, opened.local, (domains, onProgress) => refreshRollups(sqlRefresh(opened.local), domains, onProgress)), linkedFrom: local },
    close: () => opened.close(),
  };
}

/** A database of schema version 1 has links without identity and no rollups: fill both in. */
async function upgradeFromVersion1(db: Database, connection: SqlConnection): Promise<void> {
  const update = db.prepare('UPDATE links SET link_key = ? WHERE id = ?');
  const rows = db.prepare('SELECT id, source_url, target_url, anchor, image_url FROM links').iterate() as Iterable<{
    id: number;
    source_url: string;
    target_url: string;
    anchor: string;
    image_url: string;
  }>;
  db.transaction(() => {
    for (const row of rows) update.run(linkKey(row), row.id);
  })();
  await refreshRollups(sqlRefresh(connection), 'all');
}

/**
 * Links written with one prepared upsert per row, in one transaction per batch. A link stored
 * already with the same values is left alone (no write, its indexes untouched: a re-import of the
 * same file writes nothing), and only the registrable domains of links inserted or changed are
 * returned, whose rollups the load refreshes.
 */
function sqliteLinkSink(db: Database): LinkSink {
  const updates = LINK_COLUMNS.filter((c) => c !== 'link_key').map((c) => `${c} = excluded.${c}`);
  const differs = LINK_COLUMNS.filter((c) => c !== 'link_key').map((c) => `links.${c} IS NOT excluded.${c}`);
  let statement: ReturnType<Database['prepare']> | undefined;
  return async (rows: readonly LinkRow[]) => {
    statement ??= db.prepare(
      `INSERT INTO links (${LINK_COLUMNS.join(', ')}) VALUES (${LINK_COLUMNS.map(() => '?').join(', ')})
       ON CONFLICT (link_key) DO UPDATE SET ${updates.join(', ')} WHERE ${differs.join(' OR ')}`,
    );
    const insert = statement;
    const changed = new Set<string>();
    db.transaction(() => {
      for (const row of rows) {
        if (insert.run(row.values.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value))).changes > 0) changed.add(row.targetDomain);
      }
    })();
    return changed;
  };
}

/**
 * Keyword snapshots written with one prepared upsert per row, in one transaction per batch: the
 * shared multi-row upsert's building of statements of hundreds of rows (and its pass over the keys)
 * costs more than SQLite's per-statement overhead on this thread. A later row of a key replaces the
 * earlier, as in the shared upsert.
 */
function sqliteKeywordSink(db: Database): KeywordSink {
  const updates = KEYWORD_COLUMNS.filter((c) => !(KEYWORD_KEY as readonly string[]).includes(c)).map((c) => `${c} = excluded.${c}`);
  let statement: ReturnType<Database['prepare']> | undefined;
  return async (rows) => {
    statement ??= db.prepare(
      `INSERT INTO keyword_metrics (${KEYWORD_COLUMNS.join(', ')}) VALUES (${KEYWORD_COLUMNS.map(() => '?').join(', ')})
       ON CONFLICT (${KEYWORD_KEY.join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
    );
    const insert = statement;
    db.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
  };
}

/**
 * A load on SQLite: one transaction from its start to the end of `finish` (holding SQLite's write
 * lock), so that a load that stops before then leaves the database as it was. Into an empty links
 * table, the secondary indexes and the rollups are dropped first (in the transaction) and built
 * once at the end; the page cache is enlarged and fsync is off until the commit. `refresh` brings
 * the rollups up to date in the transaction (the column side, or the shared refresh). Why:
 * docs/design-store.md, "Exact under import and re-import" and "Measurements behind the store's code".
 */
export async function sqliteLoad(db: Database, local: SqlConnection, refresh: LoadSink['finish'], cacheKib = 1024 * 1024): Promise<LoadSink> {
  const synchronous = db.pragma('synchronous', { simple: true });
  db.pragma(`cache_size = -${cacheKib}`);
  // A memory map of 256 MiB, not the whole file: its pages count in the load's resident memory,
  // which would then grow with the file (docs/design-import.md, "Memory").
  db.pragma(`mmap_size = ${256 * 1024 ** 2}`);
  db.pragma('synchronous = OFF');
  // Sorts (index builds, ORDER BY) on worker threads of SQLite's own as well.
  db.pragma(`threads = ${Math.min(4, availableParallelism())}`);
  // IMMEDIATE: the write lock now, so that a load never starts while another process writes.
  db.exec('BEGIN IMMEDIATE');
  const fresh = db.prepare('SELECT 1 FROM links LIMIT 1').get() === undefined;
  const indexes = fresh
    ? (db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND (tbl_name = 'links' OR tbl_name LIKE 'r\\_%' ESCAPE '\\') AND sql IS NOT NULL AND name <> 'links_identity'`)
        .all() as { name: string; sql: string }[])
    : [];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  const shared = upsertSink(local);
  return {
    fresh,
    recorded: shared.recorded,
    domains: shared.domains,
    pages: shared.pages,
    links: sqliteLinkSink(db),
    keywords: sqliteKeywordSink(db),
    finish: async (domains, onProgress) => {
      try {
        // The data's next generation, committed with it: a server reading the file in another
        // process moves to it (`generations.ts`).
        db.prepare(`INSERT INTO store_meta (key, value) VALUES ('columns_generation', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
          String(Number(dataGeneration(db)) + 1),
        );
        for (const index of indexes) if (!index.name.startsWith('r_')) db.exec(index.sql);
        await refresh(domains, onProgress);
        for (const index of indexes) if (index.name.startsWith('r_')) db.exec(index.sql);
        db.exec('COMMIT');
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        db.pragma(`synchronous = ${Number(synchronous)}`);
      }
      db.pragma('optimize');
    },
  };
}
