/**
 * The PostgreSQL store (pg): for servers that share one database, or outgrow one file. Keeps
 * only what is PostgreSQL's own: the pool, the migrations and the COPY bulk path; every query is
 * the shared one (`../sql/`).
 *
 * Two pools: requests run on the main pool, whose statements are bounded by `statementTimeoutMs`
 * (a slow query answers 503 rather than holding a connection), and the bulk writer runs on a
 * small second pool without a statement timeout, because a COPY of a large batch or a rollup
 * rebuild after a load legitimately takes longer than any request should. Migrations run there
 * too (they may wait for another server's).
 *
 * @module
 */
import type { DomainParser } from '../../deps.js';
import { raw } from '../sql/fragment.js';
import { ROLLUP_TABLES } from '../sql/rollups.js';
import { createSqlStore } from '../sql/sql-store.js';
import type { GraphWriter, Store } from '../store.js';
import { openPostgresConnection, type PostgresConnection } from './connection.js';
import { copyLinkSink } from './copy.js';
import { migrate } from './schema.js';

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
}

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
  });
  const bulk = await openPostgresConnection({ ...common, poolSize: 2, statementTimeoutMs: 0, lockTimeoutMs: 0, applicationName: 'backlink-query bulk' });
  try {
    await migrate(bulk);
  } catch (error) {
    await Promise.allSettled([connection.close(), bulk.close()]);
    throw error;
  }
  const writeLinks = options.copy === false ? {} : { writeLinks: copyLinkSink(bulk) };
  const store = createSqlStore(connection, {
    parser: options.parser,
    ...writeLinks,
    ...(options.rollups === undefined ? {} : { rollups: options.rollups }),
    onClose: () => bulk.close(),
  });
  const bulkStore = createSqlStore(bulk, { parser: options.parser, ...writeLinks });
  return { ...store, connection, writer: () => bulkWriter(bulk, bulkStore) };
}

/**
 * The writer of a load, on the bulk pool. Into an empty links table the rollups are rebuilt from
 * scratch at the end (`finish({ all: true })`: no per-domain deletes), and the planner's
 * statistics are refreshed after a load that rebuilt everything, so the first requests after it
 * get good plans.
 */
async function bulkWriter(bulk: PostgresConnection, store: Store): Promise<GraphWriter> {
  const writer = await store.writer();
  const empty = !(await store.hasLinks());
  return {
    ...writer,
    finish: async (options = {}) => {
      const all = options.all ?? empty;
      const stats = await writer.finish({ ...options, all });
      if (all) await bulk.all(raw(`ANALYZE links, domains, target_pages, ${ROLLUP_TABLES.join(', ')}`));
      return stats;
    },
  };
}
