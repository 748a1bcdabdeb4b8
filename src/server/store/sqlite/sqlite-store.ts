/**
 * The SQLite store (better-sqlite3): the embedded default. Opens or creates the database file,
 * applies migrations and answers the store interface.
 *
 * @module
 */
import type { Database } from 'better-sqlite3';
import { operations } from '../../../catalogue/operations.js';
import type { RowOf } from '../../../catalogue/types.js';
import { loadServerDeps } from '../../deps.js';
import type { Clock, GroupedOperation, GroupedQuery, Store } from '../store.js';
import { filterCondition } from './filter-sql.js';
import { competitors, matrix, scoreProfile } from './graph-sql.js';
import { groupedRows } from './grouped-sql.js';
import { history } from './history-sql.js';
import { balance, charge, storedKeys, upsertKeys } from './keys-sql.js';
import { keywordMetrics } from './keyword-sql.js';
import { overview } from './overview-sql.js';
import { toRecord } from './rows.js';
import { runList } from './run-list.js';
import { migrate } from './schema.js';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /** Database file; `:memory:` (the default) for a throwaway database. */
  readonly file?: string;
  readonly readonly?: boolean;
}

/** A {@link Store} on SQLite, with its database handle for seeding and tests. */
export interface SqliteStore extends Store {
  readonly db: Database;
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
  const { Database: open } = await loadServerDeps();
  const db = new open(options.file ?? ':memory:');
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return createSqliteStore(db);
}

/**
 * Wraps an open, migrated better-sqlite3 database as a store.
 *
 * @example
 * ```ts
 * const store = createSqliteStore(db);
 * ```
 */
export function createSqliteStore(db: Database): SqliteStore {
  return {
    db,
    overview: async (target, clock) => overview(db, target, clock),
    summary: async (query) => history(db, query),
    grouped: async <Op extends GroupedOperation>(operation: Op, query: GroupedQuery) => grouped(db, operation, query),
    scoreProfile: async (target) => scoreProfile(db, target),
    competitors: async (query) => competitors(db, query),
    matrix: async (query) => matrix(db, query),
    keywordMetrics: async (query) => keywordMetrics(db, query),
    upsertKeys: async (keys) => upsertKeys(db, keys),
    keys: async () => storedKeys(db),
    charge: async (keyId, units) => charge(db, keyId, units),
    balance: async (keyId) => balance(db, keyId),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

function grouped<Op extends GroupedOperation>(db: Database, operation: Op, query: GroupedQuery): { rows: RowOf<Op>[]; total: number } {
  const clock: Clock = query.clock;
  const rows = groupedRows(operation, query.target, clock);
  const result = runList(db, rows, filterCondition(query.filter, operation), query.page);
  const record = operations[operation].record;
  return { total: result.total, rows: result.rows.map((row) => toRecord<RowOf<Op>>(row, record)) };
}
