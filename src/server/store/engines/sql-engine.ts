/**
 * The engine table of a SQL database the shared queries run on as they are (`SQL_SOURCES`): one
 * place for every call, lists read whole with their totals from the rollup counters, competitors
 * and the matrix in SQL, loads through the shared upserts and the rollups refreshed by
 * `loads/rollups.ts`. SQLite and PostgreSQL take it and name only what differs (as sqlglot's
 * dialects merge their differences over the base generator's).
 *
 * @module
 * @internal
 */
import type { DomainParser } from '../../deps.js';
import type { SqlConnection } from '../connection.js';
import { createStore } from '../create-store.js';
import { sqlLedger } from '../ledger.js';
import type { Engine, ListPlan, LoadSink } from '../engine.js';
import { raw, sql } from '../fragment.js';
import { sqlRefresh } from '../loads/rollups.js';
import { refreshRollups } from '../loads/refresh.js';
import { upsertLinks, upsertSink, type LinksTable, type LinkSink } from '../loads/writer.js';
import { SQL_SOURCES, type ReadPlace } from '../reads/relations.js';
import type { Store } from '../store.js';

/** Options of `sqlEngine`. */
export interface SqlEngineOptions {
  /** The store's kind (default: the filter dialect's name). */
  readonly kind?: string;
  /** Answer from the rollups (default true). */
  readonly rollups?: boolean;
  /** Runs when the engine closes, after the connection (an engine's own handles). */
  readonly onClose?: () => Promise<void> | void;
}

/**
 * The engine of a SQL database over one connection, to be used as it is (`createSqlStore`) or as
 * the base an engine's table of differences is merged over.
 */
export function sqlEngine(connection: SqlConnection, options: SqlEngineOptions = {}): Engine {
  const here: ReadPlace = { connection, sources: SQL_SOURCES };
  const whole: ListPlan = { keys: here, totals: here, window: false };
  return {
    kind: options.kind ?? connection.dialect.filter,
    rollups: options.rollups !== false,
    at: () => here,
    across: () => here,
    list: () => whole,
    competitors: { kind: 'sql' },
    matrix: { kind: 'sql' },
    load: { begin: async () => sqlLoad(connection), linkedFrom: here },
    ping: async () => {
      await connection.all(sql`SELECT 1 AS one`);
    },
    close: async () => {
      await connection.close();
      await options.onClose?.();
    },
  };
}

/**
 * A load through the shared upserts over a connection, each batch its own transaction, the rollups
 * of the touched domains refreshed at the end; its links written to and read from `links`, or from
 * the table a load fills to put in its place (PostgreSQL's into an empty store).
 */
export function sqlLoad(connection: SqlConnection, fresh = false, links: LinksTable = 'links'): LoadSink {
  return {
    fresh,
    ...upsertSink(connection),
    links: upsertLinks(connection, links),
    finish: (domains, onProgress) => refreshRollups(sqlRefresh(connection, links), domains, onProgress),
  };
}

/** Whether the links table over a connection holds no link. */
export async function noLinks(connection: SqlConnection): Promise<boolean> {
  return (await connection.all(raw('SELECT 1 AS one FROM links LIMIT 1'))).length === 0;
}

/** Options of {@link createSqlStore}. */
export interface SqlStoreOptions extends SqlEngineOptions {
  /** The public-suffix parser the writer derives registrable domains with. */
  readonly parser: DomainParser;
  /** The engine's fast way to write links (default: multi-row upserts). */
  readonly writeLinks?: LinkSink;
}

/**
 * A {@link Store} answering from the shared SQL over a connection: the engine of
 * `sqlEngine`, assembled by `createStore`.
 *
 * @example
 * ```ts
 * const store = createSqlStore(connection, { parser: tldts });
 * ```
 */
export function createSqlStore(connection: SqlConnection, options: SqlStoreOptions): Store {
  const base = sqlEngine(connection, options);
  const writeLinks = options.writeLinks;
  const engine: Engine = writeLinks ? { ...base, load: { ...base.load, begin: async () => ({ ...sqlLoad(connection), links: writeLinks }) } } : base;
  return createStore(engine, { parser: options.parser, ledger: sqlLedger(connection, { closeConnection: false }) }, {});
}
