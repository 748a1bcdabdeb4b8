/**
 * Builds the server on the fixture dataset, as fastify/demo's `build(t)` does, on the store the run
 * is for: the embedded store by default (the `server-embedded` vitest project, and every other file
 * that builds a server; a fresh temporary SQLite file and its DuckDB column file,
 * so queries run on the worker threads as in production), the SQLite store alone when
 * `BQ_SERVER_STORE=sqlite` (the `server-sqlite` vitest project), PostgreSQL when
 * `BQ_SERVER_STORE=postgres` (a fresh database on the test server; the `server-postgres`
 * project), and ClickHouse when `BQ_SERVER_STORE=clickhouse` (a fresh database on the two-shard
 * test cluster, keys in a SQLite ledger; the `server-clickhouse` project). Every server test runs
 * on each.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { loadServerDeps } from '../../../src/server/deps.js';
import { createServer, type ServerOptions } from '../../../src/server/server.js';
import type { ClickhouseStore } from '../../../src/server/store/engines/clickhouse/clickhouse-store.js';
import type { EmbeddedStore } from '../../../src/server/store/engines/embedded/embedded-store.js';
import type { SqlConnection } from '../../../src/server/store/connection.js';
import { raw } from '../../../src/server/store/fragment.js';
import { openSqliteStore } from '../../../src/server/store/engines/sqlite/sqlite-store.js';
import type { Store } from '../../../src/server/store/store.js';
import { fileTempDir, onFileEnd } from '../../helpers/file-end.js';
import * as fx from './fixture.js';
import { loadFixture } from './fixture.js';

export { loadFixture };
import { freshPostgresDatabase } from './postgres-database.js';

export const BASE = '/_api/apis/v4/backlinks/v1';
export const AUTH = { authorization: `Apikey ${fx.KEYS[0].key}` };

/** The store the server suite runs on in this run. */
export const STORE_KIND: 'embedded' | 'sqlite' | 'postgres' | 'clickhouse' = (() => {
  const kind = process.env['BQ_SERVER_STORE'] ?? 'embedded';
  if (kind === 'embedded' || kind === 'sqlite' || kind === 'postgres' || kind === 'clickhouse') return kind;
  throw new Error(`BQ_SERVER_STORE=${kind}: expected embedded, sqlite, postgres or clickhouse.`);
})();

/** A store with the connection its queries run on (to break it on purpose in tests). */
export type TestStore = Store & { readonly connection: SqlConnection };

/** The folder of this file's SQLite files, made on its first store and removed at its end. */
const storeFolder = fileTempDir('bq-server-store-');

/** A new, empty store of this run's kind. */
export async function emptyStore(): Promise<TestStore> {
  if (STORE_KIND === 'postgres') {
    const { openPostgresStore } = await import('../../../src/server/store/engines/postgres/postgres-store.js');
    const { tldts } = await loadServerDeps();
    return openPostgresStore({ url: await freshPostgresDatabase(inject('postgresUrl'), 'server'), parser: tldts });
  }
  const dir = storeFolder();
  if (STORE_KIND === 'clickhouse') {
    const { openClickhouseStore } = await import('../../../src/server/store/engines/clickhouse/clickhouse-store.js');
    const { tldts } = await loadServerDeps();
    const { openLedgerAt } = await import('../../../src/server/store/open.js');
    const ledger = await openLedgerAt({ kind: 'sqlite', file: join(dir, `ledger-${Math.random().toString(36).slice(2)}.db`) });
    // Two rows kept per list: the suites' small targets read their first pages from kept rows too;
    // domains of more than two links spread over both shards.
    return openClickhouseStore({ urls: clickhouseCluster(), database: freshClickhouseDatabase(), parser: tldts, ledger, keepRows: 2, spreadAbove: 2 });
  }
  const file = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  if (STORE_KIND === 'sqlite') return openSqliteStore({ file, readers: 2 });
  const { openEmbeddedStore } = await import('../../../src/server/store/engines/embedded/embedded-store.js');
  return openEmbeddedStore({ file, readers: 2 });
}

/** The shard URLs of the test cluster, or a loud failure. */
function clickhouseCluster(): string[] {
  const urls = inject('clickhouseClusterUrl');
  if (!urls) throw new Error('clickhouseClusterUrl was not provided: the global setup started no ClickHouse cluster for this run (see test/setup/engine-selection.ts).');
  return urls.split(',');
}

/** A new database name on the cluster, dropped on every shard when the file's tests end. */
function freshClickhouseDatabase(): string {
  const name = `bq_server_${Math.random().toString(36).slice(2, 10)}`;
  onFileEnd(async () => {
    for (const url of clickhouseCluster()) {
      const response = await fetch(`${url}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${name}` });
      if (!response.ok) throw new Error(`DROP DATABASE ${name} on ${url}: ${response.status} ${await response.text()}`);
    }
  });
  return name;
}

/** Breaks the store on purpose: drops the table the links list reads (on every shard of a cluster). */
export async function dropLinksTable(store: TestStore): Promise<void> {
  if (STORE_KIND === 'clickhouse') {
    for (const shard of (store as ClickhouseStore).shards) await shard.run(raw('DROP TABLE links_local'));
    return;
  }
  // On the embedded store, SQLite's links alone: the column file is read-only outside a load, and an
  // unfiltered links page reads its keys from SQLite's index.
  await store.connection.transaction([raw('DROP TABLE links')]);
}

/** A store holding the fixture. */
export async function fixtureStore(): Promise<TestStore> {
  const store = await emptyStore();
  await loadFixture(store);
  return store;
}

/** The server on a fresh fixture store; high rate limits unless given. */
export async function build(options: Partial<ServerOptions> = {}): Promise<{ app: FastifyInstance; store: TestStore }> {
  const store = await fixtureStore();
  const app = await createServer({
    store,
    keys: fx.KEYS,
    now: () => fx.NOW,
    rateLimits: { perSecond: 1_000_000, concurrent: 1_000_000 },
    ...options,
  });
  return { app, store };
}

/** GET with the test key. */
export async function get(app: FastifyInstance, path: string, query: Record<string, string> = {}, headers: Record<string, string> = AUTH) {
  return app.inject({ method: 'GET', url: path.startsWith('/') ? path : `${BASE}/${path}`, query, headers });
}

/** A store whose calls can be held in flight: see {@link gatedFixtureStore}. */
export interface GatedStore {
  /** The real store underneath (its balance, its close). */
  readonly real: TestStore;
  /** The store to serve: the real one, with `method` waiting at the gate. */
  readonly store: Store;
  /** Resolves once a call has reached the gate: it is provably in flight. */
  readonly inside: Promise<void>;
  /** Opens the gate. */
  release(): void;
}

/**
 * The fixture store, whose `overview`, `grouped` or ledger's `charge` waits at a gate the test opens, so
 * a request (or the write of its charge) can be held in flight (shutdown, a client going away).
 *
 * @example
 * ```ts
 * const { store, inside, release } = await gatedFixtureStore('overview');
 * ```
 */
export async function gatedFixtureStore(method: 'overview' | 'grouped' | 'charge'): Promise<GatedStore> {
  const real = await fixtureStore();
  let entered!: () => void;
  let release!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store: Store =
    method === 'overview'
      ? { ...real, overview: async (target, clock) => (entered(), await gate, real.overview(target, clock)) }
      : method === 'grouped'
        ? { ...real, grouped: async (operation, query) => (entered(), await gate, real.grouped(operation, query)) }
        : // The charge's write waits before it is taken.
          { ...real, ledger: { ...real.ledger, charge: async (keyId, units) => (entered(), await gate, real.ledger.charge(keyId, units)) } };
  return { real, store, inside, release };
}
