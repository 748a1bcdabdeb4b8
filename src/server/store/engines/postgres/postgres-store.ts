/**
 * The PostgreSQL store (pg): for servers that share one database, or outgrow one file. Keeps
 * only what is PostgreSQL's own: the pool, the migrations and the COPY bulk path; every query is
 * the shared one (`reads/`, `loads/`).
 *
 * Two pools: requests run on the main pool, whose statements are bounded by `statementTimeoutMs`
 * (a slow query answers 503 rather than holding a connection), and the bulk writer runs on a
 * small second pool without a statement timeout, because a COPY of a large batch or a rollup
 * rebuild after a load legitimately takes longer than any request should. Migrations run there
 * too (they may wait for another server's).
 *
 * A target's links are clustered and covered by two indexes; a filtered or re-sorted links list
 * reads its page's keys first (docs/design-store.md, "PostgreSQL: its links clustered, its counts
 * from covering indexes").
 *
 * @module
 */
import type { DomainParser } from '../../../deps.js';
import { createStore } from '../../create-store.js';
import { sqlLedger } from '../../ledger.js';
import type { Engine, ListPlan, LoadSink } from '../../engine.js';
import { raw, sql } from '../../fragment.js';
import { SQL_SOURCES, type ReadPlace } from '../../reads/relations.js';
import { ROLLUP_TABLES } from '../../loads/rollups.js';
import { upsertLinks, type LinkSink, type LinksTable } from '../../loads/writer.js';
import type { Store } from '../../store.js';
import type { Target } from '../../../target.js';
import { noLinks, sqlEngine, sqlLoad } from '../sql-engine.js';
import { beginTransaction, openPostgresConnection, type PostgresConnection, type PostgresTransaction } from './connection.js';
import { copyLinkSink } from './copy.js';
import { buildNextLinks, createNextLinks, migrate, NEXT_LINKS, restoreLinkIndexes, swapInNextLinks, type NextLinks } from './schema.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` */
  readonly url: string;
  /** The public-suffix parser the writer derives registrable domains with (tldts). */
  readonly parser: DomainParser;
  /** Connections of the request pool (default 10). */
  readonly poolSize?: number;
  /** How long one request statement may run (default 5,000 ms); past it the call rejects with `StoreUnavailableError`. */
  readonly statementTimeoutMs?: number;
  /** How long a request statement waits for a lock (default 2,000 ms). */
  readonly lockTimeoutMs?: number;
  /** How long to wait for a connection (default 5,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Answer from the rollups (default true); `false` groups the links on every call (tests). */
  readonly rollups?: boolean;
  /** Write links with COPY (default true); `false` uses the shared multi-row upsert. */
  readonly copy?: boolean;
  /** Told about errors of idle connections (default: ignored; the pool replaces them). */
  readonly onError?: (error: Error) => void;
  /**
   * Parallel workers one request statement may start (PostgreSQL's `max_parallel_workers_per_gather`;
   * default 0: each statement runs in its own backend alone). The URL's own
   * `options=-c max_parallel_workers_per_gather=N` overrides it. See "PostgreSQL: one core per
   * statement" in docs/server.md for what the default trades.
   */
  readonly parallelWorkers?: number;
  /**
   * Answer each call from one snapshot (default true): its reads run in one `REPEATABLE READ READ
   * ONLY` transaction, so that a list's count and its page are of the same data even when a load
   * commits between them; `false` runs each read on a client of its own (tests and benches compare the two).
   */
  readonly snapshotPerCall?: boolean;
}

/**
 * Settings of the bulk pool's sessions. Its commits are synchronous even on a server whose default
 * is not, so that the VACUUM right after a load's last commit can mark its pages all-visible (see
 * {@link vacuumLinks}); on the default `synchronous_commit = on` nothing changes.
 */
const BULK_SETTINGS: Readonly<Record<string, string>> = { synchronous_commit: 'on' };

/** A {@link Store} on PostgreSQL, with the connection its queries run on. */
export interface PostgresStore extends Store {
  /** The request connection (pool). */
  readonly connection: PostgresConnection;
}

/**
 * Connects to a PostgreSQL database and migrates it to the current schema.
 *
 * @example
 * ```ts
 * import * as tldts from 'tldts';
 * const store = await openPostgresStore({ url: 'postgres://localhost/links', parser: tldts });
 * await store.close();
 * ```
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const parallelWorkers = options.parallelWorkers ?? 0;
  if (!Number.isSafeInteger(parallelWorkers) || parallelWorkers < 0) throw new TypeError(`parallelWorkers takes a whole number from 0, got ${String(options.parallelWorkers)}.`);
  const common = {
    url: options.url,
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
  const connection = await openPostgresConnection({
    ...common,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
    defaultSettings: { max_parallel_workers_per_gather: String(parallelWorkers) },
    snapshotPerCall: options.snapshotPerCall !== false,
  });
  const bulk = await openPostgresConnection({ ...common, poolSize: 2, statementTimeoutMs: 0, lockTimeoutMs: 0, applicationName: 'backlink-query bulk', settings: BULK_SETTINGS });
  try {
    await migrate(bulk);
    // Indexes a load of an earlier version into an empty store dropped and did not build again (it stopped half way).
    await restoreLinkIndexes(bulk);
  } catch (error) {
    await Promise.allSettled([connection.close(), bulk.close()]);
    throw error;
  }
  const engine = postgresEngine(connection, bulk, { rollups: options.rollups !== false, copy: options.copy !== false });
  return createStore(engine, { parser: options.parser, ledger: sqlLedger(connection, { closeConnection: false }) }, { connection });
}

/**
 * PostgreSQL's differences from the SQL engine: a links list other than the unfiltered default
 * order is read keys first (the page's ids, in order, from the narrowest path the planner finds:
 * an index-only scan of a covering index when the filter and the order name only non-text fields,
 * else the target's clustered range; then the page's rows by id, so a sort carries ids and the
 * order's column, not whole rows); loads run on the bulk pool (see {@link postgresLoad}); the bulk
 * pool closes with the engine.
 */
function postgresEngine(connection: PostgresConnection, bulk: PostgresConnection, options: { readonly rollups: boolean; readonly copy: boolean }): Engine {
  const base = sqlEngine(connection, { kind: 'postgres', rollups: options.rollups, onClose: () => bulk.close() });
  const here: ReadPlace = { connection, sources: SQL_SOURCES };
  const whole: ListPlan = { keys: here, totals: here, window: false };
  const linksOfIds = (_target: Target, ids: readonly unknown[]) => sql`(SELECT * FROM links WHERE id = ANY (${ids.map(Number)}::bigint[])) l`;
  const keysFirst: ListPlan = { keys: here, rows: { kind: 'links-by-id', at: here, linksOfIds }, totals: here, window: false };
  const onBulk: ReadPlace = { connection: bulk, sources: SQL_SOURCES };
  // Loads begun and not yet committed: closing the engine rolls them back.
  const open = new Set<PostgresTransaction>();
  return {
    ...base,
    // Unfiltered in the default order (page score, descending), the links list reads the first rows of `links_by_domain` and stops.
    list: (operation, query) =>
      operation === 'links' && options.rollups && !(query.filter === null && query.page.orderBy === 'page_score' && query.page.direction === 'DESC') ? keysFirst : whole,
    load: { begin: () => postgresLoad(bulk, options.copy, open), linkedFrom: onBulk },
    close: async () => {
      await Promise.allSettled([...open].map((load) => load.rollback()));
      await base.close();
    },
  };
}

/**
 * The key of the advisory lock a load holds until it ends (`pg_advisory_xact_lock`): one load at
 * a time on a database; a second waits for the first to commit or roll back.
 */
const LOAD_LOCK = 0x62716c64;

/**
 * The writer of a load: one transaction on a client of the bulk pool, from its start to its commit
 * at the end of `finish`, so that readers see the data as it was until the commit, then all of the
 * load, and a load that stops before then leaves nothing (see {@link beginTransaction}). It takes
 * {@link LOAD_LOCK} first. Into an empty links table, the links go to a new table made in the
 * transaction ({@link NEXT_LINKS}, with the primary and identity keys only): at the end its
 * secondary indexes are built, the table is clustered by target, the rollups are rebuilt from
 * scratch from it, and as the last step before the commit it takes the place of `links`
 * ({@link swapInNextLinks}); readers of the empty `links` wait only for that step and the commit.
 * A later load keeps the indexes and appends. The links are analyzed before the rollups are read
 * from them, and vacuumed after the commit, so that index-only scans need no heap visits. Why:
 * docs/design-store.md, "PostgreSQL: its links clustered, its counts from covering indexes".
 */
async function postgresLoad(bulk: PostgresConnection, copy: boolean, open: Set<PostgresTransaction>): Promise<LoadSink> {
  const load = await beginTransaction(bulk);
  open.add(load);
  const ended = async (how: 'commit' | 'rollback') => {
    open.delete(load);
    await load[how]();
  };
  try {
    const tx = load.connection;
    await tx.all(sql`SELECT 1 AS one FROM pg_advisory_xact_lock(${LOAD_LOCK})`);
    const fresh = await noLinks(tx);
    const shared = sqlLoad(tx, fresh);
    // Where the links go, chosen once, by the first batch: a new table when the store is empty.
    let into: LinksTable = 'links';
    let next: NextLinks | undefined;
    let writer: Promise<LinkSink> | undefined;
    const writeLinks = async (): Promise<LinkSink> => {
      if (fresh) {
        next = await tx.withClient(createNextLinks);
        into = NEXT_LINKS;
      }
      return copy ? copyLinkSink(tx, into) : upsertLinks(tx, into);
    };
    return {
      ...shared,
      links: async (rows) => (await (writer ??= writeLinks()))(rows),
      finish: async (domains, onProgress) => {
        try {
          const made = next;
          if (made) await tx.withClient((client) => buildNextLinks(client, made));
          // Before the rollups are read from the links: their reads, too, want the new statistics.
          await tx.all(raw(`ANALYZE ${into}`));
          await sqlLoad(tx, fresh, into).finish(domains, onProgress);
          if (made) await tx.withClient((client) => swapInNextLinks(client, made));
        } catch (error) {
          await ended('rollback');
          throw error;
        }
        await ended('commit');
        await vacuumLinks(bulk);
        if (domains === 'all') await bulk.all(raw(`ANALYZE domains, target_pages, ${ROLLUP_TABLES.join(', ')}`));
      },
    };
  } catch (error) {
    await ended('rollback');
    throw error;
  }
}

/**
 * `VACUUM (ANALYZE) links`: marks the pages whose rows every transaction sees as all-visible (an
 * index-only scan then skips them in the heap) and refreshes the planner's statistics. VACUUM can
 * mark a page only once the commits of its rows are flushed to the WAL (PostgreSQL sets their hint
 * bits only then; an asynchronous commit is flushed up to 200 ms later, or later still when a
 * commit without WAL of its own shares its status page): hence {@link BULK_SETTINGS}.
 */
async function vacuumLinks(bulk: PostgresConnection): Promise<void> {
  await bulk.all(raw('VACUUM (ANALYZE) links'));
}
