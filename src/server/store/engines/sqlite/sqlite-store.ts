/**
 * The SQLite store (better-sqlite3): the embedded default. Keeps only what is SQLite's own: opening
 * the file (WAL), migrations, the connection (worker threads for a file, the calling thread for
 * `:memory:`) and a fast bulk path; every query is the shared one (`../sql/`).
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { loadStoreDeps, type DomainParser } from '../../../deps.js';
import { StoreError } from '../../errors.js';
import { LINK_COLUMNS, type LinkRow } from '../../inputs.js';
import { linkKey } from '../../shared.js';
import type { SqlConnection } from '../../connection.js';
import { refreshRollups } from '../../loads/rollups.js';
import { createSqlStore } from '../../reads/reads.js';
import { KEYWORD_COLUMNS, KEYWORD_KEY, type KeywordSink, type LinkSink, type RefreshOptions } from '../../loads/writer.js';
import type { GraphWriter, LoadStats, Store } from '../../store.js';
import { inThreadConnection, workerConnection, type WorkerConnectionOptions } from './connection.js';
import { migrate } from './schema.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions extends WorkerConnectionOptions {
  /** Database file; `:memory:` (the default) for a throwaway database. */
  readonly file?: string;
  /**
   * Answer queries on worker threads (default: true for a file, always false for `:memory:`).
   * Without workers every query runs on the calling thread.
   */
  readonly workers?: boolean;
  /** Answer from the rollups (default true); `false` groups the links on every call (tests). */
  readonly rollups?: boolean;
  /** The public-suffix parser (default: tldts). */
  readonly parser?: DomainParser;
  /**
   * The layout the caller reads the file with: `'embedded'` for the row file of the embedded store
   * (its list rollups live in the column file). A plain SQLite store refuses an embedded file. @internal
   */
  readonly layout?: 'embedded';
  /** How a load refreshes rollups kept elsewhere (the embedded store's column side). @internal */
  readonly refresh?: RefreshOptions;
}

/** A {@link Store} on SQLite, with its database handle for bulk work and tests. */
export interface SqliteStore extends Store {
  /** The handle on the calling thread (migrations, bulk loads). */
  readonly db: Database;
  /** The connection queries run on. */
  readonly connection: SqlConnection;
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
  const { Database: open, tldts } = await loadStoreDeps();
  const file = options.file ?? ':memory:';
  const parser = options.parser ?? tldts;
  const db = new open(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${options.lockTimeoutMs ?? 5_000}`);
  const before = migrate(db);
  const layout = (db.prepare(`SELECT value FROM store_meta WHERE key = 'layout'`).get() as { value: string } | undefined)?.value;
  if (layout === 'embedded' && options.layout !== 'embedded') {
    db.close();
    throw new StoreError(
      'wrong_layout',
      `${file} is the row file of an embedded store (its list rollups live in ${file}.duckdb): open it as an embedded store, not as a plain SQLite database.`,
    );
  }
  const local = inThreadConnection(db);
  if (before === 1 && db.prepare('SELECT 1 FROM links LIMIT 1').get() !== undefined) await upgradeFromVersion1(db, local);
  const useWorkers = file !== ':memory:' && options.workers !== false;
  const connection = useWorkers ? await workerConnection(file, options) : local;
  const store = createSqlStore(connection, {
    parser,
    writeLinks: sqliteLinkSink(db),
    writeKeywords: sqliteKeywordSink(db),
    ...(options.rollups === undefined ? {} : { rollups: options.rollups }),
    onClose: () => {
      if (db.open) db.close();
    },
  });
  // Bulk writes go through the handle on this thread: no copying rows to a worker.
  const bulk = createSqlStore(local, { parser, writeLinks: sqliteLinkSink(db), writeKeywords: sqliteKeywordSink(db), ...(options.refresh ? { refresh: options.refresh } : {}) });
  return { ...store, db, connection, writer: () => bulkWriter(db, bulk) };
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
  await refreshRollups(connection, 'all');
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
 * The writer of a bulk load: one transaction from its start to the end of `finish`, so that a load
 * that stops before then (an error, SIGINT, SIGTERM, SIGKILL) leaves the database as
 * it was before it: SQLite rolls the transaction back (its WAL frames are never committed), and
 * nothing of the load shows. Other connections see the data as it was until the commit; a
 * writer's transaction holds SQLite's write lock, so another process's writes wait for the load.
 *
 * Into an empty links table, the secondary indexes of the links and the rollups are dropped first
 * (in the transaction, so that an interrupted load leaves them there) and built once at the end
 * (several times faster than maintaining them row by row), and the rollups are built from scratch;
 * the page cache is enlarged and fsync is off until the commit.
 */
async function bulkWriter(db: Database, bulk: Store): Promise<GraphWriter> {
  const writer = await bulk.writer();
  const synchronous = db.pragma('synchronous', { simple: true });
  db.pragma('cache_size = -1048576');
  // A memory map of 256 MiB, not the whole file: its pages count in the load's resident memory,
  // which would then grow with the file (2M links: 6.9 GB peak with DuckDB's limit at half the
  // machine, 4.0 GB with this and DuckDB's load limit, no slower).
  db.pragma(`mmap_size = ${256 * 1024 ** 2}`);
  db.pragma('synchronous = OFF');
  // IMMEDIATE: the write lock now, so that a load never starts while another process writes.
  const begin = () => {
    if (!db.inTransaction) db.exec('BEGIN IMMEDIATE');
  };
  // Sorts (index builds, ORDER BY) on worker threads of SQLite's own as well.
  db.pragma(`threads = ${Math.min(4, availableParallelism())}`);
  begin();
  const empty = db.prepare('SELECT 1 FROM links LIMIT 1').get() === undefined;
  const indexes = empty
    ? (db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND (tbl_name = 'links' OR tbl_name LIKE 'r\\_%' ESCAPE '\\') AND sql IS NOT NULL AND name <> 'links_identity'`)
        .all() as {
        name: string;
        sql: string;
      }[])
    : [];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  // Each write joins the load's transaction (begun again after a finish, for a writer used again).
  const within =
    <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      begin();
      await write(...args);
    };
  return {
    domains: within(writer.domains),
    pages: within(writer.pages),
    links: within(writer.links),
    keywords: within(writer.keywords),
    finish: async (options = {}) => {
      begin();
      let stats: LoadStats;
      try {
        const links = indexes.filter((index) => !index.name.startsWith('r_'));
        for (const index of links) db.exec(index.sql);
        stats = await writer.finish({ ...options, all: options.all ?? empty });
        for (const index of indexes) if (index.name.startsWith('r_')) db.exec(index.sql);
        indexes.length = 0;
        db.exec('COMMIT');
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        db.pragma(`synchronous = ${Number(synchronous)}`);
      }
      db.pragma('optimize');
      return stats;
    },
  };
}
